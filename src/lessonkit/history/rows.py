"""What the history database holds, as the store hands it out: answers and attempts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class AnswerRow:
    """One recorded answer to one question."""

    response: Any
    score: float
    max_score: float
    correct: bool
    answered: datetime


@dataclass(frozen=True)
class Unfinished:
    """An attempt left before the end, with what it needs to resume (`recorded_attempt`
    hands out finished ones the same way, to show them again)."""

    attempt_id: int
    seed: int
    order: list[str]
    answered: dict[str, AnswerRow]
    bank: str = ""
    started: datetime | None = None


@dataclass(frozen=True)
class AttemptSummary:
    """One attempt as `lessonkit history` shows it."""

    attempt_id: int
    bank: str
    kind: str
    started: datetime
    finished: datetime | None
    abandoned: bool
    score: float
    max_score: float
    answered: int
    questions: int
    passed: bool | None
    pass_mark: float | None = None  # a share (0.7); None for reviews, which have none

    @property
    def duration(self) -> timedelta | None:
        return None if self.finished is None else self.finished - self.started


@dataclass(frozen=True)
class AnswerEvent:
    """An answer as the review scheduler replays it."""

    answer_id: int
    bank: str
    question_id: str
    key_hash: str
    score: float
    max_score: float
    correct: bool
    answered: datetime
