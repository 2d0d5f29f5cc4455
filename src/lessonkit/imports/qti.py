"""QTI 1.2 as Canvas exports it (and text2qti writes it) into bank questions.

Reads a Canvas "QTI .zip" or one of its `.xml` files. Multiple choice, multiple answers,
true/false, short answer, numerical (an exact value or a range), matching, Canvas's
ordering question and fill-in-multiple-blanks (a cloze) come across; essays, file
uploads, dropdowns, categorisation, formula questions and text-only items are reported as
lost.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from lessonkit.imports.archive import xml_members
from lessonkit.imports.common import (
    Draft,
    Imported,
    Loss,
    Notes,
    markdown_from_html,
    plain_from_html,
    refuse,
    slug_id,
)
from lessonkit.imports.safexml import parse, strip_namespaces

_LOST_TYPES = {
    "essay_question": "essay: graded by a person, not by lessonkit",
    "file_upload_question": "file upload: graded by a person, not by lessonkit",
    "text_only_question": "text only: not a question",
    "multiple_dropdowns_question": "several dropdowns: lessonkit has no question with several gaps",
    "calculated_question": "formula: lessonkit has no question with random values yet",
    "categorization_question": "categorisation: lessonkit has no sorting-into-groups question",
    "hot_spot_question": "hot spot: the bank format holds no images",
}
_REREAD = re.compile(r"\s*<p>Re-read: <a href=\"[^\"]*\">.*?</a></p>\s*$", re.S)
_UNIT = re.compile(r"\s*<p>Answer in (.+?)\.</p>\s*$", re.S)


def read(path: Path, data: bytes) -> Imported:
    """Every item of a QTI zip or XML file, in file order."""
    members = xml_members(data, path) if data[:2] == b"PK" else [(path.name, data)]
    result = Imported(path.name, title="")
    taken: set[str] = set()
    found = False
    for name, member in members:
        root = strip_namespaces(parse(member, f"{path}:{name}" if name != path.name else path))
        if root.tag != "questestinterop":
            continue  # the manifest and Canvas's assessment_meta.xml
        found = True
        for assessment in root.iter("assessment"):
            title = assessment.get("title") or ""
            result.title = result.title or title
            for item in assessment.iter("item"):
                _item(item, title, result, taken)
    if not found:
        raise refuse(path, "no QTI assessment in this file (no <questestinterop>)",
                     "export the quiz from Canvas as a QTI .zip")  # fmt: skip
    return result


def _item(item: ET.Element, category: str, result: Imported, taken: set[str]) -> None:
    meta = {f.findtext("fieldlabel") or "": (f.findtext("fieldentry") or "").strip()
            for f in item.iter("qtimetadatafield")}  # fmt: skip
    kind = meta.get("question_type", "")
    title = item.get("title") or ""
    ident = slug_id(title, item.get("ident") or "", taken=taken)
    notes = Notes(result.source, title or ident)
    if kind in _LOST_TYPES or kind not in _BODIES:
        unknown = f"type `{kind or 'unknown'}`: lessonkit has no such question type"
        result.losses += notes.omit(_LOST_TYPES.get(kind, unknown))
        return
    fields: dict[str, Any] = {"id": ident}
    prompt = _mattext(item.find("presentation/material/mattext"))
    if kind == "fill_in_multiple_blanks_question":
        prompt = _blank_markers(item, prompt)
    unit = _UNIT.search(prompt) if kind == "numerical_question" else None
    if unit:
        prompt, fields["unit"] = prompt[: unit.start()], unit.group(1)
    fields["prompt"] = markdown_from_html(prompt, notes)
    feedback = _feedbacks(item)
    general = feedback.pop("general_fb", "")
    if general:
        fields["explanation"] = markdown_from_html(_REREAD.sub("", general), notes)
    if feedback.pop("correct_fb", "") or feedback.pop("general_incorrect_fb", ""):
        notes.lost("feedback for right and wrong answers: lessonkit shows the explanation")
    try:
        points = float(meta.get("points_possible") or 1)
    except ValueError:
        points = 1.0
    if 0 < points <= 100 and points != 1:
        fields["points"] = int(points) if points.is_integer() else points
    body = _BODIES[kind](item, feedback, notes)
    if isinstance(body, list):
        result.losses += body
        return
    result.losses += notes.losses
    result.drafts.append(Draft(fields | body, category, notes.question))


def _blank_names(item: ET.Element) -> list[str]:
    lids = item.findall("presentation/response_lid")
    return [(lid.get("ident") or "").removeprefix("response_") for lid in lids]


def _blank_markers(item: ET.Element, prompt: str) -> str:
    """Canvas's `[name]` blanks as `[[1]]`, `[[2]]`… in the order of its responses."""
    for number, name in enumerate(_blank_names(item), 1):
        prompt = prompt.replace(f"[{name}]", f"[[{number}]]", 1)
    return prompt


def _blanks(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    """Each blank accepts the answers a response condition scores; Canvas gives each
    blank an equal share, as lessonkit does."""
    scored = [c for c in _conditions(item) if _scores(c) > 0]
    scoring = {
        (v.get("respident"), (v.text or "").strip()) for c in scored for v in c.iter("varequal")
    }
    blanks, dropdowns = [], False
    for lid, name in zip(
        item.findall("presentation/response_lid"), _blank_names(item), strict=True
    ):
        labels = [(ident, text) for ident, text in _labels(lid)
                  if not scoring or (lid.get("ident"), ident) in scoring]  # fmt: skip
        accept = [a for _, text in labels if (a := plain_from_html(text, notes))]
        if not accept:
            return notes.omit(f"blank `{name}` accepts no answer")
        dropdowns |= any(r.get("answer_type") == "dropdown" for r in lid.iter("response_label"))
        blanks.append({"accept": accept})
    if not 1 <= len(blanks) <= 10:
        return notes.omit(f"{len(blanks)} blanks: a cloze holds 1 to 10")
    if dropdowns:
        notes.lost("dropdown choices: lessonkit's blanks are typed, the right choice accepted")
    return {"type": "cloze", "blanks": blanks}


def _mattext(element: ET.Element | None) -> str:
    """A `mattext` as HTML: plain text (Canvas's default texttype) is escaped."""
    if element is None:
        return ""
    text = (element.text or "").strip()
    if (element.get("texttype") or "text/plain") == "text/plain":
        return html.escape(text).replace("\n", "<br>")
    return text


def _feedbacks(item: ET.Element) -> dict[str, str]:
    return {f.get("ident") or "": _mattext(f.find(".//mattext")) for f in item.iter("itemfeedback")}


def _labels(lid: ET.Element) -> list[tuple[str, str]]:
    return [(label.get("ident") or "", _mattext(label.find(".//mattext")))
            for label in lid.iter("response_label")]  # fmt: skip


def _conditions(item: ET.Element) -> list[ET.Element]:
    return list(item.iter("respcondition"))


def _scores(condition: ET.Element) -> float:
    setvar = condition.find("setvar")
    try:
        return float(setvar.text or 0) if setvar is not None else 0.0
    except ValueError:
        return 0.0


Body = dict[str, Any] | list[Loss]


def _choice(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    lid = item.find("presentation/response_lid")
    if lid is None:
        return notes.omit("no choices")
    labels = _labels(lid)
    right: set[str] = set()
    for condition in _conditions(item):
        if _scores(condition) >= 100:
            var = condition.find("conditionvar")
            assert var is not None
            negated = {v.text for n in var.iter("not") for v in n.iter("varequal")}
            right |= {v.text or "" for v in var.iter("varequal") if v.text not in negated}
    options = []
    for ident, text in labels:
        option: dict[str, Any] = {"text": markdown_from_html(text, notes)}
        if ident in right:
            option["correct"] = True
        if feedback.get(f"{ident}_fb"):
            option["feedback"] = markdown_from_html(feedback[f"{ident}_fb"], notes)
        options.append(option)
    multiple = (lid.get("rcardinality") or "Single") == "Multiple"
    if multiple:
        notes.lost("Canvas's grading option for multiple answers: graded by lessonkit's rule "
                   "(right chosen - wrong chosen) ÷ right options")  # fmt: skip
    return {"type": "multiple" if multiple else "single", "options": options}


def _true_false(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    body = _choice(item, feedback, notes)
    if isinstance(body, list):
        return body
    right = next((o["text"] for o in body["options"] if o.get("correct")), "")
    if any(o.get("feedback") for o in body["options"]):
        notes.lost("feedback per answer: lessonkit's true/false shows the explanation")
    return {"type": "true_false", "answer": right.strip().lower() == "true"}


def _short(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    accept = []
    for condition in _conditions(item):
        if _scores(condition) >= 100:
            accept += [v.text or "" for v in condition.iter("varequal") if v.text]
    if not accept:
        return notes.omit("no answer earns full marks")
    return {"type": "text", "accept": list(dict.fromkeys(accept))}


def _numeric(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    for condition in _conditions(item):
        if _scores(condition) < 100:
            continue
        exact = condition.find(".//varequal")
        low = _first(condition, "vargte", "vargt")
        high = _first(condition, "varlte", "varlt")
        try:
            if low is not None and high is not None:
                lo, hi = float(low.text or ""), float(high.text or "")
                answer = float(exact.text or "") if exact is not None else (lo + hi) / 2
                body: dict[str, Any] = {"type": "numeric", "answer": answer}
                margin = max(answer - lo, hi - answer)
                if margin > 1e-12:
                    body["tolerance"] = round(margin, 12)
                return body
            if exact is not None:
                return {"type": "numeric", "answer": float(exact.text or "")}
        except ValueError:
            return notes.omit("the answer is not a number")
    return notes.omit("no answer earns full marks")


def _first(condition: ET.Element, *tags: str) -> ET.Element | None:
    for tag in tags:
        found = condition.find(f".//{tag}")
        if found is not None:
            return found
    return None


def _match(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    lids = item.findall("presentation/response_lid")
    right_of: dict[str, str] = {}
    for condition in _conditions(item):
        for var in condition.iter("varequal"):
            if var.get("respident") and _scores(condition) > 0:
                right_of[var.get("respident") or ""] = var.text or ""
    pairs, used = [], set()
    labels: dict[str, str] = {}
    for lid in lids:
        labels.update(_labels(lid))
        left = plain_from_html(_mattext(lid.find("material/mattext")), notes)
        chosen = right_of.get(lid.get("ident") or "")
        if chosen is None:
            return notes.omit(f"no right answer for `{left}`")
        used.add(chosen)
        pairs.append({"left": left, "right": chosen})
    for pair in pairs:
        pair["right"] = plain_from_html(labels.get(pair["right"], pair["right"]), notes)
    body: dict[str, Any] = {"type": "match", "pairs": pairs}
    distractors = [
        plain_from_html(text, notes) for ident, text in labels.items() if ident not in used
    ]
    if distractors:
        body["distractors"] = distractors
    return body


def _order(item: ET.Element, feedback: dict[str, str], notes: Notes) -> Body:
    lid = item.find("presentation/response_lid")
    if lid is None:
        return notes.omit("no items")
    labels = dict(_labels(lid))
    for condition in _conditions(item):
        order = [v.text or "" for v in condition.iter("varequal")]
        if order and all(o in labels for o in order):
            items = [plain_from_html(labels[o], notes) for o in order]
            return {"type": "order", "items": items, "scoring": "all_or_nothing"}
    return notes.omit("no correct order")


_BODIES = {
    "multiple_choice_question": _choice,
    "multiple_answers_question": _choice,
    "true_false_question": _true_false,
    "short_answer_question": _short,
    "numerical_question": _numeric,
    "matching_question": _match,
    "ordering_question": _order,
    "fill_in_multiple_blanks_question": _blanks,
}
