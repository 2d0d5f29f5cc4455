"""YAML that parses but silently changes an author's text: two validate rules.

- A folded block scalar (`>` / `>-`) joins its lines with spaces, so a Markdown table,
  list or fenced code block written in it arrives as one line; `|` / `|-` keeps lines.
- In plain (unquoted) text, ` #` starts a comment: `prompt: Issue #42 is fixed` is read
  as "Issue", with no parser error. Any comment after plain text in a text field is
  reported: quoting keeps the text, and a comment meant as one goes on its own line.

Both are read from the parser's events (scalar style and marks), never guessed from the
text alone; a file that does not parse is left to the loader, which reports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from .errors import Problem
from .yamlhints import quoted

# Fields whose values are prose (banks and lesson front matter); lists of them included.
TEXT_FIELDS = frozenset(
    {"prompt", "explanation", "text", "feedback", "hint", "title", "summary", "audience"}
    | {"publisher", "objectives", "insights", "key_points", "items", "accept", "distractors"}
    | {"left", "right"}
)
_TABLE = re.compile(r"^\|?\s*:?-{3,}:?\s*\|")  # a table's |---|---| row
_LIST = re.compile(r"^(?:[-*+]|1[.)])\s+\S")
_FENCE = re.compile(r"^(?:```|~~~)")
_COMMENT = re.compile(r"\s+#")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class _Frame:
    mapping: bool
    name: str  # the key being read (mappings) or the key the sequence is under
    expect_key: bool = True


def style_problems(text: str, path: str, first_line: int = 1) -> list[Problem]:
    """Folded Markdown blocks and plain text cut at ` #`, as problems at file positions
    (``first_line`` is the file line of the text's first line)."""
    try:
        events = list(yaml.parse(text, Loader=_LOADER))
    except yaml.YAMLError:
        return []
    lines = text.splitlines()
    problems: list[Problem] = []
    stack: list[_Frame] = []
    for event in events:
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent, yaml.AliasEvent)):
            continue
        parent = stack[-1] if stack else None
        if parent is not None and parent.mapping and parent.expect_key:
            parent.expect_key = False
            parent.name = event.value if isinstance(event, yaml.ScalarEvent) else ""
            if isinstance(event, yaml.CollectionStartEvent):
                stack.append(_Frame(isinstance(event, yaml.MappingStartEvent), ""))
            continue
        name = parent.name if parent is not None else ""
        if parent is not None and parent.mapping:
            parent.expect_key = True
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append(_Frame(isinstance(event, yaml.MappingStartEvent), name))
        elif isinstance(event, yaml.ScalarEvent) and event.start_mark and event.end_mark:
            marks = (event.start_mark, event.end_mark)
            found = _folded(*marks, name, lines) if event.style == ">" else None
            if found is None and not event.style and name in TEXT_FIELDS:  # plain: "" or None
                item = parent is not None and not parent.mapping
                found = _comment(event.value, marks[1], name, lines, item)
            if found is not None:
                line, column, message, hint = found
                problems.append(Problem(path, line + first_line, column, message, hint))
    return problems


def _folded(start: Any, end: Any, name: str, lines: list[str]) -> tuple[int, int, str, str] | None:
    last = end.line if end.column else end.line - 1
    for number in range(start.line + 1, min(last, len(lines) - 1) + 1):
        text = lines[number].strip()
        what = (
            "table" if _TABLE.match(text)
            else "list" if _LIST.match(text)
            else "code block" if _FENCE.match(text)
            else ""
        )  # fmt: skip
        if not what:
            continue
        header = lines[start.line][start.column :].split()[0]
        literal = "|" + header[1:]
        key = f"{name}: " if name else "- "
        return (
            start.line, start.column + 1,
            f"`{header}` folds this text's lines into one, which breaks its Markdown {what} "
            f'(line {number + 1}: "{_short(text)}")',
            f"use `{literal}`, which keeps each line as written (write: {key}{literal})",
        )  # fmt: skip
    return None


def _comment(
    value: str, end: Any, name: str, lines: list[str], item: bool
) -> tuple[int, int, str, str] | None:
    if end.line >= len(lines):
        return None
    rest = lines[end.line][end.column :]
    match = _COMMENT.match(rest)
    if match is None:
        return None
    column = end.column + match.end() - 1
    whole = f"{value} {rest[match.end() - 1 :].rstrip()}"
    kept = value if len(value) <= 40 else value[:39] + "…"
    write = f"- {quoted(whole)}" if item else f"{name}: {quoted(whole)}"
    return (
        end.line, column + 1,
        f"` #` starts a YAML comment, so the text stops before it (`{name}` is read as "
        f"{quoted(kept)}); put the text in quotes",
        f"write: {write}; a comment meant as one goes on its own line",
    )  # fmt: skip


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"
