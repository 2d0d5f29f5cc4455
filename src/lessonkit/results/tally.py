"""What the analysis keeps of each learner, file after file: their first finished attempt.

Item statistics use each learner's first finished attempt at a bank: a retake is
answered from memory and would make every question look easier. Every attempt is still
counted, once, however many files repeat it (a learner may export twice). Nothing of a
file is kept but these compact rows, so memory grows with learners, not with files.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from lessonkit.results.intake import LearnerFile
from lessonkit.results.records import Answer


class Cell(NamedTuple):
    """One answer, as the analysis needs it."""

    score: float
    max_score: float
    response: Any
    seconds: float | None
    hints: int | None
    key_hash: str
    params: dict[str, Any] | None


@dataclass
class Sitting:
    """The attempt a learner's statistics come from, with its answers by question id."""

    learner: str
    started: datetime
    version: str | None
    cells: dict[str, Cell]


@dataclass
class Seen:
    """When a version of a bank was in use, as far as the files tell."""

    first: datetime
    last: datetime
    attempts: int = 0


@dataclass
class BankTally:
    """Everything kept about one bank across all files."""

    slug: str
    learners: set[str] = field(default_factory=set)
    attempts: set[tuple[str, datetime]] = field(default_factory=set)
    versions: dict[str | None, Seen] = field(default_factory=dict)
    sittings: dict[str, Sitting] = field(default_factory=dict)


class Tally:
    """Learners' files added one at a time; ``banks`` holds what the analysis reads."""

    def __init__(self, only: str | None = None) -> None:
        self.only = only
        self.banks: dict[str, BankTally] = {}
        self.files = 0

    def add(self, found: LearnerFile) -> None:
        self.files += 1
        answers: defaultdict[int, list[Answer]] = defaultdict(list)
        for answer in found.answers:
            answers[answer.attempt].append(answer)
        learner = found.header.learner
        for attempt in found.attempts:
            if self.only is not None and attempt.bank != self.only:
                continue
            bank = self.banks.setdefault(attempt.bank, BankTally(attempt.bank))
            if (learner, attempt.started) in bank.attempts:
                continue  # the same attempt from another export of the same history
            bank.attempts.add((learner, attempt.started))
            bank.learners.add(learner)
            seen = bank.versions.setdefault(
                attempt.bank_version, Seen(attempt.started, attempt.started)
            )
            seen.first, seen.last = (
                min(seen.first, attempt.started),
                max(seen.last, attempt.started),
            )
            seen.attempts += 1
            if attempt.finished is None:
                continue
            held = bank.sittings.get(learner)
            if held is None or attempt.started < held.started:
                cells = {a.question: _cell(a) for a in answers[attempt.attempt]}
                bank.sittings[learner] = Sitting(
                    learner, attempt.started, attempt.bank_version, cells
                )


def _cell(answer: Answer) -> Cell:
    response = answer.response
    return Cell(
        answer.score,
        answer.max_score,
        response,
        answer.seconds,
        answer.hints,
        answer.key_hash,
        answer.params,
    )
