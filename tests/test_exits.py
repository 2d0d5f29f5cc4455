"""Exit codes a script can tell apart: finished or left with `q` (0), input ended before the
last question (3), Ctrl-C (130); the real `lessonkit` command, piped and in a terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LearnerCourse, MakeCourse
from lessonkit.cli import exits
from lessonkit.quiz import loop
from test_runner import BANK, MKDOCS

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def lessonkit(course: Path, typed: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "lessonkit", *args], input=typed, cwd=course,
                          env=env, capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("3\n2 3 1\n3.5\n", exits.EXIT_OK),  # finished
        ("3\nq\n", exits.EXIT_OK),  # left on purpose, to resume later
        ("3\n", exits.EXIT_ENDED),  # the pipe ran dry at question 2
        ("", exits.EXIT_ENDED),  # nothing at all
    ],
    ids=["finished", "q", "ended", "empty"],
)
def test_a_quiz_s_exit_code_tells_finished_from_input_ended(
    course: Path, typed: str, code: int
) -> None:
    done = lessonkit(course, typed, "quiz", "lesson-one", "--seed", "5")
    assert (done.returncode, done.stderr) == (code, "")


def test_input_that_ends_at_the_resume_question_is_not_a_finished_quiz(course: Path) -> None:
    lessonkit(course, "3\nq\n", "quiz", "lesson-one", "--seed", "5")
    done = lessonkit(course, "1\n", "quiz", "lesson-one")  # `1` is no answer to y/n
    assert done.returncode == exits.EXIT_ENDED
    assert "Type y or n." in done.stdout


def test_a_review_whose_input_ends_exits_3(course: Path) -> None:
    lessonkit(course, "1\n1 2 3\n9\n", "quiz", "lesson-one", "--seed", "5")  # all missed
    assert lessonkit(course, "", "review").returncode == exits.EXIT_ENDED
    assert lessonkit(course, "q\n", "review").returncode == exits.EXIT_OK


@pytest.mark.pty
def test_ctrl_d_in_a_terminal_exits_3(make_course: MakeCourse) -> None:
    pexpect = pytest.importorskip("pexpect")
    from test_quiz_pty import spawn

    child = spawn(
        make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK}), "--seed", "5"
    )
    child.expect("Answer")
    child.send("3\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.sendcontrol("d")
    child.expect("Saved. Your answers so far are kept")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == exits.EXIT_ENDED


def test_the_exit_codes_are_one_list_documented_where_exit_codes_are() -> None:
    assert exits.EXIT_ENDED == loop.EXIT_ENDED == 3  # the quiz cannot import the CLI's
    readme = " ".join(README.read_text(encoding="utf-8").split())
    said = re.search(r"Exit codes: (.*?)\.(?: |$)", readme)
    assert said is not None
    assert said.group(1) == (
        "0 all good (a quiz finished, or left with `q`), 1 content problems, 2 usage errors, "
        "3 input ended before the last question of a quiz or review (a pipe ran dry, or "
        "Ctrl-D; the answers so far are kept, to resume), 130 stopped with Ctrl-C"
    )
