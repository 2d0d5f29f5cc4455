"""Bank Markdown as HTML that cannot run script: the one sanitiser the site and exports share.

Bank text arrives through pull requests, so whatever reaches a reader's browser or a
learner's LMS passes through ``safe_html`` first. Needs the ``site`` or ``export``
extra (nh3); the terminal quiz never imports it.
"""

from __future__ import annotations

import functools
import re

import markdown
import nh3

from lessonkit.bank import inline

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_TAGS", "URL_SCHEMES", "inline_html", "safe_html"]

# Bank text is written by contributors and arrives through pull requests: only
# formatting survives, never scripts, styles, images (they would load from other
# hosts), forms or event handlers.
_ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "em", "i", "kbd", "li",
    "ol", "p", "pre", "s", "strong", "sub", "sup", "ul",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}}
_URL_SCHEMES = {"http", "https", "mailto"}
# Option, item and match text sits after a letter, in a label or a list item: no blocks.
_INLINE_TAGS = _ALLOWED_TAGS - {"blockquote", "li", "ol", "p", "pre", "ul"}
# The importers clean LMS HTML with the same lists before writing it as bank Markdown.
ALLOWED_TAGS, ALLOWED_ATTRIBUTES, URL_SCHEMES = _ALLOWED_TAGS, _ALLOWED_ATTRIBUTES, _URL_SCHEMES


@functools.cache
def _markdown() -> markdown.Markdown:
    # One converter, reset between texts: building a new one per text cost ~0.5 ms,
    # a third of the hook's build time on a 22-question bank.
    return markdown.Markdown(extensions=["fenced_code"], output_format="html")


# Text with none of Markdown's or HTML's special characters, on one line, and not
# opening a list, quote or code block: its HTML is the text itself in a paragraph.
_PLAIN = re.compile(r"(?![ \t]*(?:[-+>]|\d+[.)])(?:\s|$))[^\n`*_\[\]<>&\\#!|~=:]*")


def safe_html(text: str, *, inline: bool = False) -> str:
    """Markdown from a bank as HTML that cannot run script; `inline` drops a lone `<p>` wrapper."""
    stripped = text.rstrip("\n")
    if stripped == stripped.strip() and _PLAIN.fullmatch(stripped):
        # Most options and feedback are plain sentences; converting and sanitising
        # each one was most of the hook's rendering time.
        return stripped if inline else f"<p>{stripped}</p>"
    rendered = _markdown().reset().convert(text)
    clean = nh3.clean(
        rendered,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel="noopener noreferrer",
    )
    # A paragraph that held only a stripped tag would show as an empty gap.
    clean = clean.replace("<p></p>", "").strip()
    # Options and list items sit inside <li>/<label>; a paragraph there adds a gap.
    if inline and clean.startswith("<p>") and clean.endswith("</p>") and clean.count("<p>") == 1:
        return clean[3:-4]
    return clean


def inline_html(text: str) -> str:
    """Inline Markdown (an option, an order item, a match side) as HTML that cannot run
    script and holds no block: `>= 100`, `- 100`, `1. first` and `# all` show as written
    (``bank.inline``), and HTML block tags are dropped, keeping their text. Text with a
    fenced code block (the one block an option may hold) is rendered as written."""
    if inline.fenced(text):
        return safe_html(text, inline=True)
    written = inline.source(text, commonmark=False)
    if _PLAIN.fullmatch(written):
        return written
    rendered = _markdown().reset().convert(written)
    return nh3.clean(
        rendered,
        tags=_INLINE_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel="noopener noreferrer",
    ).strip()
