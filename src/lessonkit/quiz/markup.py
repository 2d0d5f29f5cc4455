"""Bank Markdown for the terminal: rich renderables on a terminal, readable plain text elsewhere.

Plain text is what NO_COLOR-less pipes, screen readers and TERM=dumb get: no fences,
asterisks or backticks, paragraphs joined into one line each, code blocks indented, tables
as aligned columns.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lessonkit.bank.inline import source

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.measure import Measurement
    from rich.text import Text

MEASURE = 100  # columns: text wider than this is hard to read, however wide the terminal
CODE_THEME = "monokai"

_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)\s*$")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
# CommonMark's backslash escapes: any ASCII punctuation character.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_KEPT = re.compile(r"\x00(\d+)\x00")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^[\s|:-]+$")


def plain(text: str, *, inline: bool = False) -> str:
    """Markdown as plain lines a person reads without knowing Markdown; ``inline``: an
    option, item or match side, one line that never opens a block (``bank.inline``)."""
    if inline:
        text = source(text)
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
    # Code and escaped characters are set aside first: neither is markup, and a backslash
    # escape shows the character alone (`customer\_id` is `customer_id`), as on the site.
    kept: list[str] = []

    def keep(piece: str) -> str:
        kept.append(piece)
        return f"\x00{len(kept) - 1}\x00"

    text = _CODE.sub(lambda m: keep(m.group(1)), text)
    text = _ESCAPE.sub(lambda m: keep(m.group(1)), text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) else m.group(1), text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\1", text)
    return _KEPT.sub(lambda m: kept[int(m.group(1))], text)


def rich(text: str, *, inline: bool = False) -> RenderableType:
    """Markdown rendered by rich: code highlighted, emphasis and lists drawn, lines wrapped;
    ``inline``: an option, item or match side, never a block (``bank.inline``)."""
    if inline:
        text = source(text)
    spans = inline_spans(text)
    if spans is not None:
        return _paragraph(spans)
    from rich.markdown import Markdown

    return Markdown(text.strip(), code_theme=CODE_THEME, hyperlinks=False)


# One paragraph of plain inline Markdown (code, strong, emphasis, links) is drawn here with
# rich's own Markdown styles. rich.markdown imports markdown-it and pygments: 34 ms of the
# 160 ms a learner's terminal waited for the first question, for text like every prompt of
# this course. Anything else, or anything this reading could get wrong, goes to rich.
_SPAN = re.compile(
    r"`(?P<code>[^`\n]+)`|\*\*(?P<strong>[^*\n]+)\*\*|(?<!\*)\*(?P<em>[^*\n]+)\*(?!\*)"
    # A link's address only of characters markdown-it leaves as they are (it escapes others).
    r"|\[(?P<link>[^\[\]\n]+)\]\((?P<url>[A-Za-z0-9./:?#@!$+,;=~-]+)\)"
)
# Outside a span: characters with a meaning in Markdown that this reading does not give
# them (escapes, HTML, entities, underscores, strikethrough, images, stray delimiters).
_MEANINGFUL = re.compile(r"[*`\[\]_<>\\~|]|&#?\w+;|!\[")
# Where a paragraph ends or a block begins (CommonMark's list, heading, quote, fence, code
# and setext forms), a hard line break or a tab: left to rich.
_BLOCKS = re.compile(
    r"^(?: {4}| {0,3}(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|#{1,6}(?:\s|$)|>|```|~~~|[=-]+\s*$))"
    r"|\n\s*\n| {2,}\n|\\\n|\t",  # markdown-it keeps a tab where it drops a space
    re.MULTILINE,
)
_PUNCTUATION = re.compile(r"[^\w\s]")


def inline_spans(text: str) -> list[tuple[str, str]] | None:
    """``text`` as (piece, rich style) pairs, if it is one paragraph of plain inline Markdown
    that rich would draw exactly so; None when only rich's Markdown renderer will do."""
    text = text.strip()
    if not text or _BLOCKS.search(text):
        return None
    if "\\" in text:  # importers escape every `_`: `customer\_id` need not wait for rich
        if "`" in text:
            return None  # an escape beside code: what wins is left to rich
        text = _ESCAPE.sub(lambda m: chr(_STAND_IN + ord(m.group(1))), text)
    spans: list[tuple[str, str]] = []
    at = 0
    for found in _SPAN.finditer(text):
        spans.append((text[at : found.start()], ""))
        shown = _span(found, text)
        if shown is None:
            return None
        spans.extend(shown)
        at = found.end()
    spans.append((text[at:], ""))
    if any(_MEANINGFUL.search(piece) for piece, style in spans if not style):
        return None
    # A line break inside a paragraph is a space, without the indent around it; an escaped
    # character is itself.
    return [
        (_STOOD_IN.sub(_stood_in, re.sub(r"[ \t]*\n[ \t]*", " ", piece)), style)
        for piece, style in spans
        if piece
    ]


# An escaped character stands in the text as a private-use character while spans are read:
# it opens no span, and counts as punctuation (not a word) beside emphasis, as in CommonMark.
_STAND_IN = 0xF0000
_STOOD_IN = re.compile("[\U000f0021-\U000f007e]")


def _stood_in(found: re.Match[str]) -> str:
    return chr(ord(found.group(0)) - _STAND_IN)


def _span(found: re.Match[str], text: str) -> list[tuple[str, str]] | None:
    kind = found.lastgroup
    inner = found.group(kind or "")
    if kind == "code":  # CommonMark drops one space at each end when both are there
        return None if inner.startswith(" ") or inner.endswith(" ") else [(inner, "markdown.code")]
    if kind == "url":
        label = found.group("link")
        image = text[found.start() - 1 : found.start()] == "!"
        if image or _MEANINGFUL.search(label) or label != label.strip():
            return None
        return [(label, "markdown.link"), (" (", ""), (found.group("url"), "markdown.link_url"),
                (")", "")]  # fmt: skip
    # Emphasis only where CommonMark surely sees it: no space inside the delimiters, and
    # punctuation inside them only with space or punctuation outside (flanking rules).
    if inner != inner.strip() or _MEANINGFUL.search(inner):
        return None
    before = text[found.start() - 1] if found.start() else " "
    after = text[found.end()] if found.end() < len(text) else " "
    # markdown-it's releases disagree on whether a non-ASCII symbol (a times or a degree
    # sign) is punctuation; either reading is left to rich.
    if any(_unsure(c) for c in (before, inner[0], inner[-1], after)):
        return None
    if _PUNCTUATION.match(inner[0]) and not (before.isspace() or _PUNCTUATION.match(before)):
        return None
    if _PUNCTUATION.match(inner[-1]) and not (after.isspace() or _PUNCTUATION.match(after)):
        return None
    return [(inner, "markdown.strong" if kind == "strong" else "markdown.em")]


def _unsure(character: str) -> bool:
    return not (character.isascii() or character.isalnum() or character.isspace())


def _paragraph(spans: list[tuple[str, str]]) -> RenderableType:
    from rich.text import Text

    shown = Text(justify="left")
    for piece, style in spans:
        shown.append(piece, style=style or None)
    return _Paragraph(shown)


class _Paragraph:
    """A paragraph measured as rich measures its Markdown, so a table lays it out the same."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield self.text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        return Measurement(0, options.max_width)
