"""A bank as GIFT, Moodle's plain-text question format.

GIFT has no points, hints, ordering questions or matching distractors, and this
export writes plain text: Markdown and code blocks are flattened to one line.
Every `~ = # { } :` and backslash in a text is escaped with a backslash.
"""

from __future__ import annotations

from lessonkit.bank.questions import (
    ChoiceQuestion,
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    TextQuestion,
    TrueFalseQuestion,
)
from lessonkit.export.common import (
    Export,
    Loss,
    Source,
    has_markup,
    number,
    plain_questions,
    plain_text,
)

_SPECIALS = "~=#{}:"


def escape(text: str) -> str:
    """Text safe inside GIFT: backslash first, then each special character, on one line."""
    text = text.replace("\\", "\\\\")
    for special in _SPECIALS:
        text = text.replace(special, "\\" + special)
    return " ".join(text.split())


def convert(source: Source) -> Export:
    """The bank as a GIFT text file (UTF-8), one question per blank-line-separated block."""
    title = " ".join(source.bank.title.split())
    # A comment runs to the end of its line, unescaped; the category is a path, so it
    # takes the slug rather than a title that may hold `/`.
    blocks = [f"// {title} (lessonkit: {source.slug})",
              f"$CATEGORY: $course$/top/lessonkit/{source.slug}"]  # fmt: skip
    losses: list[Loss] = []
    for question in plain_questions(source.bank.questions, losses, "GIFT"):
        if isinstance(question, OrderQuestion):
            what = "type `order`: GIFT has no ordering type; left out"
            losses.append(Loss(question.id, what, omitted=True))
            continue
        losses += _losses(question)
        blocks.append(_question(source, question))
    return Export(("\n\n".join(blocks) + "\n").encode(), losses)


def _text(markdown: str) -> str:
    # Moodle reads any answer holding `->` as a matching pair, and GIFT has no escape for it.
    return escape(plain_text(markdown).replace("->", "→"))


def _losses(question: Question) -> list[Loss]:
    losses = []
    texts = [question.prompt, question.explanation]
    if isinstance(question, ChoiceQuestion):
        texts += [o.text for o in question.options] + [o.feedback or "x" for o in question.options]
    if any(has_markup(text) for text in texts):
        losses.append(Loss(question.id, "Markdown formatting: GIFT gets plain text"))
    if any("->" in plain_text(text) for text in texts):
        losses.append(Loss(question.id, "`->` written as `→`: GIFT reads `->` as a matching pair"))
    if question.points != 1:
        losses.append(Loss(question.id, f"points {number(question.points)}: GIFT has no points"))
    if question.hint:
        losses.append(Loss(question.id, "hint: GIFT has no hints"))
    if isinstance(question, MultipleQuestion | MatchQuestion) and question.scoring != "partial":
        losses.append(Loss(question.id, f"scoring `{question.scoring}`: GIFT gives partial credit"))
    if isinstance(question, MatchQuestion) and question.distractors:
        losses.append(Loss(question.id, "distractors: GIFT matching has none"))
    if isinstance(question, TextQuestion):
        if question.patterns:
            losses.append(Loss(question.id, "patterns: GIFT takes exact answers only"))
        if question.case_sensitive:
            losses.append(Loss(question.id, "case_sensitive: GIFT ignores letter case"))
        if question.multiline:
            losses.append(Loss(question.id, "multiline: GIFT answers are one line"))
    return losses


def _feedback(text: str | None) -> str:
    return f"#{_text(text)}" if text else ""


def _weight(share: float) -> str:
    return f"{share * 100:.5f}".rstrip("0").rstrip(".")


def _question(source: Source, question: Question) -> str:
    prompt = _text(question.prompt)
    if isinstance(question, NumericQuestion) and question.unit:
        prompt += f" (answer in {escape(question.unit)})"
    explanation = _text(question.explanation)
    url = source.section_url(question)
    if url:
        explanation += " " + escape(f"Re-read: {url}")
    lines = [f"// {question.id}", f"::{escape(question.id)}::[plain]{prompt}{{"]
    lines += _answers(question)
    lines.append(f"####{explanation}")
    lines.append("}")
    return "\n".join(lines)


def _answers(question: Question) -> list[str]:
    if isinstance(question, ChoiceQuestion):
        if isinstance(question, MultipleQuestion):
            needed = sum(o.correct for o in question.options)
            return [
                f"~%{_weight(1 / needed if o.correct else -1 / needed)}%"
                f"{_text(o.text)}{_feedback(o.feedback)}"
                for o in question.options
            ]
        return [
            f"{'=' if o.correct else '~'}{_text(o.text)}{_feedback(o.feedback)}"
            for o in question.options
        ]
    if isinstance(question, TrueFalseQuestion):
        return ["TRUE" if question.answer else "FALSE"]
    if isinstance(question, NumericQuestion):
        margin = question.allowed_error()
        return [f"#{number(question.value())}:{number(margin)}"]
    if isinstance(question, TextQuestion):
        # `*` is a wildcard in Moodle's short answers; `\*` is a literal star.
        return ["=" + escape(a).replace("*", "\\*") for a in question.accept]
    assert isinstance(question, MatchQuestion)
    arrow = "→"  # a side holding `->` would split the pair in the wrong place
    return [f"={escape(p.left.replace('->', arrow))} -> {escape(p.right.replace('->', arrow))}"
            for p in question.pairs]  # fmt: skip
