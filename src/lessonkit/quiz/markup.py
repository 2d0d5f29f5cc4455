"""Bank Markdown for the terminal: rich renderables on a terminal, readable plain text elsewhere.

Plain text is what NO_COLOR-less pipes, screen readers and TERM=dumb get: no fences,
asterisks or backticks, paragraphs joined into one line each, code blocks indented, tables
as aligned columns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

MEASURE = 100  # columns: text wider than this is hard to read, however wide the terminal
CODE_THEME = "monokai"

_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)\s*$")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^[\s|:-]+$")


def plain(text: str) -> str:
    """Markdown as plain lines a person reads without knowing Markdown."""
    out: list[str] = []
    paragraph: list[str] = []
    fence: str | None = None

    table: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(_inline(" ".join(p.strip() for p in paragraph)))
            paragraph.clear()
        if table:
            out.extend(_table(table))
            table.clear()

    for line in text.strip("\n").splitlines():
        found = _FENCE.match(line)
        if fence is None and _TABLE_ROW.match(line):
            if paragraph:  # a table right after a paragraph line still starts a table
                out.append(_inline(" ".join(p.strip() for p in paragraph)))
                paragraph.clear()
            table.append(line)
            continue
        if table:
            flush()
        if fence is not None:
            if found and found.group(1).startswith(fence):
                fence = None
            else:
                out.append("    " + line)
            continue
        if found:
            flush()
            fence = found.group(1)
            continue
        if not line.strip():
            flush()
            out.append("")
        elif _BLOCK_START.match(line):
            flush()
            paragraph.append(
                line.lstrip("#> ").rstrip()
                if line.lstrip().startswith(("#", ">"))
                else line.rstrip()
            )
            if not line.lstrip().startswith(("#", ">")):
                out.append(_inline(line.rstrip()))
                paragraph.clear()
        elif paragraph or not out or out[-1] == "":
            paragraph.append(line)
        else:  # a lazy continuation of a list item: join it to the item
            out[-1] += " " + _inline(line.strip())
    flush()
    return "\n".join(out).strip("\n")


def _table(rows: list[str]) -> list[str]:
    """A Markdown table as columns padded to their widest cell, the header ruled off."""
    cells = [
        [_inline(cell.strip()) for cell in row.strip().strip("|").split("|")]
        for row in rows
        if not _TABLE_RULE.match(row)
    ]
    columns = max(len(row) for row in cells)
    cells = [row + [""] * (columns - len(row)) for row in cells]
    widths = [max(len(row[n]) for row in cells) for n in range(columns)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in cells]  # fmt: skip
    if len(rows) > 1 and _TABLE_RULE.match(rows[1]):
        lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


def _inline(text: str) -> str:
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) else m.group(1), text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    return _EMPHASIS.sub(r"\1", text)


def rich(text: str) -> RenderableType:
    """Markdown rendered by rich: code highlighted, emphasis and lists drawn, lines wrapped."""
    from rich.markdown import Markdown

    return Markdown(text.strip(), code_theme=CODE_THEME, hyperlinks=False)
