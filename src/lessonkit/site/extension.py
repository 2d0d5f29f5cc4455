"""The Python-Markdown extension that makes a lesson page: self-checks, the call to action,
a plan's lesson list, the install command, a "Sources" heading and tidy figures and tables.

Configured under ``markdown_extensions`` in ``mkdocs.yml``, it works wherever
Python-Markdown renders the page: MkDocs with mkdocs-material, Zensical, or plain
``markdown.markdown()`` in a test. It needs nothing from the site engine at render time:
each marker (``lessonkit.course.markers``) names its bank or plan, and the bank is read
through the library and kept rendered in the course's cache (``blocks``).

Answers never enter a search index: each block is a ``<section data-search-exclude>``
with every answer a ``<details data-search-exclude>``. mkdocs-material and Zensical both
skip such elements; a ``<div>`` would not do, as mkdocs-material's indexer ends the
exclusion at the first nested ``</div>``.
"""

from __future__ import annotations

import itertools
import logging
import re
import xml.etree.ElementTree as etree
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from lessonkit.course import markers
from lessonkit.course.folder import find_root
from lessonkit.course.headings import text_headings
from lessonkit.errors import ContentError, LessonkitError
from lessonkit.site import blocks, calls, plans

__all__ = ["SELF_CHECK_TITLE", "LessonkitExtension", "fill", "hold_blocks", "makeExtension", "tidy"]

SELF_CHECK_TITLE = "Check yourself"
# As authoring.pagechecks.PLACEHOLDER, which would import pydantic on every page.
_PLACEHOLDER = "TODO(lessonkit)"
# Under `mkdocs`, so MkDocs counts the warning and a strict build fails on it.
_log = logging.getLogger("mkdocs.extensions.lessonkit")

try:  # Under MkDocs a PluginError prints as the message alone, with no traceback.
    from mkdocs.exceptions import PluginError as _Reported
except ImportError:  # pragma: no cover - Zensical or plain Markdown
    _Reported = LessonkitError  # type: ignore[misc,assignment]


class PageError(_Reported):
    """A page the extension cannot render: a bad marker, or a bank that does not load."""


class LessonkitExtension(Extension):
    """Renders lessonkit's markers; see the module's docstring."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "course": ["", "the course folder (default: the one around the working directory)"],
            "repo_url": ["", "where `pip install` gets lessonkit; empty: from a clone"],
            "sources_title": ["Sources", "heading put over the footnotes; empty for none"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        if "attr_list" not in md.treeprocessors:
            # The self-checks' headings carry their ids as `{ #check-yourself-1 }`; a course
            # whose mkdocs.yml does not list attr_list would show that text.
            md.registerExtensions(["attr_list"], {})
        # After fenced code is stashed (25), so a marker quoted in a code block stays text;
        # before HTML blocks are (20), while a marker is still a line of its own.
        md.preprocessors.register(_Markers(md, self), "lessonkit_markers", 24)
        # Facts first, so that a facts table is Markdown before the markers are read.
        md.preprocessors.register(_Facts(md, self), "lessonkit_facts", 24.5)
        # After the footnotes are gathered (50), before the table of contents is made (5).
        md.treeprocessors.register(_Sources(md, self), "lessonkit_sources", 40)
        # After raw HTML is put back (30).
        md.postprocessors.register(_Tidy(md), "lessonkit_tidy", 5)

    def root(self) -> Path:
        configured = str(self.getConfig("course") or "")
        found = Path(configured) if configured else find_root(Path.cwd())
        if found is None:
            raise PageError(
                f"lessonkit: no course folder (with content/ and quizzes/) at or above "
                f"{Path.cwd()}; build from the course folder, or set `course:` under "
                "`lessonkit.site.extension` in mkdocs.yml"
            )
        return found.resolve()


def makeExtension(**kwargs: Any) -> LessonkitExtension:
    return LessonkitExtension(**kwargs)


class _Markers(Preprocessor):
    """Each marker line becomes its heading (Markdown, so the table of contents lists it)
    and its block (stashed HTML, which Markdown leaves alone)."""

    def __init__(self, md: Markdown, extension: LessonkitExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if _PLACEHOLDER in text:
            self._warn_placeholders(text)
        lesson = self._lesson()
        if lesson is not None:
            lines = self._placed(lines, *lesson)
        found = list(markers.find(enumerate(lines, 1)))
        if not found:
            return lines
        root = self.extension.root()
        sections = {h.anchor: h.text for h in text_headings(text)}
        at = dict(found)
        out: list[str] = []
        for number, line in enumerate(lines, 1):
            marker = at.get(number)
            if marker is None:
                out.append(line)
            elif isinstance(marker, markers.MarkerError):
                raise PageError(f"lessonkit: {self._where()}{marker}")
            elif (
                lesson is not None and marker.kind in ("check", "quiz") and marker.name != lesson[0]
            ):
                raise PageError(
                    f"lessonkit: {self._where()}`{marker.text}` names bank {marker.name}, but "
                    f"this lesson's quiz is {lesson[0]} (write "
                    f"`{marker.text.replace(f' {marker.name}', f' {lesson[0]}', 1)}`)"
                )
            else:
                out += ["", *self._render(marker, root, sections), ""]
        return out

    def _lesson(self) -> tuple[str, list[str]] | None:
        """The bank and insights in the front matter of the lesson being rendered; None for
        any other page. Both engines strip the front matter from the text but keep it as
        the page's meta: MkDocs on the page of the file its link processor holds, Zensical
        on the page of its rendering context."""
        page = None
        if "relpath" in self.md.treeprocessors:  # MkDocs
            page = getattr(getattr(self.md.treeprocessors["relpath"], "file", None), "page", None)
        elif "rendering_context" in self.md.preprocessors:  # Zensical
            page = getattr(self.md.preprocessors["rendering_context"], "page", None)
        meta = getattr(page, "meta", None)
        if not isinstance(meta, dict):
            return None
        quiz, insights = meta.get("quiz"), meta.get("insights")
        if not isinstance(quiz, str) or not isinstance(insights, list):
            return None
        return quiz, [str(insight) for insight in insights]

    def _placed(self, lines: list[str], quiz: str, insights: list[str]) -> list[str]:
        """The page with a marker wherever its author left one out (``markers.with_defaults``)."""
        try:
            asked = blocks.rendered(self.extension.root(), quiz).blocks
        except ContentError as error:
            problems = "\n".join(str(problem) for problem in error.problems)
            raise PageError(
                f"lessonkit: {self._where()}the lesson's quiz `{quiz}` does not load:\n"
                f"{problems}\n`lessonkit validate` lists every problem in the course."
            ) from None
        return markers.with_defaults(lines, quiz, insights, asked)

    def _render(self, marker: markers.Marker, root: Path, sections: dict[str, str]) -> list[str]:
        repo_url = str(self.extension.getConfig("repo_url") or "") or None
        try:
            if marker.kind == "install":
                return [self._stash(calls.install_call(repo_url))]
            if marker.kind == "lessons":
                return plans.markdown(plans.entries(root, marker.name))
            if marker.kind == "quiz":
                blocks.rendered(root, marker.name)  # a quiz that cannot load is no call to action
                heading = f"## {calls.QUIZ_TITLE} {{ #{calls.QUIZ_ANCHOR} }}"
                return [heading, "", self._stash(calls.quiz_call(marker.name, repo_url))]
            return self._checks(marker, blocks.rendered(root, marker.name), sections)
        except ContentError as error:
            problems = "\n".join(str(problem) for problem in error.problems)
            raise PageError(
                f"lessonkit: {self._where()}`{marker.text}` needs what does not load:\n"
                f"{problems}\n`lessonkit validate` lists every problem in the course."
            ) from None

    def _checks(
        self, marker: markers.Marker, bank: blocks.Rendered, sections: dict[str, str]
    ) -> list[str]:
        unknown = [n for n in marker.insights if n not in bank.blocks]
        if unknown:
            have = ", ".join(str(n) for n in bank.blocks) or "none"
            raise PageError(
                f"lessonkit: {self._where()}`{marker.text}` names insight {unknown[0]}, "
                "which has no questions "
                f"in bank {marker.name} (insights with questions: {have})"
            )
        shown = [
            self._stash(_held(blocks.with_sections(bank.blocks[n], sections)))
            for n in marker.insights
        ]
        if len(shown) == 1:
            (only,) = marker.insights
            title = f"### {SELF_CHECK_TITLE}: section {only} {{ #check-yourself-{only} }}"
        else:
            title = f"## {SELF_CHECK_TITLE}: review {{ #check-yourself-review }}"
        return [title, "", "\n\n".join(shown)]

    def _stash(self, html: str) -> str:
        return self.md.htmlStash.store(html.strip())

    def _warn_placeholders(self, text: str) -> None:
        # A draft previews with `mkdocs serve`; a strict build fails on the warning, and
        # `make site` never gets that far, as `lessonkit validate` refuses placeholders.
        count = text.count(_PLACEHOLDER)
        start = text.index(_PLACEHOLDER)
        first = text[start : text.find("\n", start) % (len(text) + 1)].strip()[:60]
        noun = "placeholder" if count == 1 else "placeholders"
        _log.warning(
            f"lessonkit: {self._where()}{count} {noun} left from the template, the first: "
            f"{first} (`lessonkit validate` shows where each one is)"
        )

    def _where(self) -> str:
        return _where(self.md)


class _Facts(Preprocessor):
    """Fact references and facts tables become Markdown with footnotes to their sources
    (``course.factpages``), as `lessonkit read` shows them."""

    def __init__(self, md: Markdown, extension: LessonkitExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        if not any("((fact" in line or "lessonkit:facts" in line for line in lines):
            return lines
        from lessonkit.course import factpages

        expanded = factpages.expand(lines, blocks.facts(self.extension.root()))
        if expanded.problems:
            first = expanded.problems[0]
            raise PageError(
                f"lessonkit: {_where(self.md)}line {first.line}: {first.message} "
                f"({first.hint}); `lessonkit validate` lists every problem in the course"
            )
        return expanded.markdown


def _where(md: Markdown) -> str:
    """The page being rendered, for messages: each engine tells only its own way."""
    path = None
    if "relpath" in md.treeprocessors:  # MkDocs
        path = getattr(getattr(md.treeprocessors["relpath"], "file", None), "src_uri", None)
    elif "rendering_context" in md.preprocessors:  # Zensical
        page = getattr(md.preprocessors["rendering_context"], "page", None)
        path = getattr(page, "path", None)
    return f"{path}: " if isinstance(path, str) and path else ""


# Under MkDocs, the hook asks the blocks to wait outside the page while mkdocs-material's
# search reads it: parsing a lesson's blocks costs that indexer more than the rest of the
# page, and they are kept out of its index anyway. The page holds a token; the hook puts
# each block in its place in the finished page (`fill`). Without the hook (Zensical, a
# plain Markdown call) nothing waits: the blocks are in the page from the start.
_waiting: dict[str, str] | None = None
_tokens = itertools.count(1)
_TOKEN = re.compile(r"<!--lk-block:(\d+)-->")


def hold_blocks(holding: bool) -> None:
    """Start (or stop) keeping blocks outside pages until ``fill`` puts them in."""
    global _waiting
    _waiting = {} if holding else None


def fill(html: str) -> str:
    """A finished page with every block that waited for it in its place."""
    if "<!--lk-block:" not in html:
        return html

    def block(found: re.Match[str]) -> str:
        if _waiting is None or found.group(1) not in _waiting:
            raise PageError(
                f"lessonkit: block {found.group(1)} was lost before the page was written"
            )
        return _waiting.pop(found.group(1))

    return _TOKEN.sub(block, html)


def _held(html: str) -> str:
    if _waiting is None:
        return html
    token = str(next(_tokens))
    _waiting[token] = html
    return f"<!--lk-block:{token}-->"


class _Sources(Treeprocessor):
    """A heading over the footnotes, so the sources have their own place in the table of
    contents and the search index, apart from whatever section happens to end the page."""

    def __init__(self, md: Markdown, extension: LessonkitExtension) -> None:
        super().__init__(md)
        self.title = str(extension.getConfig("sources_title") or "")

    def run(self, root: etree.Element) -> None:
        if not self.title:
            return
        children = list(root)
        for at, child in enumerate(children):
            if child.tag == "div" and "footnote" in (child.get("class") or "").split():
                if at and re.fullmatch(r"h[1-6]", children[at - 1].tag):
                    return  # the author gave them a heading already
                heading = etree.Element("h2", {"id": "sources"})
                heading.text = self.title
                root.insert(at, heading)
                rule = child.find("hr")
                if rule is not None:
                    child.remove(rule)  # the heading separates them now
                return


class _Tidy(Postprocessor):
    def run(self, text: str) -> str:
        return tidy(text)


_EMPTY_HEADER = re.compile(r"<th([^>]*)></th>")
# An image not already inside a link: Python-Markdown writes `<img alt=… src=… />`.
_IMAGE = re.compile(r'(<a\b[^>]*>\s*)?<img\b([^>]*\bsrc="([^"]+)"[^>]*)>')


def tidy(html: str) -> str:
    """What every page's content needs: an empty header cell is a plain cell (a header
    with no text names nothing for a screen reader), and a figure zooms when tapped."""
    if "<th" in html:
        html = _EMPTY_HEADER.sub(r"<td\1></td>", html)
    if "<img" in html:
        html = _IMAGE.sub(_zoomable, html)
    return html


def _zoomable(found: re.Match[str]) -> str:
    if found.group(1):
        return found.group(0)
    attributes, src = found.group(2), found.group(3)
    # Lazy: a browser then fetches only the variant of a light/dark pair that is shown,
    # as the theme hides the other (`display: none` is never in view).
    if "loading=" not in attributes:
        attributes = f' loading="lazy"{attributes}'
    image = f"<img{attributes}>"
    # The theme hides an `#only-dark` image in the light scheme and the reverse; its link
    # must go with it, or it is an empty link in the tab order.
    scheme = next((f" lk-{part}" for part in ("only-light", "only-dark") if src.endswith(part)), "")
    return f'<a class="lk-zoom{scheme}" href="{src}">{image}</a>'
