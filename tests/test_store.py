"""Tests for the history store: a real SQLite file in a temporary folder, clocks pinned."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from lessonkit.history import database
from lessonkit.history.database import StoreError, resolve_data_dir
from lessonkit.history.rows import AnswerRow, Unfinished
from lessonkit.history.store import Store

T0 = datetime(2026, 11, 22, 3, 10, 5, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened, notices = Store.open(tmp_path, now=T0)
    assert notices == []
    yield opened
    opened.close()


def answer(store: Store, attempt: int, qid: str, *, right: bool, minute: float = 1) -> None:
    store.record_answer(
        attempt,
        question_id=qid,
        key_hash="k-" + qid,
        response={"picked": [1, 3]} if right else "2",
        score=1.0 if right else 0.0,
        max_score=1.0,
        correct=right,
        answered=at(minute),
    )


# -- where the data lives ------------------------------------------------------


def test_data_dir_prefers_the_flag_then_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LESSONKIT_HOME", str(tmp_path / "env"))
    assert resolve_data_dir(tmp_path / "flag") == tmp_path / "flag"
    assert resolve_data_dir(None) == tmp_path / "env"
    monkeypatch.delenv("LESSONKIT_HOME")
    assert resolve_data_dir(None).name == "lessonkit"


def test_open_creates_the_folder_and_a_wal_database(tmp_path: Path) -> None:
    store, notices = Store.open(tmp_path / "a" / "b", now=T0)
    store.close()
    assert notices == []
    con = sqlite3.connect(tmp_path / "a" / "b" / "history.db")
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert con.execute("PRAGMA user_version").fetchone() == (len(database.MIGRATIONS),)
    con.close()


# -- attempts, answers, resuming -----------------------------------------------


def test_an_unfinished_attempt_shows_where_to_resume(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=42, order=["q3", "q1", "q2"], started=T0)
    answer(store, attempt, "q3", right=True, minute=1)
    answer(store, attempt, "q1", right=False, minute=2)

    assert store.unfinished_attempt("gpu") == Unfinished(
        attempt_id=attempt,
        seed=42,
        order=["q3", "q1", "q2"],
        answered={
            "q3": AnswerRow({"picked": [1, 3]}, 1.0, 1.0, True, at(1)),
            "q1": AnswerRow("2", 0.0, 1.0, False, at(2)),
        },
        bank="gpu",
        started=T0,
    )
    assert store.unfinished_attempt("other") is None


def test_a_finished_or_abandoned_attempt_is_not_offered(store: Store) -> None:
    first = store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    store.finish_attempt(first, finished=at(5))
    assert store.unfinished_attempt("gpu") is None
    second = store.begin_attempt(bank="gpu", seed=2, order=["q1"], started=at(6))
    store.abandon_attempt(second, at=at(7))
    assert store.unfinished_attempt("gpu") is None


def test_seeds_beyond_64_bits_survive(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=2**80 + 1, order=["q1"], started=T0)
    unfinished = store.unfinished_attempt("gpu")
    assert unfinished is not None
    assert (unfinished.attempt_id, unfinished.seed) == (attempt, 2**80 + 1)


def test_a_second_answer_to_the_same_question_is_kept_and_wins(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    answer(store, attempt, "q1", right=False, minute=1)
    answer(store, attempt, "q1", right=True, minute=2)
    unfinished = store.unfinished_attempt("gpu")
    assert unfinished is not None
    assert unfinished.answered["q1"].correct is True
    rows = store._read("SELECT count(*) FROM answers")  # nothing typed is dropped
    assert rows[0][0] == 2


def test_times_are_stored_as_utc_iso_8601(store: Store) -> None:
    plus_two = datetime(2026, 11, 22, 5, 10, 5, tzinfo=UTC).astimezone(
        __import__("datetime").timezone(timedelta(hours=2))
    )
    store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=plus_two)
    assert store._read("SELECT started FROM attempts")[0][0] == "2026-11-22T05:10:05+00:00"


def test_an_answer_that_is_not_json_gives_a_clear_error(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    with pytest.raises(StoreError, match="cannot save the answer to q1: Object of type set"):
        store.record_answer(
            attempt,
            question_id="q1",
            key_hash="k",
            response={1, 2},
            score=0,
            max_score=1,
            correct=False,
            answered=T0,
        )


def test_an_answer_to_an_unknown_attempt_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match=r"could not save the answer to q1 in .*FOREIGN KEY"):
        answer(store, 999, "q1", right=True)


# -- summaries -------------------------------------------------------------------


def test_attempt_summaries_have_score_pass_and_duration(store: Store) -> None:
    passed = store.begin_attempt(bank="gpu", seed=1, order=["q1", "q2"], started=T0, pass_mark=0.5)
    answer(store, passed, "q1", right=True)
    answer(store, passed, "q2", right=False)
    store.finish_attempt(passed, finished=at(3.5))
    failed = store.begin_attempt(bank="gpu", seed=2, order=["q1", "q2"], started=at(10))
    answer(store, failed, "q1", right=False, minute=11)
    answer(store, failed, "q2", right=False, minute=12)
    store.finish_attempt(failed, finished=at(12), passed=False)
    open_one = store.begin_attempt(bank="tpu", seed=3, order=["t1", "t2"], started=at(20))
    answer(store, open_one, "t1", right=True, minute=21)

    got = [
        (s.bank, s.score, s.max_score, s.answered, s.questions, s.passed, s.duration)
        for s in store.attempts()
    ]
    assert got == [
        ("gpu", 1.0, 2.0, 2, 2, True, timedelta(minutes=3.5)),
        ("gpu", 0.0, 2.0, 2, 2, False, timedelta(minutes=2)),
        ("tpu", 1.0, 1.0, 1, 2, None, None),
    ]
    assert [s.attempt_id for s in store.attempts("tpu")] == [open_one]
    assert {bank: s.attempt_id for bank, s in store.best_scores().items()} == {"gpu": passed}


def test_latest_answers_are_keyed_by_question_and_key_hash(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    answer(store, attempt, "q1", right=False, minute=1)
    answer(store, attempt, "q1", right=True, minute=2)
    latest = store.latest_answers("gpu")
    assert list(latest) == [("q1", "k-q1")]
    assert latest[("q1", "k-q1")].answered == at(2)


# -- changed answer keys -------------------------------------------------------


def test_a_changed_key_is_told_once(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1", "q2"], started=T0)
    answer(store, attempt, "q1", right=True)
    answer(store, attempt, "q2", right=True)
    keys = {"q1": "k-q1", "q2": "new-key"}

    assert store.take_key_change_notices("gpu", keys, shown=at(9)) == [
        "gpu: the answer to 'q2' was changed by the course authors; "
        "your earlier answers to it no longer count for review"
    ]
    assert store.take_key_change_notices("gpu", keys, shown=at(10)) == []
    # A second change is news again.
    assert store.changed_keys("gpu", {"q1": "k-q1", "q2": "newer-key"}) == ["q2"]


def test_questions_never_answered_are_not_changed(store: Store) -> None:
    assert store.changed_keys("gpu", {"q1": "anything"}) == []


# -- migrations ----------------------------------------------------------------


def test_a_version_0_file_is_migrated(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db")
    con.execute("CREATE TABLE notes (text TEXT)")  # an older file, before any schema version
    con.close()
    store, notices = Store.open(tmp_path, now=T0)
    assert notices == []
    store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    store.close()
    con = sqlite3.connect(tmp_path / "history.db")
    assert con.execute("PRAGMA user_version").fetchone() == (len(database.MIGRATIONS),)
    assert con.execute("SELECT count(*) FROM attempts").fetchone() == (1,)
    con.close()


def test_later_migrations_run_in_order_and_keep_the_data(tmp_path: Path) -> None:
    store, _ = Store.open(tmp_path, now=T0)
    store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    store.close()
    more = (
        *database.MIGRATIONS,
        ("ALTER TABLE attempts ADD COLUMN device TEXT", "UPDATE attempts SET device = 'laptop'"),
    )
    con = sqlite3.connect(tmp_path / "history.db", isolation_level=None)
    database.migrate(con, more)
    database.migrate(con, more)  # already there: nothing runs twice
    assert con.execute("PRAGMA user_version").fetchone() == (len(more),)
    assert con.execute("SELECT bank, device FROM attempts").fetchall() == [("gpu", "laptop")]
    con.close()


# -- files that cannot be used -------------------------------------------------


def reopen(tmp_path: Path) -> list[str]:
    store, notices = Store.open(tmp_path, now=T0)
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1"], started=T0)
    answer(store, attempt, "q1", right=True)  # the fresh database works
    store.close()
    return notices


def test_a_garbage_file_is_kept_aside_and_a_fresh_one_started(tmp_path: Path) -> None:
    garbage = b"this is not a database\n" * 500
    (tmp_path / "history.db").write_bytes(garbage)
    (tmp_path / "history.db-wal").write_bytes(b"stale")

    assert reopen(tmp_path) == [
        f"history database {tmp_path}/history.db cannot be read at all (file is not a "
        f"database). It is kept, unchanged, as {tmp_path}/history.corrupt-20261122T0310.db. "
        "Nothing in it could be read, so your history starts afresh."
    ]
    assert (tmp_path / "history.corrupt-20261122T0310.db").read_bytes() == garbage
    assert (tmp_path / "history.corrupt-20261122T0310.db-wal").read_bytes() == b"stale"


def test_a_second_bad_file_in_the_same_minute_gets_its_own_name(tmp_path: Path) -> None:
    (tmp_path / "history.db").write_bytes(b"x" * 4096)
    reopen(tmp_path)
    (tmp_path / "history.db").unlink()
    (tmp_path / "history.db-wal").unlink(missing_ok=True)
    (tmp_path / "history.db").write_bytes(b"y" * 4096)
    assert (
        f"kept, unchanged, as {tmp_path}/history.corrupt-20261122T0310-2.db."
        in (reopen(tmp_path)[0])
    )
    assert (tmp_path / "history.corrupt-20261122T0310.db").read_bytes() == b"x" * 4096


def test_a_damaged_page_is_found_and_kept_aside(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db")
    con.execute("CREATE TABLE filler (x TEXT)")
    con.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    con.commit()
    con.close()
    data = bytearray((tmp_path / "history.db").read_bytes())
    data[4096 * 2 : 4096 * 2 + 100] = b"\xff" * 100  # scribble over a page of the table
    (tmp_path / "history.db").write_bytes(bytes(data))

    assert reopen(tmp_path) == [
        f"history database {tmp_path}/history.db is damaged: some of it cannot be read "
        f"(database disk image is malformed). It is kept, unchanged, as {tmp_path}/"
        "history.corrupt-20261122T0310.db. Nothing in it could be read, so your history "
        "starts afresh."
    ]
    assert (tmp_path / "history.corrupt-20261122T0310.db").read_bytes() == bytes(data)


def test_a_newer_schema_is_kept_aside_with_how_to_get_it_back(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db")
    con.execute("PRAGMA user_version = 7")
    con.close()
    assert reopen(tmp_path) == [
        f"history database {tmp_path}/history.db was written by a newer lessonkit "
        f"(schema 7; this one knows up to {len(database.MIGRATIONS)}); kept it as "
        f"{tmp_path}/history.newer-schema-20261122T0310.db "
        "and started a fresh one. To use it again, upgrade lessonkit and rename it back "
        "to history.db"
    ]
    con = sqlite3.connect(tmp_path / "history.newer-schema-20261122T0310.db")
    assert con.execute("PRAGMA user_version").fetchone() == (7,)
    con.close()


def test_a_folder_in_its_place_is_moved_aside(tmp_path: Path) -> None:
    (tmp_path / "history.db").mkdir()
    (tmp_path / "history.db" / "keep.txt").write_text("mine")
    assert reopen(tmp_path) == [
        f"history database {tmp_path}/history.db was a folder, not a file; "
        f"kept it as {tmp_path}/history.not-a-file-20261122T0310.db and started a fresh one"
    ]
    assert (tmp_path / "history.not-a-file-20261122T0310.db" / "keep.txt").read_text() == "mine"


def test_another_programs_tables_are_kept_aside(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db")
    con.execute("CREATE TABLE attempts (something_else TEXT)")
    con.close()
    (notice,) = reopen(tmp_path)
    assert notice == (
        f"history database {tmp_path}/history.db held tables lessonkit does not know "
        f"(table attempts already exists); kept it as {tmp_path}/"
        "history.unknown-schema-20261122T0310.db and started a fresh one"
    )


def test_a_folder_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("in the way")
    with pytest.raises(StoreError, match=r"cannot create the history folder .*/file/sub: "):
        Store.open(tmp_path / "file" / "sub", now=T0)


# -- answers taken back with `u` ----------------------------------------------


def test_an_answer_taken_back_stays_in_history_but_does_not_count(store: Store) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=["q1", "q2"], started=T0)
    answer(store, attempt, "q1", right=False, minute=1)
    answer(store, attempt, "q2", right=True, minute=2)
    store.take_back(attempt, question_id="q2", taken=at(3))
    unfinished = store.unfinished_attempt("gpu")
    assert unfinished is not None and list(unfinished.answered) == ["q1"]
    assert [(a.score, a.answered) for a in store.attempts("gpu")] == [(0.0, 1)]
    assert list(store.latest_answers("gpu")) == [("q1", "k-q1")]
    seen: list[str] = []
    store.sync_cards(lambda cards, events: seen.extend(e.question_id for e in events) or {})
    assert seen == ["q1"]
    answer(store, attempt, "q2", right=False, minute=4)  # given again: this one counts
    assert [(a.score, a.answered) for a in store.attempts("gpu")] == [(0.0, 2)]
    store.take_back(attempt, question_id="q2", taken=at(5))  # takes back only the latest
    assert store.unfinished_attempt("gpu").answered.keys() == {"q1"}  # type: ignore[union-attr]
    with sqlite3.connect(store.path) as con:
        kept = con.execute("SELECT question_id, answered FROM answers ORDER BY id").fetchall()
        taken = con.execute("SELECT answer_id, taken FROM taken_back ORDER BY answer_id")
        assert [row[0] for row in kept] == ["q1", "q2", "q2"]  # nothing typed is lost
        assert taken.fetchall() == [(2, at(3).isoformat()), (3, at(5).isoformat())]


# -- reading only ----------------------------------------------------------------


def test_read_only_finds_no_database_and_creates_nothing(tmp_path: Path) -> None:
    assert Store.read_only(tmp_path / "none") == (None, [])
    assert not (tmp_path / "none").exists()


def test_read_only_reads_an_older_schema_without_migrating_it(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db", isolation_level=None)
    database.migrate(con, database.MIGRATIONS[:1])  # before answers could be taken back
    con.execute(
        "INSERT INTO attempts (bank, seed, question_order, started) VALUES"
        " ('gpu', '1', '[\"q1\"]', ?)",
        (T0.isoformat(),),
    )
    con.close()
    store, notices = Store.read_only(tmp_path)
    assert notices == [] and store is not None
    assert [(a.bank, a.answered) for a in store.attempts()] == [("gpu", 0)]
    store.close()
    con = sqlite3.connect(tmp_path / "history.db")
    assert con.execute("PRAGMA user_version").fetchone() == (1,)  # left as it was
    con.close()


def test_read_only_refuses_a_newer_schema_and_leaves_it(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "history.db")
    con.execute("PRAGMA user_version = 7")
    con.close()
    with pytest.raises(StoreError) as error:
        Store.read_only(tmp_path)
    assert str(error.value) == (
        f"cannot read the history database {tmp_path}/history.db: it was written by a newer "
        "lessonkit (schema 7); upgrade lessonkit to read it"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.db"]
