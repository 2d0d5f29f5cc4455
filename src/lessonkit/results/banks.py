"""The banks behind a class's answers: each question's type, options, key and line.

Results name the line of each question in its bank file so an author can jump to it.
A bank is looked up by slug as the quiz finds it (the course around the working
directory first); when it cannot be found, results still report what needs no bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lessonkit.bank import yamldoc
from lessonkit.course import catalog
from lessonkit.course.bankversion import bank_version
from lessonkit.errors import LessonkitError
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion


@dataclass(frozen=True)
class QuestionInfo:
    """One question of the bank as it is now, and where it is written."""

    question: RuntimeQuestion
    line: int
    key_hash: str
    options: tuple[str, ...]  # what a learner chooses from; () for types without options
    keys: frozenset[int]  # which of those are right


@dataclass(frozen=True)
class BankInfo:
    """A bank as it is now: its file, version and questions in file order."""

    slug: str
    title: str
    path: str
    version: str
    questions: dict[str, QuestionInfo]


def find_bank(target: str, *, cwd: Path | None = None) -> BankInfo:
    """The bank named by a slug or path; UsageError or ContentError as for `lessonkit quiz`."""
    compiled = catalog.find(target, cwd=cwd)
    document = yamldoc.load(_file(compiled.source, compiled.slug))
    questions = {}
    for index, question in enumerate(compiled.bank.questions()):
        line, _ = document.locate(("questions", index))
        options, keys = registry.of(question).analysed_options(question)
        questions[question.id] = QuestionInfo(
            question, line, compiled.keys[question.id], options, keys
        )
    title = str(compiled.bank["title"])
    return BankInfo(compiled.slug, title, compiled.source, bank_version(compiled.keys), questions)


def lookup(slug: str, *, cwd: Path | None = None) -> BankInfo | None:
    """The bank for ``slug``, or None when it cannot be found or read here."""
    try:
        return find_bank(slug, cwd=cwd)
    except LessonkitError:
        return None


def _file(source: str, slug: str) -> Path:
    """The bank file to read lines from. ``source`` is relative to the working directory,
    except for a bank the wheel carries, named as in its course (`quizzes/SLUG.yml`)."""
    path = Path(source)
    if path.is_file():
        return path
    return catalog.PACKAGED / "quizzes" / f"{slug}.yml"
