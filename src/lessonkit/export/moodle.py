"""A bank as Moodle XML: every lessonkit type has a Moodle question type.

`multiple` becomes `multichoice` with fractions +1/n for each right option and
-1/n for each wrong one; Moodle floors the total at 0, which is lessonkit's own
partial-credit rule. `order` becomes the `ordering` type graded by neighbouring pairs, as
lessonkit grades it; a stock Moodle without the Ordering question type (qtype_ordering, a
plugin) refuses those questions on import, so each is reported.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

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
from lessonkit.export import calculated
from lessonkit.export.common import Export, Loss, Source, fixed_variants, html_text, number

_AUTO = {"fraction": "100", "format": "moodle_auto_format"}
ORDERING_LOSS = (
    "type `order`: needs Moodle's Ordering question type (qtype_ordering, a plugin); "
    "a Moodle without it refuses this question"
)
MOODLE_TYPES = {
    "single": "multichoice",
    "multiple": "multichoice",
    "true_false": "truefalse",
    "numeric": "numerical",
    "text": "shortanswer",
    "order": "ordering",
    "match": "matching",
}


def convert(source: Source) -> Export:
    """The bank as a Moodle XML file, in a category named after the bank."""
    quiz = ET.Element("quiz")
    _category(quiz, f"$course$/top/lessonkit/{source.bank.title}")
    losses: list[Loss] = []
    for question in source.bank.questions:
        if getattr(question, "params", None):
            losses += _drawn(quiz, source, question)
        else:
            losses += _question(quiz, source, question)
    ET.indent(quiz)
    data = ET.tostring(quiz, encoding="utf-8", xml_declaration=True) + b"\n"
    return Export(data, losses)


def _drawn(quiz: ET.Element, source: Source, question: Question) -> list[Loss]:
    """A question that draws numbers: Moodle's calculated type where it fits, otherwise
    fixed variants in a category of their own, from which a quiz can draw one."""
    reason = calculated.unfit(question)
    if reason is None:
        assert isinstance(question, NumericQuestion)
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
    quiz: ET.Element, source: Source, question: Question, kind: str | None = None
) -> list[Loss]:
    element = ET.SubElement(quiz, "question", {"type": kind or MOODLE_TYPES[question.type]})
    _text(ET.SubElement(element, "name"), question.id)
    prompt = html_text(question.prompt)
    if isinstance(question, NumericQuestion) and question.unit:
        prompt += f"<p>Answer in {html.escape(question.unit)}.</p>"
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
    if kind == "calculated" and isinstance(question, NumericQuestion):
        losses = calculated.body(element, question)
    else:
        losses = _body(element, source, question)
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


def _shuffle(source: Source, question: Question) -> str:
    pinned = getattr(question, "shuffle", None)
    return str(source.bank.shuffle.options if pinned is None else pinned).lower()


def _body(element: ET.Element, source: Source, question: Question) -> list[Loss]:
    losses: list[Loss] = []
    if isinstance(question, ChoiceQuestion):
        multiple = isinstance(question, MultipleQuestion)
        ET.SubElement(element, "single").text = "false" if multiple else "true"
        ET.SubElement(element, "shuffleanswers").text = _shuffle(source, question)
        ET.SubElement(element, "answernumbering").text = "abc"
        needed = sum(o.correct for o in question.options)
        for option in question.options:
            share = (
                (1 / needed if option.correct else -1 / needed)
                if multiple
                else float(option.correct)
            )
            _answer(element, _fraction(share), html_text(option.text, inline=True), option.feedback)
        if isinstance(question, MultipleQuestion) and question.scoring != "partial":
            losses.append(Loss(question.id, f"scoring `{question.scoring}`: Moodle's "
                               "multichoice always gives partial credit"))  # fmt: skip
    elif isinstance(question, TrueFalseQuestion):
        _answer(element, "100" if question.answer else "0", "true")
        _answer(element, "0" if question.answer else "100", "false")
    elif isinstance(question, NumericQuestion):
        margin = question.allowed_error()
        answer = ET.SubElement(element, "answer", _AUTO)
        _text(answer, number(question.value()))
        ET.SubElement(answer, "tolerance").text = number(margin)
    elif isinstance(question, TextQuestion):
        ET.SubElement(element, "usecase").text = "1" if question.case_sensitive else "0"
        for accepted in question.accept:
            # `*` is Moodle's wildcard in short answers; a literal one is written `\*`.
            answer = ET.SubElement(element, "answer", _AUTO)
            _text(answer, accepted.replace("*", "\\*"))
        if question.patterns:
            what = "patterns: Moodle short answers take exact answers and `*` wildcards only"
            losses.append(Loss(question.id, what))
        if question.multiline:
            losses.append(Loss(question.id, "multiline: Moodle short answers are one line"))
    elif isinstance(question, OrderQuestion):
        losses.append(Loss(question.id, ORDERING_LOSS))
        ET.SubElement(element, "layouttype").text = "VERTICAL"
        ET.SubElement(element, "selecttype").text = "ALL"
        ET.SubElement(element, "selectcount").text = "0"
        # Moodle's "relative to the next item (excluding last)" is lessonkit's neighbouring
        # pairs rule; its ALL_OR_NOTHING is lessonkit's `all_or_nothing`.
        partial = question.scoring == "partial"
        grading = "RELATIVE_NEXT_EXCLUDE_LAST" if partial else "ALL_OR_NOTHING"
        ET.SubElement(element, "gradingtype").text = grading
        ET.SubElement(element, "showgrading").text = "SHOW"
        ET.SubElement(element, "numberingstyle").text = "none"
        for position, item in enumerate(question.items, start=1):
            _answer(element, str(position), html.escape(item))  # written in the right order
    elif isinstance(question, MatchQuestion):
        ET.SubElement(element, "shuffleanswers").text = _shuffle(source, question)
        for pair in question.pairs:
            sub = _html(element, "subquestion", html.escape(pair.left))
            _text(ET.SubElement(sub, "answer"), pair.right)
        for distractor in question.distractors:
            sub = _html(element, "subquestion", "")
            _text(ET.SubElement(sub, "answer"), distractor)
        if question.scoring != "partial":
            losses.append(Loss(question.id, f"scoring `{question.scoring}`: Moodle's "
                               "matching always gives partial credit"))  # fmt: skip
    return losses
