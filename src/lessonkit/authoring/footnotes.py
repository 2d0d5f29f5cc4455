"""Footnotes: every `[^label]` in a lesson's text has its definition on the page.

Python-Markdown shows a reference without a definition as the literal text `[^label]`,
and neither the build nor a strict build says anything; this rule does.
"""

from __future__ import annotations

import difflib
import re

from lessonkit.authoring.pagechecks import blank_code
from lessonkit.authoring.policy import RuleSettings, Subject, fixed
from lessonkit.course.lessons import body_lines
from lessonkit.errors import Problem, display_path

_DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:")
_REFERENCE = re.compile(r"\[\^([^\]\s]+)\](?!:)")


def _undefined(subject: Subject, settings: RuleSettings) -> list[Problem]:
    lesson = subject.lesson
    lines = [(number, blank_code(line)) for number, line in body_lines(lesson)]
    defined = {m.group(1) for _, line in lines if (m := _DEFINITION.match(line))}
    shown = display_path(lesson.path)
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
    "Every footnote reference `[^label]` has its definition, `[^label]: …`, on the same page.",
    "an undefined footnote shows as literal text and its source is lost",
    lesson_check=_undefined,
)
