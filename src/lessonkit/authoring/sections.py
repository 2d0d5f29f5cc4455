"""Report advice on a lesson page's blocks: the sections reviewers expect, a dated Updates
list and dated appendix tables. Advice only: pages without them still validate."""

from __future__ import annotations

import re

from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem, display_path

# The `##` sections every lesson ends with, in the template's order.
EXPECTED_SECTIONS = ("Common misconceptions", "Key takeaways", "Glossary", "Updates")
_DATED_ITEM = re.compile(r"^\s*[-*+]\s+(?:\*\*)?\d{4}-\d{2}-\d{2}")
_ITEM = re.compile(r"^\s*[-*+]\s+\S")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|")
_AS_OF = re.compile(r"\bas of\b", re.IGNORECASE)


def page_warnings(lesson: LessonPage) -> list[Problem]:
    """Missing sections, undated Updates items and appendix tables without an `as of` date."""
    found: list[Problem] = []
    titles = {h.text.casefold() for h in lesson.headings if h.level == 2}
    missing = [s for s in EXPECTED_SECTIONS if s.casefold() not in titles]
    if missing:
        names = ", ".join(f"`## {s}`" for s in missing)
        found.append(
            lesson.front.problem(
                ("title",),
                f"the page has no {names} section{'s' if len(missing) > 1 else ''}",
                "reviewers expect them at the end of every lesson; `lessonkit new lesson` "
                "writes each with a placeholder, and CONTRIBUTING.md says what goes in them",
            )
        )
    shown = display_path(lesson.path)
    section, dated = "", False
    for number, line in body_lines(lesson):
        if line.startswith("## "):
            section, dated = line[3:].strip().casefold(), False
            continue
        if section == "updates" and _ITEM.match(line) and not _DATED_ITEM.match(line):
            found.append(
                Problem(
                    shown, number, 1, "an Updates item without a date",
                    "start it with the date of the change: `- **2026-11-23:** what changed`",
                )
            )  # fmt: skip
        if section.startswith("appendix"):
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
