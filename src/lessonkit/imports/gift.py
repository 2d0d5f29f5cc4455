"""GIFT (Moodle's plain-text format) into bank questions.

Reads what Moodle's own GIFT importer reads: `::title::`, `[html]`/`[markdown]`/`[plain]`
formats, `=`/`~` answers with `%weight%` and `#feedback`, `####general feedback`,
true/false, numeric (`#value:tolerance` and `#low..high`), matching (`->`), short answer
and `$CATEGORY:` lines. Essays (`{}`) and several-gap questions are reported as lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lessonkit.imports.common import (
    Draft,
    Imported,
    Loss,
    Notes,
    decode_text,
    markdown_from_html,
    markdown_from_plain,
    plain_from_html,
    slug_id,
    weighted_choice,
)
from lessonkit.imports.wildcards import pattern_from_wildcards

_ESCAPED = {"\\" + c: f"\x00{ord(c)}\x00" for c in "~=#{}:\\"}
_UNESCAPE = re.compile(r"\x00(\d+)\x00")
_FORMAT = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]", re.I)
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_REREAD = re.compile(r"\s*Re-read: \S+\s*$")
_UNIT = re.compile(r"\s*\(answer in (.+)\)\s*$")


def read(path: Path, data: bytes) -> Imported:
    """Every question of a GIFT file, in file order."""
    text = decode_text(path, data)
    result = Imported(path.name, title="")
    category, taken, counter = "", set[str](), 0
    for block in _blocks(text):
        if block.startswith("$CATEGORY:"):
            category = block.split(":", 1)[1].strip().split("/")[-1]
            result.title = result.title or category
            continue
        counter += 1
        question = _split(block)
        if question is None:
            result.losses.append(Loss(path.name, f"block {counter}", "no `{…}` answer part: "
                                      "not a question", omitted=True))  # fmt: skip
            continue
        title, prompt, answers, after = question
        ident = slug_id(_plain(title), _plain(prompt)[:60], taken=taken)
        notes = Notes(path.name, _plain(title) or ident)
        fields = _question(ident, prompt, answers, after, notes)
        if isinstance(fields, list):
            result.losses += fields
        else:
            result.losses += notes.losses
            result.drafts.append(Draft(fields, category, notes.question))
    return result


def _blocks(text: str) -> Iterator[str]:
    """Questions and category lines: comments dropped, blank lines between questions."""
    lines: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if not stripped:
            if lines and _balanced("\n".join(lines)):
                yield "\n".join(lines).strip()
                lines = []
            continue
        if stripped.startswith("$CATEGORY:") and not lines:
            yield stripped
            continue
        lines.append(line)
    if lines:
        yield "\n".join(lines).strip()


def _protect(text: str) -> str:
    for escaped, token in _ESCAPED.items():
        text = text.replace(escaped, token)
    return text


def _balanced(text: str) -> bool:
    protected = _protect(text)
    return protected.count("{") <= protected.count("}")


def _restore(text: str) -> str:
    return _UNESCAPE.sub(lambda m: chr(int(m.group(1))), text).replace("\\n", "\n")


def _split(block: str) -> tuple[str, str, str, str] | None:
    protected = _protect(block)
    title = ""
    if protected.startswith("::") and "::" in protected[2:]:
        title, protected = protected[2:].split("::", 1)
    start, end = protected.find("{"), protected.rfind("}")
    if start < 0 or end < start:
        return None
    return title.strip(), protected[:start], protected[start + 1 : end], protected[end + 1 :]


def _plain(text: str) -> str:
    return " ".join(_restore(_FORMAT.sub("", text)).split())


def _markdown(text: str, notes: Notes, default: str = "moodle") -> str:
    """A GIFT text in its own format (`[html]`, `[markdown]`, `[plain]`, `[moodle]`) as Markdown."""
    found = _FORMAT.match(text)
    form = found.group(1).lower() if found else default
    body = _restore(text[found.end() :] if found else text).strip()
    if form == "markdown":
        return body
    if form == "html":
        return markdown_from_html(body, notes)
    return markdown_from_plain(body)


def _question(
    ident: str, prompt: str, answers: str, after: str, notes: Notes
) -> dict[str, Any] | list[Loss]:
    answers, _, general = answers.partition("####")
    fields: dict[str, Any] = {"id": ident}
    unit = _UNIT.search(prompt)
    if unit:
        prompt = prompt[: unit.start()]
    if after.strip():  # Moodle's "missing word": the answer goes in the gap, as there
        rest = after.strip()
        prompt = f"{prompt.rstrip()} _____{'' if rest[0] in '.,;:!?)' else ' '}{rest}"
    fields["prompt"] = _markdown(prompt, notes)
    explanation = _markdown(_REREAD.sub("", general), notes) if general.strip() else ""
    if explanation:
        fields["explanation"] = explanation
    body = _body(answers.strip(), notes)
    if isinstance(body, list):
        return body
    if unit and body.get("type") == "numeric":
        body["unit"] = _restore(unit.group(1))
    return fields | body


def _items(answers: str) -> list[tuple[str, str, float | None, str]]:
    """Each answer as (mark `=`/`~`, text, weight, feedback)."""
    found = []
    for match in re.finditer(r"([=~])([^=~]*)", answers):
        mark, rest = match.group(1), match.group(2)
        text, _, feedback = rest.partition("#")
        weight = None
        text = text.strip()
        if weighted := _WEIGHT.match(text):
            weight, text = float(weighted.group(1)), text[weighted.end() :].strip()
        found.append((mark, text, weight, feedback.strip()))
    return found


def _body(answers: str, notes: Notes) -> dict[str, Any] | list[Loss]:
    if not answers:
        return notes.omit("essay: graded by a person, not by lessonkit")
    head = answers.split("#", 1)[0].strip().upper()
    if head in ("T", "TRUE", "F", "FALSE"):
        if "#" in answers:
            notes.lost("feedback per answer: lessonkit's true/false shows the explanation")
        return {"type": "true_false", "answer": head.startswith("T")}
    if answers.startswith("#"):
        return _numeric(answers[1:], notes)
    items = _items(answers)
    if items and all(m == "=" and "->" in t for m, t, _, _ in items):
        return _matching(items, notes)
    if items and all(m == "=" for m, _, _, _ in items):
        return _short(items, notes)
    return _choice(items, notes)


def _numeric(answers: str, notes: Notes) -> dict[str, Any] | list[Loss]:
    """`{#1822:1}`, `{#1..5}`, or one `=` per answer, each with its `%weight%` and feedback,
    on one line or several (Moodle's own documentation writes them a line each)."""
    answers = answers.strip()
    wrong = ""
    if (cut := answers.find("~")) >= 0:  # feedback for any other number
        answers, wrong = answers[:cut], answers[cut + 1 :]
    entries = [e.strip() for e in re.split(r"=", answers) if e.strip()]
    full: list[tuple[str, str]] = []
    partial: list[tuple[float, str]] = []
    for entry in entries:
        spec, _, feedback = entry.partition("#")
        spec, weight = spec.strip(), 100.0
        if weighted := _WEIGHT.match(spec):
            weight, spec = float(weighted.group(1)), spec[weighted.end() :].strip()
        if feedback.strip():
            notes.lost(f"feedback for {_number_words(spec)}: lessonkit's numeric questions "
                       "have none; say it in the explanation")  # fmt: skip
        if weight >= 99.99:
            full.append((spec, feedback))
        elif weight > 0:
            partial.append((weight, spec))
    if _restore(wrong).strip():
        notes.lost("feedback for any other number: lessonkit's numeric questions have none")
    if not full:
        return notes.omit("no answer earns full marks, so lessonkit has no value to check")
    for extra, _ in full[1:]:
        notes.lost(f"{_number_words(extra)} also earned full marks in Moodle: lessonkit takes "
                   f"one value, {_number_words(full[0][0])}; answers near the other count as "
                   "wrong")  # fmt: skip
    for weight, spec in partial:
        notes.lost(f"partial credit ({weight:g}%) for {_number_words(spec)}: lessonkit's numeric "
                   "answers are right or wrong, so these count as wrong")  # fmt: skip
    value = full[0][0]
    try:
        if ".." in value:
            low, high = (float(v) for v in value.split(".."))
            return {"type": "numeric", "answer": (low + high) / 2, "tolerance": abs(high - low) / 2}
        number, _, margin = value.partition(":")
        body: dict[str, Any] = {"type": "numeric", "answer": float(number)}
        if margin and float(margin):
            body["tolerance"] = abs(float(margin))
        return body
    except ValueError:
        return notes.omit(f"the answer `{_restore(value)}` is not a number (write it as "
                          "`{#1822}`, `{#1822:2}` or `{#1820..1824}`)")  # fmt: skip


def _number_words(spec: str) -> str:
    """A GIFT numeric answer as a reader says it: `1822 ± 2`, `1820 to 1824`."""
    spec = _restore(spec).strip()
    if ".." in spec:
        low, _, high = spec.partition("..")
        return f"{low.strip()} to {high.strip()}"
    number, _, margin = spec.partition(":")
    return f"{number.strip()} ± {margin.strip()}" if margin.strip() else number.strip()


def _matching(
    items: list[tuple[str, str, float | None, str]], notes: Notes
) -> dict[str, Any] | list[Loss]:
    pairs, distractors = [], []
    for _, text, _, _ in items:
        left, right = (part.strip() for part in text.split("->", 1))
        left = plain_from_html(_restore(_FORMAT.sub("", left)), notes)
        if left:
            pairs.append({"left": left, "right": _restore(right)})
        else:
            distractors.append(_restore(right))
    body: dict[str, Any] = {"type": "match", "pairs": pairs}
    if distractors:
        body["distractors"] = distractors
    return body


def _short(
    items: list[tuple[str, str, float | None, str]], notes: Notes
) -> dict[str, Any] | list[Loss]:
    accept: list[str] = []
    patterns: list[str] = []
    for _, text, weight, feedback in items:
        answer = _restore(text)
        if weight is not None and weight < 100:
            if weight > 0:
                notes.lost(f"partial credit ({weight:g}%) for `{answer}`: lessonkit's text "
                           "answers are right or wrong, so it is left out of `accept` and "
                           "counts as wrong; add it to `accept` to give it full marks")  # fmt: skip
            if feedback:
                what = "any other answer (`*`)" if answer == "*" else f"`{answer}`"
                notes.lost(f"feedback for {what}: lessonkit's text questions have none; "
                           "say it in the explanation")  # fmt: skip
            continue
        if feedback:
            notes.lost(f"feedback for `{answer}`: lessonkit's text questions have none; "
                           "say it in the explanation")  # fmt: skip
        kind, value = pattern_from_wildcards(answer)
        (accept if kind == "accept" else patterns).append(value)
    body: dict[str, Any] = {"type": "text"}
    if accept:
        body["accept"] = accept
    if patterns:
        body["patterns"] = patterns
    return body


def _choice(
    items: list[tuple[str, str, float | None, str]], notes: Notes
) -> dict[str, Any] | list[Loss]:
    """Moodle's meaning: `=` is full marks, `~` none, `%n%` n per cent of the marks (below
    zero, a penalty). With an answer at full marks it is a single choice, else a multiple one."""
    weights = [w if w is not None else (100.0 if m == "=" else 0.0) for m, _, w, _ in items]
    options = []
    for _, text, _, feedback in items:
        option: dict[str, Any] = {"text": _markdown(text, notes)}
        if feedback:
            option["feedback"] = _markdown(feedback, notes)
        options.append(option)
    named = [plain_from_html(_plain(text)) for _, text, _, _ in items]
    return weighted_choice(options, weights, named, notes)
