"""The quiz loop and `lessonkit quiz` in plain mode: exact transcripts, history, exit codes."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import MakeCourse
from lessonkit.runner import quiz_command

MKDOCS = "site_name: Test\ndocs_dir: content\nsite_url: https://learn.example.org/\n"
BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
questions:
  - id: q-single
    type: single
    prompt: Pick **b**.
    insight: 1
    section: 1-first-idea
    explanation: Because b.
    hint: The second letter.
    options:
      - text: a
        feedback: Not a.
      - text: b
        correct: true
      - text: c
  - id: q-order
    type: order
    prompt: Order them.
    insight: 2
    section: a-detail
    explanation: Alphabetical.
    items: [a, b, c]
  - id: q-num
    type: numeric
    prompt: How long?
    insight: 2
    section: 2-second-idea
    explanation: Three and a half.
    answer: 3.5
    tolerance: 0.1
    unit: ms
"""
START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def ticking() -> Iterator[datetime]:
    moment = START
    while True:
        yield moment
        moment += timedelta(seconds=10)


@pytest.fixture
def course(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return root


def quiz(typed: str, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    clock = ticking()
    code = quiz_command("lesson-one", stdin=io.StringIO(typed), stdout=out,
                        clock=lambda: next(clock), **options)  # type: ignore[arg-type]
    return code, out.getvalue()


def answers(root: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(root / "home" / "history.db") as con:
        return list(con.execute("SELECT question_id, response, score, correct, answered"
                                " FROM answers ORDER BY id"))


TRANSCRIPT = """\
Quiz: Lesson one quiz
Lesson: Lesson one
3 questions, pass mark 60%. Seed 5 (--seed repeats this order).
Type ? for a hint, q to save and quit; answers are saved as you go.

Question 1 of 3  [--------------------]  0 answered
Pick **b**.
  1. a
  2. c
  3. b
Type one number from 1 to 3.
Answer (? hint, q save and quit): 4
Not counted: There is no 4. Choose from 1 to 3.
Answer (? hint, q save and quit): ?
Hint: The second letter.
Answer (? hint, q save and quit): 1
\u2717 Incorrect: 0 of 1 point.
The answer: 3. b
- Not a.
Why: Because b.
Re-read: Lesson one \u203a First idea
  https://learn.example.org/test-plan/lesson-one/#1-first-idea

Question 2 of 3  [#######-------------]  1 answered
Order them.
  1. c
  2. a
  3. b
Type the numbers 1 to 3 in the right order, e.g. `2 3 1`.
Answer (? hint, q save and quit):\x20
Not counted: Nothing was typed. Type the numbers 1 to 3 in the right order, e.g. `2 3 1`.
Answer (? hint, q save and quit): 3 1 2
\u25d0 Partly correct: 0.5 of 1 point.
The answer: 2 3 1
Why: Alphabetical.
Re-read: Lesson one \u203a A detail
  https://learn.example.org/test-plan/lesson-one/#a-detail

Question 3 of 3  [#############-------]  2 answered
How long?
Type a number (decimal point or comma), optionally followed by ms.
Answer (? hint, q save and quit): 3,5 ms
\u2713 Correct: 1 of 1 point.
Why: Three and a half.
Re-read: Lesson one \u203a Second idea
  https://learn.example.org/test-plan/lesson-one/#2-second-idea

Summary: Lesson one quiz
Score: 1.5 of 3 points (50%)
Result: \u2717 Not passed (pass mark 60%)
Insight 1: First idea: 0 of 1 point
Insight 2: Second idea: 1.5 of 2 points
Missed question 1: q-single, 0 of 1 point. Re-read Lesson one \u203a First idea
  https://learn.example.org/test-plan/lesson-one/#1-first-idea
Missed question 2: q-order, 0.5 of 1 point. Re-read Lesson one \u203a A detail
  https://learn.example.org/test-plan/lesson-one/#a-detail
Next: `lessonkit review lesson-one` asks again what you missed, when it is due.
"""


def test_a_whole_attempt_transcript(course: Path) -> None:
    code, out = quiz("4\n?\n1\n\n3 1 2\n3,5 ms\n", seed=5)
    assert code == 0
    assert out == TRANSCRIPT
    # Only valid answers count, each stamped by the clock when it was given.
    assert answers(course) == [
        ("q-single", "0", 0.0, 0, "2026-11-22T09:00:10+00:00"),
        ("q-order", "[1, 2, 0]", 0.5, 0, "2026-11-22T09:00:20+00:00"),
        ("q-num", "3.5", 1.0, 1, "2026-11-22T09:00:30+00:00"),
    ]
    with sqlite3.connect(course / "home" / "history.db") as con:
        row = con.execute("SELECT seed, question_order, started, finished, passed FROM attempts")
        assert list(row) == [("5", '["q-single", "q-order", "q-num"]',
                              "2026-11-22T09:00:00+00:00", "2026-11-22T09:00:40+00:00", 0)]


def test_same_seed_same_attempt(course: Path) -> None:
    first = quiz("q\n", seed=5, resume=False)[1]
    again = quiz("q\n", seed=5, resume=False)[1]
    assert first == again
    assert "Seed 5 " in first


def test_quit_then_resume_continues_at_the_next_question(course: Path) -> None:
    code, out = quiz("3\nq\n", seed=5)
    assert code == 0
    assert out.endswith("Saved. Your answers so far are kept; run `lessonkit quiz lesson-one` "
                        "to resume.\n")
    assert [row[0] for row in answers(course)] == ["q-single"]
    _, out = quiz("y\n2 3 1\n", seed=99)
    assert out.startswith("You have an unfinished attempt (1 of 3 answered). Resume it? [y/n]: y\n"
                          "Quiz: Lesson one quiz\n")
    assert "Seed 5 " in out and "Resuming: 1 answered, 2 to go." in out
    assert "Question 2 of 3" in out and "Question 1 of 3" not in out
    assert out.endswith("Answer (? hint, q save and quit): \nSaved. Your answers so far are kept; "
                        "run `lessonkit quiz lesson-one` to resume.\n")
    _, out = quiz("", resume=True)
    assert "Question 3 of 3" in out
    assert [row[0] for row in answers(course)] == ["q-single", "q-order"]


def test_restart_sets_the_unfinished_attempt_aside(course: Path) -> None:
    quiz("3\nq\n", seed=5)
    _, out = quiz("n\nq\n", seed=6)
    assert "Seed 6 " in out and "Question 1 of 3" in out
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] is not None for r in con.execute("SELECT abandoned FROM attempts")] == [True]


def test_quitting_before_any_answer_leaves_no_attempt(course: Path) -> None:
    quiz("q\n", seed=5)
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert list(con.execute("SELECT count(*) FROM attempts")) == [(0,)]


def test_resume_flag_with_nothing_to_resume(course: Path) -> None:
    out = quiz("q\n", seed=5, resume=True)[1]
    assert out.startswith("Note: there is no unfinished attempt to resume; starting a new one.\n")


ANSWERS = 'q-single: 2\nq-order: "1 2 3"\nq-num: "3,7 ms"\n'


def test_answers_file_as_json(course: Path) -> None:
    (course / "mine.yml").write_text(ANSWERS)
    code, out = quiz("", answers=Path("mine.yml"), as_json=True)
    assert code == 0
    assert json.loads(out) == {
        "quiz": "lesson-one", "score": 2.0, "max_score": 3.0, "pass_mark": 0.6, "passed": True,
        "questions": [
            {"id": "q-single", "response": 1, "score": 1.0, "max_score": 1.0, "correct": True},
            {"id": "q-order", "response": [0, 1, 2], "score": 1.0, "max_score": 1.0,
             "correct": True},
            {"id": "q-num", "response": 3.7, "score": 0.0, "max_score": 1.0, "correct": False},
        ],
    }
    assert not (course / "home" / "history.db").exists()  # grading a file is not an attempt


def test_answers_file_as_text_with_an_unanswered_question(course: Path) -> None:
    (course / "mine.yml").write_text("q-single: 1\n")
    code, out = quiz("", answers=Path("mine.yml"))
    assert code == 0
    assert out.splitlines()[:5] == [
        "\u2717 q-single: 0 of 1 point",
        "\u2717 q-order: not answered",
        "\u2717 q-num: not answered",
        "",
        "Summary: Lesson one quiz",
    ]


def lessonkit(*args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LESSONKIT_HOME": str(cwd / "home"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "lessonkit", *args], input=stdin, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)


def test_cli_plain_quiz_through_the_real_entry_point(course: Path) -> None:
    done = lessonkit("quiz", "lesson-one", "--seed", "5", stdin="3\n2 3 1\n3.5\n", cwd=course)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-6:] == [
        "Score: 3 of 3 points (100%)",
        "Result: \u2713 Passed (pass mark 60%)",
        "Insight 1: First idea: 1 of 1 point",
        "Insight 2: Second idea: 2 of 2 points",
        "Missed: none",
        "Next: `lessonkit review lesson-one` asks again what you missed, when it is due.",
    ]


def test_cli_bad_answers_file_exit_1_with_positions(course: Path) -> None:
    (course / "mine.yml").write_text("q-single: 9\nq-sinlge: 1\n")
    done = lessonkit("quiz", "lesson-one", "--answers", "mine.yml", cwd=course)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "mine.yml:1:11: q-single: There is no 9. Choose from 1 to 3.\n"
        "mine.yml:2:1: no question `q-sinlge` in this quiz (did you mean `q-single`?)\n"
    )


@pytest.mark.parametrize(("args", "message"), [
    (["quiz", "lesson-two"], "lessonkit: no quiz called `lesson-two` (did you mean `lesson-one`?)\n"),
    (["quiz", "lesson-one", "--json"],
     "lessonkit: --json reports on a graded answers file: add --answers FILE\n"),
])
def test_cli_usage_errors_exit_2(course: Path, args: list[str], message: str) -> None:
    done = lessonkit(*args, cwd=course)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_first_question_needs_no_pydantic_yaml_or_rich(course: Path) -> None:
    """The start-up budget depends on it: validated banks come from the JSON cache."""
    probe = ("import sys; from lessonkit.cli import main; main(['quiz', 'lesson-one']); "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'yaml', 'rich'}))")
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home")}
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=course, env=env, input="",
                           capture_output=True, text=True, timeout=60) for _ in range(2)]
    assert "Question 1 of 3" in runs[1].stdout
    assert runs[0].stdout.splitlines()[-1] != "[]"  # the first run compiles the bank
    assert runs[1].stdout.splitlines()[-1] == "[]"
