"""Moodle XML into bank questions: multichoice, truefalse, shortanswer, numerical, matching,
order, and embedded answers (cloze).

Fractions become lessonkit's correct flags and partial-credit rule; general feedback the
explanation; per-answer feedback each option's feedback; `*` wildcards in short answers
regular-expression patterns; calculated questions parameterised ones (``calculated``). A
cloze's embedded answers (`{1:SHORTANSWER:=a~=b}`, `{1:NUMERICAL:=32:1}`) become its
blanks, `[[1]]`, `[[2]]`… in the prompt. Essay and the drag-and-drop types have no
counterpart and are reported, with anything else a question loses.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import quote

from lessonkit.imports import calculated
from lessonkit.imports.common import (
    PLUGINFILE,
    Draft,
    Imported,
    Loss,
    Notes,
    markdown_from_html,
    markdown_from_plain,
    plain_from_html,
    refuse,
    slug_id,
    weighted_choice,
)
from lessonkit.imports.safexml import parse
from lessonkit.imports.wildcards import pattern_from_wildcards

# Moodle's own defaults for combined feedback: not worth a loss line when left as they are.
_STOCK_FEEDBACK = {"", "Your answer is correct.", "Your answer is partially correct.",
                   "Your answer is incorrect."}  # fmt: skip
_UNSUPPORTED = {
    "essay": "essay: graded by a person, not by lessonkit",
    "calculatedmulti": "calculated multiple choice: lessonkit's choices with drawn numbers "
    "take a `value` formula per option; write them by hand",
    "description": "description: text, not a question",
    "randomsamatch": "random short-answer matching: drawn from other questions when taken",
    "gapselect": "select missing words: lessonkit has no question with several gaps",
    "ddwtos": "drag and drop into text: lessonkit has no question with several gaps",
    "ddimageortext": "drag and drop onto an image: the bank format holds no images",
    "ddmarker": "drag markers onto an image: the bank format holds no images",
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
        name = plain_from_html(_text(element, "name"))
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
    for packed in found.findall("file"):  # those the text shows or links are named there
        name = packed.get("name") or "without a name"
        if f"{PLUGINFILE}{name}" not in text and f"{PLUGINFILE}{quote(name)}" not in text:
            notes.lost(f"embedded file `{name}` left out: the bank format holds no files")
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
    if kind in _CALCULATED and (lost := _wildcards(element, notes)):
        return lost
    prompt_html = (element.findtext("questiontext/text") or "").strip()
    fields: dict[str, Any] = {"id": ident}
    unit = _UNIT.search(prompt_html) if kind in ("numerical", *_CALCULATED) else None
    if unit:
        element.find("questiontext/text").text = prompt_html[: unit.start()]  # type: ignore[union-attr]
        fields["unit"] = unit.group(1)
    if element.find("image") is not None or element.find("image_base64") is not None:
        name = (element.findtext("image") or "").strip().rsplit("/", 1)[-1] or "without a name"
        notes.lost(f"image `{name}` left out: the bank format holds no images")
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


_CALCULATED = ("calculated", "calculatedsimple")
_TEXTS = ("questiontext/text", "generalfeedback/text", "hint/text")


def _wildcards(element: ET.Element, notes: Notes) -> list[Loss]:
    """A calculated question's texts with each `{wildcard}` under its lessonkit name;
    the question left out when a text computes a value inline (`{=…}`)."""
    names = calculated.rename_wildcards(element)
    texts = [e for path in _TEXTS for e in element.findall(path)]
    if inline := calculated.inline_formulas(*(e.text or "" for e in texts)):
        return notes.omit(f"the formula `{inline[0]}` in its text: lessonkit's texts show "
                          "named values only; make it a derived value and write its "
                          "name")  # fmt: skip
    for text in texts:
        text.text = calculated.renamed(text.text or "", names)
    return []


def _calculated(element: ET.Element, notes: Notes) -> Body:
    body = calculated.body(element, calculated.rename_wildcards(element), notes)
    if isinstance(body, dict):
        units = [(u.findtext("unit_name") or "").strip() for u in element.findall("units/unit")
                 if float(u.findtext("multiplier") or 1) == 1]  # fmt: skip
        if units and units[0]:
            body["unit"] = units[0]
    return body


def _hints(element: ET.Element, fields: dict[str, Any], notes: Notes) -> None:
    hints = [h for h in element.findall("hint") if (h.findtext("text") or "").strip()]
    if hints:
        fields["hint"] = markdown_from_html((hints[0].findtext("text") or "").strip(), notes)
    for extra in hints[1:]:
        said = plain_from_html((extra.findtext("text") or "").strip())
        notes.lost(f"the hint “{said}” left out: lessonkit shows one hint, the first; fold "
                   "what it adds into that one")  # fmt: skip


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
    options, fractions, named = [], [], []
    for answer in element.findall("answer"):
        option: dict[str, Any] = {"text": _rich(answer, ".", notes)}
        fractions.append(_fraction(answer))
        named.append(plain_from_html((answer.findtext("text") or "").strip()))
        if feedback := _feedback(answer, notes):
            option["feedback"] = feedback
        options.append(option)
    body = weighted_choice(options, fractions, named, notes, single=single)
    if isinstance(body, dict):
        _shuffle(element, body)
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
                           "answers are right or wrong, so it is left out of `accept` and "
                           "counts as wrong; add it to `accept` to give it full marks")  # fmt: skip
            if _feedback(answer, notes):
                what = "any other answer (`*`)" if text == "*" else f"`{text}`"
                notes.lost(f"feedback for {what}: lessonkit's text questions have none; "
                           "say it in the explanation")  # fmt: skip
            continue
        if _feedback(answer, notes):
            notes.lost(f"feedback for `{text}`: lessonkit's text questions have none; "
                           "say it in the explanation")  # fmt: skip
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
    text = (right[0].findtext("text") or "").strip()
    for other in element.findall("answer"):
        if other is right[0]:
            continue
        if (other.findtext("text") or "").strip() == "*":  # any other number: wrong here too
            if _feedback(other, notes):
                notes.lost("feedback for any other number (`*`): lessonkit's numeric questions "
                           "have none; say it in the explanation")  # fmt: skip
            continue
        said, fraction = _said(other), _fraction(other)
        if fraction >= 99.99:
            notes.lost(f"{said} also earned full marks in Moodle: lessonkit takes one value, "
                       f"{_said(right[0])}; answers near the other count as wrong")  # fmt: skip
        elif fraction > 0:
            notes.lost(f"partial credit ({fraction:g}%) for {said}: lessonkit's numeric "
                       "answers are right or wrong, so these count as wrong")  # fmt: skip
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
        notes.lost(f"feedback for {text}: lessonkit's numeric questions have none; say it in "
                   "the explanation")  # fmt: skip
    return body


def _said(answer: ET.Element) -> str:
    """A numerical answer as a reader says it: `1822 ± 2`."""
    text = (answer.findtext("text") or "").strip()
    tolerance = (answer.findtext("tolerance") or "").strip()
    return f"{text} ± {tolerance}" if tolerance and float(tolerance or 0) else text


def _matching(element: ET.Element, notes: Notes) -> Body:
    pairs, distractors = [], []
    for sub in element.findall("subquestion"):
        left = plain_from_html((sub.findtext("text") or "").strip(), notes)
        right = (sub.findtext("answer/text") or "").strip()
        if left:
            pairs.append({"left": left, "right": right})
        elif right:
            distractors.append(right)
    # Items may share an answer (frog and newt: amphibian), as in lessonkit.
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
    elif grading == "LONGEST_ORDERED_SUBSET":
        notes.lost("grading by the longest ordered subset: lessonkit scores it (length - 1) "
                   "out of (items - 1), not length out of items")  # fmt: skip
    elif grading:
        notes.lost(f"grading type {grading}: lessonkit grades by the longest subset of items "
                   "in the right order")  # fmt: skip
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
    "calculated": _calculated,
    "calculatedsimple": _calculated,
}
