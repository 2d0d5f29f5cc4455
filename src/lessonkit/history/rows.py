"""What the history database holds, as the store hands it out: answers and attempts."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from lessonkit.grading.passmark import passes

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

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> AnswerRow:
        """An answer as the database holds it."""
        # A database read without migrating it (read-only) may predate the params column.
        params = row["params"] if "params" in row.keys() else None  # noqa: SIM118 (a Row)
        return cls(
            response=json.loads(row["response"]),
            score=row["score"],
            max_score=row["max_score"],
            correct=bool(row["correct"]),
            answered=datetime.fromisoformat(row["answered"]),
            params=None if params is None else json.loads(params),
        )


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

    @classmethod
    def from_row(cls, row: sqlite3.Row, latest: Mapping[str, sqlite3.Row]) -> AttemptSummary:
        """An attempt as the database holds it, scored by ``latest``: the latest counted
        answer to each question."""
        score = sum(a["score"] for a in latest.values())
        max_score = sum(a["max_score"] for a in latest.values())
        finished = datetime.fromisoformat(row["finished"]) if row["finished"] else None
        passed: bool | None = None if row["passed"] is None else bool(row["passed"])
        if passed is None and finished and row["pass_mark"] is not None and max_score > 0:
            passed = passes(score, max_score, row["pass_mark"])
        return cls(
            attempt_id=row["id"],
            bank=row["bank"],
            kind=row["kind"],
            started=datetime.fromisoformat(row["started"]),
            finished=finished,
            abandoned=row["abandoned"] is not None,
            score=score,
            max_score=max_score,
            answered=len(latest),
            questions=len(json.loads(row["question_order"])),
            passed=passed,
            pass_mark=row["pass_mark"],
        )


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

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> AnswerEvent:
        """A counted answer as the database holds it, with its attempt's ``bank``."""
        return cls(
            answer_id=row["id"],
            bank=row["bank"],
            question_id=row["question_id"],
            key_hash=row["key_hash"],
            score=row["score"],
            max_score=row["max_score"],
            correct=bool(row["correct"]),
            answered=datetime.fromisoformat(row["answered"]),
        )


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
