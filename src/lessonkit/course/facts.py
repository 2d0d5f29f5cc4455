"""What the checks of one file need to know about the others: a few facts per file.

A lesson is known by its slug, its folder, the quiz it names (``None`` when its front
matter does not load) and its title (the lesson after it names it); a plan by the
lessons it lists (``None`` when it does not load); a bank by its slug, the lesson it
names, whether it loads, how many questions it has and where each question id is
written. ``course.read_course`` checks every file it
reads against the facts of all files, never against only the files it read, so a run
given a ``Scope`` (read these files, know the rest from an earlier run) finds exactly
what a run that reads everything finds in those files.

Some checks need more than facts: a bank's questions are checked against its lesson's
headings, a lesson's insights against its bank's questions, and a lesson's bank is
scanned by the first lesson that names it. ``partners`` names those files, so that a
scoped run reads them too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple


class LessonFacts(NamedTuple):
    slug: str
    folder: str
    quiz: str | None  # None: the front matter does not load, so the lesson is not read
    title: str = ""


class PlanFacts(NamedTuple):
    lessons: tuple[str, ...] | None  # None: the front matter does not load


class BankFacts(NamedTuple):
    slug: str
    lesson: str | None  # the lesson it names, when that much could be read
    valid: bool
    questions: int  # when valid
    ids: tuple[tuple[int, str, int, int], ...]  # (index, id, line, column) of valid questions


Facts = LessonFacts | PlanFacts | BankFacts


@dataclass(frozen=True)
class Scope:
    """Read these files (and their partners); know every other course file by its facts."""

    read: frozenset[Path]
    known: Mapping[Path, Facts]


def partners(paths: Iterable[Path], facts: Mapping[Path, Facts]) -> set[Path]:
    """Lessons and banks whose content the checks of ``paths`` read, by the given facts.

    A lesson's partners are the banks it names or that name it, the lessons that name
    the same bank (the first of them scans it), lessons sharing its slug (the last
    read wins) and its plan's page (which names each lesson's quiz); a bank's are the
    lessons it names or that name it, and their partners.
    """
    lessons: dict[str, list[Path]] = {}
    naming: dict[str, list[Path]] = {}  # bank slug -> lessons that name it
    banks: dict[str, list[Path]] = {}
    named: dict[str, list[Path]] = {}  # lesson slug -> banks that name it
    for path, found in facts.items():
        if isinstance(found, LessonFacts):
            lessons.setdefault(found.slug, []).append(path)
            if found.quiz is not None:
                naming.setdefault(found.quiz, []).append(path)
        elif isinstance(found, BankFacts):
            banks.setdefault(found.slug, []).append(path)
            if found.lesson is not None:
                named.setdefault(found.lesson, []).append(path)
    given = list(paths)
    out: set[Path] = set()
    todo = list(given)
    while todo:
        path = todo.pop()
        this = facts.get(path)
        more: list[Path] = []
        if isinstance(this, LessonFacts):
            more += lessons.get(this.slug, []) + named.get(this.slug, [])
            plan = path.parent / "index.md"
            if isinstance(facts.get(plan), PlanFacts):
                more.append(plan)
            if this.quiz is not None:
                more += banks.get(this.quiz, []) + naming.get(this.quiz, [])
        elif isinstance(this, BankFacts):
            more += banks.get(this.slug, []) + naming.get(this.slug, [])
            if this.lesson is not None:
                more += lessons.get(this.lesson, [])
        for other in more:
            if other not in out:
                out.add(other)
                todo.append(other)
    return out - set(given)


def to_json(found: Facts) -> list[Any]:
    """The facts as a JSON list, kind first."""
    kind = {LessonFacts: "lesson", PlanFacts: "plan", BankFacts: "bank"}[type(found)]
    return [kind, *found]


def from_json(value: Any) -> Facts:
    """Facts from ``to_json``; ValueError (or another) for anything else."""
    kind, *fields = value
    if kind == "lesson":
        return LessonFacts(*fields)
    if kind == "plan":
        return PlanFacts(None if fields[0] is None else tuple(fields[0]))
    if kind == "bank":
        slug, lesson, valid, questions, ids = fields
        return BankFacts(slug, lesson, valid, questions, tuple(map(tuple, ids)))
    raise ValueError(f"unknown kind of facts: {kind!r}")
