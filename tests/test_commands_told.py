"""The commands the quiz tells a learner to type work when copied: whole on their line, and
naming lessonkit as it was started (`./lessonkit`, `python -m lessonkit`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LESSON, PLAN, MakeCourse
from test_quiz_pty import screen_of, spawn, stop
from test_runner import BANK, MKDOCS

LONG = "memory-bandwidth-and-rooflines"


@pytest.fixture
def long_course(make_course: MakeCourse) -> Path:
    """The small course, its lesson and quiz under a long slug."""
    return make_course({
        "mkdocs.yml": MKDOCS,
        "content/test-plan/index.md": PLAN.replace("[lesson-one]", f"[{LONG}]"),
        "content/test-plan/lesson-one.md": None,
        f"content/test-plan/{LONG}.md": LESSON.replace("quiz: lesson-one", f"quiz: {LONG}"),
        "quizzes/lesson-one.yml": None,
        f"quizzes/{LONG}.yml": BANK.replace("lesson: lesson-one", f"lesson: {LONG}"),
    })  # fmt: skip


@pytest.mark.pty
@pytest.mark.parametrize("columns", [80, 50])
def test_the_resume_hint_is_never_broken_inside_its_command(
    long_course: Path, columns: int
) -> None:
    child = spawn(long_course, "--seed", "5", target=(LONG,), size=(24, columns))
    child.expect("Answer")
    child.send("3\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    stop(child, "Stopped")
    shown = screen_of(child, columns)
    command = f"`lessonkit quiz {LONG}`"
    at = next(n for n, line in enumerate(shown) if line.startswith("Stopped."))
    said = shown[at : at + 3]
    assert any(command in line for line in said), said  # on one line, copied whole
    assert " ".join(" ".join(said).split()) == (
        f"Stopped. Your answers so far are kept; run {command} to resume."
    )


def run(course: Path, program: list[str], typed: str, path: str) -> str:
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "PATH": path}
    done = subprocess.run([*program, "quiz", "lesson-one", "--seed", "5"], input=typed,
                          cwd=course, env=env, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
    assert done.stderr == ""
    return done.stdout


def test_started_as_dot_slash_lessonkit_the_hints_say_dot_slash_lessonkit(
    make_course: MakeCourse,
) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})
    script = Path(sys.executable).with_name("lessonkit")  # this install's own command
    shutil.copy(script, course / "lessonkit")
    out = run(course, ["./lessonkit"], "3\nq\n", "/usr/bin:/bin")
    assert (
        "Saved. Your answers so far are kept; run `./lessonkit quiz lesson-one` to resume.\n" in out
    )
    out = run(course, ["./lessonkit"], "y\n2 3 1\n3.5\n", "/usr/bin:/bin")
    assert "`./lessonkit review lesson-one`" in out  # the summary's next step


def test_started_as_python_dash_m_the_hints_say_python_dash_m(make_course: MakeCourse) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})
    python = sys.executable
    out = run(course, [python, "-m", "lessonkit"], "3\nq\n", "/usr/bin:/bin")  # not on PATH
    assert f"run `{python} -m lessonkit quiz lesson-one` to resume.\n" in out
    out = run(course, [python, "-m", "lessonkit"], "y\nq\n", str(Path(python).parent))
    assert "run `lessonkit quiz lesson-one` to resume.\n" in out  # this install's is on PATH
