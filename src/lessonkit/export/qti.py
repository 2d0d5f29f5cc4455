"""A bank as a QTI 1.2 package that Canvas imports: a zip like text2qti writes.

Canvas has single and multiple choice, true/false, numeric (a range), short answer
and matching; it has no ordering question, so `order` questions are left out and
reported. Points, the explanation (general feedback) and per-option feedback carry.
"""

from __future__ import annotations

import hashlib
import html
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from lessonkit.export.common import (
    Export,
    HtmlWriting,
    Loss,
    Source,
    deterministic_zip,
    html_text,
    number,
    plain_questions,
)
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CP_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
CANVAS_NS = "http://canvas.instructure.com/xsd/cccv1p0"


def convert(source: Source) -> Export:
    """The bank as a `.zip` for Canvas's "QTI .zip file" import."""
    ident = _ident("assessment", source.slug)
    losses: list[Loss] = []
    root = ET.Element("questestinterop", {"xmlns": QTI_NS})
    assessment = ET.SubElement(root, "assessment", {"ident": ident, "title": source.bank.title})
    _metadata(ET.SubElement(assessment, "qtimetadata"), {"cc_maxattempts": "1"})
    section = ET.SubElement(assessment, "section", {"ident": "root_section"})
    questions = plain_questions(source.questions, losses, "Canvas")
    for question in questions:
        losses += _item(section, source, question)
    return Export(
        deterministic_zip(
            [
                ("imsmanifest.xml", _xml(_manifest(ident, source))),
                (f"{ident}/{ident}.xml", _xml(root)),
                (f"{ident}/assessment_meta.xml", _xml(_meta(ident, source, questions))),
                ("non_cc_assessments/", b""),  # as Canvas's own exports and text2qti have
            ]
        ),
        losses,
    )


def _ident(*parts: str) -> str:
    # Canvas keeps idents as given; derived from names, they are the same on every export.
    return "lk" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]


def _xml(element: ET.Element) -> bytes:
    ET.indent(element)
    text: bytes = ET.tostring(element, encoding="utf-8", xml_declaration=True)
    return text + b"\n"


def _metadata(parent: ET.Element, fields: dict[str, str]) -> None:
    for label, entry in fields.items():
        field = ET.SubElement(parent, "qtimetadatafield")
        ET.SubElement(field, "fieldlabel").text = label
        ET.SubElement(field, "fieldentry").text = entry


def _material(parent: ET.Element, markup: str, kind: str = "text/html") -> None:
    ET.SubElement(ET.SubElement(parent, "material"), "mattext", {"texttype": kind}).text = markup


def _prompt(source: Source, question: RuntimeQuestion) -> str:
    text = html_text(question.prompt)
    unit = registry.of(question).unit(question)
    if unit:
        text += f"<p>Answer in {html.escape(unit)}.</p>"
    return text


def _explanation(source: Source, question: RuntimeQuestion) -> str:
    text = html_text(question.explanation)
    url = source.section_url(question)
    if url:
        title = html.escape(source.section_title(question))
        text += f'<p>Re-read: <a href="{html.escape(url, quote=True)}">{title}</a></p>'
    return text


def _item(section: ET.Element, source: Source, question: RuntimeQuestion) -> list[Loss]:
    methods = registry.of(question)
    if methods.qti_type is None:
        return [Loss(question.id, what, omitted=True) for what in methods.qti(question, None)]
    losses = [Loss(question.id, "hint: QTI for Canvas has no hints")] if question.hint else []
    item = ET.SubElement(section, "item", {"ident": _ident("item", question.id),
                                           "title": question.id})  # fmt: skip
    answers = [_ident("answer", question.id, str(i)) for i in range(methods.qti_answers(question))]
    _metadata(
        ET.SubElement(ET.SubElement(item, "itemmetadata"), "qtimetadata"),
        {
            "question_type": methods.qti_type,
            "points_possible": number(question.points),
            "original_answer_ids": ",".join(answers),
            "assessment_question_identifierref": _ident("question", question.id),
        },
    )
    presentation = ET.SubElement(item, "presentation")
    _material(presentation, _prompt(source, question))
    processing = ET.SubElement(item, "resprocessing")
    outcomes = ET.SubElement(processing, "outcomes")
    ET.SubElement(outcomes, "decvar", {"maxvalue": "100", "minvalue": "0",
                                       "varname": "SCORE", "vartype": "Decimal"})  # fmt: skip
    _condition(processing, lambda c: ET.SubElement(c, "other"), feedback="general_fb")
    kit = _Kit(presentation, processing, answers, {"general_fb": _explanation(source, question)})
    losses += [Loss(question.id, what) for what in methods.qti(question, kit)]
    for ident, markup in kit.feedbacks.items():
        block = ET.SubElement(item, "itemfeedback", {"ident": ident})
        _material(ET.SubElement(block, "flow_mat"), markup)
    return losses


Conditions = Callable[[ET.Element], object]


def _condition(
    processing: ET.Element,
    conditions: Conditions,
    *,
    score: tuple[str, str] | None = None,
    feedback: str | None = None,
    more: bool = True,
) -> None:
    condition = ET.SubElement(processing, "respcondition", {"continue": "Yes" if more else "No"})
    conditions(ET.SubElement(condition, "conditionvar"))
    if score:
        setvar = ET.SubElement(condition, "setvar", {"action": score[0], "varname": "SCORE"})
        setvar.text = score[1]
    if feedback:
        ET.SubElement(condition, "displayfeedback",
                      {"feedbacktype": "Response", "linkrefid": feedback})  # fmt: skip


def _equal(respident: str, value: str) -> Conditions:
    def add(parent: ET.Element) -> None:
        ET.SubElement(parent, "varequal", {"respident": respident}).text = value

    return add


class _Kit(HtmlWriting):
    """What QTI lends a question type (``questiontypes.QtiKit``): the item being written."""

    def __init__(
        self,
        presentation: ET.Element,
        processing: ET.Element,
        answers: list[str],
        feedbacks: dict[str, str],
    ) -> None:
        self.presentation, self.processing = presentation, processing
        self.answers, self.feedbacks = answers, feedbacks

    def sub(
        self, parent: ET.Element, tag: str, attributes: dict[str, str] | None = None
    ) -> ET.Element:
        return ET.SubElement(parent, tag, attributes or {})

    def material(self, parent: ET.Element, markup: str, kind: str = "text/html") -> None:
        _material(parent, markup, kind)

    def ident(self, *parts: str) -> str:
        return _ident(*parts)

    def condition(
        self,
        conditions: Conditions,
        *,
        score: tuple[str, str] | None = None,
        feedback: str | None = None,
        more: bool = True,
    ) -> None:
        _condition(self.processing, conditions, score=score, feedback=feedback, more=more)

    def equal(self, respident: str, value: str) -> Conditions:
        return _equal(respident, value)

    def choices(self, labels: Sequence[tuple[str, str]], cardinality: str, ident: str) -> None:
        response = ET.SubElement(self.presentation, "response_lid",
                                 {"ident": ident, "rcardinality": cardinality})  # fmt: skip
        render = ET.SubElement(response, "render_choice")
        for answer, markup in labels:
            _material(ET.SubElement(render, "response_label", {"ident": answer}), markup)

    def blank(self, *, numeric: bool) -> None:
        response = ET.SubElement(self.presentation, "response_str",
                                 {"ident": "response1", "rcardinality": "Single"})  # fmt: skip
        render = ET.SubElement(response, "render_fib", {"fibtype": "Decimal"} if numeric else {})
        ET.SubElement(render, "response_label", {"ident": "answer1"})


def _manifest(ident: str, source: Source) -> ET.Element:
    manifest = ET.Element("manifest", {"identifier": _ident("manifest", source.slug),
                                       "xmlns": CP_NS})  # fmt: skip
    metadata = ET.SubElement(manifest, "metadata")
    ET.SubElement(metadata, "schema").text = "IMS Content"
    ET.SubElement(metadata, "schemaversion").text = "1.1.3"
    ET.SubElement(manifest, "organizations")
    resources = ET.SubElement(manifest, "resources")
    meta_ident = _ident("meta", source.slug)
    resource = ET.SubElement(resources, "resource",
                             {"identifier": ident, "type": "imsqti_xmlv1p2"})  # fmt: skip
    ET.SubElement(resource, "file", {"href": f"{ident}/{ident}.xml"})
    ET.SubElement(resource, "dependency", {"identifierref": meta_ident})
    meta = ET.SubElement(resources, "resource", {
        "identifier": meta_ident,
        "type": "associatedcontent/imscc_xmlv1p1/learning-application-resource",
        "href": f"{ident}/assessment_meta.xml",
    })  # fmt: skip
    ET.SubElement(meta, "file", {"href": f"{ident}/assessment_meta.xml"})
    return manifest


def _meta(ident: str, source: Source, questions: Sequence[RuntimeQuestion]) -> ET.Element:
    quiz = ET.Element("quiz", {"identifier": ident, "xmlns": CANVAS_NS})
    ET.SubElement(quiz, "title").text = source.bank.title
    ET.SubElement(quiz, "description").text = ""
    ET.SubElement(quiz, "shuffle_answers").text = str(source.bank.shuffle.options).lower()
    ET.SubElement(quiz, "quiz_type").text = "practice_quiz"
    total = sum(q.points for q in questions if registry.of(q).qti_type is not None)
    ET.SubElement(quiz, "points_possible").text = number(total)
    ET.SubElement(quiz, "allowed_attempts").text = "-1"
    return quiz
