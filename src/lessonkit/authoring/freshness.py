"""Fresh by rule: a lesson is reviewed within its interval, and its dated figures show their age.

A lesson's front matter says when it was last checked against its sources (`reviewed:
2026-11`) and, optionally, how often it must be (`review_months: 6`; otherwise the
course's policy). Past that, `validate` warns and the strict site build fails, so an
out-of-date lesson is never published silently. Figures and prices say in the text
when they applied ("as of November 2026"); `lessonkit report` lists them by age.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from pydantic import Field

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem

_MONTHS = {name.casefold(): number for number, name in enumerate(calendar.month_name) if name}
_AS_OF = re.compile(r"\bas of (" + "|".join(_MONTHS) + r") (\d{4})\b", re.IGNORECASE)


def add_months(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` later, or the month's last day when it is shorter."""
    total = day.year * 12 + day.month - 1 + months
    year, month = divmod(total, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def months_between(earlier: dt.date, later: dt.date) -> int:
    return (later.year - earlier.year) * 12 + later.month - earlier.month


class Review(RuleSettings):
    months: int = Field(
        12,
        ge=1,
        le=120,
        description="Months between reviews of a lesson, unless its front matter sets "
        "`review_months`.",
    )


def due(lesson: LessonPage, settings: Review) -> tuple[dt.date, int]:
    """The last day the lesson's review covers it, and the interval in months.

    `reviewed: 2026-11` with 6 months covers the lesson to the end of May 2027.
    """
    months = lesson.meta.review_months or settings.months
    reviewed = lesson.meta.reviewed
    if len(reviewed) > 7:
        return add_months(dt.date.fromisoformat(reviewed), months), months
    start = add_months(dt.date.fromisoformat(f"{reviewed}-01"), months)
    return start.replace(day=calendar.monthrange(start.year, start.month)[1]), months


def _review(subject: Subject, settings: Review) -> list[Problem]:
    lesson, today = subject.lesson, subject.today
    reviewed = lesson.meta.reviewed
    started = dt.date.fromisoformat(reviewed if len(reviewed) > 7 else f"{reviewed}-01")
    if started > today:
        return [
            lesson.front.problem(
                ("reviewed",),
                f"reviewed: {reviewed} is in the future",
                f"write the month you checked the lesson, e.g. `reviewed: {today:%Y-%m}`",
            )
        ]
    last, months = due(lesson, settings)
    if today <= last:
        return []
    return [
        lesson.front.problem(
            ("reviewed",),
            f"reviewed: {reviewed} is more than {months} month{'' if months == 1 else 's'} ago; "
            f"the lesson was due for review by {last.isoformat()}",
            "check each figure and price against its source, note what changed under "
            f"`## Updates`, then set `reviewed: {today:%Y-%m}`",
        )
    ]


def steady(lesson: LessonPage, settings: Review, today: dt.date) -> tuple[dt.date, dt.date]:
    """The first and last day on which ``review`` says of the lesson what it says today.

    `validate`'s cache checks the lesson again once the day is outside this span: a
    lesson falls due as days pass without any file changing. A problem's hint names
    today's month, so a span with a problem ends with the month.
    """
    reviewed = lesson.meta.reviewed
    month = today.replace(day=1)
    month_end = today.replace(day=calendar.monthrange(today.year, today.month)[1])
    try:
        started = dt.date.fromisoformat(reviewed if len(reviewed) > 7 else f"{reviewed}-01")
        last, _ = due(lesson, settings)
    except ValueError:
        return today, today  # the front matter's own check reports it
    if started > today:
        return month, min(month_end, started - dt.timedelta(days=1))
    if today <= last:
        return started, last
    return max(month, last + dt.timedelta(days=1)), month_end


REVIEW = Rule(
    "review",
    "A lesson is reviewed within {months} months of its `reviewed:` date, or of its own "
    "`review_months:`.",
    "hardware, prices and tools move in months; an out-of-date lesson must not be published "
    "silently",
    default="warn",
    settings=Review,
    lesson_check=_review,
)


@dataclass(frozen=True)
class Dated:
    """One "as of" month in a lesson's text and the lines that name it."""

    month: dt.date  # its first day
    lines: tuple[int, ...]

    def label(self) -> str:
        return f"{calendar.month_name[self.month.month]} {self.month.year}"


def figure_ages(lesson: LessonPage) -> list[Dated]:
    """Every "as of <Month YYYY>" in the body, oldest first, each month once."""
    found: dict[dt.date, list[int]] = {}
    for number, line in body_lines(lesson):
        for match in _AS_OF.finditer(line):
            month = dt.date(int(match.group(2)), _MONTHS[match.group(1).casefold()], 1)
            found.setdefault(month, [])
            if number not in found[month]:
                found[month].append(number)
    return [Dated(month, tuple(lines)) for month, lines in sorted(found.items())]
