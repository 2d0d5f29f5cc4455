"""Checks of a lesson's body: images, links, anchors, forbidden blocks and size.

Each check is a function ``(LessonPage, Course) -> list[Problem]``; ``rulebook`` runs
them (in `lessonkit validate`, the site build and the content tests). Front matter,
insight headings and heading levels are checked when the course is read
(``lessonkit.course.crosschecks``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import Field

from lessonkit.authoring.policy import LessonCheck, Rule, RuleSettings, Subject
from lessonkit.bank import composer, limits, yamldoc
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage, Page, body_lines, headings, split_page
from lessonkit.errors import ContentError, Problem, display_path

# Reserved names (RFC 2606 and 6761) and the local machine: never a real source for a reader.
BLOCKED_HOSTS = frozenset({"example.com", "example.org", "example.net", "localhost"})
BLOCKED_SUFFIXES = (".example", ".invalid", ".localhost", ".test", ".local")
BLOCKED_ADDRESSES = frozenset({"127.0.0.1", "0.0.0.0", "::1"})

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# `[text](target "title")` and `![alt](src)`; one level of nested brackets in the text.
_INLINE = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
_REFERENCE = re.compile(r"^\s{0,3}\[([^\]^][^\]]*)\]:\s*<?(\S+?)>?(?:\s|$)")
_HTML_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_HTML_ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_HTML_HREF = re.compile(r"""<a\b[^>]*\bhref\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_EXPLICIT_ID = re.compile(r"""\{[^}\n]*#([\w-]+)[^}\n]*\}|\bid\s*=\s*["']([\w-]+)["']""")


@dataclass(frozen=True)
class Link:
    """A link or image found in a page body, where it starts, and its text."""

    target: str
    line: int
    column: int
    image: bool = False
    text: str = ""


# --- reading the body ------------------------------------------------------------


def blank_code(line: str) -> str:
    """The line with inline code spans blanked out, so columns stay where they were."""
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def links(page: Page) -> list[Link]:
    """Every inline link, image, autolink, reference definition and HTML link in the body."""
    return text_links(body_lines(page))


def text_links(lines: Iterable[tuple[int, str]]) -> list[Link]:
    """Every link in numbered lines of Markdown (a page's body, a bank's text)."""
    found: list[Link] = []
    for number, raw in lines:
        line = blank_code(raw)
        for match in _INLINE.finditer(line):
            image = bool(match.group(1))
            found.append(Link(match.group(3), number, match.start() + 1, image, match.group(2)))
        for match in _AUTOLINK.finditer(line):
            found.append(Link(match.group(1), number, match.start() + 1))
        for match in _REFERENCE.finditer(line):
            found.append(Link(match.group(2), number, match.start(2) + 1))
        for match in _HTML_HREF.finditer(line):
            found.append(Link(match.group(1), number, match.start() + 1))
    return found


def explicit_ids(page: Page) -> set[str]:
    """Anchors set by hand: `{ #id }` attribute lists and HTML `id="…"` attributes."""
    ids: set[str] = set()
    for _, line in body_lines(page):
        for match in _EXPLICIT_ID.finditer(line):
            ids.add(match.group(1) or match.group(2))
    return ids


# --- checks ----------------------------------------------------------------------------


def check_images(page: LessonPage, course: Course) -> list[Problem]:
    """Every image has alt text: screen readers read it, and it shows when the image fails."""
    shown = display_path(page.path)
    problems = [
        Problem(shown, link.line, link.column, "image has no alt text", _ALT_HINT)
        for link in links(page)
        if link.image and not link.text.strip()
    ]
    for number, raw in body_lines(page):
        for match in _HTML_IMG.finditer(blank_code(raw)):
            alt = _HTML_ALT.search(match.group(0))
            if alt is None or not (alt.group(1) or alt.group(2) or "").strip():
                problems.append(
                    Problem(shown, number, match.start() + 1, "image has no alt text", _ALT_HINT)
                )
    return problems


_ALT_HINT = "describe what the image shows, e.g. `![Flowchart: choose a GPU when …](img/x.svg)`"


def check_links(page: Page, course: Course) -> list[Problem]:
    """Internal links and anchors resolve; external links are https and not placeholders."""
    problems: list[Problem] = []
    for link in links(page):
        message, hint = link_problem(link.target, page, course)
        if message:
            problems.append(Problem(display_path(page.path), link.line, link.column, message, hint))
    return problems


def link_problem(target: str, page: Page, course: Course) -> tuple[str, str]:
    """What is wrong with one link target on ``page``, as (message, hint); ("", "") when
    nothing is."""
    if not target:
        return "link has no target", "put the address or file between the parentheses"
    parts = urlsplit(target)
    if parts.scheme == "mailto":
        return "", ""
    if parts.scheme or target.startswith("//"):
        return external_problem(target)
    if target.startswith("/"):
        return (
            f"link `{target}` starts with `/`",
            "link relative to this page, e.g. `../other-plan/lesson.md`, so the site works "
            "from any folder",
        )
    return _internal_problem(parts.path, parts.fragment, page, course)


def external_problem(url: str) -> tuple[str, str]:
    """What is wrong with an external address, as (message, hint); ("", "") when nothing is."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return (
            f"link `{url}` does not use https",
            "use the page's `https://` address; readers should not be sent over plain http",
        )
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return f"link `{url}` has no host", "write the full address, e.g. `https://host/page`"
    if _blocked(host):
        return (
            f"link `{url}` points to `{host}`, which is a placeholder or local address",
            "link to the real page you used",
        )
    return "", ""


def _blocked(host: str) -> bool:
    host = host.lower()
    if host in BLOCKED_ADDRESSES or host.endswith(BLOCKED_SUFFIXES):
        return True
    return any(host == name or host.endswith("." + name) for name in BLOCKED_HOSTS)


def _internal_problem(path_text: str, fragment: str, page: Page, course: Course) -> tuple[str, str]:
    anchor = unquote(fragment)
    if not path_text:
        return _anchor_problem(anchor, page, page)
    target = (page.path.parent / unquote(path_text)).resolve()
    content = course.content_dir.resolve()
    if not target.is_relative_to(content):
        return (
            f"link `{path_text}` leads outside content/",
            "the site only holds files under content/; copy the file there or link to it "
            "with its https address",
        )
    if target.is_dir():
        target = target / "index.md"
    if not target.is_file():
        return (
            f"link `{path_text}` points to a file that does not exist",
            "check the path; it is relative to this page's folder",
        )
    if anchor and target.suffix == ".md":
        return _anchor_problem(anchor, page, _page_at(target, course))
    return "", ""


def _anchor_problem(anchor: str, page: Page, target: Page | None) -> tuple[str, str]:
    if not anchor or target is None:
        return "", ""
    anchors = {h.anchor for h in headings(target)} | explicit_ids(target)
    if anchor in anchors:
        return "", ""
    where = "this page" if target.path == page.path else display_path(target.path)
    close = difflib.get_close_matches(anchor, sorted(anchors), n=1, cutoff=0.5)
    return (
        f"anchor `#{anchor}` is not a heading in {where}",
        f"did you mean `#{close[0]}`?"
        if close
        else "use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` "
        "becomes `#2-where-tpus-are-strongest`",
    )


def site_pages(course: Course) -> list[Page]:
    """The pages the site builds besides lessons: the home page and any other page at the
    top of content/, and each plan's page. Read on each run, as they are few and small."""
    content = course.content_dir
    top = sorted(content.glob("*.md")) if content.is_dir() else []
    pages = [page for path in top if (page := _page_at(path, course)) is not None]
    return pages + list(course.plans.values())


def _page_at(path: Path, course: Course) -> Page | None:
    lesson = course.lesson_at(path)
    if lesson is not None:
        return lesson
    try:
        return split_page(path)
    except ContentError:
        # A page without front matter (the home page) is all body.
        return _plain_page(path)


def _plain_page(path: Path) -> Page | None:
    try:
        text = yamldoc.read_text(path)
    except ContentError:
        return None
    empty = yamldoc.Document(display_path(path), {}, composer.Node(1, 1))
    return Page(path, empty, text, 1)


def check_sources(page: LessonPage, course: Course) -> list[Problem]:
    """Front-matter sources follow the same rules as links in the text."""
    problems: list[Problem] = []
    for number, source in enumerate(page.meta.sources):
        message, hint = external_problem(source.url)
        if message:
            loc = ("sources", number, "url")
            problems.append(page.front.problem(loc, f"sources[{number}].url: {message}", hint))
    return problems


# Fenced blocks whose language makes the theme fetch a script from a CDN at run time.
SCRIPTED_FENCES = frozenset({"mermaid"})
_FENCE_INFO = re.compile(r"^\s{0,3}(```+|~~~+)\s*\{?\s*\.?([\w-]+)")


def check_fences(page: LessonPage, course: Course) -> list[Problem]:
    """No `mermaid` block: the theme would load mermaid from a CDN, and the site loads
    nothing from another host (offline the reader sees the diagram's source)."""
    problems: list[Problem] = []
    fence: str | None = None
    for offset, line in enumerate(page.body.splitlines()):
        match = _FENCE_INFO.match(line) or re.match(r"^\s{0,3}(```+|~~~+)()", line)
        if match is None:
            continue
        marker, language = match.group(1), match.group(2).lower()
        if fence is None:
            fence = marker
            if language in SCRIPTED_FENCES:
                problems.append(
                    Problem(
                        display_path(page.path),
                        page.body_line + offset,
                        line.index(marker) + 1,
                        f"a `{language}` block needs a script from a CDN, which the site "
                        "does not load",
                        "draw the diagram as an SVG (a light and a dark variant) or a table",
                    )
                )
        elif marker.startswith(fence) and not line.strip()[len(marker) :].strip():
            fence = None
    return problems


def check_page_size(
    page: LessonPage, course: Course, most: int = limits.PAGE_BYTES
) -> list[Problem]:
    """A lesson page is at most ``most`` bytes of Markdown, pointed at the line where it
    crosses the limit."""
    raw = page.path.read_bytes() if page.path.is_file() else b""
    if len(raw) <= most:
        return []
    line = raw.count(b"\n", 0, most) + 1
    return [
        Problem(
            display_path(page.path),
            line,
            1,
            f"the page is {len(raw):,} bytes, over the limit of {most:,}; "
            "it crosses the limit on this line",
            "split the topic into two lessons, or move reference material to its sources",
        )
    ]


# --- the rules these checks apply --------------------------------------------------------


def on_page(*checks: Callable[[LessonPage, Course], list[Problem]]) -> LessonCheck:
    """A rule's check made of page checks that need no settings."""

    def check(subject: Subject, settings: RuleSettings) -> list[Problem]:
        return [p for each in checks for p in each(subject.lesson, subject.course)]

    return check


class PageSize(RuleSettings):
    max_bytes: int = Field(
        limits.PAGE_BYTES, ge=1_000, description="The most bytes of Markdown in one lesson page."
    )


def _page_size(subject: Subject, settings: PageSize) -> list[Problem]:
    return check_page_size(subject.lesson, subject.course, settings.max_bytes)


IMAGES = Rule(
    "images",
    "Every image has alt text.",
    "screen readers read it, and it shows when the image fails",
    lesson_check=on_page(check_images),
)
NO_SCRIPTS = Rule(
    "no-scripts",
    "No `mermaid` blocks.",
    "the theme would fetch mermaid from a CDN; the site loads nothing from another host",
    lesson_check=on_page(check_fences),
)
PAGE_SIZE = Rule(
    "page-size",
    "A lesson page is at most {max_bytes:,} bytes of Markdown.",
    "twice a long chapter (160,000 bytes is about 18,000 words); a page a reader can finish",
    settings=PageSize,
    lesson_check=_page_size,
)
