"""Messages for the YAML mistakes every author makes: text YAML reads as syntax.

Text that starts with `*`, `&`, `!`, `%`, `@`, `` ` ``, `|` or `>`, or that contains
`: ` or ` #`, means something else to YAML unless it is quoted. libyaml then stops
with a parser message ("did not find expected alphabetic or numeric character"), or
reads an alias or a tag. Here such a problem is rewritten to say which text to quote,
on the line the author must edit, with the quoted form to write.
"""

from __future__ import annotations

import json
import re

from .errors import Problem

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
