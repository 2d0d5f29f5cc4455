"""A damaged history: real SQLite files with pages overwritten, recovered as far as they read.

Each file is written by the store itself, then pages are overwritten in place, as a
failing disk or an interrupted copy would leave them; the tests find the pages that
hold the answers by the text the answers carry.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import LearnerCourse
from lessonkit.history import recovery
from lessonkit.history.store import Store
from test_history_view import BANK, MKDOCS

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
PAGE = 4096
ATTEMPTS, QUESTIONS = 6, 40


def marker(answer_id: int) -> str:
    return f"answer-{answer_id:04d}-" + "x" * 80  # about 40 answers to a page


def write_history(folder: Path, *, unfinished: bool = False) -> None:
    """Six finished attempts at `lesson-one` of forty answers each, then a review schedule;
    with ``unfinished``, the last attempt is left unfinished after 10 answers."""
    store, notices = Store.open(folder, now=T0)
    assert notices == []
    answer_id = 0
    for number in range(ATTEMPTS):
        start = T0 + timedelta(hours=number)
        order = [f"q{n}" for n in range(QUESTIONS)]
        attempt = store.begin_attempt(bank="lesson-one", seed=number + 1, order=order,
                                      started=start, pass_mark=0.6)  # fmt: skip
        last = unfinished and number == ATTEMPTS - 1
        for n, question in enumerate(order[: 10 if last else None]):
            answer_id += 1
            store.record_answer(attempt, question_id=question, key_hash="k", correct=True,
                                response=marker(answer_id), score=1.0, max_score=1.0,
                                answered=start + timedelta(minutes=n))  # fmt: skip
        if not last:
            store.finish_attempt(attempt, finished=start + timedelta(minutes=50), passed=True)
    store.close()
    # Rebuilt page by page, so that no stale copy of an answer is left in a page's free
    # space: the one copy of each answer's text is where its row is.
    con = sqlite3.connect(folder / "history.db")
    con.execute("VACUUM")
    con.close()
    data = (folder / "history.db").read_bytes()
    assert all(data.count(marker(n).encode()) == 1 for n in range(1, answer_id + 1))


def pages_holding(path: Path, answer_ids: range) -> list[int]:
    data = path.read_bytes()
    found = {data.index(marker(n).encode()) // PAGE for n in answer_ids}
    return sorted(found)


def overwrite(path: Path, pages: list[int]) -> bytes:
    """Random bytes over these pages (numbered from 0); the file as it now is."""
    noise = random.Random(7)
    data = bytearray(path.read_bytes())
    for page in pages:
        data[page * PAGE : (page + 1) * PAGE] = bytes(noise.randrange(256) for _ in range(PAGE))
    path.write_bytes(bytes(data))
    return bytes(data)


def answers_on(path: Path, pages: list[int]) -> set[int]:
    """The answers whose text was on these pages before they were overwritten."""
    data = path.read_bytes()
    total = ATTEMPTS * QUESTIONS
    return {n for n in range(1, total + 1) if data.index(marker(n).encode()) // PAGE in pages}


@pytest.fixture
def row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recovery without the `sqlite3` command: copying the rows that read."""
    monkeypatch.setattr(recovery, "SQLITE3", "no-such-sqlite3-command")


def test_damaged_answer_pages_cost_only_their_answers_and_the_loss_is_told(
    tmp_path: Path, row_by_row: None
) -> None:
    write_history(tmp_path)
    path = tmp_path / "history.db"
    damaged_pages = pages_holding(path, range(100, 141))
    lost = answers_on(path, damaged_pages)
    damaged = overwrite(path, damaged_pages)

    store, notices = Store.open(tmp_path, now=T0)
    kept = tmp_path / "history.corrupt-20261122T0900.db"
    assert notices == [
        f"history database {path} is damaged: some of it cannot be read (database disk image "
        f"is malformed). It is kept, unchanged, as {kept}. Recovered {ATTEMPTS} attempts and "
        f"{ATTEMPTS * QUESTIONS - len(lost)} answers (row by row). Lost, as unreadable: at "
        f"least {len(lost)} answers at lesson-one."
    ]
    assert kept.read_bytes() == damaged  # the damaged file, exactly as it was found
    try:
        attempts = store.attempts("lesson-one")
        assert [a.answered for a in attempts] == [
            QUESTIONS - sum(1 for n in lost if (n - 1) // QUESTIONS == number)
            for number in range(ATTEMPTS)
        ]
        assert all(a.finished is not None for a in attempts)
        answered = {row.response for _, row in store.drawn_answers("lesson-one")}
        assert answered == {marker(n) for n in range(1, 241)} - {marker(n) for n in lost}
    finally:
        store.close()
    # The recovered database is whole: opened again, nothing more is said.
    store, notices = Store.open(tmp_path, now=T0)
    store.close()
    assert notices == []


def test_an_unfinished_attempt_is_recovered_and_can_be_resumed(
    tmp_path: Path, row_by_row: None
) -> None:
    write_history(tmp_path, unfinished=True)
    path = tmp_path / "history.db"
    overwrite(path, pages_holding(path, range(60, 61)))
    store, (notice,) = Store.open(tmp_path, now=T0)
    try:
        unfinished = store.unfinished_attempt("lesson-one")
        assert unfinished is not None and len(unfinished.answered) == 10
        assert unfinished.seed == ATTEMPTS
    finally:
        store.close()
    assert "Recovered 6 attempts and " in notice and "Lost, as unreadable: at least " in notice


def test_a_lost_table_root_is_told_from_the_attempts_that_survive(
    tmp_path: Path, row_by_row: None
) -> None:
    write_history(tmp_path)
    path = tmp_path / "history.db"
    with sqlite3.connect(path) as con:
        (root,) = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'answers'"
        ).fetchone()
    con.close()
    overwrite(path, [root - 1])  # every answer is reached through this page
    store, (notice,) = Store.open(tmp_path, now=T0)
    store.close()
    assert notice.endswith(
        f"Recovered {ATTEMPTS} attempts and 0 answers (row by row). Lost, as unreadable: at "
        f"least {ATTEMPTS * QUESTIONS} answers at lesson-one."
    )


def test_the_review_schedule_is_worked_out_again_from_the_answers(
    tmp_path: Path, row_by_row: None
) -> None:
    write_history(tmp_path)
    store, _ = Store.open(tmp_path, now=T0)
    store.sync_cards(lambda cards, events: {("lesson-one", "q1", "k"): f"{len(events)}"})
    store.close()
    path = tmp_path / "history.db"
    overwrite(path, pages_holding(path, range(1, 2)))
    store, (notice,) = Store.open(tmp_path, now=T0)
    try:
        assert notice.endswith(
            " Your review schedule is worked out again from the answers recovered."
        )
        recovered = len(store.drawn_answers("lesson-one"))
        seen: list[tuple[dict[object, str], int]] = []

        def apply(cards: dict[object, str], events: list[object]) -> dict[object, str]:
            seen.append((dict(cards), len(events)))
            return {}

        store.sync_cards(apply)  # type: ignore[arg-type]
        assert seen == [({}, recovered)]  # no card kept; every answer recovered counted anew
        assert 0 < recovered < ATTEMPTS * QUESTIONS
    finally:
        store.close()


def lessonkit(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "PYTHONIOENCODING": "utf-8",
           "PATH": str(Path(sys.executable).parent)}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "lessonkit", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize("command", ["history", "list"])
def test_history_and_list_keep_working_on_what_was_recovered(
    learner_course: LearnerCourse, command: str
) -> None:
    course = learner_course(BANK, MKDOCS)
    write_history(course / "home")
    path = course / "home" / "history.db"
    lost = answers_on(path, pages_holding(path, range(30, 31)))
    overwrite(path, pages_holding(path, range(30, 31)))
    done = lessonkit(course, command)  # PATH without a `sqlite3` command: row by row
    assert (done.returncode, done.stderr) == (0, "")
    note, *rest = done.stdout.splitlines()
    kept = next((course / "home").glob("history.corrupt-*.db"))
    assert note == (
        f"Note: history database {path} is damaged: some of it cannot be read (database disk "
        f"image is malformed). It is kept, unchanged, as {kept}. Recovered 6 attempts and "
        f"{240 - len(lost)} answers (row by row). Lost, as unreadable: at least {len(lost)} "
        "answers at lesson-one."
    )
    if command == "history":
        rows = [r for r in rest if "lesson-one" in r]
        assert rest[0] == "History" and len(rows) == ATTEMPTS
        for number, row in enumerate(rows):
            left = QUESTIONS - sum(1 for n in lost if (n - 1) // QUESTIONS == number)
            assert f"  lesson-one  {left}/{left} (100%)  \u2713 passed" in row, rows
    else:
        assert any("lesson-one" in r and "100%" in r for r in rest), rest
    again = lessonkit(course, command)
    assert again.returncode == 0 and not again.stdout.startswith("Note:")


def _sqlite_recovers() -> bool:
    """The `sqlite3` command here has a working `.recover` (Debian 12's 3.40.1 fails with
    "SQL logic error" even on a sound file)."""
    command = shutil.which("sqlite3")
    if command is None:
        return False
    done = subprocess.run([command, ":memory:", "CREATE TABLE t (x);", ".recover"],
                          capture_output=True, check=False)  # fmt: skip
    return done.returncode == 0 and b"CREATE TABLE" in done.stdout


@pytest.mark.skipif(not _sqlite_recovers(), reason="no sqlite3 command with a working .recover")
def test_sqlite_s_own_recover_is_used_when_it_works(tmp_path: Path) -> None:
    write_history(tmp_path)
    path = tmp_path / "history.db"
    lost = answers_on(path, pages_holding(path, range(100, 101)))
    overwrite(path, pages_holding(path, range(100, 101)))
    store, (notice,) = Store.open(tmp_path, now=T0)
    store.close()
    assert "(SQLite's .recover)" in notice
    assert f"Recovered {ATTEMPTS} attempts and {240 - len(lost)} answers" in notice
