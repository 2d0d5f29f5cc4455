"""The whole course — plans, lessons and banks — read together and checked across files.

Reading knows nothing about the author's rules on a page's body (links, images, limits,
forbidden blocks): those live in ``pagechecks`` and ``rulebook``, which build on this.
What the files must agree on is checked by ``crosschecks``, and each question's answer
key is tried by ``selftest``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lessonkit.bank import yamldoc
from lessonkit.bank.factbook import FactBook
from lessonkit.bank.loader import read_facts
from lessonkit.bank.models import Bank
from lessonkit.course import crosschecks, files, selftest
from lessonkit.course.facts import Facts, LessonFacts, Scope, partners
from lessonkit.course.files import BankParts
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.course.lessons import LessonPage, PlanPage
from lessonkit.errors import Problem


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
    # The course's facts (`facts/*.yml`): empty when it has none.
    factbook: FactBook = field(default_factory=FactBook, repr=False)
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


__all__ = ["Course", "read_course"]


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
    course.factbook = read_facts(root)
    course.problems += course.factbook.problems
    # By name: they share a folder, and sorting Paths costs more at a thousand files.
    banks = sorted((p for s in BANK_SUFFIXES for p in course.quizzes_dir.glob(f"*{s}")), key=_name)
    banks += extra_banks
    known = scope.known if scope is not None else {}
    paths = [path for path, _ in pages] + banks
    loaded = _read(pages, banks, scope)
    _assemble(course, paths, loaded, known)
    course.read_files = None if scope is None else set(loaded) | set(scope.read)
    course.problems += crosschecks.plan_problems(course.plans, course.loaded_lessons())
    for lesson in course.lessons.values():
        course.problems += crosschecks.lesson_problems(lesson, course.facts, course.quizzes_dir)
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


def _check_banks(course: Course) -> None:
    loaded = course.loaded_lessons()
    for parts in course.bank_parts:
        document = parts.document
        lesson = course.lessons.get(parts.lesson) if parts.lesson else None
        if parts.lesson is not None:
            course.problems.extend(
                crosschecks.bank_lesson_problems(
                    parts, loaded.get(parts.lesson), list(loaded), course.content_dir
                )
            )
        for index, question in parts.questions:
            if lesson is not None:
                course.problems.extend(crosschecks.lesson_refs(document, index, question, lesson))
            course.problems.extend(selftest.self_test(document, index, question))
    course.across = crosschecks.duplicate_ids(course.facts)
    course.problems += course.across
