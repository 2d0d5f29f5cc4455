"""The blocks a lesson page ends with: the sections a course requires, a dated Updates list
and dated appendix tables (three rules; a course's policy sets how each applies)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem, display_path

# The `##` sections every lesson ends with, in the template's order.
EXPECTED_SECTIONS = ("Common misconceptions", "Key takeaways", "Glossary", "Updates")
_DATED_ITEM = re.compile(r"^\s*[-*+]\s+(?:\*\*)?\d{4}-\d{2}-\d{2}")
_ITEM = re.compile(r"^\s*[-*+]\s+\S")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|")
_AS_OF = re.compile(r"\bas of\b", re.IGNORECASE)


def missing_sections(
    lesson: LessonPage, required: Sequence[str] = EXPECTED_SECTIONS
) -> list[Problem]:
    """The required `##` sections the page lacks, as one problem at the title."""
    titles = {h.text.casefold() for h in lesson.headings if h.level == 2}
    missing = [s for s in required if s.casefold() not in titles]
    if not missing:
        return []
    names = ", ".join(f"`## {s}`" for s in missing)
    guide = lesson.path.parents[2] / "CONTRIBUTING.md"
    said = ", and CONTRIBUTING.md says what goes in them" if guide.is_file() else ""
    return [
        lesson.front.problem(
            ("title",),
            f"the page has no {names} section{'s' if len(missing) > 1 else ''}",
            "reviewers expect them at the end of every lesson; `lessonkit new lesson` "
            f"writes each with a placeholder{said}",
        )
    ]


def _sections(lesson: LessonPage) -> list[tuple[str, int, str]]:
    """(the `##` section it is in, casefolded; file line; text) of every body line."""
    found, section = [], ""
    for number, line in body_lines(lesson):
        if line.startswith("## "):
            section = line[3:].strip().casefold()
            continue
        found.append((section, number, line))
    return found


def undated_updates(lesson: LessonPage) -> list[Problem]:
    """Items of the `## Updates` list that do not start with a date."""
    shown = display_path(lesson.path)
    return [
        Problem(
            shown,
            number,
            1,
            "an Updates item without a date",
            "start it with the date of the change: `- **2026-11-23:** what changed`",
        )
        for section, number, line in _sections(lesson)
        if section == "updates" and _ITEM.match(line) and not _DATED_ITEM.match(line)
    ]


def undated_tables(lesson: LessonPage) -> list[Problem]:
    """Appendix tables without an `as of` date since the previous table."""
    shown = display_path(lesson.path)
    found: list[Problem] = []
    dated, previous = False, ""
    for section, number, line in _sections(lesson):
        if section != previous:
            dated, previous = False, section
        if not section.startswith("appendix"):
            continue
        if _AS_OF.search(line):
            dated = True
        elif _TABLE_RULE.match(line):
            if not dated:
                found.append(
                    Problem(
                        shown, number - 1, 1, "an appendix table without an `as of` date",
                        "say before the table when its figures applied, e.g. "
                        "`**Prices, as of November 2026**`",
                    )
                )  # fmt: skip
            dated = False
    return found


class Sections(RuleSettings):
    required: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=lambda: list(EXPECTED_SECTIONS),
        description="The `##` sections every lesson ends with, e.g. `[Key takeaways, Updates]`.",
    )


def _required(subject: Subject, settings: Sections) -> list[Problem]:
    return missing_sections(subject.lesson, settings.required)


SECTIONS = Rule(
    "sections",
    "Every lesson has the `##` sections this course requires.",
    "readers and reviewers find the same closing blocks in every lesson",
    default="advice",
    settings=Sections,
    lesson_check=_required,
)
DATED_UPDATES = Rule(
    "dated-updates",
    "Each item of a lesson's `## Updates` list starts with its date: "
    "`- **2026-11-23:** what changed`.",
    "a reader sees what changed since they last read it, and when",
    default="advice",
    lesson_check=lambda subject, settings: undated_updates(subject.lesson),
)
DATED_TABLES = Rule(
    "dated-tables",
    "An appendix table says before it when its figures applied: `**Prices, as of November 2026**`.",
    "specs and prices go stale; a dated table says how old it is",
    default="advice",
    lesson_check=lambda subject, settings: undated_tables(subject.lesson),
)
