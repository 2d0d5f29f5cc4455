"""What the history database holds, as the store hands it out: answers and attempts."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

# The learner's pseudonym in exported files: random, made and kept in the history database.
PSEUDONYM = r"^l-[0-9a-f]{16}$"


@dataclass(frozen=True)
class AnswerRow:
    """One recorded answer to one question."""

    response: Any
    score: float
    max_score: float
    correct: bool
    answered: datetime
    params: dict[str, Any] | None = None  # the numbers a parameterised question drew


@dataclass(frozen=True)
class Unfinished:
    """An attempt that was left before the end, with what it needs to resume."""

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


@dataclass(frozen=True)
class SharedAnswer:
    """A counted answer as `lessonkit history --export` shares it."""

    question_id: str
    key_hash: str
    response: Any
    score: float
    max_score: float
    answered: datetime
    seconds: float | None  # on screen before the answer; None when not recorded
    hints: int | None  # times the hint was asked for; None when not recorded
    params: Any  # a parameterised question's variant; None for a fixed question

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> SharedAnswer:
        """An answer as the database holds it (a later one to the same question wins)."""
        columns = row.keys()  # a Row's `in` looks at its values, not its column names
        return cls(
            question_id=row["question_id"],
            key_hash=row["key_hash"],
            response=json.loads(row["response"]),
            score=row["score"],
            max_score=row["max_score"],
            answered=datetime.fromisoformat(row["answered"]),
            seconds=row["seconds"],
            hints=row["hints"],
            # A parameterised question's numbers are kept as JSON text in `answers.params`.
            params=json.loads(row["params"]) if "params" in columns and row["params"] else None,
        )


@dataclass(frozen=True)
class SharedAttempt:
    """A quiz attempt as `lessonkit history --export` shares it."""

    bank: str
    bank_version: str | None  # None for attempts started before versions were recorded
    order: list[str]
    started: datetime
    finished: datetime | None
    answers: list[SharedAnswer]
