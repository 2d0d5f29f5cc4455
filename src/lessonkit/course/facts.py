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

A bank's lesson stays its partner even though its anchors and numbers of insights and
objectives could be kept as facts: the rules run on a lesson with its bank find problems
in both files (too few questions for an insight, in the lesson; a catch-all option, in
the bank), and would need the lesson's whole page. Not reading the lesson and its plan
page would save only 32 ms of a 450 ms run (CPU) after one bank changed at 1,000
lessons, even with those rules left out: Markdown is imported with the rule book anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, overload

IdPlace = tuple[int, str, int, int]  # index, id, line, column


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
    ids: Sequence[IdPlace]  # of valid questions

    def id_names(self) -> list[str]:
        """The ids alone, without unpacking where each is written (see ``PackedIds``)."""
        if isinstance(self.ids, PackedIds):
            return self.ids.names()
        return [place[1] for place in self.ids]


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
    if isinstance(found, BankFacts):
        packed = PackedIds.of(found.ids)
        return ["bank", *found[:4], packed.names_text, packed.places_text]
    kind = {LessonFacts: "lesson", PlanFacts: "plan"}[type(found)]
    return [kind, *found]


def from_json(value: Any) -> Facts:
    """Facts from ``to_json``; ValueError (or another) for anything else."""
    kind, *fields = value
    if kind == "lesson":
        return LessonFacts(*fields)
    if kind == "plan":
        return PlanFacts(None if fields[0] is None else tuple(fields[0]))
    if kind == "bank":
        slug, lesson, valid, questions, names, places = fields
        if not (isinstance(names, str) and isinstance(places, str)):
            raise ValueError("a bank's ids and their places are strings")
        return BankFacts(slug, lesson, valid, questions, PackedIds(names, places))
    raise ValueError(f"unknown kind of facts: {kind!r}")


class PackedIds(Sequence[IdPlace]):
    """A bank's ids as the cache keeps them: the ids in one string, and "index line
    column" of each in another, unpacked when first read.

    A course of 1,000 banks has 30,000 ids; as a JSON list each, they took 25 ms to read
    back and 11 to write on every run, which needs only the ids, and their places only
    when one repeats. Ids are kebab-case (the format's pattern), so a space parts them.
    """

    __slots__ = ("_places", "names_text", "places_text")

    def __init__(self, names: str, places: str) -> None:
        self.names_text, self.places_text = names, places
        self._places: tuple[IdPlace, ...] | None = None

    @classmethod
    def of(cls, places: Sequence[IdPlace]) -> PackedIds:
        if isinstance(places, PackedIds):
            return places
        return cls(
            " ".join(name for _, name, _, _ in places),
            " ".join(f"{index} {line} {column}" for index, _, line, column in places),
        )

    def names(self) -> list[str]:
        return self.names_text.split(" ") if self.names_text else []

    def _unpacked(self) -> tuple[IdPlace, ...]:
        if self._places is None:
            numbers = [int(word) for word in self.places_text.split(" ")] if self.names_text else []
            indices, lines, columns = numbers[0::3], numbers[1::3], numbers[2::3]
            self._places = tuple(zip(indices, self.names(), lines, columns, strict=True))
        return self._places

    @overload
    def __getitem__(self, index: int) -> IdPlace: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[IdPlace]: ...
    def __getitem__(self, index: int | slice) -> IdPlace | Sequence[IdPlace]:
        return self._unpacked()[index]

    def __iter__(self) -> Iterator[IdPlace]:
        return iter(self._unpacked())

    def __len__(self) -> int:
        return len(self._unpacked())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self._unpacked())

    def __repr__(self) -> str:
        return f"PackedIds({self.names_text!r}, {self.places_text!r})"
