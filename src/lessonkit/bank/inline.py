"""Inline Markdown: option, item and match text, which is never read as a block.

An option sits after its letter on the page and its number in the terminal, so it is
one line of inline Markdown (code, emphasis, links). Read as a whole Markdown document,
`>= 100` would be a quote, `- 100` a bullet, `1. first` a numbered list, `# all` a
heading, and a lone `>` nothing at all: in a SQL or maths course that changes an answer.
``source`` turns such text into Markdown that every renderer lessonkit uses (the site's
Python-Markdown, the terminal's markdown-it through rich, and ``quiz.markup.plain``)
reads as that one line, shown as written; ``block`` names the block it would have been,
for `lessonkit validate`'s warning. A fenced code block is the one block an option may
hold (which loop prints 0, 1, 2?): fences are never written by accident, so text with a
closed fence stays Markdown as written. Standard library only: the quiz imports it.
"""

from __future__ import annotations

import re

__all__ = ["block", "fenced", "source"]

# How a line opens a block, for CommonMark (the terminal) or Python-Markdown (the site),
# and what it would have shown as. Python-Markdown reads `#word` as a heading too.
_OPENERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:[-*_][ \t]*){3,}$"), "a horizontal rule"),
    (re.compile(r">"), "a quote"),
    (re.compile(r"#"), "a heading"),
    (re.compile(r"[-+*](?:[ \t]|$)"), "a bulleted list"),
    (re.compile(r"\d{1,9}[.)](?:[ \t]|$)"), "a numbered list"),
    (re.compile(r"(?:```|~~~)"), "a code block"),
    (re.compile(r"\[[^\]]+\]:"), "a link definition, which is not shown"),
)
_DIGITS = re.compile(r"\d+")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def fenced(text: str) -> bool:
    """Whether ``text`` holds a fenced code block, opened and closed."""
    opened: str | None = None
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if found is None:
            continue
        if opened is None:
            opened = found.group(1)
        elif (
            found.group(1).startswith(opened[0])
            and len(found.group(1)) >= len(opened)
            and not line.strip().strip(opened[0])
        ):
            return True
    return False


def block(text: str) -> str | None:
    """What ``text``, read as a Markdown document, would show as other than one line of
    inline text (`a quote`, `a numbered list`, `two paragraphs`…); None when nothing, or
    when it holds a code block in fences, which is meant."""
    if fenced(text):
        return None
    lines = text.strip("\n").split("\n")
    if any(line.startswith(("    ", "\t")) for line in lines[:1]) and text.strip():
        return "a code block"
    if any(not line.strip() for line in lines) and len(lines) > 1:
        return "separate paragraphs"
    for line in lines:
        found = _opener(line.strip())
        if found is not None:
            return found
    if len(lines) > 1 and re.fullmatch(r"[ \t]*(?:=+|-+)[ \t]*", lines[-1]):
        return "a heading"
    return None


def _opener(line: str) -> str | None:
    for pattern, shown in _OPENERS:
        if pattern.match(line):
            return shown
    return None


def source(text: str, *, commonmark: bool = True) -> str:
    """``text`` as Markdown that reads as one line of inline text: its lines joined with
    spaces (as a paragraph joins them), and a character that would open a block escaped
    with a backslash, which the renderer shows as the character itself. ``commonmark``:
    for the terminal; else for the site's Python-Markdown, which escapes no `~` (and opens
    no block with one on a single line). Text with a fenced code block is left as it is."""
    if fenced(text):
        return text
    line = " ".join(part.strip() for part in text.split("\n") if part.strip())
    if _opener(line) is None or (not commonmark and line.startswith("~")):
        return line
    # A numbered list is opened by its digits and a dot: escape the dot (`1\. first`).
    digits = _DIGITS.match(line)
    if digits and line[digits.end() : digits.end() + 1] in {".", ")"}:
        return f"{line[: digits.end()]}\\{line[digits.end() :]}"
    return "\\" + line
