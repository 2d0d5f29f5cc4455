"""YAML that parses but silently changes an author's text: two validate rules.

- A folded block scalar (`>` / `>-`) joins its lines with spaces, so a Markdown table,
  list or fenced code block written in it arrives as one line; `|` / `|-` keeps lines.
- In plain (unquoted) text, ` #` starts a comment: `prompt: Issue #42 is fixed` is read
  as "Issue", with no parser error. Any comment after plain text in a text field is
  reported: quoting keeps the text, and a comment meant as one goes on its own line.

Both are read from the scalars' styles and marks as the loader recorded them in its one
parse (``Document.text_scalars``), never guessed from the text alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from lessonkit.authoring.policy import Rule, RuleSettings
from lessonkit.bank import composer, yamldoc
from lessonkit.bank.factbook import SCHEMA_LINE as FACTS_SCHEMA_LINE
from lessonkit.bank.fields import PROSE_FIELDS
from lessonkit.bank.hints import quoted
from lessonkit.course.course import Course
from lessonkit.errors import ContentError, Problem, display_path

# Fields whose values are prose (banks and lesson front matter); lists of them included.
TEXT_FIELDS = PROSE_FIELDS
_TABLE = re.compile(r"^\|?\s*:?-{3,}:?\s*\|")  # a table's |---|---| row
_LIST = re.compile(r"^(?:[-*+]|1[.)])\s+\S")
_FENCE = re.compile(r"^(?:```|~~~)")
_COMMENT = re.compile(r"\s+#")


def style_problems(text: str, path: str, first_line: int = 1) -> list[Problem]:
    """The problems in YAML ``text``, parsed here; a file that does not parse has none
    (the loader reports it)."""
    try:
        document = yamldoc.parse(text, path, watch=TEXT_FIELDS)
    except ContentError:
        return []
    return scalar_problems(document.text_scalars, text, path, first_line)


def scalar_problems(
    scalars: Iterable[composer.TextScalar], text: str, path: str, first_line: int = 1
) -> list[Problem]:
    """Folded Markdown blocks and plain text cut at ` #`, as problems at file positions
    (``first_line`` is the file line of the text's first line)."""
    lines = text.splitlines()
    count = len(lines)
    problems: list[Problem] = []
    for scalar in scalars:
        style, (end, _) = scalar.style, scalar.end
        if style == ">":
            found = _folded(scalar, lines)
        # Only a line with a `#` can hold a comment: a bank has tens of thousands of texts.
        elif style or end >= count or "#" not in lines[end] or scalar.name not in TEXT_FIELDS:
            continue
        else:
            found = _comment(scalar, lines)
        if found is not None:
            line, column, message, hint = found
            problems.append(Problem(path, line + first_line, column, message, hint))
    return problems


def _folded(scalar: composer.TextScalar, lines: list[str]) -> tuple[int, int, str, str] | None:
    (start_line, start_column), (end_line, end_column), name = scalar.start, scalar.end, scalar.name
    last = end_line if end_column else end_line - 1
    for number in range(start_line + 1, min(last, len(lines) - 1) + 1):
        text = lines[number].strip()
        what = (
            "table" if _TABLE.match(text)
            else "list" if _LIST.match(text)
            else "code block" if _FENCE.match(text)
            else ""
        )  # fmt: skip
        if not what:
            continue
        header = lines[start_line][start_column:].split()[0]
        literal = "|" + header[1:]
        key = f"{name}: " if name else "- "
        return (
            start_line, start_column + 1,
            f"`{header}` folds this text's lines into one, which breaks its Markdown {what} "
            f'(line {number + 1}: "{_short(text)}")',
            f"use `{literal}`, which keeps each line as written (write: {key}{literal})",
        )  # fmt: skip
    return None


def _comment(scalar: composer.TextScalar, lines: list[str]) -> tuple[int, int, str, str] | None:
    (end_line, end_column), value, name = scalar.end, scalar.value, scalar.name
    if end_line >= len(lines):
        return None
    rest = lines[end_line][end_column:]
    match = _COMMENT.match(rest)
    if match is None:
        return None
    column = end_column + match.end() - 1
    whole = f"{value} {rest[match.end() - 1 :].rstrip()}"
    kept = value if len(value) <= 40 else value[:39] + "…"
    write = f"- {quoted(whole)}" if scalar.item else f"{name}: {quoted(whole)}"
    return (
        end_line, column + 1,
        f"` #` starts a YAML comment, so the text stops before it (`{name}` is read as "
        f"{quoted(kept)}); put the text in quotes",
        f"write: {write}; a comment meant as one goes on its own line",
    )  # fmt: skip


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"


# --- the schema line -------------------------------------------------------------------

SCHEMA_LINE_TEXT = "# yaml-language-server: $schema=../schemas/quiz-bank.schema.json"


def _schema_lines(course: Course, settings: RuleSettings) -> list[Problem]:
    """Banks and facts files whose first line does not point editors at their schema."""
    files = [(Path(p.document.path), "bank", SCHEMA_LINE_TEXT) for p in course.bank_parts]
    files += [(path, "facts file", FACTS_SCHEMA_LINE) for path in course.factbook.files]
    problems: list[Problem] = []
    for path, what, wanted in files:
        try:
            first = yamldoc.read_text(path).split("\n", 1)[0].rstrip()
        except ContentError:
            continue  # reported where the file is loaded
        if first != wanted:
            problems.append(
                Problem(
                    display_path(path), 1, 1,
                    f"the {what}'s first line does not point editors at the schema",
                    f"make it `{wanted}`: editors then complete fields and "
                    "underline mistakes as you type",
                )
            )  # fmt: skip
    return problems


SCHEMA_LINE = Rule(
    "schema-line",
    f"A bank's first line points editors at the schema: `{SCHEMA_LINE_TEXT}` (a facts "
    "file's at `facts.schema.json`).",
    "the editor completes fields, shows each one's description and underlines mistakes "
    "before `validate` runs",
    default="advice",
    course_check=_schema_lines,
)
