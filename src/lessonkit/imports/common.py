"""What every importer shares: the draft questions it returns, losses, ids and rich text.

An importer turns a file into ``Draft`` questions: plain dicts in the bank format,
without ``insight`` and ``section`` (the lesson decides those). Whatever the bank
format cannot hold is a ``Loss`` naming the source file and question.
"""

from __future__ import annotations

import codecs
import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lessonkit.bank.fields import SLUG_PATTERN
from lessonkit.errors import ContentError, Problem, display_path

__all__ = [
    "MAX_BYTES",
    "NO_EXPLANATION",
    "Draft",
    "Imported",
    "Loss",
    "Notes",
    "markdown_from_html",
    "plain_from_html",
    "read_limited",
    "refuse",
    "slug_id",
]

# The same ceiling as a bank file (bank.yamldoc): an export of a few thousand questions
# is a few megabytes; anything past this is refused before it is parsed.
MAX_BYTES = 10 * 1024 * 1024
# An imported question without general feedback still needs an explanation: a
# placeholder that `lessonkit validate` lists until the author writes one.
NO_EXPLANATION = "TODO(lessonkit): say why the answer is right (the source had no explanation)"
_SLUG = re.compile(SLUG_PATTERN)


@dataclass(frozen=True)
class Loss:
    """Something about one source question that the bank format cannot hold."""

    source: str
    question: str
    what: str
    omitted: bool = False  # the whole question was left out

    def __str__(self) -> str:
        return f"{self.source}: {self.question}: {self.what}"


@dataclass
class Draft:
    """One imported question in the bank format, less its place in a lesson."""

    fields: dict[str, Any]
    category: str = ""
    name: str = ""  # what the source calls it, for loss lines


@dataclass
class Imported:
    """Everything read from one file: a title, the questions, and what was lost."""

    source: str
    title: str
    drafts: list[Draft] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)


class Notes:
    """Collects the losses of one question while it is converted."""

    def __init__(self, source: str, question: str) -> None:
        self.source, self.question = source, question
        self.losses: list[Loss] = []

    def lost(self, what: str) -> None:
        self.losses.append(Loss(self.source, self.question, what))

    def omit(self, what: str) -> list[Loss]:
        return [*self.losses, Loss(self.source, self.question, what, omitted=True)]


def refuse(
    path: Path | str, message: str, hint: str = "", *, line: int = 0, column: int = 0
) -> ContentError:
    """A file the importer will not read, as a problem naming the file (and place, if known)."""
    return ContentError([Problem(display_path(path), line, column, message, hint)])


def read_limited(path: Path) -> bytes:
    """A file's bytes, refused before reading when it is larger than ``MAX_BYTES``."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            what = f"the file is {size / 2**20:.1f} MiB; imports stop at {MAX_BYTES // 2**20} MiB"
            raise refuse(path, what, "split the export into smaller files")
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise refuse(path, f"cannot read the file: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:  # grew while we looked, or a device that reports no size
        raise refuse(path, f"the file is over {MAX_BYTES // 2**20} MiB; imports stop there")
    return data


def decode_text(path: Path, data: bytes) -> str:
    """A text export's bytes as text, refused at the line and column of the first byte that
    is not UTF-8 (a byte order mark, as Windows editors write, is dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # The codec counts from after the byte order mark; the reader's editor does not.
        start = error.start + (len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0)
        before = data[:start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise refuse(
            path,
            f"not UTF-8 text (byte {start}: 0x{data[start]:02x})",
            "save the file as UTF-8",
            line=line,
            column=column,
        ) from None


def slug_id(*names: str, taken: set[str]) -> str:
    """A stable question id from the source's own id or name; the same file gives the same ids.

    A name that is already a valid id is kept as it is (so lessonkit's own exports come
    back with their ids); other names are made kebab-case. A name with no letters or
    digits, or one already taken in this import, gets a short hash of the name.
    """
    for name in names:
        if name and _SLUG.match(name) and len(name) <= 80 and name not in taken:
            taken.add(name)
            return name
    name = next((n for n in names if n.strip()), "question")
    base = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60].strip("-") or "question"
    candidate = base
    if candidate in taken:
        digest = hashlib.sha256(name.encode()).hexdigest()
        candidate = f"{base}-{digest[:6]}"
        suffix = 2
        while candidate in taken:
            candidate = f"{base}-{digest[:6]}-{suffix}"
            suffix += 1
    taken.add(candidate)
    return candidate


# --- rich text ----------------------------------------------------------------------

_IMG = re.compile(r"<img\b", re.I)
_TABLE = re.compile(r"<table\b", re.I)
_BLANKS = re.compile(r"\n{3,}")


def markdown_from_html(markup: str, notes: Notes | None = None) -> str:
    """LMS HTML as bank Markdown: sanitised like all bank text, images and styles dropped.

    nh3 keeps only the tags ``lessonkit.bank.richtext`` lets through (so nothing here can
    carry script); markdownify then writes what is left as Markdown.
    """
    if not markup.strip():
        return ""
    if notes is not None and _IMG.search(markup):
        notes.lost("images: the bank format holds no images; left out")
    if notes is not None and _TABLE.search(markup):
        notes.lost("a table: written as plain lines")
    import markdownify
    import nh3

    from lessonkit.bank.richtext import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, URL_SCHEMES

    clean = nh3.clean(markup, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                      url_schemes=URL_SCHEMES, link_rel=None)  # fmt: skip
    text = markdownify.markdownify(clean, heading_style="ATX", bullets="-", code_language="")
    lines = [line.rstrip() for line in text.replace("\xa0", " ").splitlines()]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()


def plain_from_html(markup: str, notes: Notes | None = None) -> str:
    """HTML as one line of plain text, for answers and match sides (which are not Markdown)."""
    text = markdown_from_html(markup, notes)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", r"\1", text)  # markdownify's escapes
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their words
    text = re.sub(r"(\*\*|__|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w))", "", text)
    return " ".join(html.unescape(text).split())


def markdown_from_plain(text: str) -> str:
    """Plain text as Markdown that shows exactly that text."""
    return markdown_from_html(html.escape(text).replace("\n", "<br>"))
