"""Reading time: a lesson's words as the site shows them, and minutes for a range of readers."""

from __future__ import annotations

import math
import re

from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem

# Technical prose is read more slowly than the ~240 words a minute of fiction; the range
# gives the front matter's `minutes` room for a slower and a quicker reader.
WORDS_PER_MINUTE = (200, 230)
COUNTED = "text and each figure's alt text once (not code, footnotes or addresses)"

# The dark variant repeats its light twin's alt text, and a reader sees only one of them.
_DARK_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*#only-dark[^)]*\)")
_ATTR_LIST = re.compile(r"\{[^{}\n]*\}")  # `{ width="420" }` is markup, not words
_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|<[^>]+>|\[\^[^\]]+\]|[#*_`>|]")
_WORD = re.compile(r"[^\W_]+(?:['\u2019.,-][^\W_]+)*")
_DASH = "\N{EN DASH}"


def word_count(lesson: LessonPage) -> int:
    """Words a reader reads: the body outside code blocks, without link targets and markup,
    each figure's alt text counted once (its dark variant is skipped)."""
    words = 0
    for _, raw in body_lines(lesson):
        if raw.lstrip().startswith(("[^", "*[")):
            continue  # footnote and abbreviation definitions are reference, not reading
        line = _ATTR_LIST.sub(" ", _DARK_IMAGE.sub(" ", raw))
        words += len(_WORD.findall(_MARKUP.sub(lambda m: f" {m.group(1) or ''} ", line)))
    return words


def minutes(words: int) -> tuple[int, int]:
    """Minutes for the quicker and the slower reader, rounded up, at least 1."""
    slow, quick = (max(1, math.ceil(words / wpm)) for wpm in WORDS_PER_MINUTE)
    return quick, slow


def speeds() -> str:
    return _DASH.join(str(wpm) for wpm in WORDS_PER_MINUTE)


def span(limits: tuple[int, int]) -> str:
    quick, slow = limits
    return f"{quick} min" if quick == slow else f"{quick}{_DASH}{slow} min"


def minutes_warnings(lesson: LessonPage, words: int) -> list[Problem]:
    """The front matter's `minutes` outside the reading range, at that field."""
    quick, slow = minutes(words)
    stated = lesson.meta.minutes
    if quick <= stated <= slow:
        return []
    return [
        lesson.front.problem(
            ("minutes",),
            f"minutes: {stated} is outside the reading time of {span((quick, slow))} "
            f"({words:,} words at {speeds()} words a minute)",
            f"set `minutes: {quick}`"
            if quick == slow
            else f"set `minutes:` from {quick} to {slow}",
        )
    ]
