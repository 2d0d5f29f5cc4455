"""Moodle XML into bank questions: multichoice, truefalse, shortanswer, numerical, matching,
order, and embedded answers (cloze).

Fractions become lessonkit's correct flags and partial-credit rule; general feedback the
explanation; per-answer feedback each option's feedback; `*` wildcards in short answers
regular-expression patterns. A cloze's embedded answers (`{1:SHORTANSWER:=a~=b}`,
`{1:NUMERICAL:=32:1}`) become its blanks, `[[1]]`, `[[2]]`… in the prompt. Calculated,
essay and the drag-and-drop types have no counterpart and are reported, with anything
else a question loses.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from lessonkit.imports.common import (
    Draft,
    Imported,
    Loss,
    Notes,
    markdown_from_html,
    markdown_from_plain,
    plain_from_html,
    refuse,
    slug_id,
)
from lessonkit.imports.safexml import parse
from lessonkit.imports.wildcards import pattern_from_wildcards

# Moodle's own defaults for combined feedback: not worth a loss line when left as they are.
_STOCK_FEEDBACK = {"", "Your answer is correct.", "Your answer is partially correct.",
                   "Your answer is incorrect."}  # fmt: skip
_UNSUPPORTED = {
    "essay": "essay: graded by a person, not by lessonkit",
    "calculated": "calculated: lessonkit has no question with random values yet",
    "calculatedsimple": "calculated: lessonkit has no question with random values yet",
    "calculatedmulti": "calculated: lessonkit has no question with random values yet",
    "description": "description: text, not a question",
    "randomsamatch": "random short-answer matching: drawn from other questions when taken",
}
_CLOZE = ("multianswer", "cloze")  # Moodle's embedded answers, read by _embedded
# Our own exports add these; an import takes them back off.
_REREAD = re.compile(r"\s*<p>Re-read: <a href=\"[^\"]*\">.*?</a></p>\s*$", re.S)
_UNIT = re.compile(r"\s*<p>Answer in (.+?)\.</p>\s*$", re.S)


def read(path: Path, data: bytes) -> Imported:
    """Every question of a Moodle XML file, in file order."""
    root = parse(data, path)
    if root.tag not in ("quiz", "question"):
        raise refuse(path, f"the root element is <{root.tag}>, not Moodle XML's <quiz>",
                     "export with Moodle's \"Moodle XML format\"")  # fmt: skip
    questions = [root] if root.tag == "question" else root.findall("question")
    source = path.name
    result = Imported(source, title="")
    category, taken = "", set[str]()
    for element in questions:
        kind = element.get("type", "")
        if kind == "category":
            category = _category(element)
            result.title = result.title or category
            continue
        name = _text(element, "name")
        ident = slug_id((element.findtext("idnumber") or "").strip(), name, taken=taken)
        notes = Notes(source, name or ident)
        fields = _question(kind, element, ident, notes)
        if isinstance(fields, list):
            result.losses += fields
            continue
        result.losses += notes.losses
        result.drafts.append(Draft(fields, category, notes.question))
    return result


def _category(element: ET.Element) -> str:
    path = _text(element, "category")
    parts = [p for p in path.split("/") if p and not p.startswith("$") and p != "top"]
    return parts[-1] if parts else ""


def _text(element: ET.Element | None, tag: str) -> str:
    found = element.find(tag) if element is not None else None
    return (found.findtext("text") or "").strip() if found is not None else ""


def _rich(element: ET.Element, tag: str, notes: Notes) -> str:
    """A text field as Markdown, whatever Moodle format it was written in."""
    found = element.find(tag)
    if found is None:
        return ""
    text = (found.findtext("text") or "").strip()
    if found.findall("file"):
        notes.lost(f"{tag}: embedded files (images, sound) left out")
    form = found.get("format") or element.get("format") or "html"
    if form == "markdown":
        return text
    if form in ("plain_text", "moodle_auto_format"):
        return markdown_from_plain(text)
    return markdown_from_html(text, notes)


def _question(
    kind: str, element: ET.Element, ident: str, notes: Notes
) -> dict[str, Any] | list[Loss]:
    if kind in _UNSUPPORTED:
        return notes.omit(_UNSUPPORTED[kind])
    if kind not in _BODIES and kind not in _CLOZE:
        return notes.omit(f"type `{kind}`: lessonkit has no such question type")
    prompt_html = (element.findtext("questiontext/text") or "").strip()
    fields: dict[str, Any] = {"id": ident}
    unit = _UNIT.search(prompt_html) if kind == "numerical" else None
    if unit:
        element.find("questiontext/text").text = prompt_html[: unit.start()]  # type: ignore[union-attr]
        fields["unit"] = unit.group(1)
    if element.find("image") is not None or element.find("image_base64") is not None:
        notes.lost("image: the bank format holds no images; left out")
    cloze = _embedded(element, notes) if kind in _CLOZE else None
    if isinstance(cloze, list):
        return cloze
    fields["prompt"] = _rich(element, "questiontext", notes)
    general = element.find("generalfeedback/text")
    if general is not None and general.text:
        general.text = _REREAD.sub("", general.text)
    explanation = _rich(element, "generalfeedback", notes)
    if explanation:
        fields["explanation"] = explanation
    points = float(element.findtext("defaultgrade") or 1)
    if 0 < points <= 100:
        if points != 1:
            fields["points"] = int(points) if points.is_integer() else points
    else:
        notes.lost(f"default mark {points:g}: lessonkit's points are above 0 and at most 100; 1")
    _hints(element, fields, notes)
    _tags(element, fields)
    _combined_feedback(element, notes)
    body = cloze or _BODIES[kind](element, notes)
    if isinstance(body, list):
        return body
    return fields | body


def _hints(element: ET.Element, fields: dict[str, Any], notes: Notes) -> None:
    hints = [h for h in element.findall("hint") if (h.findtext("text") or "").strip()]
    if hints:
        fields["hint"] = markdown_from_html((hints[0].findtext("text") or "").strip(), notes)
    if len(hints) > 1:
        notes.lost(f"{len(hints) - 1} more hint(s): lessonkit shows one hint")


def _tags(element: ET.Element, fields: dict[str, Any]) -> None:
    tags, objectives = [], []
    for tag in element.findall("tags/tag"):
        value = (tag.findtext("text") or "").strip()
        if match := re.fullmatch(r"lessonkit-insight-(\d+)", value):
            fields["insight"] = int(match.group(1))
        elif match := re.fullmatch(r"lessonkit-objective-(\d+)", value):
            objectives.append(int(match.group(1)))
        elif value:
            tags.append(value)
    if tags:
        fields["tags"] = tags
    if objectives:
        fields["objectives"] = objectives


def _combined_feedback(element: ET.Element, notes: Notes) -> None:
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        text = plain_from_html(_text(element, tag))
        if text not in _STOCK_FEEDBACK:
            notes.lost(f"{tag}: lessonkit shows the explanation after every answer instead")


def _fraction(answer: ET.Element) -> float:
    try:
        return float(answer.get("fraction") or 0)
    except ValueError:
        return 0.0


def _feedback(answer: ET.Element, notes: Notes) -> str:
    return _rich(answer, "feedback", notes)


def _shuffle(element: ET.Element, fields: dict[str, Any]) -> None:
    if (element.findtext("shuffleanswers") or "").strip().lower() in ("0", "false"):
        fields["shuffle"] = False


Body = dict[str, Any] | list[Loss]


def _multichoice(element: ET.Element, notes: Notes) -> Body:
    single = (element.findtext("single") or "true").strip().lower() in ("true", "1")
    answers = element.findall("answer")
    options, fractions = [], []
    for answer in answers:
        option: dict[str, Any] = {"text": _rich(answer, ".", notes)}
        fraction = _fraction(answer)
        fractions.append(fraction)
        if (single and fraction >= 99.99) or (not single and fraction > 0):
            option["correct"] = True
        if feedback := _feedback(answer, notes):
            option["feedback"] = feedback
        options.append(option)
    body: dict[str, Any] = {"type": "single" if single else "multiple", "options": options}
    _shuffle(element, body)
    if single and any(0 < f < 99.99 for f in fractions):
        notes.lost("partial credit for a wrong option: lessonkit's single choice gives none")
    if not single:
        right = sum(f > 0 for f in fractions)
        expected = [100 / right if f > 0 else -100 / right for f in fractions] if right else []
        if any(abs(f - e) > 0.01 for f, e in zip(fractions, expected, strict=True)):
            notes.lost("option weights: graded by lessonkit's rule (right chosen - wrong "
                       "chosen) ÷ right options")  # fmt: skip
    return body


def _truefalse(element: ET.Element, notes: Notes) -> Body:
    answers = {(a.findtext("text") or "").strip().lower(): a for a in element.findall("answer")}
    true = answers.get("true")
    if any(_feedback(a, notes) for a in answers.values()):
        notes.lost("feedback per answer: lessonkit's true/false shows the explanation")
    return {"type": "true_false", "answer": true is not None and _fraction(true) >= 99.99}


def _shortanswer(element: ET.Element, notes: Notes) -> Body:
    accept: list[str] = []
    patterns: list[str] = []
    for answer in element.findall("answer"):
        text, fraction = (answer.findtext("text") or "").strip(), _fraction(answer)
        if fraction < 99.99:
            if fraction > 0:
                notes.lost(f"partial credit ({fraction:g}%) for `{text}`: lessonkit's text "
                           "answers are right or wrong")  # fmt: skip
            if _feedback(answer, notes):
                notes.lost(f"feedback for `{text}`: lessonkit's text questions have none")
            continue
        if _feedback(answer, notes):
            notes.lost(f"feedback for `{text}`: lessonkit's text questions have none")
        literal = pattern_from_wildcards(text)
        (accept if literal[0] == "accept" else patterns).append(literal[1])
    if not accept and not patterns:
        return notes.omit("no answer earns full marks")
    body: dict[str, Any] = {"type": "text"}
    if accept:
        body["accept"] = accept
    if patterns:
        body["patterns"] = patterns
    if (element.findtext("usecase") or "0").strip() == "1":
        body["case_sensitive"] = True
    return body


def _numerical(element: ET.Element, notes: Notes) -> Body:
    right = [a for a in element.findall("answer") if _fraction(a) >= 99.99]
    if not right:
        return notes.omit("no answer earns full marks")
    if len(right) > 1 or len(right) < len(element.findall("answer")):
        notes.lost("other answers and their partial credit: lessonkit takes one value")
    text = (right[0].findtext("text") or "").strip()
    try:
        value = float(text)
    except ValueError:
        return notes.omit(f"answer `{text}` is not a number")
    body: dict[str, Any] = {"type": "numeric", "answer": value}
    tolerance = float(right[0].findtext("tolerance") or 0)
    if tolerance:
        body["tolerance"] = abs(tolerance)
    units = [(u.findtext("unit_name") or "").strip() for u in element.findall("units/unit")
             if float(u.findtext("multiplier") or 1) == 1]  # fmt: skip
    if units and units[0]:
        body["unit"] = units[0]
    if _feedback(right[0], notes):
        notes.lost(f"feedback for {text}: lessonkit's numeric questions have none")
    return body


def _matching(element: ET.Element, notes: Notes) -> Body:
    pairs, distractors = [], []
    for sub in element.findall("subquestion"):
        left = plain_from_html((sub.findtext("text") or "").strip(), notes)
        right = (sub.findtext("answer/text") or "").strip()
        if left:
            pairs.append({"left": left, "right": right})
        elif right:
            distractors.append(right)
    rights = [p["right"] for p in pairs]
    shared = sorted({r for r in rights if rights.count(r) > 1})
    if shared:
        return notes.omit(f"several left-hand items share the answer `{shared[0]}`: lessonkit "
                          "matches each to a different right-hand item")  # fmt: skip
    body: dict[str, Any] = {"type": "match", "pairs": pairs}
    if distractors:
        body["distractors"] = distractors
    _shuffle(element, body)
    return body


def _ordering(element: ET.Element, notes: Notes) -> Body:
    answers = sorted(element.findall("answer"), key=_fraction)
    items = [plain_from_html((a.findtext("text") or "").strip(), notes) for a in answers]
    body: dict[str, Any] = {"type": "order", "items": items}
    grading = (element.findtext("gradingtype") or "").strip().upper()
    if grading == "ALL_OR_NOTHING":
        body["scoring"] = "all_or_nothing"
    elif grading not in ("", "RELATIVE_NEXT_EXCLUDE_LAST"):
        notes.lost(f"grading type {grading}: lessonkit grades neighbouring pairs")
    if (element.findtext("selecttype") or "ALL").strip().upper() != "ALL":
        notes.lost("a subset of the items: lessonkit asks for all of them")
    if any(_feedback(a, notes) for a in answers):
        notes.lost("feedback per item: lessonkit's order questions have none")
    return body


# One embedded answer: {weight:TYPE:answers}, answers split at `~`, `\` escaping specials.
_EMBEDDED = re.compile(r"\{(\d*):([A-Za-z_]+):((?:\\.|[^\\}])*)\}")
_UNESCAPE = re.compile(r"\\(.)")
_TEXT_KINDS = {"SHORTANSWER", "SA", "MW", "SHORTANSWER_C", "SAC", "MWC"}
_NUMBER_KINDS = {"NUMERICAL", "NM"}
_CASE_KINDS = {"SHORTANSWER_C", "SAC", "MWC"}


def _embedded(element: ET.Element, notes: Notes) -> Body | None:
    """A cloze's blanks from its question text, which is rewritten with `[[n]]` markers."""
    text = element.find("questiontext/text")
    source = (text.text or "") if text is not None else ""
    found = list(_EMBEDDED.finditer(source))
    if text is None or not found:
        return notes.omit("cloze without embedded answers: nothing to answer")
    if len(found) > 10:
        return notes.omit(f"{len(found)} blanks: a cloze holds at most 10")
    blanks, weights, lost = [], set(), dict[str, list[int]]()
    for number, embedded in enumerate(found, 1):
        weight, kind, answers = embedded.groups()
        weights.add(weight or "1")
        blank = _blank(kind.upper(), _answers(answers))
        if blank is None:
            return notes.omit(f"blank {number} has no answer that earns full marks")
        for what in blank.pop("lost"):
            lost.setdefault(what, []).append(number)
        blanks.append(blank)
    for what, numbers in lost.items():
        which = ", ".join(str(n) for n in numbers)
        notes.lost(f"blank{'s' if len(numbers) > 1 else ''} {which}: {what}")
    if len(weights) > 1:
        notes.lost("blank weights: each blank counts the same in lessonkit")
    parts = iter(range(1, len(found) + 1))
    text.text = _EMBEDDED.sub(lambda _: f"[[{next(parts)}]]", source)
    return {"type": "cloze", "blanks": blanks}


def _answers(written: str) -> list[tuple[float, str, str]]:
    """(fraction, answer, feedback) for each `~`-separated answer, unescaped."""
    found = []
    for answer in re.split(r"(?<!\\)~", written):
        fraction = 0.0
        if answer.startswith("="):
            fraction, answer = 100.0, answer[1:]
        elif weighted := re.match(r"%(-?[\d.]+)%", answer):
            fraction, answer = float(weighted.group(1)), answer[weighted.end() :]
        text, feedback = [*re.split(r"(?<!\\)#", answer, maxsplit=1), ""][:2]
        # The answers stand in the question's HTML: `&lt;` is `<`.
        found.append((fraction, html.unescape(_UNESCAPE.sub(r"\1", text)).strip(), feedback))
    return found


def _blank(kind: str, answers: list[tuple[float, str, str]]) -> dict[str, Any] | None:
    """One blank's fields, with what it loses under `lost` (phrases the caller groups)."""
    said = []
    right = [text for fraction, text, _ in answers if fraction >= 99.99]
    if any(0 < fraction < 99.99 for fraction, *_ in answers):
        said.append("partial credit for an answer; lessonkit's blanks are right or wrong")
    if any(feedback for *_, feedback in answers):
        said.append("feedback per answer; lessonkit shows the explanation")
    if not right:
        return None
    if kind in _NUMBER_KINDS:
        value, _, margin = right[0].partition(":")
        try:
            blank: dict[str, Any] = {"answer": float(value)}
            if margin and float(margin):
                blank["tolerance"] = abs(float(margin))
        except ValueError:
            return None
        if len(right) > 1:
            said.append("more than one right number; lessonkit takes the first")
        return blank | {"lost": said}
    if kind not in _TEXT_KINDS:
        said.append(f"{kind} choices; lessonkit's blanks are typed, the right choice accepted")
    accept: list[str] = []
    patterns: list[str] = []
    for text in right:
        literal = pattern_from_wildcards(text)
        (accept if literal[0] == "accept" else patterns).append(literal[1])
    blank = {"accept": accept} if accept else {}
    blank |= {"patterns": patterns} if patterns else {}
    blank |= {"case_sensitive": True} if kind in _CASE_KINDS else {}
    return blank | {"lost": said}


_BODIES = {
    "multichoice": _multichoice,
    "truefalse": _truefalse,
    "shortanswer": _shortanswer,
    "numerical": _numerical,
    "matching": _matching,
    "ordering": _ordering,
}
