"""mkdocs-quiz's `<quiz>` blocks in a Markdown page into bank questions.

A block's question runs to its first `- [x]`/`- [ ]` answer; `> ` lines under an answer
are that answer's feedback; what follows the answers is the explanation. One correct
answer makes a `single` question; several make a `multiple` one scored all or nothing, as
mkdocs-quiz scores it. A fill-in-the-blank with one `[[answer]]` becomes a `text`
question; one with several a `cloze`, its blanks numbered `[[1]]`, `[[2]]`…, scored all or
nothing, as mkdocs-quiz scores it. Quizzes shown inside code fences (a page's "Syntax"
tabs) are examples, not questions, and are skipped, as mkdocs-quiz skips them.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from lessonkit.imports.common import (
    Draft,
    Imported,
    Notes,
    decode_text,
    local_links,
    refuse,
    slug_id,
)

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_OPEN = re.compile(r"^(\s*)<quiz>\s*$")
_ANSWER = re.compile(r"^[-*]\s*\[([xX ]?)\]\s*(.*)$")
_FEEDBACK = re.compile(r"^\s*>\s?(.*)$")
_BLANK = re.compile(r"\[\[([^\]]+)\]\]")
_HEADING = re.compile(r"^#{1,3}\s+(.+?)\s*#*\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)]*)\)\s*")


def read(path: Path, data: bytes) -> Imported:
    """Every quiz of a Markdown page, in page order; the page's headings become categories."""
    text = decode_text(path, data)
    lines = text.replace("\r\n", "\n").split("\n")
    result = Imported(path.name, title="")
    taken: set[str] = set()
    heading, fence, index = "", None, 0
    while index < len(lines):
        line = lines[index]
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1).startswith(fence)):
            fence = marker.group(1)[0] * 3 if fence is None else None
        elif fence is None and (found := _HEADING.match(line)):
            heading = found.group(1)
            result.title = result.title or heading
        elif fence is None and (opened := _OPEN.match(line)):
            end = _closing(lines, index)
            if end is None:
                number = index + 1
                raise refuse(path, "a <quiz> block is never closed", "add </quiz>",
                             line=number, column=len(opened.group(1)) + 1)  # fmt: skip
            body = [_dedent(part, len(opened.group(1))) for part in lines[index + 1 : end]]
            _quiz(body, heading, index + 1, result, taken, path.stem)
            index = end
        index += 1
    return result


def _closing(lines: list[str], start: int) -> int | None:
    return next((i for i in range(start + 1, len(lines)) if lines[i].strip() == "</quiz>"), None)


def _dedent(line: str, width: int) -> str:
    return line[width:] if line[:width].strip() == "" else line.lstrip()


def _quiz(
    body: list[str], heading: str, line: int, result: Imported, taken: set[str], stem: str
) -> None:
    question: list[str] = []
    answers: list[dict[str, Any]] = []
    after: list[str] = []
    state, fence = "question", False
    for text in body:
        found = _ANSWER.match(text)
        if state != "after" and not fence and found:
            state = "answers"
            answers.append({"correct": found.group(1).lower() == "x", "text": found.group(2),
                            "feedback": []})  # fmt: skip
            continue
        if _FENCE.match(text):
            fence = not fence
        if state == "question":
            question.append(text)
        elif state == "answers" and (feedback := _FEEDBACK.match(text)):
            answers[-1]["feedback"].append(feedback.group(1))
        elif state == "answers" and not text.strip():
            continue
        else:
            state = "after"
            after.append(text)
    prompt = "\n".join(question).strip()
    explanation = "\n".join(after).strip()
    if not answers:
        prompt, _, explanation = prompt.partition("\n---\n")
    digest = hashlib.sha256(prompt.encode()).hexdigest()[:6]
    words = " ".join(re.sub(r"[^\w\s]", " ", _BLANK.sub(r"\1", prompt)).split()[:6])
    ident = slug_id(f"{stem}-{words}" if words else f"{stem}-{digest}", taken=taken)
    notes = Notes(result.source, f"line {line} ({ident})")
    fields: dict[str, Any] = {"id": ident}
    if answers:
        body_fields = _choice(answers, notes)
    else:
        blanks = _BLANK.findall(prompt)
        if not blanks:
            result.losses += notes.omit("no answers and no [[blank]]: not a question")
            return
        if len(blanks) == 1:
            prompt = _BLANK.sub("_____", prompt)
            body_fields = {"type": "text", "accept": [blanks[0].strip()]}
        elif len(blanks) > 10:
            result.losses += notes.omit(f"{len(blanks)} blanks: a cloze holds at most 10")
            return
        else:
            # mkdocs-quiz marks it right only when every blank is.
            numbers = iter(range(1, len(blanks) + 1))
            prompt = _BLANK.sub(lambda _: f"[[{next(numbers)}]]", prompt)
            body_fields = {"type": "cloze", "scoring": "all_or_nothing",
                           "blanks": [{"accept": [b.strip()]} for b in blanks]}  # fmt: skip
    for image in _IMAGE.finditer(prompt + explanation):
        alt = f" (“{image.group(1)}”)" if image.group(1).strip() else ""
        name = image.group(2).split()[0] if image.group(2).strip() else "without an address"
        notes.lost(f"image `{name}`{alt} left out: the bank format holds no images")
    fields["prompt"] = local_links(_IMAGE.sub("", prompt).strip(), notes)
    if explanation.strip():
        fields["explanation"] = local_links(_IMAGE.sub("", explanation).strip(), notes)
    result.losses += notes.losses
    result.drafts.append(Draft(fields | body_fields, heading, notes.question))


def _choice(answers: list[dict[str, Any]], notes: Notes) -> dict[str, Any]:
    options = []
    for answer in answers:
        option: dict[str, Any] = {"text": local_links(answer["text"].strip(), notes)}
        if answer["correct"]:
            option["correct"] = True
        if answer["feedback"]:
            option["feedback"] = local_links("\n".join(answer["feedback"]).strip(), notes)
        options.append(option)
    if sum(a["correct"] for a in answers) > 1:
        return {"type": "multiple", "options": options, "scoring": "all_or_nothing"}
    return {"type": "single", "options": options}
