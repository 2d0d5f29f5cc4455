"""One quiz attempt as a value: the shuffled plan drawn from a seed and the marks given.

Works on a compiled bank (``catalog``): its settings as JSON, its questions in their
run-time form (``questiontypes``), so a quiz shows its first question without pydantic.
Never prints, never reads the clock: ``now`` is an argument. ``summary`` sums an attempt up.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from lessonkit.course import compiled
from lessonkit.course.compiled import CompiledBank
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

if TYPE_CHECKING:
    from lessonkit.grading.credit import Grade, Response

BankData = Mapping[str, Any]  # a bank's settings as JSON, its questions in run-time form
Numbers = Mapping[str, float | str]  # one draw of a question's parameters


@dataclass(frozen=True)
class Plan:
    """What an attempt shows, all drawn from ``seed``: question order and each display order.

    ``displays[id]`` lists bank indices in the order they are shown: options for
    ``single``/``multiple``, items for ``order``, right-hand items for ``match``;
    empty for other types (see ``questiontypes.base`` for how input maps back through it).
    ``numbers[id]`` is the draw of a parameterised question's parameters.
    """

    seed: int
    order: tuple[str, ...]
    displays: Mapping[str, tuple[int, ...]]
    numbers: Mapping[str, Numbers] = field(default_factory=dict)


@dataclass(frozen=True)
class Mark:
    """One graded answer: the response (JSON form) and the points it earned."""

    response: Any
    score: float
    max_score: float
    correct: bool
    numbers: Numbers | None = None  # the draw answered, for a parameterised question


@dataclass
class Attempt:
    """An attempt in progress: the plan, when it started, and the marks so far."""

    slug: str
    bank: BankData
    plan: Plan
    started: datetime
    marks: dict[str, Mark] = field(default_factory=dict)
    _shown: dict[str, RuntimeQuestion] = field(default_factory=dict, repr=False)
    _index: CompiledBank | None = field(default=None, repr=False)

    def question(self, question_id: str) -> RuntimeQuestion:
        """The question with this id; with its numbers drawn, if it has any."""
        found = self._shown.get(question_id)
        if found is None:
            found = self.written(question_id)
            numbers = self.plan.numbers.get(question_id)
            if numbers is not None:
                found = registry.drawn(found, numbers)
            self._shown[question_id] = found
        return found

    def written(self, question_id: str) -> RuntimeQuestion:
        """The question as the bank writes it, before any numbers are drawn."""
        if self._index is None:
            self._index = compiled.of(self.bank)
        return self._index.question(question_id)

    def remaining(self) -> list[str]:
        """Ids still to answer, in the order they are shown."""
        return [q for q in self.plan.order if q not in self.marks]

    def number(self, question_id: str) -> int:
        """The question's 1-based position in the order shown ("Question 3 of 18")."""
        return self.plan.order.index(question_id) + 1

    def record(self, question_id: str, mark: Mark) -> None:
        """Keep the mark for a question; a later answer replaces an earlier one."""
        if question_id not in self.plan.order:
            raise KeyError(f"{question_id} is not part of this attempt")
        self.marks[question_id] = mark

    @property
    def finished(self) -> bool:
        return not self.remaining()


def plan(
    bank: BankData,
    seed: int,
    order: Sequence[str] | None = None,
    *,
    numbers: Mapping[str, Numbers] | None = None,
    avoid: Mapping[str, Sequence[Numbers]] | None = None,
) -> Plan:
    """Shuffle a bank reproducibly: the same bank and seed always give the same plan.

    ``order`` (from a recorded attempt being resumed) fixes the question order;
    ids no longer in the bank are dropped and new ones are appended. Parameterised
    questions draw their numbers from the seed too, except those given in ``numbers``
    (answers being resumed), and unlike those in ``avoid`` where they can (a review).
    """
    # Ids only: a question is read when it is shown (a bank of thousands starts at once).
    questions = compiled.of(bank)
    settings = bank.get("shuffle") or {}
    ids = list(questions.ids)
    known = set(ids)
    if order is not None:
        kept = [q for q in order if q in known]
        recorded = set(kept)  # once: resuming 10,000 questions built it per id (3.9 s)
        ids = kept + [q for q in ids if q not in recorded]
    elif settings.get("questions", True):
        random.Random(seed).shuffle(ids)
    displays = _Displays(questions, seed, bool(settings.get("options", True)))
    resumed = {k: v for k, v in (numbers or {}).items() if k in known}
    drawn = _Numbers(questions, seed, resumed, avoid or {})
    return Plan(seed=seed, order=tuple(ids), displays=displays, numbers=drawn)


def _seeded(question: RuntimeQuestion, seed: str, avoid: Sequence[Numbers]) -> Numbers:
    # The formula engine loads only for a bank that draws numbers: the quiz starts light.
    from lessonkit.bank import variants

    return variants.seeded(registry.as_json(question), seed, [dict(a) for a in avoid])[0]


class _Numbers(Mapping[str, Numbers]):
    """Each parameterised question's numbers, drawn when first asked for (a bank of
    thousands of drawn questions would otherwise keep the learner waiting at the start),
    or as given for answers being resumed. Each draw has its own seed, so the order in
    which they are drawn changes none of them."""

    def __init__(
        self,
        questions: CompiledBank,
        seed: int,
        given: Mapping[str, Numbers],
        avoid: Mapping[str, Sequence[Numbers]],
    ) -> None:
        self._bank = questions
        self._ids = {q: None for q in questions.drawn if q not in given}  # ordered, as a set
        self._given, self._seed, self._avoid = given, seed, avoid
        self._drawn: dict[str, Numbers] = {}

    def __getitem__(self, question_id: str) -> Numbers:
        if question_id in self._given:
            return self._given[question_id]
        if question_id not in self._drawn:
            if question_id not in self._ids:
                raise KeyError(question_id)  # it draws no numbers
            question = self._bank.question(question_id)
            avoid = self._avoid.get(question_id, ())
            self._drawn[question_id] = _seeded(question, f"{self._seed}/{question_id}", avoid)
        return self._drawn[question_id]

    def __contains__(self, question_id: object) -> bool:
        return question_id in self._ids or question_id in self._given

    def __iter__(self) -> Iterator[str]:
        yield from self._ids
        yield from self._given

    def __len__(self) -> int:
        return len(self._ids) + len(self._given)


class _Displays(Mapping[str, tuple[int, ...]]):
    """Each question's display order, worked out when first shown: a bank of thousands of
    questions starts its quiz without shuffling every question's options first. Each
    display is drawn from its own seed, so the order of asking changes none of them."""

    def __init__(self, questions: CompiledBank, seed: int, options: bool) -> None:
        self._questions = questions
        self._seed, self._options = seed, options
        self._shown: dict[str, tuple[int, ...]] = {}

    def __getitem__(self, question_id: str) -> tuple[int, ...]:
        if question_id not in self._shown:
            question = self._questions.question(question_id)
            self._shown[question_id] = _display(question, self._seed, self._options)
        return self._shown[question_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._questions.ids)

    def __len__(self) -> int:
        return len(self._questions.ids)


def start(slug: str, bank: BankData, seed: int, now: datetime) -> Attempt:
    """A new attempt on ``bank`` shuffled by ``seed``."""
    return Attempt(slug=slug, bank=bank, plan=plan(bank, seed), started=now)


def resume(
    slug: str,
    bank: BankData,
    *,
    seed: int,
    order: Sequence[str],
    started: datetime,
    marks: Mapping[str, Mark],
) -> Attempt:
    """An attempt rebuilt from history; marks for questions no longer in the bank are dropped.

    Answered questions keep the numbers they were answered with.
    """
    drawn = {q: mark.numbers for q, mark in marks.items() if mark.numbers is not None}
    attempt = Attempt(
        slug=slug, bank=bank, plan=plan(bank, seed, order, numbers=drawn), started=started
    )
    for question_id, mark in marks.items():
        if question_id in attempt.plan.order:
            attempt.record(question_id, mark)
    return attempt


class Grading:
    """Grades answers to a bank's questions through their types (``questiontypes``)."""

    def __init__(
        self,
        bank: Mapping[str, Any],
        keys: Mapping[str, str] | None = None,
        *,
        lookup: Callable[[str], RuntimeQuestion] | None = None,
    ) -> None:
        """``keys``: answer-key hashes by question id, when already known (compiled banks);
        ``lookup``: each question as graded (an attempt's, with its numbers), when given."""
        self._bank = bank
        self._keys = keys
        self._lookup = lookup

    def question(self, question_id: str) -> RuntimeQuestion:
        if self._lookup is None:
            self._lookup = compiled.of(self._bank).question
        return self._lookup(question_id)  # KeyError for an id not in the bank

    def grade(self, question_id: str, response: Response) -> Grade:
        return registry.grade(self.question(question_id), response)

    def key_hash(self, question_id: str) -> str:
        if self._keys is not None:
            return self._keys[question_id]
        return registry.key_hash(self.question(question_id))


def grade_all(slug: str, bank: BankData, given: Mapping[str, Response], seed: int = 0) -> Attempt:
    """An attempt in bank order with every given response graded (for `--answers`).

    Displays are the bank's own order, as numbers in an answers file refer to it;
    parameterised questions take the numbers ``seed`` draws.
    """
    questions = compiled.of(bank).questions()
    ids = tuple(q.id for q in questions)
    displays = {q.id: tuple(range(registry.of(q).choices(q))) for q in questions}
    drawn = plan(bank, seed).numbers
    attempt = Attempt(slug, bank, Plan(seed, ids, displays, drawn), datetime.fromtimestamp(0, UTC))
    grading = Grading(attempt.bank, lookup=attempt.question)
    for question_id, response in given.items():
        grade = grading.grade(question_id, response)
        json = registry.to_json(attempt.question(question_id), response)
        attempt.record(
            question_id,
            Mark(json, grade.score, grade.max_score, grade.correct, drawn.get(question_id)),
        )
    return attempt


def _display(question: RuntimeQuestion, seed: int, shuffle_options: bool) -> tuple[int, ...]:
    kind = registry.of(question)
    if not kind.choices(question):
        return ()
    # A string seed per question keeps each display independent of the question order,
    # so resuming with a recorded order shows every question exactly as before.
    rng = random.Random(f"{seed}/{question.id}")
    return tuple(kind.display(question, rng, shuffle_options))
