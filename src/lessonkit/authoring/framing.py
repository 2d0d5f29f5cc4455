"""A lesson's framing metaphor: set up in the opening and used again where the reader decides.

A lesson that names its framing words in the front matter (`framing: [workshop, factory
line]`) promises the reader a picture to carry through; the rule checks that each word
appears before the first `##` and again in the section of the last insight.
"""

from __future__ import annotations

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem


def _text_between(lesson: LessonPage, start: int, stop: int | None) -> str:
    """The body's text from file line ``start`` up to ``stop`` (exclusive; None: the end)."""
    return "\n".join(
        line
        for number, line in body_lines(lesson)
        if number >= start and (stop is None or number < stop)
    ).casefold()


def _framing(subject: Subject, settings: RuleSettings) -> list[Problem]:
    lesson = subject.lesson
    words = lesson.meta.framing
    level_two = [h for h in lesson.headings if h.level == 2]
    if not words or not level_two:
        return []
    opening = _text_between(lesson, lesson.body_line, level_two[0].line)
    last = lesson.meta.insights[-1]
    index = next((i for i, h in enumerate(level_two) if h.title == last), None)
    problems: list[Problem] = []
    for number, word in enumerate(words):
        if word.casefold() not in opening:
            problems.append(
                lesson.front.problem(
                    ("framing", number),
                    f"framing: `{word}` is never said in the opening, before the first `##`",
                    "set the picture up where the reader starts",
                )
            )
        if index is None:
            continue  # the missing heading is reported by `headings`
        after = level_two[index + 1].line if index + 1 < len(level_two) else None
        if word.casefold() not in _text_between(lesson, level_two[index].line, after):
            problems.append(
                lesson.front.problem(
                    ("framing", number),
                    f"framing: `{word}` is never said in the section `{last}`",
                    "use the framing again where the reader makes the choice",
                )
            )
    return problems


FRAMING = Rule(
    "framing",
    "Each word of a lesson's `framing:` is set up in the opening, before the first `##`, and "
    "used again in the section of the last insight.",
    "a metaphor the lesson promises helps only if it is there when the reader decides",
    lesson_check=_framing,
)
