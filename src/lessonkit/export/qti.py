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
    deterministic_zip,
    html_text,
    number,
    plain_questions,
)

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CP_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
CANVAS_NS = "http://canvas.instructure.com/xsd/cccv1p0"

QUESTION_TYPES = {
    "single": "multiple_choice_question",
    "multiple": "multiple_answers_question",
    "true_false": "true_false_question",
    "numeric": "numerical_question",
    "text": "short_answer_question",
    "match": "matching_question",
}


def convert(source: Source) -> Export:
    """The bank as a `.zip` for Canvas's "QTI .zip file" import."""
    ident = _ident("assessment", source.slug)
    losses: list[Loss] = []
    root = ET.Element("questestinterop", {"xmlns": QTI_NS})
    assessment = ET.SubElement(root, "assessment", {"ident": ident, "title": source.bank.title})
    _metadata(ET.SubElement(assessment, "qtimetadata"), {"cc_maxattempts": "1"})
    section = ET.SubElement(assessment, "section", {"ident": "root_section"})
    questions = plain_questions(source.bank.questions, losses, "Canvas")
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


def _prompt(source: Source, question: Question) -> str:
    text = html_text(question.prompt)
    if isinstance(question, NumericQuestion) and question.unit:
        text += f"<p>Answer in {html.escape(question.unit)}.</p>"
    return text


def _explanation(source: Source, question: Question) -> str:
    text = html_text(question.explanation)
    url = source.section_url(question)
    if url:
        title = html.escape(source.section_title(question))
        text += f'<p>Re-read: <a href="{html.escape(url, quote=True)}">{title}</a></p>'
    return text


def _item(section: ET.Element, source: Source, question: Question) -> list[Loss]:
    if isinstance(question, OrderQuestion):
        what = "type `order`: Canvas has no ordering question; left out"
        return [Loss(question.id, what, omitted=True)]
    losses = _common_losses(question)
    item = ET.SubElement(section, "item", {"ident": _ident("item", question.id),
                                           "title": question.id})  # fmt: skip
    answers = _answer_idents(question)
    _metadata(
        ET.SubElement(ET.SubElement(item, "itemmetadata"), "qtimetadata"),
        {
            "question_type": QUESTION_TYPES[question.type],
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
    feedbacks = {"general_fb": _explanation(source, question)}
    build = _BUILDERS[question.type]
    losses += build(question, presentation, processing, answers, feedbacks)
    for ident, markup in feedbacks.items():
        block = ET.SubElement(item, "itemfeedback", {"ident": ident})
        _material(ET.SubElement(block, "flow_mat"), markup)
    return losses


def _common_losses(question: Question) -> list[Loss]:
    losses = []
    if question.hint:
        losses.append(Loss(question.id, "hint: QTI for Canvas has no hints"))
    if isinstance(question, MultipleQuestion):
        rule = question.scoring
        # QTI 1.2 cannot say how to score a partly right choice; Canvas scores multiple
        # answers by its own grading option, chosen in Canvas.
        what = (f"scoring `{rule}`: Canvas grades multiple answers by its own option; "
                + ("choose \"partial credit with penalty\" (lessonkit's rule)" if rule == "partial"
                   else "choose \"exact match\""))  # fmt: skip
        losses.append(Loss(question.id, what))
    if isinstance(question, TextQuestion):
        if question.patterns:
            losses.append(Loss(question.id, "patterns: Canvas compares exact answers only"))
        if question.case_sensitive:
            losses.append(Loss(question.id, "case_sensitive: Canvas ignores letter case"))
        if question.multiline:
            losses.append(Loss(question.id, "multiline: Canvas takes one line"))
    return losses


def _answer_idents(question: Question) -> list[str]:
    if isinstance(question, ChoiceQuestion):
        count = len(question.options)
    elif isinstance(question, TrueFalseQuestion):
        count = 2
    elif isinstance(question, MatchQuestion):
        count = len(question.pairs) + len(question.distractors)
    else:
        count = 0
    return [_ident("answer", question.id, str(i)) for i in range(count)]


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


def _choices(
    presentation: ET.Element, labels: list[tuple[str, str]], cardinality: str, ident: str
) -> None:
    response = ET.SubElement(presentation, "response_lid",
                             {"ident": ident, "rcardinality": cardinality})  # fmt: skip
    render = ET.SubElement(response, "render_choice")
    for answer, markup in labels:
        _material(ET.SubElement(render, "response_label", {"ident": answer}), markup)


def _choice(
    question: Question,
    presentation: ET.Element,
    processing: ET.Element,
    answers: list[str],
    feedbacks: dict[str, str],
) -> list[Loss]:
    assert isinstance(question, ChoiceQuestion)
    multiple = isinstance(question, MultipleQuestion)
    options = question.options
    labels = [(a, html_text(o.text, inline=True)) for a, o in zip(answers, options, strict=True)]
    _choices(presentation, labels, "Multiple" if multiple else "Single", "response1")
    for answer, option in zip(answers, question.options, strict=True):
        if option.feedback:
            feedbacks[f"{answer}_fb"] = html_text(option.feedback)
            _condition(processing, _equal("response1", answer), feedback=f"{answer}_fb")
    if multiple:

        def every(parent: ET.Element) -> None:
            both = ET.SubElement(parent, "and")
            for answer, option in zip(answers, question.options, strict=True):
                if option.correct:
                    _equal("response1", answer)(both)
                else:
                    _equal("response1", answer)(ET.SubElement(both, "not"))

        _condition(processing, every, score=("Set", "100"), more=False)
    else:
        right = next(a for a, o in zip(answers, question.options, strict=True) if o.correct)
        _condition(processing, _equal("response1", right), score=("Set", "100"), more=False)
    return []


def _true_false(
    question: Question,
    presentation: ET.Element,
    processing: ET.Element,
    answers: list[str],
    feedbacks: dict[str, str],
) -> list[Loss]:
    assert isinstance(question, TrueFalseQuestion)
    _choices(presentation, [(answers[0], "True"), (answers[1], "False")], "Single", "response1")
    right = answers[0] if question.answer else answers[1]
    _condition(processing, _equal("response1", right), score=("Set", "100"), more=False)
    return []


def _fib(presentation: ET.Element, numeric: bool) -> None:
    response = ET.SubElement(presentation, "response_str",
                             {"ident": "response1", "rcardinality": "Single"})  # fmt: skip
    render = ET.SubElement(response, "render_fib", {"fibtype": "Decimal"} if numeric else {})
    ET.SubElement(render, "response_label", {"ident": "answer1"})


def _numeric(
    question: Question,
    presentation: ET.Element,
    processing: ET.Element,
    answers: list[str],
    feedbacks: dict[str, str],
) -> list[Loss]:
    assert isinstance(question, NumericQuestion)
    _fib(presentation, numeric=True)
    margin = question.allowed_error()

    def within(parent: ET.Element) -> None:
        either = ET.SubElement(parent, "or")
        ET.SubElement(either, "varequal", {"respident": "response1"}).text = number(
            question.value()
        )
        both = ET.SubElement(either, "and")
        low, high = question.value() - margin, question.value() + margin
        ET.SubElement(both, "vargte", {"respident": "response1"}).text = number(low)
        ET.SubElement(both, "varlte", {"respident": "response1"}).text = number(high)

    _condition(processing, within, score=("Set", "100"), more=False)
    return []


def _text(
    question: Question,
    presentation: ET.Element,
    processing: ET.Element,
    answers: list[str],
    feedbacks: dict[str, str],
) -> list[Loss]:
    assert isinstance(question, TextQuestion)
    _fib(presentation, numeric=False)

    def any_of(parent: ET.Element) -> None:
        for accepted in question.accept:
            _equal("response1", accepted)(parent)

    if question.accept:
        _condition(processing, any_of, score=("Set", "100"), more=False)
        return []
    return [Loss(question.id, "patterns only: no accepted answer Canvas could compare with")]


def _match(
    question: Question,
    presentation: ET.Element,
    processing: ET.Element,
    answers: list[str],
    feedbacks: dict[str, str],
) -> list[Loss]:
    assert isinstance(question, MatchQuestion)
    rights = [p.right for p in question.pairs] + question.distractors
    labels = [(a, html.escape(r)) for a, r in zip(answers, rights, strict=True)]
    share = number(round(100 / len(question.pairs), 4))
    for index, pair in enumerate(question.pairs):
        ident = f"response_{_ident('left', question.id, str(index))}"
        response = ET.SubElement(presentation, "response_lid", {"ident": ident})
        _material(response, html.escape(pair.left), "text/plain")
        render = ET.SubElement(response, "render_choice")
        for answer, markup in labels:
            _material(ET.SubElement(render, "response_label", {"ident": answer}), markup)
        _condition(processing, _equal(ident, answers[index]), score=("Add", share))
    return []


_BUILDERS = {
    "single": _choice,
    "multiple": _choice,
    "true_false": _true_false,
    "numeric": _numeric,
    "text": _text,
    "match": _match,
}


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


def _meta(ident: str, source: Source, questions: Sequence[Question]) -> ET.Element:
    quiz = ET.Element("quiz", {"identifier": ident, "xmlns": CANVAS_NS})
    ET.SubElement(quiz, "title").text = source.bank.title
    ET.SubElement(quiz, "description").text = ""
    ET.SubElement(quiz, "shuffle_answers").text = str(source.bank.shuffle.options).lower()
    ET.SubElement(quiz, "quiz_type").text = "practice_quiz"
    total = sum(q.points for q in questions if not isinstance(q, OrderQuestion))
    ET.SubElement(quiz, "points_possible").text = number(total)
    ET.SubElement(quiz, "allowed_attempts").text = "-1"
    return quiz
