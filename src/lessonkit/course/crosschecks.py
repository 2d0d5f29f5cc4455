"""The checks that a course's files agree with each other, each returning its problems.

A plan lists lessons that are in its folder; a lesson names its folder's plan, is listed
there and names a bank that exists, and has a ``##`` heading for each insight, in order;
a bank is named for a lesson that names it back, and each question's insight, objectives
and section are in that lesson; no question id is used twice, across all banks. They
read other files' ``facts`` where they can, so a run that reads only some files checks
the rest as they stand; ``course`` runs them on what it read.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from pathlib import Path

from lessonkit.bank import yamldoc
from lessonkit.bank.fields import SLUG_PATTERN
from lessonkit.bank.questions import Question
from lessonkit.course.facts import BankFacts, Facts, LessonFacts, PlanFacts
from lessonkit.course.files import BankParts
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.course.lessons import LessonPage, PlanPage
from lessonkit.errors import Problem, display_path

_SLUG = re.compile(SLUG_PATTERN)


def plan_problems(
    plans: Mapping[str, PlanPage], loaded: Mapping[str, tuple[Path, LessonFacts]]
) -> list[Problem]:
    """Each plan's lessons against the lessons that load (``Course.loaded_lessons``)."""
    problems: list[Problem] = []
    for slug, plan in plans.items():
        first: dict[str, int] = {}
        for number, lesson in enumerate(plan.meta.lessons):
            if lesson in first:
                # Listed twice, it would come twice in the plan's list and link to itself.
                problems.append(
                    plan.front.problem(
                        ("lessons", number),
                        f"lessons[{number}]: `{lesson}` is listed twice (first as "
                        f"lessons[{first[lesson]}])",
                        "keep one entry, where the lesson comes in the reading order",
                    )
                )
                continue
            first[lesson] = number
            page = plan.path.parent / f"{lesson}.md"
            if lesson not in loaded and page.is_file():
                continue  # the page exists but did not load; its own problems say why
            if lesson not in loaded or loaded[lesson][0].parent != plan.path.parent:
                problems.append(
                    plan.front.problem(
                        ("lessons", number),
                        f"lessons[{number}]: no lesson `{lesson}` in content/{slug}/",
                        f"create content/{slug}/{lesson}.md or remove it from the list",
                    )
                )
    return problems


def lesson_problems(
    lesson: LessonPage, facts: Mapping[Path, Facts], quizzes: Path
) -> list[Problem]:
    """A lesson against its plan and its bank (by their facts), and its own headings."""
    problems: list[Problem] = []
    meta, front, folder = lesson.meta, lesson.front, lesson.path.parent.name
    if not _SLUG.match(lesson.slug):
        problems.append(
            _file_problem(
                lesson.path,
                f"file name `{lesson.slug}` is not a slug",
                "rename it to lower-case words joined by hyphens",
            )
        )
    if meta.plan != folder:
        problems.append(
            front.problem(
                ("plan",),
                f"plan: `{meta.plan}` does not match the folder `{folder}`",
                f"write `plan: {folder}` or move the file",
            )
        )
    plan = facts.get(lesson.path.parent / "index.md")
    listed = plan.lessons if isinstance(plan, PlanFacts) else None
    if listed is not None and lesson.slug not in listed:
        problems.append(
            front.problem(
                ("plan",),
                f"the lesson is not listed in content/{folder}/index.md",
                f"add `{lesson.slug}` to its `lessons`",
            )
        )
    banks = (f for f in facts.values() if isinstance(f, BankFacts) and f.valid)
    if not any(f.slug == meta.quiz for f in banks) and not _bank_file_exists(quizzes, meta.quiz):
        problems.append(
            front.problem(
                ("quiz",),
                f"quiz: no bank quizzes/{meta.quiz}.yml",
                "create the bank or fix the slug",
            )
        )
    problems.extend(_heading_problems(lesson))
    return problems


def _bank_file_exists(quizzes: Path, slug: str) -> bool:
    return any((quizzes / f"{slug}{suffix}").is_file() for suffix in BANK_SUFFIXES)


def _heading_problems(lesson: LessonPage) -> list[Problem]:
    problems: list[Problem] = []
    shown = display_path(lesson.path)
    titles = [(h.title, h) for h in lesson.headings if h.level == 2]
    start = 0
    for number, insight in enumerate(lesson.meta.insights):
        found = next((i for i in range(start, len(titles)) if titles[i][0] == insight), None)
        if found is None:
            elsewhere = any(title == insight for title, _ in titles)
            problems.append(
                lesson.front.problem(
                    ("insights", number),
                    f"insights[{number}]: `{insight}` "
                    + ("is out of order" if elsewhere else "has no `##` heading"),
                    "each insight is also a `## ` heading, in the same order",
                )
            )
        else:
            start = found + 1
    previous = 1
    for heading in lesson.headings:
        if heading.level > previous + 1:
            problems.append(
                Problem(
                    shown,
                    heading.line,
                    1,
                    f"heading level jumps from {'#' * previous} to {'#' * heading.level}",
                    f"use {'#' * (previous + 1)} here",
                )
            )
        previous = heading.level
    return problems


def duplicate_ids(facts: Mapping[Path, Facts]) -> list[Problem]:
    """Every question id used before, in reading order, from the facts of every bank."""
    names = [name for f in facts.values() if isinstance(f, BankFacts) for name in f.id_names()]
    if len(set(names)) == len(names):
        return []  # the common case: 5 ms at 30,000 questions, the scan below 40 ms
    problems: list[Problem] = []
    seen: dict[str, tuple[Path, int]] = {}
    for path, found in facts.items():
        if not isinstance(found, BankFacts):
            continue
        for index, question_id, line, column in found.ids:
            first = seen.setdefault(question_id, (path, line))
            if first[0] is path and first[1] == line:
                continue
            problems.append(
                Problem(
                    display_path(path),
                    line,
                    column,
                    f"questions[{index}].id: `{question_id}` is already used at "
                    f"{display_path(first[0])}:{first[1]}",
                    "ids are unique across all banks; give this question a new id",
                )
            )
    return problems


def bank_lesson_problems(
    parts: BankParts,
    lesson: tuple[Path, LessonFacts] | None,
    slugs: list[str],
    content: Path,
) -> list[Problem]:
    """A bank's file name, and the lesson it names (by its facts), which must name it back."""
    problems: list[Problem] = []
    slug, document = parts.slug, parts.document
    if not _SLUG.match(slug):
        problems.append(
            Problem(
                document.path, 0, 0, f"file name `{slug}` is not a slug",
                "rename it to lower-case words joined by hyphens",
            )
        )  # fmt: skip
    if lesson is None and any(content.glob(f"*/{parts.lesson}.md")):
        return problems  # the lesson exists but did not load; its own problems say why
    if lesson is None:
        close = difflib.get_close_matches(str(parts.lesson), slugs, n=1)
        hint = f"did you mean `{close[0]}`?" if close else "write the slug of a lesson in content/"
        message = f"lesson: no lesson `{parts.lesson}` in content/"
        problems.append(document.problem(("lesson",), message, hint))
    elif lesson[1].quiz != slug:
        problems.append(
            document.problem(
                ("lesson",),
                f"lesson: `{parts.lesson}` names the quiz `{lesson[1].quiz}`, not `{slug}`",
                f"set `quiz: {slug}` in the lesson's front matter, "
                "or point this bank at its own lesson",
            )
        )
    return problems


def lesson_refs(
    document: yamldoc.Document, index: int, question: Question, lesson: LessonPage
) -> list[Problem]:
    """A question's insight, objectives and section, each of which must be in its lesson."""
    problems: list[Problem] = []
    loc = ("questions", index)
    insights = len(lesson.meta.insights)
    if question.insight > insights:
        problems.append(
            document.problem(
                (*loc, "insight"),
                f"questions[{index}].insight: {question.insight} does not exist; "
                f"the lesson has {insights} insights",
                f"use a number from 1 to {insights}",
            )
        )
    objectives = len(lesson.meta.objectives)
    for number, objective in enumerate(question.objectives):
        if objective > objectives:
            problems.append(
                document.problem(
                    (*loc, "objectives", number),
                    f"questions[{index}].objectives[{number}]: {objective} does not exist; "
                    f"the lesson has {objectives} objective{'' if objectives == 1 else 's'}",
                    ("use 1" if objectives == 1 else f"use a number from 1 to {objectives}")
                    + " or add the objective to the lesson's front matter",
                )
            )
    anchors = lesson.anchors()
    if question.section not in anchors:
        close = difflib.get_close_matches(question.section, list(anchors), n=1, cutoff=0.5)
        hint = (
            f"did you mean `{close[0]}`?" if close else "use the anchor of a heading in the lesson"
        )
        problems.append(
            document.problem(
                (*loc, "section"),
                f"questions[{index}].section: no heading with anchor `{question.section}` "
                f"in {display_path(lesson.path)}",
                hint,
            )
        )
    return problems


def _file_problem(path: Path, message: str, hint: str) -> Problem:
    return Problem(display_path(path), 0, 0, message, hint)
