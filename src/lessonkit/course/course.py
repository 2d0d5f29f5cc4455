"""The whole course — plans, lessons and banks — read together and checked across files.

Reading knows nothing about the author's rules on a page's body (links, images, limits,
forbidden blocks): those live in ``pagechecks`` and ``rulebook``, which build on this.
Each question's answer key is tried by ``selftest``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lessonkit.bank import yamldoc
from lessonkit.bank.models import SLUG_PATTERN, Bank, Question
from lessonkit.course import files, selftest
from lessonkit.course.facts import BankFacts, Facts, LessonFacts, PlanFacts, Scope, partners
from lessonkit.course.files import BankParts
from lessonkit.course.folder import BANK_SUFFIXES, find_root
from lessonkit.course.lessons import LessonPage, PlanPage
from lessonkit.errors import Problem, display_path

_SLUG = re.compile(SLUG_PATTERN)


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
    # What checks across files know of every plan, lesson and bank file, read or not.
    facts: dict[Path, Facts] = field(default_factory=dict, repr=False)
    # Problems worked out from the facts of every file (duplicate question ids): a run
    # that reads only some files still finds all of them, wherever they are.
    across: list[Problem] = field(default_factory=list, repr=False)
    # The files this run read, when it did not read the whole course.
    read_files: set[Path] | None = field(default=None, repr=False)
    _lesson_index: tuple[int, dict[Path, LessonPage], dict[str, LessonPage]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def quizzes_dir(self) -> Path:
        return self.root / "quizzes"

    def covers(self, path: Path) -> bool:
        """Whether this run read ``path`` (every file, unless it read only a scope)."""
        return self.read_files is None or path in self.read_files

    def files_under(self, folder: Path) -> list[Path]:
        """Everything under ``folder`` that this run covers, sorted (folders included)."""
        if self.read_files is None:
            return sorted(folder.rglob("*"))
        return sorted(p for p in self.read_files if p.is_relative_to(folder))

    def loaded_lessons(self) -> dict[str, tuple[Path, LessonFacts]]:
        """Every lesson whose front matter loads, read in this run or not, by slug (the last
        in reading order wins, as in ``lessons``)."""
        return {
            found.slug: (path, found)
            for path, found in self.facts.items()
            if isinstance(found, LessonFacts) and found.quiz is not None
        }

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


__all__ = ["BANK_SUFFIXES", "BankParts", "Course", "Scope", "find_root", "read_course"]


def read_course(
    root: Path, extra_banks: Iterable[Path] = (), *, scope: Scope | None = None
) -> Course:
    """Read everything under ``root`` (plus any extra bank files), checking only that the
    files load and agree with each other; ``rulebook.check_course`` adds the author's rules.

    With a ``scope``, only its files and their partners (see ``facts``) are read, and
    checked against the facts of every other file as the scope knows them.
    """
    course = Course(root)
    pages, course.problems = files.page_files(course.content_dir)
    # By name: they share a folder, and sorting Paths costs more at a thousand files.
    banks = sorted((p for s in BANK_SUFFIXES for p in course.quizzes_dir.glob(f"*{s}")), key=_name)
    banks += extra_banks
    known = scope.known if scope is not None else {}
    paths = [path for path, _ in pages] + banks
    loaded = _read(pages, banks, scope)
    _assemble(course, paths, loaded, known)
    course.read_files = None if scope is None else set(loaded) | set(scope.read)
    _check_plans(course)
    for lesson in course.lessons.values():
        _check_lesson(course, lesson)
    _check_banks(course)
    course.problems.sort()
    return course


# --- loading -----------------------------------------------------------------


def _read(
    pages: list[tuple[Path, bool]], banks: list[Path], scope: Scope | None
) -> dict[Path, files.Loaded]:
    """Every file, or the scope's files with their partners by the old and new facts."""
    known = scope.known if scope is not None else {}
    paths = [path for path, _ in pages] + banks
    # Without facts from an earlier run, a file has to be read.
    wanted = None if scope is None else {p for p in paths if p in scope.read or p not in known}
    loaded: dict[Path, files.Loaded] = {}
    while True:
        for path, plan in pages:
            if (wanted is None or path in wanted) and path not in loaded:
                loaded[path] = files.load_page(path, plan)
        for path in banks:
            if (wanted is None or path in wanted) and path not in loaded:
                loaded[path] = files.load_bank(path)
        if wanted is None:
            return loaded
        more = partners(loaded, {**known, **{p: r.facts for p, r in loaded.items()}})
        if more <= wanted:
            return loaded
        wanted |= more


def _name(path: Path) -> str:
    return path.name


def _assemble(
    course: Course,
    paths: list[Path],
    loaded: dict[Path, files.Loaded],
    known: Mapping[Path, Facts],
) -> None:
    """Put what was read into the course in reading order, and the facts of every file."""
    for path in paths:
        found = loaded.get(path)
        if found is None:
            course.facts[path] = known[path]
            continue
        course.facts[path] = found.facts
        course.problems.extend(found.problems)
        value = found.value
        if isinstance(value, PlanPage):
            course.plans[path.parent.name] = value
        elif isinstance(value, LessonPage):
            course.lessons[value.slug] = value
        elif isinstance(value, BankParts):
            if found.bank is not None:
                course.banks[path.stem] = found.bank
                course.bank_documents[path.stem] = value.document
            course.bank_parts.append(value)


# --- checks across files -------------------------------------------------------


def _check_plans(course: Course) -> None:
    loaded = course.loaded_lessons()
    for slug, plan in course.plans.items():
        for number, lesson in enumerate(plan.meta.lessons):
            page = plan.path.parent / f"{lesson}.md"
            if lesson not in loaded and page.is_file():
                continue  # the page exists but did not load; its own problems say why
            if lesson not in loaded or loaded[lesson][0].parent != plan.path.parent:
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
    plan = course.facts.get(lesson.path.parent / "index.md")
    listed = plan.lessons if isinstance(plan, PlanFacts) else None
    if listed is not None and lesson.slug not in listed:
        course.problems.append(
            front.problem(
                ("plan",),
                f"the lesson is not listed in content/{folder}/index.md",
                f"add `{lesson.slug}` to its `lessons`",
            )
        )
    banks = (f for f in course.facts.values() if isinstance(f, BankFacts) and f.valid)
    if not any(f.slug == meta.quiz for f in banks) and not _bank_file_exists(course, meta.quiz):
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
    loaded = course.loaded_lessons()
    for parts in course.bank_parts:
        document = parts.document
        lesson = course.lessons.get(parts.lesson) if parts.lesson else None
        if parts.lesson is not None:
            _check_bank_lesson(course, parts, loaded.get(parts.lesson), list(loaded))
        for index, question in parts.questions:
            if lesson is not None:
                course.problems.extend(_lesson_refs(document, index, question, lesson))
            course.problems.extend(selftest.self_test(document, index, question))
    course.across = _duplicate_ids(course)
    course.problems += course.across


def _duplicate_ids(course: Course) -> list[Problem]:
    """Every question id used before, in reading order, from the facts of every bank."""
    names = [
        name for f in course.facts.values() if isinstance(f, BankFacts) for name in f.id_names()
    ]
    if len(set(names)) == len(names):
        return []  # the common case: 5 ms at 30,000 questions, the scan below 40 ms
    problems: list[Problem] = []
    seen: dict[str, tuple[Path, int]] = {}
    for path, found in course.facts.items():
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


def _check_bank_lesson(
    course: Course,
    parts: BankParts,
    lesson: tuple[Path, LessonFacts] | None,
    slugs: list[str],
) -> None:
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
        close = difflib.get_close_matches(str(parts.lesson), slugs, n=1)
        hint = f"did you mean `{close[0]}`?" if close else "write the slug of a lesson in content/"
        message = f"lesson: no lesson `{parts.lesson}` in content/"
        course.problems.append(document.problem(("lesson",), message, hint))
    elif lesson[1].quiz != slug:
        course.problems.append(
            document.problem(
                ("lesson",),
                f"lesson: `{parts.lesson}` names the quiz `{lesson[1].quiz}`, not `{slug}`",
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


def _file_problem(path: Path, message: str, hint: str) -> Problem:
    return Problem(display_path(path), 0, 0, message, hint)
