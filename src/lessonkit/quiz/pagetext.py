"""A lesson page's Markdown made readable in a terminal, with nothing the site shows left out.

The site's extensions become text a terminal (or a screen reader) can show:

- a figure becomes a marked block: its caption, the alt text describing the picture, and
  the path of the image file (the light-scheme one when the page has both);
- footnote references become `[1]`, `[2]`… in order of first use, and their definitions a
  numbered "Sources" list at the end, each address written once;
- an abbreviation is spelled out where it is first used, and its definition line goes;
- admonitions and content tabs become a bold title over their text;
- a link to another lesson, or to a section of this one, becomes the `lessonkit read`
  command that shows it; attribute lists (`{ width="420" }`) and `<sup>` go;
- the site's markers go (self-checks are the site's), except a quiz's, which becomes the
  command that takes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lessonkit.course import markers

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_BLOCK = re.compile(r"^(\s*)(?:!!!|\?\?\?\+?|===)\s*(\w*)\s*(?:\"([^\"]*)\")?\s*$")
_ATTRIBUTES = re.compile(r"\s*\{\s*[:#.][^}]*\}")
_ABBREVIATION = re.compile(r"^\*\[([^\]]+)\]:\s*(.*)$")
_NOTE = re.compile(r"^\[\^([^\]\s]+)\]:\s*(.*)$")
_REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_CAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.S)
_INLINE_HTML = re.compile(r"</?(?:sup|sub|span|br|small)\b[^>]*>")
_DEFINITION = re.compile(r"^:\s+")
_CODE_OR_TARGET = re.compile(r"(`[^`]*`|\]\([^)]*\))")


@dataclass
class Lesson:
    """What the text needs to know about its page: where it is and which commands read it."""

    slug: str
    folder: Path  # the lesson file's folder: image paths are relative to it
    lessons: frozenset[str]  # every lesson slug of the course, for links between lessons
    read: str  # the command that reads a lesson, e.g. `lessonkit read`
    quiz: str = "lessonkit quiz"  # the command that takes a bank's quiz
    shown: Callable[[Path], str] = str  # how a file's path is written for the learner


@dataclass
class _Notes:
    """Footnotes and abbreviations of the whole page, and those used in what is shown."""

    notes: dict[str, str]
    abbreviations: dict[str, str]
    used: list[str] = field(default_factory=list)
    spelled: set[str] = field(default_factory=set)
    figures: int = 0


def definitions(lines: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The page's footnote texts by id and abbreviations by term (they sit at its end)."""
    notes: dict[str, str] = {}
    abbreviations: dict[str, str] = {}
    current: str | None = None
    for line in _outside_code(lines):
        if (found := _NOTE.match(line)) is not None:
            current = found.group(1)
            notes[current] = found.group(2).strip()
        elif (found := _ABBREVIATION.match(line)) is not None:
            abbreviations[found.group(1)] = found.group(2).strip()
            current = None
        elif current is not None and line.startswith("    ") and line.strip():
            notes[current] += " " + line.strip()  # a footnote's continuation line
        elif line.strip():
            current = None
    return notes, abbreviations


def readable(title: str, lines: Sequence[str], everything: Sequence[str], lesson: Lesson) -> str:
    """``lines`` (the page body, or one section of it) as Markdown a terminal can show.

    ``everything`` is the whole body, where the footnotes and abbreviations are defined.
    """
    notes, abbreviations = definitions(everything)
    state = _Notes(notes, abbreviations)
    out = [f"# {title}", ""]
    inside = ""  # the indent of an admonition or tab body being read
    figure: list[str] | None = None  # the lines of a <figure> being collected
    fence: str | None = None
    continuing = False  # a footnote definition's indented continuation
    for at, line in enumerate(lines):
        marker = _FENCE.match(line)
        if fence is not None or marker:
            if marker and fence is None:
                fence = marker.group(1)
            elif marker and marker.group(1).startswith(fence or "\0"):
                fence = None
            out.append(line.removeprefix(inside))
            continue
        if line.startswith("<!--") and (shown := _marker(line, lesson)) is not None:
            if shown:
                out.append(shown)
            continue
        if figure is not None:
            figure.append(line)
            if "</figure>" in line:
                out += _figure("\n".join(figure), state, lesson)
                figure = None
            continue
        if line.lstrip().startswith("<figure"):
            figure = [line]
            if "</figure>" in line:
                out += _figure(line, state, lesson)
                figure = None
            continue
        if _NOTE.match(line) or _ABBREVIATION.match(line):
            continuing = bool(_NOTE.match(line))
            continue
        if continuing and (line.startswith("    ") or not line.strip()):
            continue
        continuing = False
        block = _BLOCK.match(line)
        if block is not None:
            out += [f"**{block.group(3) or block.group(2).capitalize()}**", ""]
            inside = block.group(1) + "    "
            continue
        if not line.strip() and out and not out[-1].strip():
            continue  # one blank line between blocks is enough
        if inside and line.strip() and not line.startswith(inside):
            inside = ""
        line = line.removeprefix(inside)
        if _DEFINITION.match(line) and out and out[-1].strip():  # a glossary's `:   text`
            out[-1] += ": " + _inline(_DEFINITION.sub("", line), state, lesson)
        elif at + 1 < len(lines) and _DEFINITION.match(lines[at + 1]) and line.strip():
            out.append(f"**{line.strip()}**")  # the term being defined: no need to spell out
            state.spelled.add(line.strip())
        else:
            out.append(_inline(line, state, lesson))
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out + _sources(state)).rstrip() + "\n"


def _marker(line: str, lesson: Lesson) -> str | None:
    """What a marker line shows in a terminal ("" for nothing); None for any other comment."""
    try:
        marker = markers.read(line)
    except markers.MarkerError:
        return ""  # `lessonkit validate` reports it; the reader sees nothing
    if marker is None:
        return None
    return f"**Take the quiz:** `{lesson.quiz} {marker.name}`" if marker.kind == "quiz" else ""


def _inline(line: str, state: _Notes, lesson: Lesson) -> str:
    """One line of prose: references numbered, links made commands, images described."""
    line = _ATTRIBUTES.sub("", line)
    line = _INLINE_HTML.sub("", line)
    line = _REFERENCE.sub(lambda m: _number(m.group(1), state), line)
    if _IMAGE.search(line):
        return "\n".join(
            _described(alt, src, "", state, lesson) for alt, src in _IMAGE.findall(line)
        )
    line = _AUTOLINK.sub(r"\1", line)
    line = _LINK.sub(lambda m: _link(m.group(1), m.group(2), lesson), line)
    stripped = line.lstrip()
    if stripped.startswith(("#", "|")) or not state.abbreviations:
        return line
    return _spell_out(line, state)


def _number(note: str, state: _Notes) -> str:
    if note not in state.notes:
        return f"[{note}]"  # undefined: `lessonkit validate` reports it; show it as written
    if note not in state.used:
        state.used.append(note)
    return f"[{state.used.index(note) + 1}]"


def _link(text: str, target: str, lesson: Lesson) -> str:
    """A link as text: to another lesson or section, the command that reads it."""
    if target.startswith(("http://", "https://", "mailto:")):
        return target if text == target else f"[{text}]({target})"
    page, _, anchor = target.partition("#")
    slug = Path(page).stem if page.endswith(".md") else lesson.slug if not page else ""
    if slug not in lesson.lessons and not (slug == lesson.slug and anchor):
        return text
    command = " ".join([lesson.read, slug, *([anchor] if anchor else [])])
    return f"{text} (`{command}`)"


def _spell_out(line: str, state: _Notes) -> str:
    """Each abbreviation written out in full where it is first used, outside code and links."""
    parts = _CODE_OR_TARGET.split(line)
    for at in range(0, len(parts), 2):  # even parts are prose; odd ones code or addresses
        for term, meaning in state.abbreviations.items():
            if term in state.spelled:
                continue
            pattern = re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")
            if pattern.search(parts[at]) and meaning.casefold() in line.casefold():
                state.spelled.add(term)  # the author spells it out here already
            elif pattern.search(parts[at]):
                parts[at] = pattern.sub(f"{term} ({meaning})", parts[at], count=1)
                state.spelled.add(term)
    return "".join(parts)


def _figure(html: str, state: _Notes, lesson: Lesson) -> list[str]:
    """A `<figure>` with one picture (or a light and a dark one) and its caption."""
    images = _IMAGE.findall(html)
    caption = _CAPTION.search(html)
    said = "" if caption is None else " ".join(_INLINE_HTML.sub("", caption.group(1)).split())
    light = [(alt, src) for alt, src in images if "#only-dark" not in src] or images
    if not light:
        return [f"**Figure.** {said}", ""] if said else []
    alt, src = light[0]
    return [_described(alt, src, said, state, lesson), ""]


def _described(alt: str, src: str, caption: str, state: _Notes, lesson: Lesson) -> str:
    """A picture the terminal cannot show: marked as a figure, described, and where it is."""
    state.figures += 1
    path = lesson.shown((lesson.folder / src.split("#")[0]).resolve())
    lines = [f"> **Figure {state.figures}.** {caption or alt}"]
    if caption and alt:
        lines += [">", f"> *The picture:* {alt}"]
    lines += [">", f"> *Image file:* `{path}`"]
    return "\n".join(lines)


def _sources(state: _Notes) -> list[str]:
    """The footnotes used, numbered as referenced, each address written once."""
    if not state.used:
        return []
    lines = ["", "## Sources", ""]
    for n, note in enumerate(state.used, 1):
        text = _AUTOLINK.sub(r"\1", state.notes[note])
        text = _LINK.sub(lambda m: m.group(2) if m.group(1) == m.group(2) else m.group(0), text)
        lines.append(f"{n}. {text}")
    return lines


def _outside_code(lines: Sequence[str]) -> list[str]:
    """The lines not inside a fenced code block."""
    kept: list[str] = []
    fence: str | None = None
    for line in lines:
        marker = _FENCE.match(line)
        if marker and fence is None:
            fence = marker.group(1)
        elif marker and marker.group(1).startswith(fence or "\0"):
            fence = None
        elif fence is None:
            kept.append(line)
    return kept
