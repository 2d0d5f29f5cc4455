"""The values class results are made of: per option, question, bank version and bank.

``analysis`` computes them, ``flags`` reads them, ``summary`` and ``page`` show them.
Numbers are shares of a question's points (0 to 1) unless named otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Flag:
    """One thing to look at: which question, where it is written, what was seen."""

    kind: str
    question: str
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.question}: {self.message}"


@dataclass(frozen=True)
class OptionStats:
    """How often one option was chosen, overall and by the upper and lower groups."""

    number: int  # as the bank lists it, from 1
    text: str
    key: bool
    chosen: int
    top: int
    bottom: int


@dataclass(frozen=True)
class WrongAnswer:
    """A wrong text or number, normalised as the grader compares them, and how many gave it."""

    text: str
    count: int
    factor: float | None = None  # a number that is the key times a power of ten, or -1


@dataclass(frozen=True)
class QuestionStats:
    """One question in one bank version."""

    id: str
    type: str | None  # None when the bank is not at hand
    line: int | None
    key_hash: str  # the answer key the answers were graded against
    answers: int
    difficulty: float  # mean share of the points
    full_marks: float  # share of answers with all the points
    discrimination: float | None  # point-biserial (item-rest) correlation
    upper_lower: float | None  # upper 27% minus lower 27%, in shares of the points
    top: int  # answers from the upper group
    bottom: int
    options: tuple[OptionStats, ...]
    wrong: tuple[WrongAnswer, ...]
    median_seconds: float | None
    hints_used: float | None  # share of answers with a hint asked for; None: not known


@dataclass(frozen=True)
class Scores:
    """Learners' total scores as shares of the points they could earn."""

    mean: float
    median: float
    sd: float
    lowest: float
    highest: float
    histogram: tuple[int, ...]  # ten bins: 0-10%, 10-20%, … 90-100%


@dataclass(frozen=True)
class Reliability:
    """Internal consistency of the quiz as a whole."""

    method: str  # "KR-20" (every question scored 0 or full) or "Cronbach's alpha"
    value: float | None
    items: int
    learners: int  # learners who answered every question
    caveat: str


@dataclass(frozen=True)
class VersionStats:
    """One version of a bank, as the class met it."""

    version: str | None
    current: bool  # the bank file here has this version
    learners: int  # learners whose first finished attempt was at this version
    attempts: int
    first: datetime
    last: datetime
    scores: Scores | None
    reliability: Reliability
    questions: tuple[QuestionStats, ...]
    flags: tuple[Flag, ...]


@dataclass(frozen=True)
class BankStats:
    """One bank: everyone who attempted it, and each version's statistics."""

    slug: str
    title: str | None
    path: str  # the bank file, or the slug when it is not at hand
    found: bool
    learners: int
    attempts: int
    analysed: int
    versions: tuple[VersionStats, ...]
    flags: tuple[Flag, ...]  # changes between versions
