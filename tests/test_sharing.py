"""`lessonkit history --export`: what a quiz records for it, and the file a learner shares.

A real quiz in a temporary course (the runner's own BANK), a real SQLite history, the
real CLI; the file is checked against the committed JSON Schema with the `jsonschema`
library and loaded by DuckDB with the query the docs give.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import LearnerCourse, ticking
from lessonkit.course.bankversion import bank_version
from lessonkit.course.catalog import find
from lessonkit.quiz.runner import quiz_command
from test_runner import BANK, MKDOCS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "attempts-file.schema.json"


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def take(typed: str) -> None:
    clock = ticking()
    out = io.StringIO()
    code = quiz_command("lesson-one", stdin=io.StringIO(typed), stdout=out, seed=5,
                        clock=lambda: next(clock))  # fmt: skip
    assert code == 0, out.getvalue()


def lessonkit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lessonkit", *args], cwd=cwd, capture_output=True, text=True,
        env=os.environ | {"LESSONKIT_HOME": str(cwd / "home")},
    )  # fmt: skip


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# Seed 5 shows q-single's options as a, c, b; `?` asks for the hint twice before answering.
TYPED = "?\n?\n3\n2 3 1\n3.5 ms\n"


def test_a_quiz_records_the_bank_version_seconds_and_hints(course: Path) -> None:
    take(TYPED)
    with sqlite3.connect(course / "home" / "history.db") as con:
        version = con.execute("SELECT bank_version FROM attempts").fetchone()[0]
        rows = con.execute("SELECT question_id, hints, seconds FROM answers ORDER BY id").fetchall()
    assert version == bank_version(find("lesson-one").keys)
    assert [(q, h) for q, h, _ in rows] == [("q-single", 2), ("q-order", 0), ("q-num", 0)]
    assert all(isinstance(s, float) and 0 <= s < 60 for _, _, s in rows)


def test_export_writes_a_self_describing_file_with_no_name_machine_or_path(course: Path) -> None:
    take(TYPED)
    done = lessonkit("history", "--export", "mine.jsonl", cwd=course)
    assert done.returncode == 0, done.stderr
    header, attempt, *answers, end = lines(course / "mine.jsonl")
    assert done.stdout.startswith(
        f"wrote mine.jsonl: 1 attempt, 3 answers (lesson-one), as learner {header['learner']}."
    )
    assert header["record"] == "header" and header["format"] == "lessonkit-attempts"
    assert header["version"] == 1
    assert "random pseudonym" in header["learner_note"]
    assert "--reset-pseudonym" in header["learner_note"]
    assert any("name" in item for item in header["omits"])
    assert attempt["bank_version"] == bank_version(find("lesson-one").keys)
    assert [(a["question"], a["response"], a["score"], a["hints"]) for a in answers] == [
        ("q-single", 1, 1.0, 2),
        ("q-order", [0, 1, 2], 1.0, 0),
        ("q-num", 3.5, 1.0, 0),
    ]
    assert all(a["params"] is None and a["seconds"] is not None for a in answers)
    assert end == {"record": "end", "attempts": 1, "answers": 3, "sha256": end["sha256"]}
    text = (course / "mine.jsonl").read_text(encoding="utf-8")
    for private in (str(course), socket.gethostname(), os.environ.get("USER") or "\0"):
        assert private not in text


def test_every_line_is_valid_against_the_committed_schema(course: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    take(TYPED)
    assert lessonkit("history", "--export", "mine.jsonl", cwd=course).returncode == 0
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    found = lines(course / "mine.jsonl")
    for line in found:
        validator.validate(line)
    edited = {**found[2], "score": -1}
    assert not validator.is_valid(edited)
    assert not validator.is_valid({**found[2], "name": "Ada Lovelace"})


def test_the_pseudonym_stays_until_reset_and_then_changes(course: Path) -> None:
    take(TYPED)
    lessonkit("history", "--export", "a.jsonl", cwd=course)
    lessonkit("history", "--export", "b.jsonl", cwd=course)
    first, second = lines(course / "a.jsonl")[0], lines(course / "b.jsonl")[0]
    assert first["learner"] == second["learner"]
    reset = lessonkit("history", "--reset-pseudonym", cwd=course)
    assert reset.returncode == 0
    new = reset.stdout.split("Your new pseudonym is ")[1].split(";")[0]
    assert new != first["learner"]
    lessonkit("history", "--export", "c.jsonl", cwd=course)
    assert lines(course / "c.jsonl")[0]["learner"] == new


def test_export_to_standard_output_and_of_one_quiz(course: Path) -> None:
    take(TYPED)
    done = lessonkit("history", "lesson-one", "--export", "-", cwd=course)
    assert done.returncode == 0
    assert json.loads(done.stdout.splitlines()[0])["banks"] == ["lesson-one"]
    other = lessonkit("history", "no-such-quiz", "--export", "-", cwd=course)
    assert [json.loads(line)["record"] for line in other.stdout.splitlines()] == ["header", "end"]


def test_an_old_attempt_without_a_version_gets_one_from_its_answers(course: Path) -> None:
    take(TYPED)
    with sqlite3.connect(course / "home" / "history.db") as con:
        con.execute("UPDATE attempts SET bank_version = NULL")
        con.execute("UPDATE answers SET hints = NULL, seconds = NULL")
    assert lessonkit("history", "--export", "old.jsonl", cwd=course).returncode == 0
    attempt, *answers = lines(course / "old.jsonl")[1:-1]
    assert attempt["bank_version"] == bank_version(find("lesson-one").keys)
    assert {(a["hints"], a["seconds"]) for a in answers} == {(None, None)}


def test_the_docs_duckdb_query_gives_difficulty(course: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    take(TYPED)
    take("q\n")  # nothing answered: no attempt
    assert lessonkit("history", "--export", "class/one.jsonl", cwd=course).returncode == 0
    docs = (ROOT / "RESULTS.md").read_text(encoding="utf-8")
    query = next(line for line in docs.splitlines() if line.startswith("SELECT question"))
    os.chdir(course)
    found = duckdb.sql(query).fetchall()
    assert sorted(found) == [("q-num", 1.0), ("q-order", 1.0), ("q-single", 1.0)]


def test_the_committed_schema_is_generated_from_the_models_and_described() -> None:
    from lessonkit.bank.schema import render
    from lessonkit.results.records import SCHEMA_NAME, AttemptsLine
    from test_schema import ROOT as REPO

    committed = (REPO / "schemas" / SCHEMA_NAME).read_text(encoding="utf-8")
    assert committed == render(AttemptsLine), (
        f"schemas/{SCHEMA_NAME} is stale: run `lessonkit schema`"
    )
    for name, record in json.loads(committed)["$defs"].items():
        for field, spec in record["properties"].items():
            assert "description" in spec, f"{name}.{field} has no description"
