"""A bank as Moodle XML: every lessonkit type has a Moodle question type.

`multiple` becomes `multichoice` with fractions +1/n for each right option and
-1/n for each wrong one; Moodle floors the total at 0, which is lessonkit's own
partial-credit rule. `order` becomes the `ordering` type graded by the longest ordered
subset, the subsequence lessonkit grades by (scaled a little differently: reported); a
stock Moodle without the Ordering question type (qtype_ordering, a plugin) refuses those
questions on import, so each is reported."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

from lessonkit.export import calculated
from lessonkit.export.common import (
    Export,
    HtmlWriting,
    Loss,
    Source,
    fixed_variants,
    html_text,
    number,
)
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import DrawnQuestion, RuntimeQuestion
from lessonkit.questiontypes.numeric import Numeric


class _Kit(HtmlWriting):
    """What Moodle XML lends a question type (``questiontypes.MoodleKit``)."""

    def __init__(self, source: Source) -> None:
        self._source = source

    def sub(
        self,
        parent: ET.Element,
        tag: str,
        text: str | None = None,
        attributes: dict[str, str] | None = None,
    ) -> ET.Element:
        element = ET.SubElement(parent, tag, attributes or {})
        if text is not None:
            element.text = text
        return element

    def html_element(self, parent: ET.Element, tag: str, markup: str) -> ET.Element:
        return _html(parent, tag, markup)

    def answer(
        self, parent: ET.Element, fraction: str, markup: str, feedback: str | None = None
    ) -> None:
        _answer(parent, fraction, markup, feedback)

    def fraction(self, share: float) -> str:
        return _fraction(share)

    def shuffle(self, question: RuntimeQuestion) -> str:
        return _shuffle(self._source, question)


def convert(source: Source) -> Export:
    """The bank as a Moodle XML file, in a category named after the bank."""
    quiz = ET.Element("quiz")
    _category(quiz, f"$course$/top/lessonkit/{source.bank.title}")
    losses: list[Loss] = []
    for question in source.questions:
        if isinstance(question, DrawnQuestion) and question.params:
            losses += _drawn(quiz, source, question)
        else:
            losses += _question(quiz, source, question)
    ET.indent(quiz)
    data = ET.tostring(quiz, encoding="utf-8", xml_declaration=True) + b"\n"
    return Export(data, losses)


def _drawn(quiz: ET.Element, source: Source, question: DrawnQuestion) -> list[Loss]:
    """A question that draws numbers: Moodle's calculated type where it fits, otherwise
    fixed variants in a category of their own, from which a quiz can draw one."""
    reason = calculated.unfit(question)
    if reason is None:
        assert isinstance(question, Numeric)
        return _question(quiz, source, question, kind="calculated")
    home = f"$course$/top/lessonkit/{source.bank.title}"
    _category(quiz, f"{home}/{question.id}")
    fixed = fixed_variants(question)
    losses = [loss for variant in fixed for loss in _question(quiz, source, variant)]
    _category(quiz, home)
    what = (f"draws new numbers, but {reason}: exported as {len(fixed)} fixed variants in the "
            f"category {question.id}; add a random question from it to draw one")  # fmt: skip
    return [Loss(question.id, what), *losses]


def _category(quiz: ET.Element, path: str) -> None:
    category = ET.SubElement(quiz, "question", {"type": "category"})
    _text(ET.SubElement(category, "category"), path)


def _text(parent: ET.Element, value: str) -> None:
    ET.SubElement(parent, "text").text = value


def _html(parent: ET.Element, tag: str, markup: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {"format": "html"})
    _text(element, markup)
    return element


def _fraction(share: float) -> str:
    # Moodle matches fractions against its list of grades with five decimals.
    return f"{share * 100:.5f}".rstrip("0").rstrip(".")


def _question(
    quiz: ET.Element, source: Source, question: RuntimeQuestion, kind: str | None = None
) -> list[Loss]:
    methods = registry.of(question)
    if (kind or methods.moodle_type) is None:
        what = f"type `{question.type}`: Moodle XML has no such question; left out"
        return [Loss(question.id, what, omitted=True)]
    element = ET.SubElement(quiz, "question", {"type": str(kind or methods.moodle_type)})
    _text(ET.SubElement(element, "name"), question.id)
    prompt = html_text(question.prompt)
    unit = methods.unit(question)
    if unit:
        prompt += f"<p>Answer in {html.escape(unit)}.</p>"
    _html(element, "questiontext", prompt)
    explanation = html_text(question.explanation)
    url = source.section_url(question)
    if url:
        title = html.escape(source.section_title(question))
        explanation += f'<p>Re-read: <a href="{html.escape(url, quote=True)}">{title}</a></p>'
    _html(element, "generalfeedback", explanation)
    ET.SubElement(element, "defaultgrade").text = number(question.points)
    ET.SubElement(element, "penalty").text = "0"
    ET.SubElement(element, "hidden").text = "0"
    ET.SubElement(element, "idnumber").text = question.id
    if kind == "calculated" and isinstance(question, Numeric):
        losses = calculated.body(element, question)
    else:
        losses = [
            Loss(question.id, what) for what in methods.moodle(question, element, _Kit(source))
        ]
    if question.hint:
        _html(element, "hint", html_text(question.hint))
    tags = [f"lessonkit-insight-{question.insight}", *question.tags]
    tags += [f"lessonkit-objective-{o}" for o in question.objectives]
    holder = ET.SubElement(element, "tags")
    for tag in tags:
        _text(ET.SubElement(holder, "tag"), tag)
    return losses


def _answer(parent: ET.Element, fraction: str, markup: str, feedback: str | None = None) -> None:
    answer = ET.SubElement(parent, "answer", {"fraction": fraction, "format": "html"})
    _text(answer, markup)
    if feedback:
        _html(answer, "feedback", html_text(feedback))


def _shuffle(source: Source, question: RuntimeQuestion) -> str:
    pinned = getattr(question, "shuffle", None)
    return str(source.bank.shuffle.options if pinned is None else pinned).lower()
