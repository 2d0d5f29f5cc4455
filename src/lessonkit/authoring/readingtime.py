"""Reading time: a lesson's words as the site shows them, and minutes for a range of readers."""

from __future__ import annotations

import math
import re

from pydantic import Field

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem

# Technical prose is read more slowly than the ~240 words a minute of fiction; the range
# covers a slower and a quicker reader. It is a floor for the front matter's `minutes`,
# which also counts working the numbers through.
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


def minutes(words: int, speeds: tuple[int, int] = WORDS_PER_MINUTE) -> tuple[int, int]:
    """Minutes for the quicker and the slower reader, rounded up, at least 1."""
    slow, quick = (max(1, math.ceil(words / wpm)) for wpm in speeds)
    return quick, slow


def speeds(wpm: tuple[int, int] = WORDS_PER_MINUTE) -> str:
    return _DASH.join(str(speed) for speed in wpm)


def span(limits: tuple[int, int]) -> str:
    quick, slow = limits
    return f"{quick} min" if quick == slow else f"{quick}{_DASH}{slow} min"


class ReadingTime(RuleSettings):
    slow_wpm: int = Field(
        WORDS_PER_MINUTE[0], ge=50, le=1000, description="Words a minute of a slow reader."
    )
    quick_wpm: int = Field(
        WORDS_PER_MINUTE[1], ge=50, le=1000, description="Words a minute of a quick reader."
    )
    max_ratio: float = Field(
        2.0,
        gt=1,
        description="`minutes` above this many times the slow reading time is implausible.",
    )

    @property
    def wpm(self) -> tuple[int, int]:
        return self.slow_wpm, self.quick_wpm


def minutes_warnings(
    lesson: LessonPage, words: int, settings: ReadingTime | None = None
) -> list[Problem]:
    """The front matter's `minutes` below the reading time, or implausibly far above it.

    `minutes` is what a reader spends: reading, and working the numbers through. The
    reading time is therefore a floor, and only a figure far above it is suspect.
    """
    settings = settings or ReadingTime()
    quick, slow = minutes(words, settings.wpm)
    stated = lesson.meta.minutes
    counted = f"{words:,} words at {speeds(settings.wpm)} words a minute"
    if stated < quick:
        return [
            lesson.front.problem(
                ("minutes",),
                f"minutes: {stated} is less than the reading time of {span((quick, slow))} "
                f"({counted})",
                f"set `minutes:` to at least {quick}, plus the time the worked numbers take",
            )
        ]
    if stated > settings.max_ratio * slow:
        return [
            lesson.front.problem(
                ("minutes",),
                f"minutes: {stated} is more than {settings.max_ratio:g} times the reading time "
                f"of {span((quick, slow))} ({counted})",
                "state what a reader spends, reading and working the numbers; if it really "
                "takes this long, trim the page",
            )
        ]
    return []


def _reading_time(subject: Subject, settings: ReadingTime) -> list[Problem]:
    return minutes_warnings(subject.lesson, word_count(subject.lesson), settings)


READING_TIME = Rule(
    "reading-time",
    "A lesson's `minutes` is at least its reading time at {slow_wpm}\N{EN DASH}{quick_wpm} words a "
    "minute, and at most {max_ratio:g} times the slow reading time.",
    "readers plan by it: a figure below the reading time misleads them, and one far above it "
    "is a typo or a page to trim",
    default="advice",
    settings=ReadingTime,
    lesson_check=_reading_time,
)
