"""What can be read from a damaged history database, put into a fresh one, and what was lost.

A damaged page costs only the rows on it. SQLite's own recovery (the `sqlite3`
command's `.recover`, when it is installed) reads every page it can, including pages no
table reaches any more; without it, each table is copied a range of rows at a time, a
range that fails halved until single rows, so only unreadable rows stay behind. Either
way the damaged file is read from a copy, so the one kept for the learner stays exactly
as it was found.

The rows are then checked (their JSON, their dates, the attempt an answer belongs to)
and copied into a database of this lessonkit's schema, whatever schema they came from.
Attempts and answers are numbered from 1 and never deleted, so a number missing between
them, or named by a row that survived, is a row lost. The review schedule is not copied:
it follows from the answers, and is worked out again from those recovered.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

SQLITE3 = "sqlite3"  # the command-line shell whose `.recover` is tried first
RECOVER_SECONDS = 120  # a history of years is a few MB; past this, copy row by row
CHUNK = 256  # rows read at once while copying row by row
IDLE_RANGES = 16  # ranges in a row that give nothing before the copying stops
PLAUSIBLE_ROWS = 10_000_000  # more answers than a learner gives in a lifetime

# The tables copied, parents before children. `cards` (the review schedule) is worked out
# again from the answers; `cards_through` in `meta` says how far it got, so it goes too.
TABLES = ("attempts", "answers", "taken_back", "key_notices", "meta")
SKIPPED_META = {"cards_through"}


@dataclass(frozen=True)
class Recovered:
    """What a recovery found: rows kept, rows known to be lost, and how it read them."""

    attempts: int
    answers: int
    lost_attempts: int  # at least: rows lost past the last one left cannot be counted
    lost_answers: int
    lost_from: tuple[str, ...]  # the quizzes whose attempts or answers were lost, if known
    schedule: bool  # the file had a review schedule, now to be worked out again
    how: str  # `SQLite's .recover` or `row by row`

    def words(self) -> str:
        """The recovery in a learner's words: what is back, what is lost."""
        if not self.attempts and not self.answers and not self.lost_attempts:
            return "Nothing in it could be read, so your history starts afresh."
        kept = f"Recovered {_count(self.attempts, 'attempt')} and {_count(self.answers, 'answer')}"
        lost = [
            _count(n, noun)
            for n, noun in ((self.lost_attempts, "attempt"), (self.lost_answers, "answer"))
            if n
        ]
        said = f"{kept} ({self.how})."
        if lost:
            quizzes = f" at {', '.join(self.lost_from)}" if self.lost_from else ""
            said += f" Lost, as unreadable: at least {' and '.join(lost)}{quizzes}."
        else:
            said += " Nothing was found missing."
        if self.schedule:
            said += " Your review schedule is worked out again from the answers recovered."
        return said


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def recover(damaged: Path, into: sqlite3.Connection) -> Recovered:
    """Copy what can be read from ``damaged`` (and its -wal) into ``into``, a database of
    this lessonkit's schema, in one transaction; what was recovered and lost."""
    with tempfile.TemporaryDirectory(prefix="lessonkit-recover-") as folder:
        copy = Path(folder) / "damaged.db"
        shutil.copyfile(damaged, copy)
        wal = Path(f"{damaged}-wal")
        if wal.is_file():  # answers not yet moved into the file itself
            shutil.copyfile(wal, f"{copy}-wal")
        salvage, how = _sqlite_recover(copy), "SQLite's .recover"
        if salvage is None:
            salvage, how = _row_by_row(copy), "row by row"
        try:
            return _copy(salvage, into, how)
        finally:
            salvage.close()


# --- reading what can be read ---------------------------------------------------------


def _sqlite_recover(path: Path) -> sqlite3.Connection | None:
    """The rows `sqlite3 FILE .recover` finds, in memory; None when that shell is missing,
    too old to know `.recover`, or fails."""
    command = shutil.which(SQLITE3)
    if command is None:
        return None
    try:
        done = subprocess.run(
            [command, str(path), ".recover"],
            capture_output=True,
            timeout=RECOVER_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0 or b"CREATE TABLE" not in done.stdout:
        return None
    salvage = sqlite3.connect(":memory:")
    try:
        salvage.executescript(done.stdout.decode("utf-8", "replace"))
    except sqlite3.Error:
        salvage.close()
        return None
    return salvage


def _row_by_row(path: Path) -> sqlite3.Connection:
    """Every row of the known tables that reads without an error, in memory."""
    salvage = sqlite3.connect(":memory:")
    try:
        source = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return salvage
    try:
        for table in (*TABLES, "cards"):
            _copy_table(source, salvage, table)
    finally:
        source.close()
    return salvage


def _copy_table(source: sqlite3.Connection, salvage: sqlite3.Connection, table: str) -> None:
    try:
        columns = [row[1] for row in source.execute(f'PRAGMA table_info("{table}")')]
    except sqlite3.Error:
        return  # the schema itself is unreadable: nothing of this table can be found
    if not columns:
        return
    names = ", ".join(f'"{c}"' for c in columns)
    salvage.execute(f'CREATE TABLE "{table}" (rowid_ INTEGER PRIMARY KEY, {names})')
    insert = f'INSERT INTO "{table}" VALUES ({", ".join("?" * (len(columns) + 1))})'
    read = f'SELECT rowid, {names} FROM "{table}" WHERE rowid BETWEEN ? AND ?'
    ranges = _ranges(source, table)
    found = None
    with contextlib.suppress(StopIteration):
        while True:
            low, high = ranges.send(found)
            rows = _readable(source, read, low, high)
            salvage.executemany(insert, rows)
            found = bool(rows)


def _ranges(
    source: sqlite3.Connection, table: str
) -> Generator[tuple[int, int], bool | None, None]:
    """Ranges of rowids to read, from 1 on, until past the largest rowid and a long run
    of ranges has given nothing. The largest is only a hint: read off a damaged page, it
    can be any number."""
    try:
        top = source.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
    except sqlite3.Error:
        top = None
    if not isinstance(top, int) or top > PLAUSIBLE_ROWS:
        top = 0
    low, idle = 1, 0
    while low <= top or idle < IDLE_RANGES:
        found = yield low, low + CHUNK - 1
        idle = 0 if found else idle + 1
        low += CHUNK


def _readable(source: sqlite3.Connection, read: str, low: int, high: int) -> list[tuple[Any, ...]]:
    """The rows with rowids in [low, high] that read, halving any range that fails.

    A single row is looked up by its rowid alone: a range that ends at the last row of
    a page steps on to the next page to see whether it is done, and fails if that page
    is damaged, though the row itself reads.
    """
    one = low == high
    try:
        return list(source.execute(read.replace("BETWEEN ? AND ?", "= ?") if one else read,
                                   (low,) if one else (low, high)))  # fmt: skip
    except sqlite3.Error:
        if one:
            return []  # this row is on a damaged page
    middle = (low + high) // 2
    return _readable(source, read, low, middle) + _readable(source, read, middle + 1, high)


# --- putting it into the fresh database -----------------------------------------------


def _rows(salvage: sqlite3.Connection, table: str) -> list[dict[str, Any]]:
    try:
        cursor = salvage.execute(f'SELECT * FROM "{table}"')
    except sqlite3.Error:
        return []  # not found at all
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor]


def _json(text: Any, kind: type | None = None) -> bool:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return False
    return kind is None or isinstance(value, kind)


def _time(text: Any) -> bool:
    try:
        datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return False
    return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and value > 0


def _largest(values: Iterable[Any]) -> int:
    return max((v for v in values if _whole(v)), default=0)


Check = Callable[[Mapping[str, Any], "Seen"], bool]


@dataclass
class Seen:
    """Rows recovered so far: attempts (id: bank, and for a finished one the questions
    it asked), answers (id: attempt and question)."""

    attempts: dict[int, tuple[str, list[str] | None]] = field(default_factory=dict)
    answers: dict[int, tuple[int, str]] = field(default_factory=dict)


def _attempt(row: Mapping[str, Any], _seen: Seen) -> bool:
    return (
        _whole(row.get("id"))
        and isinstance(row.get("bank"), str)
        and row.get("kind", "quiz") in ("quiz", "review")
        and str(row.get("seed", "")).lstrip("-").isdigit()
        and _json(row.get("question_order"), list)
        and _time(row.get("started"))
        and (row.get("finished") is None or _time(row.get("finished")))
    )


def _answer(row: Mapping[str, Any], seen: Seen) -> bool:
    return (
        _whole(row.get("id"))
        and row.get("attempt_id") in seen.attempts
        and isinstance(row.get("question_id"), str)
        and isinstance(row.get("key_hash"), str)
        and _json(row.get("response"))
        and isinstance(row.get("score"), int | float)
        and isinstance(row.get("max_score"), int | float)
        and _time(row.get("answered"))
        and (row.get("params") is None or _json(row.get("params"), dict))
    )


def _taken_back(row: Mapping[str, Any], seen: Seen) -> bool:
    return row.get("answer_id") in seen.answers and _time(row.get("taken"))


def _texts(row: Mapping[str, Any], _seen: Seen) -> bool:
    return all(isinstance(v, str) for k, v in row.items() if k != "rowid_")


CHECKS: dict[str, Check] = {
    "attempts": _attempt,
    "answers": _answer,
    "taken_back": _taken_back,
    "key_notices": _texts,
    "meta": lambda row, seen: _texts(row, seen) and row.get("name") not in SKIPPED_META,
}


def _copy(salvage: sqlite3.Connection, into: sqlite3.Connection, how: str) -> Recovered:
    seen = Seen()
    into.execute("BEGIN IMMEDIATE")
    try:
        for table in TABLES:
            columns = {row[1] for row in into.execute(f'PRAGMA table_info("{table}")')}
            for row in _rows(salvage, table):
                if not CHECKS[table](row, seen):
                    continue
                kept = {k: v for k, v in row.items() if k in columns}
                names = ", ".join(f'"{k}"' for k in kept)
                try:
                    into.execute(
                        f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(kept))})',
                        list(kept.values()),
                    )
                except sqlite3.IntegrityError:
                    continue  # a second copy of a row (`.recover` can find one twice)
                if table == "attempts":
                    asked = json.loads(row["question_order"]) if row["finished"] else None
                    seen.attempts[row["id"]] = (row["bank"], asked)
                elif table == "answers":
                    seen.answers[row["id"]] = (row["attempt_id"], row["question_id"])
    except BaseException:
        into.execute("ROLLBACK")
        raise
    into.execute("COMMIT")
    return _counted(salvage, seen, how)


def _counted(salvage: sqlite3.Connection, seen: Seen, how: str) -> Recovered:
    """What was recovered and, at least, what was lost: numbers missing below the largest
    any surviving row names, and the questions of a finished attempt left unanswered."""
    answers = _rows(salvage, "answers")
    through = [m.get("value") for m in _rows(salvage, "meta") if m.get("name") == "cards_through"]
    top_attempt = _largest([*seen.attempts, *(a.get("attempt_id") for a in answers)])
    top_answer = _largest([*seen.answers, *(a.get("id") for a in answers),
                           *(t.get("answer_id") for t in _rows(salvage, "taken_back")),
                           *(int(str(v)) for v in through if str(v).isdigit())])  # fmt: skip
    answered: dict[int, set[str]] = {}
    for attempt_id, question_id in seen.answers.values():
        answered.setdefault(attempt_id, set()).add(question_id)
    unanswered, banks = 0, set()
    for attempt_id, (bank, asked) in seen.attempts.items():
        missing = len(set(asked or ()) - answered.get(attempt_id, set()))
        unanswered += missing
        if missing:
            banks.add(bank)
    lost_answers = max(top_answer - len(seen.answers), unanswered)
    lost_attempts = top_attempt - len(seen.attempts)
    return Recovered(
        attempts=len(seen.attempts),
        answers=len(seen.answers),
        lost_attempts=lost_attempts,
        lost_answers=lost_answers,
        lost_from=tuple(sorted(banks)) if lost_answers and not lost_attempts else (),
        schedule=bool(_rows(salvage, "cards")),
        how=how,
    )
