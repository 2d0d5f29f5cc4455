"""A real pseudo-terminal: a learner takes a small quiz through the `lessonkit` command."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from conftest import MakeCourse
from test_runner import BANK, MKDOCS

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    return make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})


def spawn(course: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "TERM": "xterm",
           "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40"}
    return pexpect.spawn(sys.executable, ["-m", "lessonkit", "quiz", "lesson-one", *args],
                          cwd=str(course), env=env, encoding="utf-8", timeout=20,
                          dimensions=(40, 100))


def test_taking_a_quiz_in_a_terminal(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Question 1 of 3")
    child.expect("Type one number from 1 to 3.")
    child.expect("Answer")
    child.sendline("b")  # the wrong form: a letter where a number is expected
    child.expect("Not counted: `b` is not a number. Type one number from 1 to 3.")
    child.expect("Answer")
    child.sendline("?")
    child.expect("Hint: The second letter.")
    child.sendline("3")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Why: Because b.")
    child.expect("Re-read: Lesson one \u203a First idea")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.sendline("3 1 2")
    child.expect("You answered:")
    child.expect("Partly correct: 0.5 of 1 point.")
    child.expect("The right answer:")
    child.expect("1. a")
    child.expect("Question 3 of 3")
    child.expect("optionally followed by ms")
    child.sendline("3,5 ms")
    child.expect("\u2713 Correct")
    child.expect("Summary: Lesson one quiz")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    table = ANSI.sub("", child.before)
    assert table.splitlines()[-2:] == [
        "Score: 2.5 of 3 points (83%)", "\u2713 Passed (pass mark 60%)"]
    assert "\u2717 Q2  0.5/1  lessonkit read lesson-one a-detail" in table
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] for r in con.execute("SELECT question_id FROM answers ORDER BY id")] == [
            "q-single", "q-order", "q-num"]


def test_quit_and_resume_in_a_terminal(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.sendline("3")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.sendline("q")
    child.expect("Saved. Your answers so far are kept")
    child.expect(pexpect.EOF)
    child = spawn(course)
    child.expect(r"You have an unfinished attempt \(1 of 3 answered\). Resume it\? \[y/n\]")
    child.sendline("y")
    child.expect("Resuming: 1 answered, 2 to go.")
    child.expect("Question 2 of 3")
    child.sendcontrol("c")  # Ctrl-C keeps what was answered
    child.expect("Stopped. Your answers so far are kept")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_a_killed_quiz_loses_no_answer_and_resumes_at_the_next_question(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.sendline("3")
    child.expect("Question 2 of 3")  # feedback is shown only after the answer is committed
    child.expect("Answer")
    child.sendline("2 3 1")
    child.expect("Question 3 of 3")
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] for r in con.execute("SELECT question_id FROM answers ORDER BY id")] == [
            "q-single", "q-order"]
    child = spawn(course, "--resume")
    child.expect("Resuming: 2 answered, 1 to go.")
    child.expect("Question 3 of 3")
    child.expect("Answer")  # typed before its prompt, it would be discarded as type-ahead
    child.sendline("3.5")
    child.expect("Summary: Lesson one quiz")
    child.expect(pexpect.EOF)
    assert "3 of 3 points (100%)" in ANSI.sub("", child.before)
