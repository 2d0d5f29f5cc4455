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
import urllib.parse
from collections.abc import Callable
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
    "local_links",
    "markdown_from_html",
    "plain_from_html",
    "read_limited",
    "refuse",
    "slug_id",
    "weighted_choice",
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
        left = "left out: " if self.omitted and not self.what.startswith("left out") else ""
        return f"{self.source}: {self.question}: {left}{self.what}"


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

_IMG = re.compile(r"<img\b[^>]*>", re.I)
_LINK = re.compile(r"<a\b([^>]*)>(.*?)</a\s*>", re.I | re.S)
_ATTRIBUTE = re.compile(r"([\w-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_TAG = re.compile(r"<[^>]*>")
_TABLE = re.compile(r"<table\b", re.I)
_BLANKS = re.compile(r"\n{3,}")
# Moodle's placeholder for a file packed with the question (`<file>` in its XML), and
# Canvas's for a file in the course's files (in the export's zip, or not at all).
PLUGINFILE = "@@PLUGINFILE@@/"
_PACKED = (PLUGINFILE, "$IMS-CC-FILEBASE$/", "%24IMS-CC-FILEBASE%24/", "/courses/")


def _attributes(tag: str) -> dict[str, str]:
    return {m.group(1).lower(): html.unescape(m.group(2) if m.group(2) is not None else m.group(3))
            for m in _ATTRIBUTE.finditer(tag)}  # fmt: skip


def _file_name(address: str) -> str:
    return urllib.parse.unquote(address.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1])


def _image(tag: re.Match[str], notes: Notes | None) -> str:
    """An equation image as its LaTeX (Canvas keeps it in `data-equation-content`); any
    other image is left out, by name, in a loss line."""
    found = _attributes(tag.group(0))
    latex = found.get("data-equation-content", "").strip()
    if latex:
        if notes is not None:
            notes.lost(f"equation `{latex}`: written as its LaTeX source in a code span; "
                       "lessonkit does not typeset equations")  # fmt: skip
        return f"<code>{html.escape(latex)}</code>"
    if notes is not None:
        name = _file_name(found.get("src", "")) or "without a source"
        alt = " ".join(found.get("alt", "").split())
        described = f" (“{alt}”)" if alt else ""
        notes.lost(f"image `{name}`{described} left out: the bank format holds no images")
    return ""


def _link(tag: re.Match[str], notes: Notes | None) -> str:
    """A link to a file packed with the question (Moodle) or kept in the course (Canvas)
    points nowhere once imported: keep its words, and name the file in a loss line."""
    address = _attributes(tag.group(1)).get("href", "")
    if not address.startswith(_PACKED):
        return tag.group(0)
    if notes is not None:
        words = " ".join(html.unescape(_TAG.sub("", tag.group(2))).split())
        notes.lost(f"embedded file `{_file_name(address)}` left out (the link “{words}” keeps "
                   "its words): the bank format holds no files; link to a copy on the "
                   "web")  # fmt: skip
    return tag.group(2)


def markdown_from_html(markup: str, notes: Notes | None = None) -> str:
    """LMS HTML as bank Markdown: sanitised like all bank text, images and styles dropped.

    nh3 keeps only the tags ``lessonkit.bank.richtext`` lets through (so nothing here can
    carry script); markdownify then writes what is left as Markdown.
    """
    if not markup.strip():
        return ""
    markup = _IMG.sub(lambda tag: _image(tag, notes), markup)
    markup = _LINK.sub(lambda tag: _link(tag, notes), markup)
    if notes is not None and _TABLE.search(markup):
        notes.lost("a table: written as plain lines")
    import markdownify
    import nh3

    from lessonkit.bank.richtext import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, URL_SCHEMES

    clean = nh3.clean(markup, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                      url_schemes=URL_SCHEMES, link_rel=None)  # fmt: skip
    text = markdownify.markdownify(clean, heading_style="ATX", bullets="-", code_language="")
    lines = [line.rstrip() for line in text.replace("\xa0", " ").splitlines()]
    return local_links(unescape_needless(_BLANKS.sub("\n\n", "\n".join(lines)).strip()), notes)


# `[words](target)`, not an image; a fence line. A question is drawn as HTML neither site
# engine rewrites, so a link to a page of the site the question came from leads nowhere.
_MD_LINK = re.compile(
    r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)"
)
_FENCE_LINE = re.compile(r"^\s{0,3}(```|~~~)")


def local_links(markdown: str, notes: Notes | None = None) -> str:
    """Links to the source site's own files (`index.md`, `../page.html`) kept as their
    words, each named in a loss line; web addresses and `#anchors` stay links."""
    if "](" not in markdown:
        return markdown

    def words(found: re.Match[str]) -> str:
        target = found.group(2)
        parts = urllib.parse.urlsplit(target)
        if not parts.path or parts.scheme or target.startswith("//"):
            return found.group(0)
        if notes is not None:
            notes.lost(f"link `{target}` (“{found.group(1)}”) kept as its words: it led to a "
                       "page of the site the question came from; link to its https "
                       "address")  # fmt: skip
        return found.group(1)

    out, fenced = [], False
    for line in markdown.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
        if fenced or "](" not in line:
            out.append(line)
            continue
        out.append(_relinked(line, words))
    return "\n".join(out)


def _relinked(line: str, words: Callable[[re.Match[str]], str]) -> str:
    """``line`` with ``words`` applied to each link outside its code spans."""
    at, kept = 0, []
    for code in _CODE_SPAN.finditer(line):
        kept.append(_MD_LINK.sub(words, line[at : code.start()]))
        kept.append(code.group(0))
        at = code.end()
    kept.append(_MD_LINK.sub(words, line[at:]))
    return "".join(kept)


_CODE_SPAN = re.compile(r"(`+)[^`]*?\1")
_ESCAPED_RUN = re.compile(r"(?:\\([_*]))+")


def unescape_needless(markdown: str) -> str:
    """markdownify's text with the backslashes that change nothing taken out.

    markdownify escapes every `_` and `*`, so `customer_id` came out `customer\\_id`, which
    an author must read (and the terminal would print) with its backslash. A run of them
    can only start or end emphasis when it touches a word on one side and not the other
    (CommonMark's flanking rules; Python-Markdown is stricter still); inside a word
    (`customer_id`) or with space on both sides (`SELECT * FROM`, a `_____` gap) it is
    text. When at most one run in a paragraph could act, it has nothing to pair with, so
    none needs its backslash. A run alone on a line (a rule) or a `*` opening a line (a
    list) keeps it; code spans are never touched.
    """
    return "\n\n".join(_paragraph(part) for part in markdown.split("\n\n"))


def _paragraph(text: str) -> str:
    spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    runs = [m for m in _ESCAPED_RUN.finditer(text)
            if not any(a <= m.start() < b for a, b in spans)]  # fmt: skip
    if not runs:
        return text
    plain = _ESCAPED_RUN.sub("", text)
    stray = any(c in plain for c in "_*")  # an unescaped one elsewhere could pair with a run
    active = [m for m in runs if not _inert(text, m)]
    keep = {id(m) for m in active} if stray or len(active) > 1 else set()
    for m in runs:  # a rule or a list item stays escaped, whatever else the paragraph holds
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[line_start : len(text) if line_end < 0 else line_end]
        if not line.replace("\\", "").strip("_* ") or (
            m.group(1) == "*" and not text[line_start : m.start()].strip()
        ):
            keep.add(id(m))
    out, last = [], 0
    for m in runs:
        out.append(text[last : m.start()])
        out.append(m.group(0) if id(m) in keep else m.group(0).replace("\\", ""))
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def _inert(text: str, run: re.Match[str]) -> bool:
    before = text[run.start() - 1] if run.start() > 0 else " "
    after = text[run.end()] if run.end() < len(text) else " "
    if before.isspace() and after.isspace():
        return True
    return run.group(1) == "_" and before.isalnum() and after.isalnum()


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


# --- weighted choices -----------------------------------------------------------------


def weighted_choice(
    options: list[dict[str, Any]], weights: list[float], named: list[str], notes: Notes,
    *, single: bool | None = None,
) -> dict[str, Any] | list[Loss]:  # fmt: skip
    """A choice whose options carry Moodle's marks (per cent; below zero a penalty) as a
    `single` or `multiple` question, with a loss line for each mark lessonkit grades otherwise.

    ``single`` None decides as Moodle's GIFT importer does: single when an option earns
    full marks. ``named`` is each option's text as a loss line shows it.
    """
    full = [i for i, w in enumerate(weights) if w >= 99.99]
    if single is None:
        single = bool(full)
    if single:
        if not full:
            return notes.omit("no option earns full marks, so the question has no right answer")
        return _one_right(options, weights, [f"`{n}`" for n in named], full, notes)
    right = sum(w > 0 for w in weights)
    if not right:
        return notes.omit("no option is right or earns marks")
    for option, weight in zip(options, weights, strict=True):
        if weight > 0:
            option["correct"] = True
    ours = [100 / right if w > 0 else -100 / right for w in weights]
    if any(abs(w - o) > 0.01 for w, o in zip(weights, ours, strict=True)):
        given = ", ".join(f"`{n}` {w:g}%" for n, w in zip(named, weights, strict=True))
        notes.lost(f"option marks ({given}): lessonkit scores (right chosen - wrong chosen) "
                   f"÷ right options, so each right option is worth {100 / right:.3g}% and "
                   f"each wrong one costs {100 / right:.3g}%")  # fmt: skip
    return {"type": "multiple", "options": options}


def _one_right(
    options: list[dict[str, Any]], weights: list[float], named: list[str], full: list[int],
    notes: Notes,
) -> dict[str, Any]:  # fmt: skip
    options[full[0]]["correct"] = True
    if len(full) > 1:
        others = ", ".join(named[i] for i in full[1:])
        notes.lost(f"several right answers: Moodle gave full marks for any of "
                   f"{', '.join(named[i] for i in full)}, but lessonkit's single choice has one "
                   f"right option, so {named[full[0]]} is kept as it and {others} left out "
                   "(as an option, choosing it would be marked wrong)")  # fmt: skip
    for index, weight in enumerate(weights):
        if 0 < weight < 99.99:
            notes.lost(f"partial credit ({weight:g}%) for {named[index]}: lessonkit's single "
                       "choice gives none, so choosing it counts as wrong")  # fmt: skip
        elif weight < 0:
            notes.lost(f"penalty ({weight:g}%) for {named[index]}: lessonkit takes no marks "
                       "off for a wrong option")  # fmt: skip
    return {"type": "single", "options": [o for i, o in enumerate(options) if i not in full[1:]]}
