"""Footnotes: every `[^label]` has its definition on the same page, and bank text has none.

Python-Markdown shows a reference without a definition as the literal text `[^label]`,
and neither the build nor a strict build says anything; this rule does, on every page the
site builds. A question's text is rendered apart from its page, so a footnote there never
finds a definition: it shows as `[^label]` on the site and in the terminal alike.
"""

from __future__ import annotations

import difflib
import re

from lessonkit.authoring.linkchecks import bank_texts, field_name
from lessonkit.authoring.pagechecks import blank_code, site_pages
from lessonkit.authoring.policy import RuleSettings, Subject, fixed
from lessonkit.course.course import Course
from lessonkit.course.lessons import Page, body_lines
from lessonkit.errors import Problem, display_path

_DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:")
_REFERENCE = re.compile(r"\[\^([^\]\s]+)\](?!:)")


def _undefined(subject: Subject, settings: RuleSettings) -> list[Problem]:
    return undefined(subject.lesson)


def _elsewhere(course: Course, settings: RuleSettings) -> list[Problem]:
    problems = [p for page in site_pages(course) for p in undefined(page)]
    for document, loc, text, _ in bank_texts(course):
        if "[^" not in text:
            continue
        for match in _REFERENCE.finditer(blank_code(text)):
            problems.append(
                document.problem(
                    loc,
                    f"{field_name(loc)}: footnote `[^{match.group(1)}]` shows as text: a "
                    "question is shown apart from its page, where footnotes are defined",
                    "name the source in the text instead, e.g. `(see [the guide](https://…))`, "
                    "or cite it in the lesson",
                )
            )
    return problems


def undefined(page: Page) -> list[Problem]:
    """Every footnote reference on ``page`` without a definition there."""
    lines = [(number, blank_code(line)) for number, line in body_lines(page)]
    defined = {m.group(1) for _, line in lines if (m := _DEFINITION.match(line))}
    shown = display_path(page.path)
    problems: list[Problem] = []
    for number, line in lines:
        definition = _DEFINITION.match(line)
        start = definition.end() if definition else 0
        for match in _REFERENCE.finditer(line, start):
            label = match.group(1)
            if label in defined:
                continue
            close = difflib.get_close_matches(label, sorted(defined), n=1, cutoff=0.6)
            problems.append(
                Problem(
                    shown, number, match.start() + 1,
                    f"footnote `[^{label}]` has no definition, so the page shows it as text",
                    f"did you mean `[^{close[0]}]`?" if close else
                    f"add `[^{label}]: the source` on a line of its own at the end of the page",
                )
            )  # fmt: skip
    return problems


FOOTNOTES = fixed(
    "footnotes",
    "Every footnote reference `[^label]` has its definition, `[^label]: …`, on the same page; "
    "question text has no footnotes.",
    "an undefined footnote shows as literal text and its source is lost",
    lesson_check=_undefined,
    course_check=_elsewhere,
)
