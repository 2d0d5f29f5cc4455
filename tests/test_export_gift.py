"""GIFT export, read back by pygiftparser (a registry package that parses GIFT) and
compared question by question with the bank."""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from lessonkit.export import gift
from lessonkit.export.common import Source, plain_text
from lessonkit.questiontypes.base import RuntimeQuestion as Question
from lessonkit.questiontypes.match import Match as MatchQuestion
from lessonkit.questiontypes.multiple import Multiple as MultipleQuestion
from lessonkit.questiontypes.numeric import Numeric as NumericQuestion
from lessonkit.questiontypes.options import ChoiceQuestion
from lessonkit.questiontypes.order import Order as OrderQuestion
from lessonkit.questiontypes.text import Text as TextQuestion
from lessonkit.questiontypes.truefalse import TrueFalse as TrueFalseQuestion
from test_export_common import every_type, exported, hostile, real_bank

with warnings.catch_warnings():
    # pygiftparser (2017) calls locale.getdefaultlocale(), deprecated since Python 3.11.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pygiftparser import parser as giftparser
    from pygiftparser.utils import transformSpecials


def unescape(text: str) -> str:
    # pygiftparser unescapes `~ = # { } :` but leaves `\\` as written; Moodle reads it as `\`.
    return transformSpecials(text).replace("\\\\", "\\")


def read(source: Source) -> dict[str, Any]:
    text = gift.convert(source).data.decode("utf-8")
    questions = giftparser.parseFile(io.StringIO(text, newline=None))
    assert all(q.valid for q in questions)
    return {unescape(q.title): q for q in questions}


def check(question: Question, parsed: Any, source: Source) -> None:
    assert parsed.markup == "plain"
    prompt = plain_text(question.prompt)
    if isinstance(question, NumericQuestion) and question.unit:
        prompt += f" (answer in {question.unit})"
    assert unescape(parsed.text) == prompt
    general = unescape(parsed.generalFeedback)
    assert general.startswith(plain_text(question.explanation))
    answers = parsed.answers
    kind = type(answers).__name__
    if isinstance(question, ChoiceQuestion):
        assert kind == ("MultipleChoicesSet" if isinstance(question, MultipleQuestion)
                        else "SelectSet")  # fmt: skip
        got = [(unescape(a.answer), a.fraction, unescape(a.feedback)) for a in answers.answers]
        if isinstance(question, MultipleQuestion):
            right = sum(o.correct for o in question.options)
            fractions = [100 / right if o.correct else -100 / right for o in question.options]
        else:
            fractions = [100 if o.correct else 0 for o in question.options]
        expected = [(plain_text(o.text), f, plain_text(o.feedback) if o.feedback else "")
                    for o, f in zip(question.options, fractions, strict=True)]  # fmt: skip
        assert [g[0] for g in got] == [e[0] for e in expected]
        assert [g[1] for g in got] == pytest.approx([e[1] for e in expected], abs=1e-4)
        assert [g[2] for g in got] == [e[2] for e in expected]
    elif isinstance(question, TrueFalseQuestion):
        assert kind == "TrueFalseSet"
        assert answers.answer is question.answer
    elif isinstance(question, NumericQuestion):
        assert kind == "NumericAnswerSet"
        (answer,) = answers.answers
        assert answer.value == question.answer
        assert answer.tolerance == pytest.approx(max(question.tolerance or 0, (
            question.relative_tolerance or 0) * abs(question.answer)))  # fmt: skip
    elif isinstance(question, TextQuestion):
        assert kind == "ShortSet"
        # Moodle reads `*` in a short answer as a wildcard, so a literal star is written `\*`.
        assert [unescape(a.answer) for a in answers.answers] == [
            a.replace("*", "\\*") for a in question.accept
        ]
    else:
        assert isinstance(question, MatchQuestion)
        assert kind == "MatchingSet"
        got = [(unescape(a.question).strip(), unescape(a.answer).strip()) for a in answers.answers]
        assert got == [(p.left, p.right) for p in question.pairs]


# pygiftparser takes an escaped `\}` for the closing brace (its pattern makes the check
# for the backslash optional), so the hostile bank is read the way Moodle's own GIFT
# importer does it instead (below).
@pytest.mark.parametrize("make", [every_type, real_bank], ids=lambda f: f.__name__)
def test_every_question_reads_back_as_written(make: Callable[[], Source]) -> None:
    source = make()
    parsed = read(source)
    kept = [q for q in exported(source) if not isinstance(q, OrderQuestion)]
    assert list(parsed) == [q.id for q in kept]
    for question in kept:
        check(question, parsed[question.id], source)


def test_specials_are_escaped_and_text_stays_on_one_line() -> None:
    assert gift.escape("a = b ~ c # d {e} f: g \\ h\n  i") == (
        "a \\= b \\~ c \\# d \\{e\\} f\\: g \\\\ h i"
    )
    text = gift.convert(hostile()).data.decode()
    blocks = text.split("\n\n")
    assert len(blocks) == 2 + len(hostile().bank.questions)  # comment, category, questions
    assert "<script" not in text and "onerror" not in text


def test_the_exported_text_is_exact() -> None:
    text = gift.convert(every_type()).data.decode()
    (single,) = [b for b in text.split("\n\n") if b.startswith("// ex-single")]
    assert single == (
        "// ex-single\n::ex-single::[plain]Which one is right?{\n=b\n".replace(
            "=b\n", "~a#No, a is a distractor.\n=b\n"
        )
        + "####Because b. Re-read\\: https\\://courses.test/test-plan/lesson-one/\\#1-first-idea\n"
        "}"
    )


# Moodle's qformat_gift first swaps each escaped character for a placeholder, then
# splits on the bare specials; this reader does the same.
_ESCAPED = {"\\\\": "\x00", "\\~": "\x01", "\\=": "\x02", "\\#": "\x03",
            "\\{": "\x04", "\\}": "\x05", "\\:": "\x06"}  # fmt: skip


def moodle_read(block: str) -> dict[str, Any]:
    text = "\n".join(line for line in block.splitlines() if not line.startswith("//"))
    for escaped, placeholder in _ESCAPED.items():
        text = text.replace(escaped, placeholder)

    def plain(part: str) -> str:
        for escaped, placeholder in _ESCAPED.items():
            part = part.replace(placeholder, escaped[1])
        return part.strip()

    assert text.count("{") == 1 and text.count("}") == 1, block
    head, rest = text.split("{")
    body, tail = rest.split("}")
    assert tail.strip() == ""
    assert head.startswith("::") and head.count("::") == 2
    _, title, prompt = head.split("::")
    answers, _, general = body.partition("####")
    return {
        "title": plain(title),
        "prompt": plain(prompt.removeprefix("[plain]")),
        "answers": [_answer(line, plain) for line in answers.splitlines() if line.strip()],
        "general": plain(general),
    }


def _answer(line: str, plain: Callable[[str], str]) -> tuple[str, str, str]:
    """`=text#feedback` or `~%50%text` as (sign, text, feedback), read before unescaping."""
    sign, rest = line[0], line[1:]
    if rest.startswith("%"):
        rest = rest.split("%", 2)[2]
    text, _, feedback = rest.partition("#")
    return sign, plain(text), plain(feedback)


@pytest.mark.parametrize("make", [every_type, hostile, real_bank], ids=lambda f: f.__name__)
def test_every_block_splits_as_moodle_splits_it(make: Callable[[], Source]) -> None:
    source = make()
    blocks = gift.convert(source).data.decode().split("\n\n")[2:]
    kept = [q for q in exported(source) if not isinstance(q, OrderQuestion)]
    assert len(blocks) == len(kept)
    for question, block in zip(kept, blocks, strict=True):
        read = moodle_read(block)
        assert read["title"] == question.id
        assert read["prompt"].startswith(plain_text(question.prompt))
        assert read["general"].startswith(plain_text(question.explanation))
        if isinstance(question, ChoiceQuestion):
            assert [(text, feedback) for _, text, feedback in read["answers"]] == [
                (plain_text(o.text).replace("->", "→"), plain_text(o.feedback or ""))
                for o in question.options
            ]
        if isinstance(question, TextQuestion):
            assert read["answers"] == [("=", a.replace("*", "\\*"), "") for a in question.accept]
        if isinstance(question, MatchQuestion):
            assert read["answers"] == [("=", f"{p.left} -> {p.right}", "") for p in question.pairs]
