"""A Markdown text's headings and the anchors the site gives them, without loading a model.

`lessonkit validate` reads a lesson's headings through ``lessons``; the site's extension
reads the page it renders through ``text_headings`` here, which imports no pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from markdown.extensions.toc import slugify, unique

__all__ = ["Heading", "text_headings", "unfenced"]

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_ATTR_ID = re.compile(r"\s*\{[^}]*#([\w-]+)[^}]*\}\s*$")
_ATTR_LIST = re.compile(r"\s*\{:?[^}]*\}\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_INLINE_MARKUP = re.compile(r"(\*\*|__|\*|`|<[^>]+>)")
_NUMBERED = re.compile(r"^\d+[.)]\s+")


@dataclass(frozen=True)
class Heading:
    """A Markdown heading, its anchor on the site and its line in the file."""

    level: int
    text: str
    anchor: str
    line: int

    @property
    def title(self) -> str:
        """The heading without a leading number: `1. Why GPUs…` → `Why GPUs…`."""
        return _NUMBERED.sub("", self.text)


def unfenced(text: str, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """(line, text) of every line outside fenced code blocks; lines count from ``first_line``."""
    fence: str | None = None
    for offset, line in enumerate(text.splitlines()):
        opener = _FENCE.match(line)
        if opener:
            marker = opener.group(1)
            if fence is None:
                fence = marker
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is None:
            yield first_line + offset, line


def text_headings(text: str, first_line: int = 1) -> tuple[Heading, ...]:
    """The headings of Markdown text, as ``lessons.headings`` finds them in a page's body."""
    used: set[str] = set()
    return tuple(
        _heading(match, line, used)
        for line, content in unfenced(text, first_line)
        if (match := _HEADING.match(content))
    )


def _heading(match: re.Match[str], line: int, used: set[str]) -> Heading:
    raw = match.group(2)
    explicit = _ATTR_ID.search(raw)
    text = _ATTR_LIST.sub("", raw)
    if explicit:
        anchor = explicit.group(1)
        used.add(anchor)
    else:
        plain = _INLINE_MARKUP.sub("", _LINK.sub(r"\1", text))
        anchor = unique(slugify(plain, "-"), used)
    return Heading(len(match.group(1)), text.strip(), anchor, line)
