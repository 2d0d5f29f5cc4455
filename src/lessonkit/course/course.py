"""The whole course — plans, lessons and banks — read together and checked across files.

Reading knows nothing about the author's rules on a page's body (links, images, limits,
forbidden blocks): those live in ``pagechecks`` and ``rulebook``, which build on this.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from lessonkit.bank import yamldoc
from lessonkit.bank.loader import validate
from lessonkit.bank.models import PROSE_FIELDS, SLUG_PATTERN, Bank, Question
from lessonkit.course.folder import find_root
from lessonkit.course.lessons import LessonPage, PlanPage, read_lesson, read_plan
from lessonkit.errors import ContentError, Problem, display_path
from lessonkit.grading import grader

BANK_SUFFIXES = (".yml", ".yaml")
_SLUG = re.compile(SLUG_PATTERN)


@dataclass(frozen=True)
class BankParts:
    """What could be read of one bank file, even when the bank as a whole is invalid."""

    slug: str
    document: yamldoc.Document
    lesson: str | None
    questions: list[tuple[int, Question]]


@dataclass
class Course:
    """Everything that loaded; ``problems`` lists what did not, or what is inconsistent."""

    root: Path
    plans: dict[str, PlanPage] = field(default_factory=dict)
    lessons: dict[str, LessonPage] = field(default_factory=dict)
    banks: dict[str, Bank] = field(default_factory=dict)
    bank_documents: dict[str, yamldoc.Document] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # Every bank file's questions that validated on their own, for the cross-file checks.
    bank_parts: list[BankParts] = field(default_factory=list, repr=False)
    _lesson_index: tuple[int, dict[Path, LessonPage], dict[str, LessonPage]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def quizzes_dir(self) -> Path:
        return self.root / "quizzes"

    def lesson_at(self, path: Path) -> LessonPage | None:
        """The lesson read from ``path`` (resolved), if any: one dict lookup, so that checking
        every link of every lesson stays linear in the size of the course."""
        return self._index()[0].get(path.resolve())

    def first_lesson_naming(self, quiz: str) -> LessonPage | None:
        """The first lesson, in reading order, whose front matter names the bank ``quiz``."""
        return self._index()[1].get(quiz)

    def _index(self) -> tuple[dict[Path, LessonPage], dict[str, LessonPage]]:
        # Built on first use, again if lessons were added since (they are not, once read).
        if self._lesson_index is None or self._lesson_index[0] != len(self.lessons):
            by_path = {lesson.path.resolve(): lesson for lesson in self.lessons.values()}
            by_quiz: dict[str, LessonPage] = {}
            for lesson in self.lessons.values():
                by_quiz.setdefault(lesson.meta.quiz, lesson)
            self._lesson_index = (len(self.lessons), by_path, by_quiz)
        return self._lesson_index[1], self._lesson_index[2]


__all__ = ["BANK_SUFFIXES", "BankParts", "Course", "find_root", "read_course"]


def read_course(root: Path, extra_banks: Iterable[Path] = ()) -> Course:
    """Read everything under ``root`` (plus any extra bank files), checking only that the
    files load and agree with each other; ``rulebook.check_course`` adds the author's rules."""
    course = Course(root)
    _load_pages(course)
    bank_paths = sorted(p for s in BANK_SUFFIXES for p in course.quizzes_dir.glob(f"*{s}"))
    for path in [*bank_paths, *extra_banks]:
        _collect(course, _load_bank, path)
    _check_plans(course)
    for lesson in course.lessons.values():
        _check_lesson(course, lesson)
    _check_banks(course)
    course.problems.sort()
    return course


# --- loading -----------------------------------------------------------------


def _load_pages(course: Course) -> None:
    if not course.content_dir.is_dir():
        return
    for folder in sorted(p for p in course.content_dir.iterdir() if p.is_dir()):
        pages = sorted(p for p in folder.glob("*.md") if p.name != "index.md")
        index = folder / "index.md"
        if index.is_file():
            _collect(course, _add_plan, index)
        elif pages:
            problem = Problem(
                display_path(folder), 0, 0, "this learning plan has no index.md",
                "add index.md with the plan's front matter",
            )  # fmt: skip
            course.problems.append(problem)
        for page in pages:
            _collect(course, _add_lesson, page)


def _add_plan(course: Course, path: Path) -> None:
    plan = read_plan(path)
    course.plans[path.parent.name] = plan


def _add_lesson(course: Course, path: Path) -> None:
    lesson = read_lesson(path)
    course.lessons[lesson.slug] = lesson


def _load_bank(course: Course, path: Path) -> None:
    document = yamldoc.load(path, watch=PROSE_FIELDS)
    bank, problems = validate(Bank, document, what="bank")
    course.problems.extend(problems)
    if bank is not None:
        course.banks[path.stem] = bank
        course.bank_documents[path.stem] = document
        parts = BankParts(path.stem, document, bank.lesson, list(enumerate(bank.questions)))
    else:
        parts = _salvage(path.stem, document)
    course.bank_parts.append(parts)


@functools.cache
def _question_adapter() -> TypeAdapter[Question]:
    return TypeAdapter(Question)


def _salvage(slug: str, document: yamldoc.Document) -> BankParts:
    """The questions of an invalid bank that are valid by themselves, so that cross-file
    problems are reported in the same run as the bank's own."""
    data = document.data if isinstance(document.data, dict) else {}
    lesson = data.get("lesson")
    items = data.get("questions")
    valid: list[tuple[int, Question]] = []
    for index, item in enumerate(items if isinstance(items, list) else []):
        try:
            valid.append((index, _question_adapter().validate_python(item)))
        except ValidationError:
            continue  # already reported by the bank's own validation
    return BankParts(slug, document, lesson if isinstance(lesson, str) else None, valid)


def _collect(course: Course, action: Callable[[Course, Path], None], path: Path) -> None:
    """Run one loading step; a file that fails to load adds its problems and nothing else."""
    try:
        action(course, path)
    except ContentError as error:
        course.problems.extend(error.problems)


# --- checks across files -------------------------------------------------------


def _check_plans(course: Course) -> None:
    for slug, plan in course.plans.items():
        for number, lesson in enumerate(plan.meta.lessons):
            page = plan.path.parent / f"{lesson}.md"
            if lesson not in course.lessons and page.is_file():
                continue  # the page exists but did not load; its own problems say why
            if (
                lesson not in course.lessons
                or course.lessons[lesson].path.parent != plan.path.parent
            ):
                course.problems.append(
                    plan.front.problem(
                        ("lessons", number),
                        f"lessons[{number}]: no lesson `{lesson}` in content/{slug}/",
                        f"create content/{slug}/{lesson}.md or remove it from the list",
                    )
                )


def _check_lesson(course: Course, lesson: LessonPage) -> None:
    meta, front, folder = lesson.meta, lesson.front, lesson.path.parent.name
    if not _SLUG.match(lesson.slug):
        course.problems.append(
            _file_problem(
                lesson.path,
                f"file name `{lesson.slug}` is not a slug",
                "rename it to lower-case words joined by hyphens",
            )
        )
    if meta.plan != folder:
        course.problems.append(
            front.problem(
                ("plan",),
                f"plan: `{meta.plan}` does not match the folder `{folder}`",
                f"write `plan: {folder}` or move the file",
            )
        )
    plan = course.plans.get(folder)
    if plan is not None and lesson.slug not in plan.meta.lessons:
        course.problems.append(
            front.problem(
                ("plan",),
                f"the lesson is not listed in content/{folder}/index.md",
                f"add `{lesson.slug}` to its `lessons`",
            )
        )
    if meta.quiz not in course.banks and not _bank_file_exists(course, meta.quiz):
        course.problems.append(
            front.problem(
                ("quiz",),
                f"quiz: no bank quizzes/{meta.quiz}.yml",
                "create the bank or fix the slug",
            )
        )
    course.problems.extend(_heading_problems(lesson))


def _bank_file_exists(course: Course, slug: str) -> bool:
    return any((course.quizzes_dir / f"{slug}{suffix}").is_file() for suffix in BANK_SUFFIXES)


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


def _check_banks(course: Course) -> None:
    seen: dict[str, tuple[str, int]] = {}
    for parts in course.bank_parts:
        document = parts.document
        lesson = course.lessons.get(parts.lesson) if parts.lesson else None
        if parts.lesson is not None:
            _check_bank_lesson(course, parts, lesson)
        for index, question in parts.questions:
            loc = ("questions", index)
            first = seen.get(question.id)
            if first is not None:
                course.problems.append(
                    document.problem(
                        (*loc, "id"),
                        f"questions[{index}].id: `{question.id}` is already used at "
                        f"{first[0]}:{first[1]}",
                        "ids are unique across all banks; give this question a new id",
                    )
                )
            else:
                seen[question.id] = (document.path, document.locate((*loc, "id"))[0])
            if lesson is not None:
                course.problems.extend(_lesson_refs(document, index, question, lesson))
            course.problems.extend(_self_test(document, index, question))


def _check_bank_lesson(course: Course, parts: BankParts, lesson: LessonPage | None) -> None:
    slug, document = parts.slug, parts.document
    if not _SLUG.match(slug):
        course.problems.append(
            Problem(
                document.path, 0, 0, f"file name `{slug}` is not a slug",
                "rename it to lower-case words joined by hyphens",
            )
        )  # fmt: skip
    if lesson is None and any(course.content_dir.glob(f"*/{parts.lesson}.md")):
        return  # the lesson exists but did not load; its own problems say why
    if lesson is None:
        close = difflib.get_close_matches(str(parts.lesson), list(course.lessons), n=1)
        hint = f"did you mean `{close[0]}`?" if close else "write the slug of a lesson in content/"
        message = f"lesson: no lesson `{parts.lesson}` in content/"
        course.problems.append(document.problem(("lesson",), message, hint))
    elif lesson.meta.quiz != slug:
        course.problems.append(
            document.problem(
                ("lesson",),
                f"lesson: `{parts.lesson}` names the quiz `{lesson.meta.quiz}`, not `{slug}`",
                f"set `quiz: {slug}` in the lesson's front matter, "
                "or point this bank at its own lesson",
            )
        )


def _lesson_refs(
    document: yamldoc.Document, index: int, question: Question, lesson: LessonPage
) -> list[Problem]:
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


def _self_test(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """The answer key must earn full marks and, where one exists, a wrong answer must not."""
    loc = ("questions", index)
    key = grader.answer_key(question)
    if key is not None:
        result = grader.grade(question, key)
        if result.score < result.max_score:
            return [
                document.problem(
                    loc,
                    f"questions[{index}]: answer-key self-test failed: the key "
                    f"scores {result.score:g} of {result.max_score:g}",
                    "check the answer, its tolerance or accepted answers",
                )
            ]
    wrong = grader.wrong_responses(question)
    if wrong and all(grader.grade(question, w).score >= question.points for w in wrong):
        return [
            document.problem(
                loc,
                f"questions[{index}]: answer-key self-test failed: "
                "no wrong answer scores less than full marks",
                "make sure the options, items or pairs really differ",
            )
        ]
    return []


def _file_problem(path: Path, message: str, hint: str) -> Problem:
    return Problem(display_path(path), 0, 0, message, hint)
