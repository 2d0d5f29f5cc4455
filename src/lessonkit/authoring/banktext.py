"""Bank text checked as the page and the terminal show it: inline text that looks like a
block, footnote references (bank text has no place for their definitions) and links.

Each problem points at the text in its bank, at the line and column where the author
wrote it. Bank text is drawn on the lesson page as HTML the engine does not rewrite, and
in the terminal, so a link in it is a full `https` address or an `#anchor` of the lesson.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lessonkit.authoring import footnotes, pagechecks
from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.bank import inline, yamldoc
from lessonkit.bank.fields import INLINE_FIELDS
from lessonkit.course.lessons import headings
from lessonkit.errors import ContentError, Problem

# Bank fields whose text is Markdown a reader sees (`accept` and `patterns` are answers).
_MARKDOWN_FIELDS = INLINE_FIELDS | {"prompt", "explanation", "hint", "feedback"}
_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")
_FENCED = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.MULTILINE | re.DOTALL)


@dataclasses.dataclass(frozen=True)
class _Text:
    value: str
    field: str
    loc: tuple[str | int, ...]


def _texts(data: Any, loc: tuple[str | int, ...] = (), field: str = "") -> Iterator[_Text]:
    """Every string under a Markdown field of a bank's questions, with where it is."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str):
                yield from _texts(value, (*loc, key), key)
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _texts(value, (*loc, n), field)
    elif isinstance(data, str) and field in _MARKDOWN_FIELDS and loc[:1] == ("questions",):
        yield _Text(data, field, loc)


def _bank(subject: Subject) -> tuple[yamldoc.Document, list[str]] | None:
    document = subject.document
    if document is None or subject.bank is None:
        return None
    try:
        raw = yamldoc.read_text(Path(document.path)).splitlines()
    except ContentError:
        raw = []  # positions then come from the document alone
    return document, raw


def _at(document: yamldoc.Document, raw: list[str], text: _Text, needle: str) -> tuple[int, int]:
    """Where ``needle`` stands in the file: searched from the text's own start, so a link
    on the third line of a `|` block is pointed at there; else the text's start."""
    line, column = document.locate(text.loc)
    for number in range(line - 1, min(line + text.value.count("\n") + 2, len(raw))):
        found = raw[number].find(needle, column - 1 if number == line - 1 else 0)
        if found >= 0:
            return number + 1, found + 1
    return line, column


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


# --- inline text that looks like a block ---------------------------------------------


def _blocks(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found = _bank(subject)
    if found is None:
        return []
    document = found[0]
    problems: list[Problem] = []
    for text in _texts(document.data):
        if text.field not in INLINE_FIELDS:
            continue
        kind = inline.block(text.value)
        if kind is None:
            continue
        shown = " ".join(text.value.split())
        line, column = document.locate(text.loc)
        problems.append(
            Problem(
                document.path, line, column,
                f"`{_short(text.value)}` would read as {kind} in Markdown; an option, an item "
                f"or a match side is one line of inline text, so learners see `{_short(shown)}`",
                "nothing to change if that is what learners should see; for a real "
                f"{kind.removeprefix('a ').removeprefix('an ')}, put it in the prompt "
                "(`prompt: |` keeps its lines) and refer to it here",
            )
        )  # fmt: skip
    return problems


INLINE_TEXT = Rule(
    "inline-text",
    "Option, order item and match text that Markdown would read as a block (`>= 100` as a "
    "quote, `- 100` as a list, `1. first` as a numbered list, `# all` as a heading) is "
    "pointed out; it is shown as written.",
    "an option is one line after its letter: shown as written on the page and in the "
    "terminal, it may not be what the author meant",
    default="warn",
    lesson_check=_blocks,
)


# --- footnotes and links ---------------------------------------------------------------


def _outside_code(value: str) -> str:
    """The text with code blocks and spans blanked out, lines and columns kept."""
    value = _FENCED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), value)
    return "\n".join(pagechecks.blank_code(line) for line in value.split("\n"))


def _footnotes(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found = _bank(subject)
    if found is None:
        return []
    document, raw = found
    problems: list[Problem] = []
    for text in _texts(document.data):
        for match in _FOOTNOTE.finditer(_outside_code(text.value)):
            line, column = _at(document, raw, text, match.group(0))
            problems.append(
                Problem(
                    document.path, line, column,
                    f"footnote `{match.group(0)}` in a question: bank text has no place for "
                    "footnotes, so it shows as literal text",
                    "name the source in the text, e.g. `(PostgreSQL documentation, 2026)`, or "
                    "link it: `[PostgreSQL documentation](https://www.postgresql.org/docs/)`; "
                    "a regular expression such as `[^abc]` goes in backticks",
                )
            )  # fmt: skip
    return problems


def _links(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found = _bank(subject)
    if found is None:
        return []
    document, raw = found
    anchors = {h.anchor for h in headings(subject.lesson)} | pagechecks.explicit_ids(subject.lesson)
    problems: list[Problem] = []
    for text in _texts(document.data):
        lines = [(n, line) for n, line in enumerate(_outside_code(text.value).split("\n"), 1)]
        for link in pagechecks.text_links(lines):
            message, hint = _link_problem(link.target, anchors)
            if message:
                line, column = _at(document, raw, text, link.target or "]()")
                problems.append(Problem(document.path, line, column, message, hint))
    return problems


def _link_problem(target: str, anchors: set[str]) -> tuple[str, str]:
    if not target:
        return "link has no target", "put the address between the parentheses"
    if target.startswith("mailto:"):
        return "", ""
    if target.startswith("#"):
        if target[1:] in anchors:
            return "", ""
        return (
            f"anchor `{target}` is not a heading of the lesson",
            "use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` "
            "becomes `#2-where-tpus-are-strongest`",
        )
    if re.match(r"[A-Za-z][\w+.-]*:|//", target):
        return pagechecks.external_problem(target)
    return (
        f"link `{target}` is relative, and bank text has no page of its own to be relative to",
        "link to the full `https://` address, or to an `#anchor` of the lesson; the quiz "
        "shows the address in the terminal too",
    )


def _with(rule: Rule, check: Any, text: str) -> Rule:
    """``rule`` with ``check`` run after its own, over bank text as well."""
    own = rule.lesson_check
    assert own is not None

    def both(subject: Subject, settings: Any) -> list[Problem]:
        return [*own(subject, settings), *check(subject, settings)]

    return dataclasses.replace(rule, text=text, lesson_check=both)


LINKS = _with(
    pagechecks.LINKS,
    _links,
    "Relative links and `#anchors` resolve; external links and sources use `https` on a real "
    "host (no `example.com`, `localhost`, `*.test`…); a link in bank text is an `https` "
    "address or an `#anchor` of its lesson.",
)
FOOTNOTES = _with(
    footnotes.FOOTNOTES,
    _footnotes,
    "Every footnote reference `[^label]` has its definition, `[^label]: …`, on the same page; "
    "bank text has no footnotes.",
)
