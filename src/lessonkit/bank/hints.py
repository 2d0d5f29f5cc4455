"""Messages for YAML mistakes, in an author's terms: what is wrong and how to fix it.

Parser errors get a hint keyed by a phrase of libyaml's message and the position of the
most useful of its marks. Above all, text that starts with `*`, `&`, `!`, `%`, `@`,
`` ` ``, `|` or `>`, or that contains `: ` or ` #`, means something else to YAML unless
it is quoted. libyaml then stops
with a parser message ("did not find expected alphabetic or numeric character"), or
reads an alias or a tag. Here such a problem is rewritten to say which text to quote,
on the line the author must edit, with the quoted form to write.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import yaml

from lessonkit.errors import Problem

# What YAML makes of each character at the start of a plain value.
STARTS = {
    "*": "an alias",
    "&": "an anchor",
    "!": "a tag",
    "%": "a directive",
    "@": "a character YAML reserves",
    "`": "a character YAML reserves",
    "|": "a block of text",
    ">": "a block of text",
}
_KEY = re.compile(r"(?:-\s+)*[\w.-]+:\s+")
_ITEM = re.compile(r"(?:-\s+)+")


def quotable(line: str) -> tuple[int, str, str] | None:
    """(0-based column, value, why) when the line's value needs quotes; None otherwise."""
    indent = len(line) - len(line.lstrip(" "))
    rest = line[indent:]
    match = _KEY.match(rest) or _ITEM.match(rest)
    if match is None:
        return None
    start = indent + match.end()
    value = line[start:].rstrip()
    if not value or value[0] in "'\"[{":
        return None
    if value[0] in STARTS:
        first = "`` ` ``" if value[0] == "`" else f"`{value[0]}`"
        return start, value, f"text starting with {first} is read as {STARTS[value[0]]}"
    if ": " in value:
        return start, value, "`: ` inside text starts a new key"
    if " #" in value:
        return start, value, "` #` starts a comment and cuts the text"
    return None


def quoted(value: str) -> str:
    """The value as a quoted YAML scalar: single quotes unless it holds one."""
    if "'" not in value:
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False)  # JSON strings are YAML double-quoted scalars


def improve(problem: Problem, text: str, lines: tuple[int, ...]) -> Problem:
    """The problem rewritten to say "put the text in quotes" when one of the candidate
    ``lines`` (1-based; the parser's marks, most useful first) holds text that needs
    them; otherwise the problem unchanged."""
    rows = text.splitlines()
    for number in lines:
        if not 0 < number <= len(rows):
            continue
        found = quotable(rows[number - 1])
        if found is None:
            continue
        column, value, why = found
        shown = rows[number - 1][:column].lstrip(" ") + quoted(value)
        if problem.message.startswith("the tag"):
            # An alias or a tag YAML could read as meant: keep its message, offer both fixes.
            return Problem(
                problem.path,
                problem.line,
                problem.column,
                problem.message,
                f"if it is text, put it in quotes: {shown}; otherwise {problem.hint}",
            )
        return Problem(
            problem.path,
            number,
            column + 1,
            f"invalid YAML: {why}; put the text in quotes",
            f"write: {shown}",
        )
    return problem


def hinted(problems: Iterable[Problem], text: str) -> list[Problem]:
    """Problems that unquoted text causes, rewritten to say "put the text in quotes"."""
    return [improve(p, text, (p.line,)) if p.message.startswith(_QUOTABLE) else p for p in problems]


# Parser and builder messages that text needing quotes can cause.
_QUOTABLE = (
    "invalid YAML: did not find expected",
    "invalid YAML: found character that cannot start any token",
    "invalid YAML: mapping values are not allowed",
    "invalid YAML: could not find expected ':'",
    "unknown alias",
    "unused anchor",
    "the tag `!",
)


# Hints for the parser's commonest complaints, keyed by a phrase of its message.
_SYNTAX_HINTS = (
    (
        "mapping values are not allowed",
        "text containing `: ` must be quoted, or the indentation is off",
    ),
    (
        "could not find expected ':'",
        "this line is not `key: value`: add the colon after the key, or check the indentation",
    ),
    ("did not find expected key", "check the indentation: items of one mapping must line up"),
    ("did not find expected '-' indicator", "list items must line up under each other"),
    (
        "found unknown escape character",
        "inside double quotes write `\\\\` for a backslash, or use single quotes",
    ),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
    ("while scanning a quoted scalar", "a quote is not closed"),
    (
        "found character that cannot start any token",
        "quote text that starts with `@`, `` ` `` or `%`",
    ),
)


def syntax_problem(error: yaml.MarkedYAMLError, path: str, text: str) -> Problem:
    mark = error.problem_mark or error.context_mark
    what = (error.problem or "invalid YAML").rstrip(".")
    if error.context_mark is not None and (
        "while scanning a simple key" in str(error.context)
        or "while scanning an alias" in str(error.context)
        or "while scanning a block scalar" in str(error.context)
    ):
        # The scan started on the line to edit (a key missing its colon, `*text`, `| text`);
        # the problem mark is where libyaml gave up, often the next line.
        mark = error.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    if line and _tab_in_indent(text, line):
        return Problem(
            path, line, 1, "a tab is used for indentation", "YAML indents with spaces only"
        )
    hint = next(
        (h for phrase, h in _SYNTAX_HINTS if phrase in what or phrase in str(error.context)), ""
    )
    return Problem(path, line, column, f"invalid YAML: {what}", hint)


def _tab_in_indent(text: str, line: int) -> bool:
    lines = text.splitlines()
    for number in (line, line - 1):
        if 0 < number <= len(lines):
            current = lines[number - 1]
            indent = current[: len(current) - len(current.lstrip(" \t"))]
            if "\t" in indent:
                return True
    return False


def reader_problem(error: yaml.YAMLError, path: str, text: str) -> Problem:
    position = getattr(error, "position", None)
    character = getattr(error, "character", None)
    if isinstance(position, int):
        before = text[:position]
        line, column = before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1
    else:
        line = column = 0
    code = ord(character) if isinstance(character, str) else character
    what = f"character U+{code:04X} is not allowed in YAML" if isinstance(code, int) else str(error)
    return Problem(path, line, column, what, "remove it or write it as an escape in double quotes")


# --- values YAML reads otherwise than an author meant ---------------------------------------

# The plain words YAML 1.2 reads as no value at all.
NO_VALUE = frozenset({"null", "Null", "NULL", "~"})


def no_value(word: str) -> tuple[str, str]:
    """An empty value that was written as YAML's word for none (`NULL` in an SQL course)."""
    return (
        f"`{word}` is YAML's word for no value, so this is empty",
        f"to write the text {word}, quote it: '{word}'",
    )


_PERCENT = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*\Z")


def percent_written(value: object) -> float | None:
    """The number in text such as `5%`, or None."""
    found = _PERCENT.match(value) if isinstance(value, str) else None
    return float(found.group(1)) if found else None


def as_share(percent: float, name: str) -> str:
    """The hint for a percentage written where a share (0 to 1) of field ``name`` belongs."""
    return f"did you mean {percent:g}% ({percent / 100:g})? write `{name}: {percent / 100:g}`"


_MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")],
        start=1,
    )
    for name in names
}  # fmt: skip
_WORD = re.compile(r"[a-z]+|\d+")


def date_hint(text: str, *, month: bool) -> str:
    """How to write a date written in words (`November 2026`, `5 Nov 2026`): the form to
    write, worked out from the words when they name a month and a year."""
    words = _WORD.findall(text.casefold())
    months = [_MONTHS[w] for w in words if w in _MONTHS]
    numbers = [int(w) for w in words if w.isdigit()]
    years = [n for n in numbers if 1900 <= n <= 2200]
    days = [n for n in numbers if 1 <= n <= 31]
    form = "`YYYY-MM` (the month) or `YYYY-MM-DD` (the day)" if month else "`YYYY-MM-DD`"
    if len(months) != 1 or len(years) != 1:
        return f"write it as {form}, e.g. `2026-11`" if month else f"write it as {form}"
    year, number = years[0], months[0]
    if len(days) == 1:
        return f"write `{year}-{number:02d}-{days[0]:02d}`"
    if month:
        return f"write `{year}-{number:02d}`"
    return f"write the day, e.g. `{year}-{number:02d}-01` for a day in that month"
