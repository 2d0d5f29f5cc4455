"""Where the site build's additions go in a page: self-check slots, the call to action, tidying.

Pure string work on one page's Markdown or HTML, cheap enough for every build: the
self-checks themselves are rendered once (``selfcheck``) and kept by ``build``.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Mapping, Sequence

from lessonkit.errors import LessonkitError

__all__ = [
    "INSTALL_MARKER",
    "SELF_CHECK_TITLE",
    "fill",
    "install_call",
    "place",
    "quiz_call",
    "tidy",
]

SELF_CHECK_TITLE = "Check yourself"
# A self-check's heading goes into the Markdown, so the table of contents lists it;
# its body goes into the finished page, in place of a comment like this one. There
# the search index never sees it (the answers would turn up as results), and neither
# Markdown nor the search plugin spends time scanning it.
_SLOT = "<!-- lessonkit:self-check {} -->"
_CALL_SLOT = "<!-- lessonkit:quiz-call -->"
# Authors may write this on a page (the home page does) for the install commands.
INSTALL_MARKER = "<!-- lessonkit:install -->"
# An author moves an insight's self-check, or gathers several into a final review,
# with this comment on a line of its own: `<!-- lessonkit:check 1 2 3 -->`.
_MARKER = re.compile(r"^<!--[ \t]*lessonkit:check((?:[ \t]+\d+)+)[ \t]*-->[ \t]*$")
_INSIGHT = re.compile(r"^##[ \t]+(\d+)[.)][ \t]")
_TOP = re.compile(r"^#{1,2}[ \t]")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def place(page: str, markdown: str, insights: Sequence[int]) -> str:
    """A lesson's Markdown with a heading and slot for each insight's self-check at the end of
    that insight's `## N.` section (or at the author's marker), and the call to action last.

    `insights` are the insights with questions, in the order of their blocks. Raises
    LessonkitError for a marker naming an insight without questions.
    """
    lines = markdown.split("\n")
    slot_of = {insight: n for n, insight in enumerate(insights, 1)}
    heading: dict[int, int] = {}  # insight → line of its `## N.` heading
    tops: list[int] = []  # lines of `#` and `##` headings
    markers: dict[int, list[int]] = {}  # line → insights placed there
    fence = ""
    for at, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
        elif marker := _MARKER.match(line):
            wanted = [int(n) for n in marker.group(1).split()]
            unknown = [n for n in wanted if n not in slot_of]
            if unknown:
                raise LessonkitError(
                    f"{page}: `{line.strip()}` names insight {unknown[0]}, which has no "
                    f"questions; use one of {', '.join(str(n) for n in slot_of)}"
                )
            markers[at] = wanted
        elif _TOP.match(line):
            tops.append(at)
            if (found := _INSIGHT.match(line)) and int(found.group(1)) not in heading:
                heading[int(found.group(1))] = at
    placed = {n for wanted in markers.values() for n in wanted}
    inserts = {at: [_review(wanted, slot_of)] for at, wanted in markers.items()}
    leftover = []
    for insight in insights:
        if insight in placed:
            continue
        start = heading.get(insight)
        if start is None:
            leftover.append(insight)
            continue
        end = next((at for at in tops if at > start), len(lines))
        inserts.setdefault(end, []).append(_checkpoint(insight, slot_of))
    out: list[str] = []
    for at, line in enumerate(lines):
        for text in inserts.get(at, ()):
            out += ["", text, ""]
        out.append(line if at not in markers else "")
    for text in inserts.get(len(lines), ()):
        out += ["", text]
    if leftover:
        out += ["", _review(leftover, slot_of, title=SELF_CHECK_TITLE)]
    out += ["", "## Take the quiz in your terminal { #take-the-quiz }", "", _CALL_SLOT, ""]
    return "\n".join(out)


def fill(
    page: str, html: str, checks: Sequence[str], quiz: str | None, repo_url: str | None
) -> str:
    """A finished page with its self-checks and call to action in their slots (the last of
    each, as authors may quote a slot in their text), and install commands at the marker."""
    if INSTALL_MARKER in html:
        html = html.replace(INSTALL_MARKER, install_call(repo_url))
    if quiz is None:
        return html
    fills = [(_SLOT.format(n), check.rstrip()) for n, check in enumerate(checks, 1)]
    fills.append((_CALL_SLOT, quiz_call(quiz, repo_url)))
    for slot, filling in fills:
        before, found, after = html.rpartition(slot)
        if not found:
            raise LessonkitError(
                f"{page}: the self-check's place was lost between Markdown and the page; "
                "does a Markdown extension remove HTML comments?"
            )
        html = f"{before}{filling}{after}"
    return html


def _checkpoint(insight: int, slot_of: Mapping[int, int]) -> str:
    return (
        f"### {SELF_CHECK_TITLE}: section {insight} {{ #check-yourself-{insight} }}\n\n"
        + _SLOT.format(slot_of[insight])
    )


def _review(insights: Sequence[int], slot_of: Mapping[int, int], title: str = "") -> str:
    if len(insights) == 1 and not title:
        return _checkpoint(insights[0], slot_of)
    title = title or f"{SELF_CHECK_TITLE}: review"
    slots = "\n\n".join(_SLOT.format(slot_of[n]) for n in insights)
    anchor = "check-yourself" if title == SELF_CHECK_TITLE else "check-yourself-review"
    return f"## {title} {{ #{anchor} }}\n\n{slots}"


def _commands(repo_url: str | None, slug: str | None) -> str:
    # Installing from the repository needs its address; without one (a local build) the
    # page says where the command runs instead of showing a made-up address.
    install = f'pip install "git+{repo_url}"' if repo_url else "pip install ."
    lines = [install] + ([f"lessonkit quiz {slug}"] if slug else [])
    code = "\n".join(_escape(line) for line in lines)
    return f'<div class="highlight"><pre><span></span><code>{code}</code></pre></div>'


def _where(repo_url: str | None) -> str:
    if repo_url:
        return (
            f'lessonkit comes from <a href="{_escape(repo_url)}">{_escape(repo_url)}</a>. '
            "Install it with Python 3.11 or newer:"
        )
    return "In a clone of the lessonkit repository, with Python 3.11 or newer:"


def quiz_call(slug: str, repo_url: str | None = None) -> str:
    """The call to action at the end of a lesson: install lessonkit, then take the quiz."""
    return (
        '<div class="lk-quiz-call">\n'
        "<p>The terminal quiz asks every question on this lesson, shuffled, grades your "
        "answers and keeps your history on your own machine. "
        f"{_where(repo_url)}</p>\n"
        f"{_commands(repo_url, slug)}\n"
        "</div>"
    )


def install_call(repo_url: str | None = None) -> str:
    """The install command alone, for pages that name no lesson (the home page)."""
    commands = _commands(repo_url, None)
    return f'<div class="lk-quiz-call">\n<p>{_where(repo_url)}</p>\n{commands}\n</div>'


_EMPTY_HEADER = re.compile(r"<th([^>]*)></th>")


def tidy(html: str) -> str:
    """What every page's content needs: an empty header cell is a plain cell (a header
    with no text names nothing for a screen reader), and a lesson image opens full size."""
    if "<th" in html:
        html = _EMPTY_HEADER.sub(r"<td\1></td>", html)
    if "<img" in html:
        html = _IMAGE.sub(_zoomable, html)
    return html


# An image not already inside a link: Python-Markdown writes `<img alt=… src=… />`.
_IMAGE = re.compile(r'(<a\b[^>]*>\s*)?<img\b[^>]*\bsrc="([^"]+)"[^>]*>')


def _zoomable(found: re.Match[str]) -> str:
    if found.group(1):
        return found.group(0)
    src = found.group(2)
    # mkdocs-material hides an `#only-dark` image in the light scheme and the reverse; its
    # link must go with it, or it is an empty link in the tab order.
    scheme = next((f" lk-{part}" for part in ("only-light", "only-dark") if src.endswith(part)), "")
    return f'<a class="lk-zoom{scheme}" href="{src}">{found.group(0)}</a>'


def _escape(value: str) -> str:
    return _html.escape(value, quote=True)
