"""Learner history in SQLite: attempts, every answer as it is given, review cards."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lessonkit.history.database import (
    DB_NAME,
    StoreError,
    database_path,
    open_database,
    open_readonly,
    resolve_data_dir,
)
from lessonkit.history.rows import (
    AnswerEvent,
    AnswerRow,
    AttemptSummary,
    SharedAnswer,
    SharedAttempt,
    Unfinished,
)

if TYPE_CHECKING:
    from lessonkit.grading.schedule import CardKey

# Answers that count: all but those the learner took back with `u` (history keeps those).
COUNTED = "answers.id NOT IN (SELECT answer_id FROM taken_back)"


def _utc(moment: datetime) -> str:
    # Naive datetimes are taken as local time, as datetime.astimezone does.
    return moment.astimezone(UTC).isoformat()


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Store:
    """The learner's history database; open it with `Store.open`."""

    def __init__(self, con: sqlite3.Connection, path: Path) -> None:
        self._con = con
        self.path = path

    # -- opening -------------------------------------------------------------

    @classmethod
    def open(
        cls, data_dir: Path | None = None, *, now: datetime | None = None
    ) -> tuple[Store, list[str]]:
        """Open (or create) the history database; returns notices for the learner.

        A database that cannot be used is never deleted: it is renamed beside the
        new one and a notice says where it went.
        """
        path = database_path(data_dir)
        con, notices = open_database(path, now or datetime.now(UTC))
        return cls(con, path), notices

    @classmethod
    def read_only(cls, data_dir: Path | None = None) -> tuple[Store | None, list[str]]:
        """The history database opened only to read it (None when there is none yet),
        and notices for the learner.

        Creates, migrates and sets aside nothing, so it works on a folder the learner
        cannot write; `history` and `list` only read.
        """
        path = resolve_data_dir(data_dir) / DB_NAME
        con, notices = open_readonly(path, datetime.now(UTC))
        return (None if con is None else cls(con, path)), notices

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once so two processes never deadlock."""
        try:
            self._con.execute("BEGIN IMMEDIATE")
            try:
                yield self._con
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            self._con.execute("COMMIT")
        except sqlite3.Error as e:
            raise StoreError(f"could not {doing} in {self.path}: {e}") from e

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            return list(self._con.execute(sql, args))
        except sqlite3.Error as e:
            raise StoreError(f"could not read the history in {self.path}: {e}") from e

    # -- attempts and answers ------------------------------------------------

    def begin_attempt(
        self,
        *,
        bank: str,
        seed: int,
        order: Sequence[str],
        started: datetime,
        kind: str = "quiz",
        pass_mark: float | None = None,
        version: str | None = None,
    ) -> int:
        """Record the start of an attempt: its seed, the question order shown and the
        bank's version (see ``course.bankversion``)."""
        with self._write("start the attempt") as con:
            cur = con.execute(
                "INSERT INTO attempts (bank, kind, seed, question_order, pass_mark, started,"
                " bank_version) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (bank, kind, str(seed), json.dumps(list(order)), pass_mark, _utc(started),
                 version),
            )  # fmt: skip
        assert cur.lastrowid is not None
        return cur.lastrowid

    def record_answer(
        self,
        attempt: int,
        *,
        question_id: str,
        key_hash: str,
        response: Any,
        score: float,
        max_score: float,
        correct: bool,
        answered: datetime,
        params: Mapping[str, Any] | None = None,
        seconds: float | None = None,
        hints: int | None = None,
    ) -> None:
        """Save one answer; it is committed before this returns.

        ``params`` are the numbers a parameterised question drew for it, kept as JSON so
        that history shows (and exports) the question the learner actually saw. ``seconds``
        is how long the question was on screen before this answer, ``hints`` how often the
        learner asked for its hint; None when not measured (a review).
        """
        try:
            blob = json.dumps(response, ensure_ascii=False)
            drawn = None if params is None else json.dumps(dict(params), ensure_ascii=False)
        except (TypeError, ValueError) as e:
            raise StoreError(f"cannot save the answer to {question_id}: {e}") from e
        with self._write(f"save the answer to {question_id}") as con:
            con.execute(
                "INSERT INTO answers (attempt_id, question_id, key_hash, response, score,"
                " max_score, correct, answered, params, seconds, hints)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (attempt, question_id, key_hash, blob, score, max_score, correct, _utc(answered),
                 drawn, seconds, hints),
            )  # fmt: skip

    def take_back(self, attempt: int, *, question_id: str, taken: datetime) -> None:
        """The learner took back their latest answer to `question_id`: it stays, uncounted."""
        with self._write(f"take back the answer to {question_id}") as con:
            con.execute(
                "INSERT INTO taken_back (answer_id, taken) SELECT id, ? FROM answers"
                f" WHERE attempt_id = ? AND question_id = ? AND {COUNTED}"
                " ORDER BY id DESC LIMIT 1",
                (_utc(taken), attempt, question_id),
            )

    def finish_attempt(
        self, attempt: int, *, finished: datetime, passed: bool | None = None
    ) -> None:
        """Mark an attempt finished; `passed` overrides the pass mark given at the start."""
        with self._write("finish the attempt") as con:
            con.execute(
                "UPDATE attempts SET finished = ?, passed = ? WHERE id = ?",
                (_utc(finished), passed, attempt),
            )

    def abandon_attempt(self, attempt: int, *, at: datetime) -> None:
        """Stop offering an unfinished attempt for resuming; its answers stay."""
        with self._write("set the attempt aside") as con:
            con.execute("UPDATE attempts SET abandoned = ? WHERE id = ?", (_utc(at), attempt))

    def unfinished_attempt(self, bank: str) -> Unfinished | None:
        """The latest quiz attempt on `bank` that was neither finished nor abandoned."""
        rows = self._read(
            "SELECT * FROM attempts WHERE bank = ? AND kind = 'quiz' AND finished IS NULL"
            " AND abandoned IS NULL ORDER BY id DESC LIMIT 1",
            (bank,),
        )
        return self._recorded(rows[0]) if rows else None

    def recorded_attempt(self, attempt_id: int) -> Unfinished | None:
        """Any attempt, finished or not, with the answer that counts for each question."""
        rows = self._read("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
        return self._recorded(rows[0]) if rows else None

    def _recorded(self, row: sqlite3.Row) -> Unfinished:
        answered: dict[str, AnswerRow] = {}
        for ans in self._read(
            f"SELECT * FROM answers WHERE attempt_id = ? AND {COUNTED} ORDER BY id",
            (row["id"],),
        ):
            # A later answer wins, and moves to the end: the last key is what `u` takes back.
            answered.pop(ans["question_id"], None)
            answered[ans["question_id"]] = AnswerRow.from_row(ans)
        return Unfinished(
            attempt_id=row["id"],
            seed=int(row["seed"]),
            order=json.loads(row["question_order"]),
            answered=answered,
            bank=row["bank"],
            started=_time(row["started"]),
        )

    # -- what history, list and review read ----------------------------------

    def attempts(self, bank: str | None = None, *, kind: str | None = None) -> list[AttemptSummary]:
        """Attempts, oldest first, with the score of the latest answer to each question."""
        where, args = _filters(bank=bank, kind=kind)
        rows = self._read(f"SELECT * FROM attempts{where} ORDER BY started, id", args)
        latest: dict[int, dict[str, sqlite3.Row]] = {row["id"]: {} for row in rows}
        for ans in self._read(
            "SELECT answers.* FROM answers JOIN attempts ON attempts.id = attempt_id"
            f"{where}{' AND' if where else ' WHERE'} {COUNTED} ORDER BY answers.id",
            args,
        ):
            latest[ans["attempt_id"]][ans["question_id"]] = ans
        return [AttemptSummary.from_row(row, latest[row["id"]]) for row in rows]

    def best_scores(self) -> dict[str, AttemptSummary]:
        """Each bank's best finished quiz attempt, by share of points."""
        best: dict[str, AttemptSummary] = {}
        for attempt in self.attempts(kind="quiz"):
            if attempt.finished is None or attempt.max_score <= 0:
                continue
            held = best.get(attempt.bank)
            if held is None or attempt.score / attempt.max_score > held.score / held.max_score:
                best[attempt.bank] = attempt
        return best

    def drawn_answers(self, bank: str) -> list[tuple[str, AnswerRow]]:
        """Every counted answer to `bank`, oldest first, with its question id (for the numbers
        drawn: ``AnswerRow.params`` is None for an answer to a fixed question)."""
        return [(ans["question_id"], AnswerRow.from_row(ans)) for ans in self._counted(bank)]

    def latest_answers(self, bank: str) -> dict[tuple[str, str], AnswerRow]:
        """The latest answer to each question of `bank`, keyed by (question id, key hash)."""
        return {
            (ans["question_id"], ans["key_hash"]): AnswerRow.from_row(ans)
            for ans in self._counted(bank)
        }

    def _counted(self, bank: str) -> list[sqlite3.Row]:
        """Every counted answer to `bank`, oldest first."""
        return self._read(
            "SELECT answers.* FROM answers JOIN attempts ON attempts.id = attempt_id"
            f" WHERE bank = ? AND {COUNTED} ORDER BY answers.id",
            (bank,),
        )

    def shared_attempts(self, bank: str | None = None) -> list[SharedAttempt]:
        """Quiz attempts, oldest first, each with its counted answers: what
        `history --export` shares (reviews and answers taken back stay private)."""
        where, args = _filters(bank=bank, kind="quiz")
        rows = self._read(f"SELECT * FROM attempts{where} ORDER BY started, id", args)
        answers: dict[int, dict[str, SharedAnswer]] = {row["id"]: {} for row in rows}
        for ans in self._read(
            "SELECT answers.* FROM answers JOIN attempts ON attempts.id = attempt_id"
            f"{where} AND {COUNTED} ORDER BY answers.id",
            args,
        ):
            answers[ans["attempt_id"]][ans["question_id"]] = SharedAnswer.from_row(ans)
        return [
            SharedAttempt(
                bank=row["bank"],
                bank_version=row["bank_version"],
                order=json.loads(row["question_order"]),
                started=_time(row["started"]),
                finished=_time(row["finished"]) if row["finished"] else None,
                answers=list(answers[row["id"]].values()),
            )
            for row in rows
        ]

    def pseudonym(self, *, renew: bool = False) -> str:
        """The learner's random pseudonym for exported files, made on first use; ``renew``
        replaces it, so files exported from then on cannot be linked to earlier ones."""
        with self._write("save your pseudonym") as con:
            found = con.execute("SELECT value FROM meta WHERE name = 'pseudonym'").fetchone()
            if found is not None and not renew:
                return str(found[0])
            value = "l-" + secrets.token_hex(8)  # 64 random bits: rows.PSEUDONYM
            con.execute(
                "INSERT OR REPLACE INTO meta (name, value) VALUES ('pseudonym', ?)", (value,)
            )
        return value

    # -- review cards --------------------------------------------------------

    def sync_cards(
        self,
        apply: Callable[[dict[CardKey, str], list[AnswerEvent]], dict[CardKey, str]],
    ) -> dict[CardKey, str]:
        """Fold answers not yet seen by the scheduler into the saved cards.

        `apply` gets the saved cards (JSON text) and the new answers in the order
        they were given, and returns the cards to save. Runs in one write
        transaction, so two processes never apply the same answer twice.
        """
        with self._write("update the review schedule") as con:
            through = con.execute("SELECT value FROM meta WHERE name = 'cards_through'")
            seen = int((through.fetchone() or ["0"])[0])
            cards = {
                (r["bank"], r["question_id"], r["key_hash"]): r["state"]
                for r in con.execute("SELECT * FROM cards")
            }
            events = [
                AnswerEvent.from_row(r)
                for r in con.execute(
                    "SELECT answers.*, bank FROM answers JOIN attempts ON attempts.id ="
                    f" attempt_id WHERE answers.id > ? AND {COUNTED} ORDER BY answers.id",
                    (seen,),
                )
            ]
            if not events:
                return cards
            updated = apply(dict(cards), events)
            con.executemany(
                "INSERT OR REPLACE INTO cards (bank, question_id, key_hash, state)"
                " VALUES (?, ?, ?, ?)",
                [(*key, state) for key, state in updated.items() if cards.get(key) != state],
            )
            con.execute(
                "INSERT OR REPLACE INTO meta (name, value) VALUES ('cards_through', ?)",
                (str(events[-1].answer_id),),
            )
        return updated

    # -- answer keys that changed --------------------------------------------

    def changed_keys(self, bank: str, current: Mapping[str, str]) -> list[str]:
        """Questions whose key changed since the learner answered them, not yet told."""
        rows = self._read(
            "SELECT DISTINCT question_id, key_hash FROM answers JOIN attempts"
            " ON attempts.id = attempt_id WHERE bank = ?",
            (bank,),
        )
        told = {
            (r["question_id"], r["key_hash"])
            for r in self._read("SELECT * FROM key_notices WHERE bank = ?", (bank,))
        }
        changed = {
            r["question_id"]
            for r in rows
            if r["question_id"] in current and r["key_hash"] != current[r["question_id"]]
        }
        return sorted(q for q in changed if (q, current[q]) not in told)

    def note_key_changes(self, bank: str, current: Mapping[str, str], *, shown: datetime) -> None:
        """Record that the learner was told about these changed keys, so it is said once."""
        with self._write("note the changed answer keys") as con:
            con.executemany(
                "INSERT OR IGNORE INTO key_notices VALUES (?, ?, ?, ?)",
                [(bank, q, h, _utc(shown)) for q, h in current.items()],
            )

    def take_key_change_notices(
        self, bank: str, current: Mapping[str, str], *, shown: datetime
    ) -> list[str]:
        """Messages for keys changed since last answered, recorded as shown."""
        changed = self.changed_keys(bank, current)
        if not changed:
            return []
        self.note_key_changes(bank, {q: current[q] for q in changed}, shown=shown)
        return [
            f"{bank}: the answer to '{q}' was changed by the course authors; "
            "your earlier answers to it no longer count for review"
            for q in changed
        ]


def _filters(*, bank: str | None, kind: str | None) -> tuple[str, list[str]]:
    clauses, args = [], []
    if bank is not None:
        clauses.append("attempts.bank = ?")
        args.append(bank)
    if kind is not None:
        clauses.append("attempts.kind = ?")
        args.append(kind)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args
