"""A course's facts shown in lesson pages: references and tables made Markdown, and where
each fact is shown.

In a lesson, `((fact ID unit=… decimals=…))` (``bank.citations``) becomes the value as
asked with a footnote to the fact's source (inside the author's own footnote, which is a
source already, the value alone), and a marker line

    <!-- lessonkit:facts h100-sxm.hbm h200.hbm tpu-v6e.hbm unit=GB -->

becomes a table of those facts (figure, value with its footnote, "As of"). The result is
plain Markdown: the site's extension (MkDocs and Zensical alike) and `lessonkit read`
both render it with what they already do for tables and footnotes, so the two engines and
the terminal show the same figures. ``uses`` lists every place a page or bank shows a
fact, for `lessonkit facts --used-by` and the checks.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lessonkit.bank import citations
from lessonkit.bank.citations import Citation, CitationError
from lessonkit.bank.factbook import Fact
from lessonkit.course import markers
from lessonkit.errors import ContentError, display_path

__all__ = [
    "Expanded",
    "Use",
    "alt_spans",
    "course_uses",
    "expand",
    "note_label",
    "table_options",
    "uses",
]

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
# A footnote's definition, as Python-Markdown's footnotes read one: up to three spaces in.
_NOTE = re.compile(r"^ {0,3}\[\^[^\]\s]+\]:")
_ALT_ATTRIBUTE = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ALT_TEXT = (
    "a fact reference in alt text: the picture's own figures do not follow the fact",
    "type the figure as the picture shows it, and redraw the picture and its alt text "
    "together when the fact changes",
)
TABLE_HEADER = ("Figure", "Value", "As of")


@dataclass(frozen=True)
class Use:
    """One place a fact is shown: a page line (a reference or a table row) or a question."""

    fact: str
    path: str
    line: int
    column: int
    where: str  # "text", "table", or "question ID"
    table: tuple[str, ...] = ()  # for a table row: every fact of its table, in order


@dataclass(frozen=True)
class PageProblem:
    """A reference or facts marker that cannot be shown, at its line and column."""

    line: int
    column: int
    message: str
    hint: str
    fact: str = ""


@dataclass
class Expanded:
    """A page's lines with facts made Markdown, the footnotes to add, and what went wrong."""

    lines: list[str]
    notes: list[str] = field(default_factory=list)
    problems: list[PageProblem] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # fact ids, in order of first use

    @property
    def markdown(self) -> list[str]:
        """The lines with the footnotes after them: a whole page."""
        return [*self.lines, "", *self.notes] if self.notes else self.lines


def note_label(fact_id: str) -> str:
    """The footnote label of a fact's source: `fact-h100-sxm.hbm`."""
    return f"fact-{fact_id}"


def expand(lines: Sequence[str], facts: Mapping[str, Fact], *, first_line: int = 1) -> Expanded:
    """``lines`` of a page with each reference and facts marker made Markdown (see the
    module's docstring); a reference or marker that cannot be shown is left as written,
    with a problem at its line and column."""
    out = Expanded([])
    fence: str | None = None
    for (number, line), in_note in zip(enumerate(lines, first_line), _in_notes(lines), strict=True):
        opened = _FENCE.match(line)
        if opened and fence is None:
            fence = opened.group(1)
        elif opened and opened.group(1).startswith(fence or "\0"):
            fence = None
        if fence is not None or opened:
            out.lines.append(line)
        elif line.startswith("<!--") and "lessonkit:facts" in line:
            out.lines += _table(line, number, facts, out)
        elif citations.OPEN in line:
            out.lines.append(_references(line, number, facts, out, in_note=in_note))
        else:
            out.lines.append(line)
    out.notes = [_note(facts[fact_id]) for fact_id in out.used]
    return out


def _in_notes(lines: Sequence[str]) -> list[bool]:
    """Whether each line is part of a footnote's definition: the `[^label]:` line, the lines
    of its paragraph, and the indented blocks after it (as Python-Markdown reads them)."""
    inside, blank = False, False
    found: list[bool] = []
    for line in lines:
        if _NOTE.match(line):
            inside = True
        elif inside and blank and line.strip() and not line.startswith(("    ", "\t")):
            inside = False
        blank = not line.strip()
        found.append(inside)
    return found


def _references(
    line: str, number: int, facts: Mapping[str, Fact], out: Expanded, *, in_note: bool = False
) -> str:
    parts: list[str] = []
    last = 0
    alts = alt_spans(line) if "alt" in line or "![" in line else []
    for found in _outside_spans(line):
        if isinstance(found, CitationError):
            out.problems.append(PageProblem(number, found.start + 1, found.message, found.hint))
            continue
        if any(start <= found.start < end for start, end in alts):
            out.problems.append(PageProblem(number, found.start + 1, *_ALT_TEXT, found.id))
            continue
        why = citations.check(found, facts)
        if why is not None:
            out.problems.append(PageProblem(number, found.start + 1, *why, found.id))
            continue
        parts.append(line[last : found.start])
        # In a footnote, the value alone: a mark there would lead from one source to another.
        fact = facts[found.id]
        parts.append(citations.shown(fact, found) if in_note else _cited(fact, found, out))
        last = found.end
    parts.append(line[last:])
    return "".join(parts)


def alt_spans(line: str) -> list[tuple[int, int]]:
    """Where a line's pictures have their alt text: `![alt](…)`, `![alt][label]` and
    `alt="…"`, as (start, end) offsets of the text."""
    spans = [
        found.span(1) if found.group(1) is not None else found.span(2)
        for found in _ALT_ATTRIBUTE.finditer(line)
    ]
    position = 0
    while (start := line.find("![", position)) >= 0:
        depth, at = 1, start + 2
        while at < len(line) and depth:
            if line[at] == "\\":
                at += 1  # an escaped bracket is text
            elif line[at] in "[]":
                depth += 1 if line[at] == "[" else -1
            at += 1
        if not depth and line[at : at + 1] in ("(", "["):
            spans.append((start + 2, at - 1))
        position = start + 2
    return spans


def _outside_spans(line: str) -> Iterator[Citation | CitationError]:
    """The references of a line that are not inside a code span (quoted, not used)."""
    spans = [m.span() for m in _CODE_SPAN.finditer(line)] if "`" in line else []
    for found in citations.find(line):
        if not any(start <= found.start < end for start, end in spans):
            yield found


def _cited(fact: Fact, citation: Citation, out: Expanded) -> str:
    if fact.id not in out.used:
        out.used.append(fact.id)
    if citation.unmarked:
        return citations.shown(fact, citation)
    return f"{citations.shown(fact, citation)}[^{note_label(fact.id)}]"


def _note(fact: Fact) -> str:
    source = fact.source
    # `primary: false` covers a copy of a vendor's page and a secondary account of a figure
    # alike: the reader is told only that it is not where the figure comes from.
    copy = "" if source.primary else " (not the primary source)"
    as_of = _day(fact.as_of)
    return (
        f"[^{note_label(fact.id)}]: {source.publisher}, [{source.title}]({source.url}){copy}; "
        f"the figure as of {as_of}, checked {_day(fact.checked)}."
        + (f" {fact.note}" if fact.note else "")
    )


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"


# --- tables ----------------------------------------------------------------------------


def table_options(words: Iterable[str]) -> tuple[list[str], dict[str, str], list[str]]:
    """A facts marker's words as fact ids, options (`unit=GB`) and words it does not know."""
    ids: list[str] = []
    options: dict[str, str] = {}
    unknown: list[str] = []
    for word in words:
        name, equals, value = word.partition("=")
        if equals and name in ("unit", "decimals", "significant"):
            options[name] = value
        elif equals:
            unknown.append(word)
        else:
            ids.append(word)
    return ids, options, unknown


def _table(line: str, number: int, facts: Mapping[str, Fact], out: Expanded) -> list[str]:
    try:
        marker = markers.read(line)
    except markers.MarkerError as error:
        out.problems.append(PageProblem(number, 1, error.message, error.hint))
        return [line]
    if marker is None or marker.kind != "facts":
        return [line]
    ids, options, unknown = table_options(marker.name.split())
    found: list[str] = []
    rows: list[str] = []
    for fact_id in ids:
        citation = citations.find(f"((fact {fact_id} {_options(options)}))")
        reference = next(citation)
        if isinstance(reference, CitationError):
            out.problems.append(PageProblem(number, 1, reference.message, reference.hint, fact_id))
            continue
        why = citations.check(reference, facts)
        if why is not None:
            out.problems.append(PageProblem(number, line.find(fact_id) + 1, *why, fact_id))
            continue
        fact = facts[fact_id]
        found.append(fact_id)
        label = (fact.label or fact.id).replace("|", "\\|")
        rows.append(f"| {label} | {_cited(fact, reference, out)} | {_day(fact.as_of)} |")
    for word in unknown:
        out.problems.append(
            PageProblem(
                number,
                line.find(word) + 1,
                f"`{word}` is not an option of a facts table",
                "options: `unit=GB`, `decimals=N` or `significant=N`",
            )
        )
    if len(found) != len(ids) or unknown:
        return [line]
    head = "| " + " | ".join(TABLE_HEADER) + " |"
    return ["", head, "| --- | ---: | --- |", *rows, ""]


def _options(options: Mapping[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in options.items())


# --- where facts are shown ---------------------------------------------------------------


def uses(path: str, lines: Sequence[str], *, first_line: int = 1) -> list[Use]:
    """Every place the page ``lines`` shows a fact (known to the course or not)."""
    found: list[Use] = []
    fence: str | None = None
    for number, line in enumerate(lines, first_line):
        opened = _FENCE.match(line)
        if opened and fence is None:
            fence = opened.group(1)
            continue
        if opened and opened.group(1).startswith(fence or "\0"):
            fence = None
            continue
        if fence is not None:
            continue
        if line.startswith("<!--") and "lessonkit:facts" in line:
            found += _table_uses(path, number, line)
        elif citations.OPEN in line:
            found += [
                Use(c.id, path, number, c.start + 1, "text")
                for c in _outside_spans(line)
                if isinstance(c, Citation)
            ]
    return found


def _table_uses(path: str, number: int, line: str) -> list[Use]:
    try:
        marker = markers.read(line)
    except markers.MarkerError:
        return []
    if marker is None or marker.kind != "facts":
        return []
    ids = tuple(table_options(marker.name.split())[0])
    return [Use(i, path, number, line.find(i) + 1, "table", ids) for i in ids]


def bank_uses(path: str, data: Any, locate: Any) -> list[Use]:
    """Every place a parsed bank shows a fact: ``locate`` maps a path in ``data`` to a
    (line, column) pair, as ``yamldoc.Document.locate`` does."""
    found: list[Use] = []
    questions = data.get("questions") if isinstance(data, dict) else None
    for index, question in enumerate(questions if isinstance(questions, list) else []):
        name = question.get("id", f"#{index + 1}") if isinstance(question, dict) else ""
        for loc, text in _strings(question, ("questions", index)):
            for citation in citations.find(text):
                if isinstance(citation, Citation):
                    line, column = locate(loc)
                    found.append(Use(citation.id, path, line, column, f"question {name}"))
    return found


def _strings(value: Any, loc: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        if citations.OPEN in value:
            yield loc, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*loc, key))
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _strings(item, (*loc, number))


def course_uses(root: Path) -> list[Use]:
    """Every place the course at ``root`` shows one of its facts: each lesson line (text or
    table row) and each question, in file order; lessons first, then banks."""
    from lessonkit.bank import yamldoc  # PyYAML: not for a page the site shows
    from lessonkit.course.files import page_files

    found: list[Use] = []
    pages, _ = page_files(root / "content")
    for path, _plan in pages:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # reported where the page is read
        if citations.OPEN in text or "lessonkit:facts" in text:
            found += uses(display_path(path), text.splitlines())
    for path in sorted((root / "quizzes").glob("*.y*ml")):
        try:
            text = path.read_text(encoding="utf-8")
            if citations.OPEN not in text:
                continue
            document = yamldoc.load(path)
        except (OSError, UnicodeDecodeError, ContentError):
            continue  # reported where the bank is read
        found += bank_uses(document.path, document.data, document.locate)
    return found
