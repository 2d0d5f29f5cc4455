"""What the analysis keeps of each learner, file after file: their first finished attempt.

Item statistics use each learner's first finished attempt at a bank: a retake is
answered from memory and would make every question look easier. Every attempt is still
counted, once, however many files repeat it (a learner may export twice). Nothing of a
file is kept but these compact rows, so memory grows with learners, not with files.

A file is first boiled down to a ``Sheet`` (``sheet``), which needs nothing but the file
and may be made in another process; the tally then takes sheets in the order the files
were found, so the result does not depend on which process read which file.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat
from operator import is_not, itemgetter
from typing import Any, NamedTuple

from lessonkit.results.intake import LearnerFile


class Answers(NamedTuple):
    """One attempt's answers, field by field: the i-th of each belongs to one answer.

    Columns rather than an object per answer, and numbers in arrays rather than as
    objects: a class holds a million answers, and a float object scattered in memory
    costs more to reach than to add.
    """

    questions: tuple[str, ...]
    scores: array[float]
    max_scores: array[float]
    responses: tuple[Any, ...]
    seconds: array[float]  # NOT_RECORDED (NaN) for null: a real time is finite
    hints: array[int]  # NO_HINTS (-1) for null: a real count is at least 0
    key_hashes: tuple[str, ...]
    drawn: bytes  # 1: a parameterised question's own numbers (params not null)


NOT_RECORDED = math.nan
NO_HINTS = -1


class Taken(NamedTuple):
    """One attempt line, as the tally needs it."""

    number: int
    bank: str
    started: datetime
    version: str | None
    finished: bool


@dataclass(frozen=True)
class Sheet:
    """What one learner's file gives the tally: its attempts, and the answers of each
    finished one (any of which may turn out to be the learner's first)."""

    learner: str
    attempts: tuple[Taken, ...]
    answers: dict[int, Answers]  # by attempt number


@dataclass
class Sitting:
    """The attempt a learner's statistics come from, with its answers."""

    learner: str
    started: datetime
    version: str | None
    answers: Answers


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


def sheet(found: LearnerFile, only: str | None = None) -> Sheet:
    """The attempts of a checked file (at bank ``only``, if given) and the answers of its
    finished ones."""
    attempts = tuple(
        Taken(a["attempt"], a["bank"], a["started"], a["bank_version"], a["finished"] is not None)
        for a in found.attempts
        if only is None or a["bank"] == only
    )
    rows: dict[int, list[Any]] = {t.number: [] for t in attempts if t.finished}
    for answer in found.answers:
        into = rows.get(answer["attempt"])
        if into is not None:
            into.append(answer)
    return Sheet(found.header["learner"], attempts, {n: _columns(a) for n, a in rows.items()})


_FIELDS = itemgetter(
    "question", "score", "max_score", "response", "seconds", "hints", "key_hash", "params"
)


def _columns(answers: list[Any]) -> Answers:
    if not answers:
        return Answers((), array("d"), array("d"), (), array("d"), array("h"), (), b"")
    # Each answer's fields as a tuple, then the tuples turned into columns: both in C.
    questions, scores, most, responses, seconds, hints, keys, params = zip(
        *map(_FIELDS, answers), strict=True
    )
    if None in seconds:
        seconds = tuple(NOT_RECORDED if s is None else s for s in seconds)
    if None in hints:
        hints = tuple(NO_HINTS if h is None else h for h in hints)
    return Answers(
        questions,
        array("d", scores),
        array("d", most),
        responses,
        array("d", seconds),
        array("h", hints),
        keys,
        bytes(map(is_not, params, repeat(None))),
    )


class Tally:
    """Learners' files added one at a time; ``banks`` holds what the analysis reads."""

    def __init__(self, only: str | None = None) -> None:
        self.only = only
        self.banks: dict[str, BankTally] = {}
        self.files = 0

    def add(self, found: LearnerFile) -> None:
        self.take(sheet(found, self.only))

    def take(self, sheet: Sheet) -> None:
        """One file's sheet, in the order the files were found."""
        self.files += 1
        learner = sheet.learner
        for attempt in sheet.attempts:
            slug, started = attempt.bank, attempt.started
            if self.only is not None and slug != self.only:
                continue
            bank = self.banks.setdefault(slug, BankTally(slug))
            if (learner, started) in bank.attempts:
                continue  # the same attempt from another export of the same history
            bank.attempts.add((learner, started))
            bank.learners.add(learner)
            version = attempt.version
            seen = bank.versions.setdefault(version, Seen(started, started))
            seen.first, seen.last = min(seen.first, started), max(seen.last, started)
            seen.attempts += 1
            held = bank.sittings.get(learner)
            if attempt.finished and (held is None or started < held.started):
                answers = sheet.answers[attempt.number]
                bank.sittings[learner] = Sitting(learner, started, version, answers)
