"""One course file read on its own: a plan or lesson page, or a bank, with its facts.

What loaded, the file's own problems, and the facts other files' checks need of it
(see ``facts``); ``course`` puts the files of a course together and checks across them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pydantic import ValidationError

from lessonkit.bank import yamldoc
from lessonkit.bank.fields import PROSE_FIELDS
from lessonkit.bank.loader import course_of, read_facts, validate_bank
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import Question, question_adapter
from lessonkit.course.facts import BankFacts, Facts, LessonFacts, PlanFacts
from lessonkit.course.lessons import LessonPage, PlanPage, read_lesson, read_plan
from lessonkit.errors import ContentError, Problem, display_path


@dataclass(frozen=True)
class BankParts:
    """What could be read of one bank file, even when the bank as a whole is invalid."""

    slug: str
    document: yamldoc.Document
    lesson: str | None
    questions: list[tuple[int, Question]]


class Loaded(NamedTuple):
    """One file read: what loaded (None if nothing), its problems and its facts."""

    value: PlanPage | LessonPage | BankParts | None
    problems: list[Problem]
    facts: Facts
    bank: Bank | None = None


def page_files(content: Path) -> tuple[list[tuple[Path, bool]], list[Problem]]:
    """Plan and lesson pages in reading order, each with whether it is a plan's index, and
    a problem for each folder of lessons without an index."""
    found: list[tuple[Path, bool]] = []
    problems: list[Problem] = []
    if not content.is_dir():
        return found, problems
    # By name within one folder: the order of Paths, and faster at a thousand files.
    for folder in sorted((p for p in content.iterdir() if p.is_dir()), key=_name):
        pages = sorted((p for p in folder.glob("*.md") if p.name != "index.md"), key=_name)
        index = folder / "index.md"
        if index.is_file():
            found.append((index, True))
        elif pages:
            problem = Problem(
                display_path(folder), 0, 0, "this learning plan has no index.md",
                "add index.md with the plan's front matter",
            )  # fmt: skip
            problems.append(problem)
        found += [(page, False) for page in pages]
    return found, problems


def _name(path: Path) -> str:
    return path.name


def load_page(path: Path, plan: bool) -> Loaded:
    try:
        if plan:
            found = read_plan(path)
            return Loaded(found, [], PlanFacts(tuple(found.meta.lessons)))
        lesson = read_lesson(path)
        facts = LessonFacts(lesson.slug, path.parent.name, lesson.meta.quiz, lesson.meta.title)
        return Loaded(lesson, [], facts)
    except ContentError as error:
        none = PlanFacts(None) if plan else LessonFacts(path.stem, path.parent.name, None)
        return Loaded(None, list(error.problems), none)


def load_bank(path: Path) -> Loaded:
    try:
        document = yamldoc.load(path, watch=PROSE_FIELDS)
    except ContentError as error:
        return Loaded(None, list(error.problems), BankFacts(path.stem, None, False, 0, ()))
    # Fact references become their values before anything reads the questions, so the
    # self-test and the parameter sweep run on the facts as they are now.
    document, bank, problems = validate_bank(document, read_facts(course_of(path)))
    if bank is not None:
        parts = BankParts(path.stem, document, bank.lesson, list(enumerate(bank.questions)))
    else:
        parts = salvage(path.stem, document)
    ids = tuple(
        (index, question.id, *document.locate(("questions", index, "id")))
        for index, question in parts.questions
    )
    count = len(bank.questions) if bank is not None else 0
    found = BankFacts(path.stem, parts.lesson, bank is not None, count, ids)
    return Loaded(parts, problems, found, bank)


def salvage(slug: str, document: yamldoc.Document) -> BankParts:
    """The questions of an invalid bank that are valid by themselves, so that cross-file
    problems are reported in the same run as the bank's own."""
    data = document.data if isinstance(document.data, dict) else {}
    lesson = data.get("lesson")
    items = data.get("questions")
    valid: list[tuple[int, Question]] = []
    for index, item in enumerate(items if isinstance(items, list) else []):
        try:
            valid.append((index, question_adapter().validate_python(item)))
        except ValidationError:
            continue  # already reported by the bank's own validation
    return BankParts(slug, document, lesson if isinstance(lesson, str) else None, valid)
