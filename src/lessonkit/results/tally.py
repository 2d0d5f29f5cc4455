"""What the analysis keeps of each learner, file after file: their first finished attempt.

Item statistics use each learner's first finished attempt at a bank: a retake is
answered from memory and would make every question look easier. Every attempt is still
counted, once, however many files repeat it (a learner may export twice). Nothing of a
file is kept but these compact rows, so memory grows with learners, not with files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from lessonkit.results.intake import LearnerFile


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
        learner = found.header["learner"]
        # The attempt (1, 2, …) whose answers become cells: at most one per bank and file.
        wanted: dict[int, BankTally] = {}
        for attempt in found.attempts:
            slug, started = attempt["bank"], attempt["started"]
            if self.only is not None and slug != self.only:
                continue
            bank = self.banks.setdefault(slug, BankTally(slug))
            if (learner, started) in bank.attempts:
                continue  # the same attempt from another export of the same history
            bank.attempts.add((learner, started))
            bank.learners.add(learner)
            version = attempt["bank_version"]
            seen = bank.versions.setdefault(version, Seen(started, started))
            seen.first, seen.last = min(seen.first, started), max(seen.last, started)
            seen.attempts += 1
            held = bank.sittings.get(learner)
            if attempt["finished"] is not None and (held is None or started < held.started):
                bank.sittings[learner] = Sitting(learner, started, version, {})
                wanted[attempt["attempt"]] = bank
        for answer in found.answers:
            into = wanted.get(answer["attempt"])
            if into is not None:
                into.sittings[learner].cells[answer["question"]] = Cell(
                    answer["score"],
                    answer["max_score"],
                    answer["response"],
                    answer["seconds"],
                    answer["hints"],
                    answer["key_hash"],
                    answer["params"],
                )
