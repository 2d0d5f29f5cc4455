"""Template placeholders: `TODO(lessonkit)` left in a lesson or its bank, one rule.

A fresh draft has dozens of them; `grouped` folds each file's into one line with the
count, after the real problems, so that those are not lost among them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lessonkit.authoring.pagechecks import on_page
from lessonkit.authoring.policy import fixed
from lessonkit.bank import yamldoc
from lessonkit.course.course import Course
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import ContentError, Problem, display_path

# The marker every placeholder in the templates starts with; nothing else uses it.
PLACEHOLDER = "TODO(lessonkit)"
_PLACEHOLDER_MESSAGE = "placeholder left from the template"
PLACEHOLDER_HINT = "replace it with your own text; see CONTRIBUTING.md"


def check_placeholders(page: LessonPage, course: Course) -> list[Problem]:
    """Template placeholders left in the lesson (front matter and body) or in its bank."""
    shown = display_path(page.path)
    problems = placeholders_in(_front_lines(page), shown)
    problems += placeholders_in(body_lines(page), shown)
    bank = _bank_path(page, course)
    if bank is not None:
        try:
            text = yamldoc.read_text(bank)
        except ContentError:
            return problems  # the loader already reports an unreadable bank
        if PLACEHOLDER in text:  # one search, rather than one per line of a large bank
            problems += placeholders_in(enumerate(text.splitlines(), start=1), display_path(bank))
    return problems


def placeholders_in(lines: Iterable[tuple[int, str]], path: str) -> list[Problem]:
    """A problem for every placeholder marker in the numbered lines."""
    problems: list[Problem] = []
    for number, line in lines:
        start = line.find(PLACEHOLDER)
        while start >= 0:
            snippet = _snippet(line, start)
            if len(snippet) > 60:
                snippet = snippet[:57] + "…"
            message = f"{_PLACEHOLDER_MESSAGE}: {snippet}"
            problems.append(Problem(path, number, start + 1, message, PLACEHOLDER_HINT))
            start = line.find(PLACEHOLDER, start + len(PLACEHOLDER))
    return problems


def is_placeholder(problem: Problem) -> bool:
    """Whether a problem is a template placeholder (a draft's, which a preview may allow)."""
    return problem.message.startswith(_PLACEHOLDER_MESSAGE)


def grouped(problems: Iterable[Problem]) -> tuple[list[Problem], list[Problem]]:
    """The problems that are not placeholders, and each file's placeholders folded into
    one problem at the first of them, with the count: a fresh draft has dozens, and the
    few real problems must not drown among them."""
    real: list[Problem] = []
    folded: list[Problem] = []
    placeholders: dict[str, list[Problem]] = {}
    for problem in sorted(problems):
        if is_placeholder(problem):
            placeholders.setdefault(problem.path, []).append(problem)
        else:
            real.append(problem)
    for found in placeholders.values():
        first = found[0]
        if len(found) == 1:
            folded.append(first)
            continue
        snippet = first.message.removeprefix(f"{_PLACEHOLDER_MESSAGE}: ")
        folded.append(
            Problem(
                first.path, first.line, first.column,
                f"{len(found)} {_PLACEHOLDER_MESSAGE.replace('placeholder', 'placeholders')}; "
                f"the first: {snippet}",
                "replace each with your own text; search the file for `TODO(lessonkit)`",
            )
        )  # fmt: skip
    return real, folded


def _snippet(line: str, start: int) -> str:
    """The placeholder's text: up to its closing quote when it is quoted, else the line's end."""
    quote = line[start - 1] if start and line[start - 1] in "\"'" else ""
    end = line.find(quote, start) if quote else -1
    return line[start : end if end >= 0 else len(line)].strip()


def _front_lines(page: LessonPage) -> list[tuple[int, str]]:
    text = yamldoc.read_text(page.path)
    return list(enumerate(text.splitlines()[: page.body_line - 1], start=1))


def _bank_path(page: LessonPage, course: Course) -> Path | None:
    """The lesson's bank file, unless an earlier lesson names the same bank (report it once)."""
    quiz = page.meta.quiz
    first = course.first_lesson_naming(quiz)
    if first is not None and first is not page:
        return None
    for suffix in BANK_SUFFIXES:
        path = course.quizzes_dir / f"{quiz}{suffix}"
        if path.is_file():
            return path
    return None


def check_plan_placeholders(course: Course, settings: object) -> list[Problem]:
    """Template placeholders left in a plan's page (`lessonkit new plan` writes some)."""
    problems: list[Problem] = []
    for plan in course.plans.values():
        text = yamldoc.read_text(plan.path)
        if PLACEHOLDER in text:
            problems += placeholders_in(enumerate(text.splitlines(), 1), display_path(plan.path))
    return problems


PLACEHOLDERS = fixed(
    "placeholders",
    "No `TODO(lessonkit)` left from the templates.",
    "the template's text is not a lesson",
    lesson_check=on_page(check_placeholders),
    course_check=check_plan_placeholders,
)
