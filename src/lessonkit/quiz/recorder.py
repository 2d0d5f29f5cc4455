"""Answers on their way to the history database: saved at once, never dropped.

An answer the database refuses (a full disk, another window holding the lock) stays
in memory and is saved with the next one; what is still unsaved at the end goes to a
recovery file beside the database, and the learner is told how to carry on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from lessonkit.course.invocation import program

if TYPE_CHECKING:
    from lessonkit.history.store import Store
    from lessonkit.quiz.plainui import PlainUi

Clock = Callable[[], datetime]

# `lessonkit` exits 1 for any lessonkit error; unsaved answers are one, even after a summary.
EXIT_UNSAVED = 1


@dataclass(frozen=True)
class Pending:
    """A graded answer the history database has not taken yet (fields: record_answer's)."""

    question_id: str
    key_hash: str
    response: Any
    score: float
    max_score: float
    correct: bool
    answered: datetime
    params: Mapping[str, Any] | None = None  # the numbers a parameterised question drew
    seconds: float | None = None
    hints: int | None = None

    def to_json(self, slug: str, attempt_id: int | None) -> dict[str, Any]:
        """One line of the recovery file: enough to put the answer back by hand."""
        answered = self.answered.astimezone(UTC).isoformat()
        fields = {k: v for k, v in vars(self).items() if k != "params" or v is not None}
        if self.params is not None:
            fields["params"] = dict(self.params)
        return {"quiz": slug, "attempt_id": attempt_id, **fields, "answered": answered}


@dataclass(frozen=True)
class TakeBack:
    """The learner took back their latest answer to a question with `u` (take_back's fields)."""

    question_id: str
    taken: datetime

    def to_json(self, slug: str, attempt_id: int | None) -> dict[str, Any]:
        """One line of the recovery file: the answer above it with this id is not to count."""
        taken = self.taken.astimezone(UTC).isoformat()
        return {"quiz": slug, "attempt_id": attempt_id, "taken_back": self.question_id,
                "taken": taken}  # fmt: skip


class Recorder:
    """Saves each graded answer at once, and never drops one the database refuses.

    A refused answer stays in memory and is saved with the next answer; ``settle`` tries
    once more at the end and writes whatever is still unsaved to a recovery file beside
    the database. A full disk or a database locked by another window is usually brief.
    """

    def __init__(
        self, store: Store, ui: PlainUi, slug: str, begin: Callable[[], int],
        attempt_id: int | None, *, resume: str | None = None,
    ) -> None:  # fmt: skip
        """``begin`` starts the attempt row; it runs at the first answer saved, so quitting
        before answering leaves no trace in the history. ``resume`` is the command that
        carries on after a failure (default: `lessonkit quiz SLUG`)."""
        self.store, self.ui, self.slug, self.begin = store, ui, slug, begin
        self.resume = resume or f"{program()} quiz {slug}"
        self.attempt_id = attempt_id
        self.pending: list[Pending | TakeBack] = []

    def add(self, answer: Pending | TakeBack) -> None:
        earlier = len(self.pending)
        self.pending.append(answer)
        error = self._save()
        if error is not None:
            self.ui.unsaved(error, len(self.pending))
        elif earlier:
            self.ui.caught_up(earlier)

    def settle(self, clock: Clock) -> bool:
        """At the end: one more try, then the recovery file. True when nothing is unsaved."""
        if not self.pending:
            return True
        count = len(self.pending)
        try:
            error = self._save()
        except KeyboardInterrupt:  # Ctrl-C while waiting on a locked database: stop waiting
            error = "interrupted while saving"
        if error is None:
            self.ui.caught_up(count)
            return True
        lines = [
            json.dumps(a.to_json(self.slug, self.attempt_id), ensure_ascii=False)
            for a in self.pending
        ]
        path = self.store.path.with_name(
            f"{self.store.path.stem}.unsaved-{clock().astimezone(UTC):%Y%m%dT%H%M%S}.jsonl"
        )
        try:
            # Appending: a file left by an earlier failure in the same second is kept whole.
            with path.open("a", encoding="utf-8") as out:
                out.write("".join(line + "\n" for line in lines))
        except OSError as problem:  # the same full disk, often: the screen is what is left
            self.ui.rescued(self.resume, error, path, lines, problem.strerror or str(problem))
        else:
            self.ui.rescued(self.resume, error, path, lines, None)
        return False

    def _save(self) -> str | None:
        """Save every pending answer in order; the reason when the database refuses."""
        from lessonkit.history.database import StoreError

        try:
            if self.attempt_id is None:
                self.attempt_id = self.begin()
            while self.pending:
                first = self.pending[0]
                if isinstance(first, TakeBack):
                    self.store.take_back(self.attempt_id, **vars(first))
                else:
                    self.store.record_answer(self.attempt_id, **vars(first))
                self.pending.pop(0)
        except StoreError as error:
            return str(error)
        return None
