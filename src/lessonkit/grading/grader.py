"""Grade one response to one question: pure functions, no I/O, no clock, no randomness.

Responses are canonical values whose indices refer to the bank's own order, never
to the shuffled order a learner saw (``responses.parse`` does that translation):

======================  ==============================================================
question type           response
======================  ==============================================================
``single``              ``int``: the chosen option's index
``multiple``            ``frozenset[int]``: the chosen options' indices
``true_false``          ``bool``
``numeric``             ``float`` (an ``int`` is accepted too)
``text``                ``str``
``order``               ``tuple[int, ...]``: item indices in the order the learner placed them
``match``               ``tuple[int, ...]``: for pair *i*, the index of the chosen right-hand
                        item in ``[p.right for p in pairs] + distractors``
======================  ==============================================================

A response of the wrong shape (a ``str`` for ``single``, an index out of range, an
``order`` that is not a permutation, a NaN or infinite number) is a programming
error, not a wrong answer: ``grade`` raises ``ValueError`` (or ``TypeError``) for
it, because every learner's input passes through ``responses.parse`` first, which
refuses such input with a message the learner can act on.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

from lessonkit.bank.questions import (
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    SingleQuestion,
    TextQuestion,
    TrueFalseQuestion,
)
from lessonkit.grading.credit import Grade, Response, full_or_nothing, index, scaled, scored
from lessonkit.grading.numbers import PERCENT_UNITS, number_text

# What frames a typed answer without being part of it (see ``text_right``).
_END_PUNCTUATION = ".!?,;:\u2026 "
_QUOTES = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb"}
_ARTICLE = re.compile(r"^(?:the|an|a) (?=\S)", re.IGNORECASE)
_BOTH = re.compile(r"(.+?) ?\((.+)\)")


def grade(question: Question, response: Response) -> Grade:
    """Grade ``response`` to ``question``; partial credit follows the question model's rule."""
    if isinstance(question, SingleQuestion):
        return _grade_single(question, response)
    if isinstance(question, MultipleQuestion):
        return _grade_multiple(question, response)
    if isinstance(question, TrueFalseQuestion):
        if not isinstance(response, bool):
            raise TypeError(f"a true_false response is a bool, not {type(response).__name__}")
        return full_or_nothing(question.points, response == question.answer)
    if isinstance(question, NumericQuestion):
        value = _number(response)
        right = _number_right(question, value)
        notes = () if right else _number_notes(question, value)
        return Grade(question.points if right else 0.0, question.points, right, notes)
    if isinstance(question, TextQuestion):
        if not isinstance(response, str):
            raise TypeError(f"a text response is a str, not {type(response).__name__}")
        return full_or_nothing(question.points, text_right(question, response))
    if isinstance(question, OrderQuestion):
        return scored(question.scoring, question.points, _order_share(question, response))
    return scored(question.scoring, question.points, _match_share(question, response))


def answer_key(question: Question) -> Response | None:
    """The response that earns full marks; ``None`` for a text question with only patterns.

    A regular expression has no literal answer to give, so such a question has no key
    to self-test (its patterns are checked to compile by the model instead).
    """
    if isinstance(question, SingleQuestion):
        return next(i for i, o in enumerate(question.options) if o.correct)
    if isinstance(question, MultipleQuestion):
        return frozenset(i for i, o in enumerate(question.options) if o.correct)
    if isinstance(question, TrueFalseQuestion | NumericQuestion):
        return question.answer
    if isinstance(question, TextQuestion):
        return question.accept[0] if question.accept else None
    if isinstance(question, OrderQuestion):
        return tuple(range(len(question.items)))
    return tuple(range(len(question.pairs)))


def wrong_responses(question: Question) -> list[Response]:
    """A few responses that must score less than full marks (empty when none is obvious)."""
    if isinstance(question, SingleQuestion):
        return [i for i, o in enumerate(question.options) if not o.correct]
    if isinstance(question, MultipleQuestion):
        every = frozenset(range(len(question.options)))
        return [frozenset(), every]
    if isinstance(question, TrueFalseQuestion):
        return [not question.answer]
    if isinstance(question, OrderQuestion):
        count = len(question.items)
        return [tuple(reversed(range(count))), (1, 0, *range(2, count))]
    if isinstance(question, MatchQuestion):
        count = len(question.pairs)
        # Each left item takes its neighbour's partner: every pair is wrong.
        return [tuple((i + 1) % count for i in range(count))]
    return []


def key_hash(question: Question) -> str:
    """A short, stable hash of what makes an answer right, and of the points.

    History keys on question id plus this hash, so earlier answers stop counting
    when the key changes. Prompt, hint, explanation and feedback are left out on
    purpose: rewording them does not change which answers are right.
    """
    # Numbers go through float() so that `points: 1` and `points: 1.0` hash alike.
    key: dict[str, Any] = {"type": question.type, "points": float(question.points)}
    if isinstance(question, SingleQuestion | MultipleQuestion):
        key["options"] = [
            [_squash(o.text), o.correct, *([o.value] if o.value is not None else [])]
            for o in question.options
        ]
    elif isinstance(question, TrueFalseQuestion):
        key["answer"] = question.answer
    elif isinstance(question, NumericQuestion):
        answer = question.answer  # a formula is hashed as written
        key["answer"] = answer if isinstance(answer, str) else float(answer)
        key["tolerance"] = _maybe_float(question.tolerance)
        key["relative_tolerance"] = _maybe_float(question.relative_tolerance)
    elif isinstance(question, TextQuestion):
        key["accept"] = question.accept
        key["patterns"] = question.patterns
        key["case_sensitive"] = question.case_sensitive
    elif isinstance(question, OrderQuestion):
        key["items"] = [_squash(item) for item in question.items]
    else:
        key["pairs"] = [[_squash(p.left), _squash(p.right)] for p in question.pairs]
        key["distractors"] = [_squash(d) for d in question.distractors]
    # New fields enter the key only when set, so existing questions keep their hashes.
    if getattr(question, "scoring", "partial") != "partial":
        key["scoring"] = question.scoring  # type: ignore[union-attr]
    if isinstance(question, TextQuestion) and question.multiline:
        key["multiline"] = True
    if (
        isinstance(question, NumericQuestion | SingleQuestion | MultipleQuestion)
        and question.params
    ):
        key["parameters"] = question.model_dump(
            mode="json", include={"params", "derived", "constraints"}
        )
    blob = json.dumps(key, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def normalise_text(text: str, *, case_sensitive: bool = False) -> str:
    """NFKC, then casefold unless ``case_sensitive``, then whitespace collapsed and trimmed."""
    text = unicodedata.normalize("NFKC", text)
    if not case_sensitive:
        text = text.casefold()
    return " ".join(text.split())


def text_right(question: TextQuestion, response: str) -> bool:
    """Whether a free-text response matches an accepted answer or a whole pattern.

    Both sides are compared after the normalisation a reader expects (``normalise_text``
    and ``bare``): Unicode (NFKC), letter case unless ``case_sensitive``, runs of spaces,
    sentence punctuation at the end (`XLA.`), quotes or backticks around the whole answer,
    and one leading English article (`the ridge point`). An answer that gives two accepted
    forms the usual way, `XLA (Accelerated Linear Algebra)`, is right when each form is.
    Patterns see the text both as typed (spaces collapsed) and bare, so a pattern that
    means to match a full stop still can.

    Deliberately not normalised: extra words (`the XLA compiler`), since no rule tells
    a harmless word from one that changes the answer (`TPU v4` and `TPU v4 pod`, `XLA`
    and `not XLA`); authors who want such forms add them to `accept` or `patterns`
    (`lessonkit report` warns when the accepted forms look too narrow for the prompt).
    Nor are plurals, spelling, punctuation inside the answer (`TPU-v4`), articles of
    other languages, or other joins of two forms (`A or B`, `A/B`, which also write
    hedges). Several-line answers are compared line by line as typed: they are usually
    a program's output, where every character counts.
    """
    if question.multiline:
        return _lines_right(question, response)
    if _form_right(question, response):
        return True
    both = _BOTH.fullmatch(bare(normalise_text(response, case_sensitive=True)))
    return both is not None and all(_form_right(question, form) for form in both.groups())


def bare(text: str) -> str:
    """Normalised text without what frames an answer: end punctuation, quotes, an article."""
    kept = text
    text = text.rstrip(_END_PUNCTUATION)
    if len(text) > 1 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip().rstrip(_END_PUNCTUATION)
    text = _ARTICLE.sub("", text, count=1)
    return text or kept  # an answer that is only punctuation stays what it is


def _form_right(question: TextQuestion, response: str) -> bool:
    case = question.case_sensitive
    typed = bare(normalise_text(response, case_sensitive=case))
    if any(typed == bare(normalise_text(a, case_sensitive=case)) for a in question.accept):
        return True
    # Patterns see the text without casefolding (so `[A-Z]` means what it says) and
    # ignore case through the regex flag instead.
    spaced = normalise_text(response, case_sensitive=True)
    flags = 0 if case else re.IGNORECASE
    forms = (spaced, bare(spaced))
    return any(_compiled(p, flags).fullmatch(form) for p in question.patterns for form in forms)


def _lines(text: str, *, case_sensitive: bool) -> list[str]:
    lines = [normalise_text(line, case_sensitive=case_sensitive) for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _lines_right(question: TextQuestion, response: str) -> bool:
    """Several lines, each compared as one line of text; patterns see them joined by \\n."""
    case = question.case_sensitive
    typed = _lines(response, case_sensitive=case)
    if any(typed == _lines(a, case_sensitive=case) for a in question.accept):
        return True
    joined = "\n".join(_lines(response, case_sensitive=True))
    flags = 0 if case else re.IGNORECASE
    return any(_compiled(p, flags).fullmatch(joined) for p in question.patterns)


@lru_cache(maxsize=256)
def _compiled(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _maybe_float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _squash(text: str) -> str:
    return normalise_text(text)


def _grade_single(question: SingleQuestion, response: Response) -> Grade:
    chosen = question.options[index(response, len(question.options), "option index")]
    feedback = (chosen.feedback,) if chosen.feedback else ()
    return scaled(question.points, 1.0 if chosen.correct else 0.0, feedback)


def _grade_multiple(question: MultipleQuestion, response: Response) -> Grade:
    if not isinstance(response, frozenset):
        raise TypeError(f"a multiple response is a frozenset, not {type(response).__name__}")
    count = len(question.options)
    chosen = sorted(index(i, count, "option index") for i in response)
    right = sum(question.options[i].correct for i in chosen)
    wrong = len(chosen) - right
    needed = sum(o.correct for o in question.options)
    feedback = tuple(f for i in chosen if (f := question.options[i].feedback))
    share = max(0, right - wrong) / needed
    return scored(question.scoring, question.points, share, feedback)


def _number(response: Response) -> float:
    if isinstance(response, bool) or not isinstance(response, int | float):
        raise TypeError(f"a numeric response is a float, not {type(response).__name__}")
    value = float(response)
    if not math.isfinite(value):
        raise ValueError(f"a numeric response must be finite, not {value}")
    return value


def _number_right(question: NumericQuestion, value: float) -> bool:
    answer = question.value()
    allowed = question.allowed_error()
    # A few units in the last place absorb binary rounding: 0.4 - 0.3 is not quite 0.1.
    slack = 4 * math.ulp(max(abs(answer), abs(value)))
    return abs(value - answer) <= allowed + slack


def _number_notes(question: NumericQuestion, value: float) -> tuple[str, ...]:
    """A hint for a wrong number that looks like a share where a percentage was asked for."""
    if question.unit not in PERCENT_UNITS or not 0 < abs(value) < 1 <= abs(question.value()):
        return ()
    share = number_text(value)
    percent = number_text(float(f"{value * 100:.12g}"))
    return (f"The unit is %: your {share} means {share} %. A share of {share} is {percent} %.",)


def _permutation(response: Response, count: int) -> tuple[int, ...]:
    if not isinstance(response, tuple):
        raise TypeError(f"an order response is a tuple, not {type(response).__name__}")
    if sorted(response) != list(range(count)):
        raise ValueError(f"an order response must be a permutation of 0..{count - 1}")
    return response


def _order_share(question: OrderQuestion, response: Response) -> float:
    placed = _permutation(response, len(question.items))
    position = {item: at for at, item in enumerate(placed)}
    pairs = len(placed) - 1
    kept = sum(position[i + 1] == position[i] + 1 for i in range(pairs))
    return kept / pairs


def _match_share(question: MatchQuestion, response: Response) -> float:
    if not isinstance(response, tuple):
        raise TypeError(f"a match response is a tuple, not {type(response).__name__}")
    count = len(question.pairs)
    if len(response) != count:
        raise ValueError(f"a match response has one choice per pair: {count}, not {len(response)}")
    choices = count + len(question.distractors)
    right = sum(index(r, choices, "right-hand index") == i for i, r in enumerate(response))
    return right / count
