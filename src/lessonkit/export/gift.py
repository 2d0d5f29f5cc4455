"""A bank as GIFT, Moodle's plain-text question format.

GIFT has no points, hints, ordering questions or matching distractors, and this
export writes plain text: Markdown and code blocks are flattened to one line.
Every `~ = # { } :` and backslash in a text is escaped with a backslash.
"""

from __future__ import annotations

from lessonkit.export.common import (
    Export,
    Loss,
    Source,
    has_markup,
    number,
    plain_questions,
    plain_text,
)
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

_SPECIALS = "~=#{}:"


def escape(text: str) -> str:
    """Text safe inside GIFT: backslash first, then each special character, on one line."""
    text = text.replace("\\", "\\\\")
    for special in _SPECIALS:
        text = text.replace(special, "\\" + special)
    return " ".join(text.split())


class _Kit:
    """What GIFT lends a question type (``questiontypes.GiftKit``)."""

    def text(self, markdown: str) -> str:
        return _text(markdown)

    def inline(self, markdown: str) -> str:
        return _text(markdown, inline=True)

    def escape(self, text: str) -> str:
        return escape(text)

    def feedback(self, markdown: str | None) -> str:
        return f"#{_text(markdown)}" if markdown else ""

    def weight(self, share: float) -> str:
        return f"{share * 100:.5f}".rstrip("0").rstrip(".")

    def number(self, value: float) -> str:
        return number(value)


def convert(source: Source) -> Export:
    """The bank as a GIFT text file (UTF-8), one question per blank-line-separated block."""
    title = " ".join(source.bank.title.split())
    # A comment runs to the end of its line, unescaped; the category is a path, so it
    # takes the slug rather than a title that may hold `/`.
    blocks = [f"// {title} (lessonkit: {source.slug})",
              f"$CATEGORY: $course$/top/lessonkit/{source.slug}"]  # fmt: skip
    losses: list[Loss] = []
    for question in plain_questions(source.questions, losses, "GIFT"):
        carried = registry.of(question).gift(question, _Kit())
        if carried.body is None:
            losses += [Loss(question.id, what, omitted=True) for what in carried.losses]
            continue
        losses += _losses(question)
        losses += [Loss(question.id, what) for what in carried.losses]
        blocks.append(_question(source, question, carried.body))
    return Export(("\n\n".join(blocks) + "\n").encode(), losses)


def _text(markdown: str, *, inline: bool = False) -> str:
    # Moodle reads any answer holding `->` as a matching pair, and GIFT has no escape for it.
    return escape(plain_text(markdown, inline=inline).replace("->", "→"))


def _losses(question: RuntimeQuestion) -> list[Loss]:
    """What GIFT loses of every question, whatever its type."""
    losses = []
    texts = [question.prompt, question.explanation, *registry.of(question).texts(question)]
    if any(has_markup(text) for text in texts):
        losses.append(Loss(question.id, "Markdown formatting: GIFT gets plain text"))
    if any("->" in plain_text(text) for text in texts):
        losses.append(Loss(question.id, "`->` written as `→`: GIFT reads `->` as a matching pair"))
    if question.points != 1:
        losses.append(Loss(question.id, f"points {number(question.points)}: GIFT has no points"))
    if question.hint:
        losses.append(Loss(question.id, "hint: GIFT has no hints"))
    return losses


def _question(source: Source, question: RuntimeQuestion, answers: list[str]) -> str:
    prompt = _text(question.prompt)
    unit = registry.of(question).unit(question)
    if unit:
        prompt += f" (answer in {escape(unit)})"
    explanation = _text(question.explanation)
    url = source.section_url(question)
    if url:
        explanation += " " + escape(f"Re-read: {url}")
    # An answer placed inside the text is GIFT's missing word: Moodle shows it as a gap.
    place = registry.of(question).answer_place(question)
    before, _, after = prompt.partition(place) if place else (prompt, "", "")
    lines = [f"// {question.id}", f"::{escape(question.id)}::[plain]{before}{{"]
    lines += answers
    lines.append(f"####{explanation}")
    lines.append("}" + after)
    return "\n".join(lines)
