"""A terminal that never goes blank: the question drawn whole at any size, after Ctrl-Z and
`fg`, Ctrl-L and every resize, with what was typed (a real pseudo-terminal, read by pyte)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from conftest import MakeCourse
from test_quiz_pty import signalled, spawn, stop
from test_runner import BANK, MKDOCS

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

# Seed 5 shows question 1 as the single choice `Pick **b**.`, its options a, c, b.
QUESTION_1 = ["Pick b.", "  1. a", "  2. c", "  3. b"]
# What a shell writes while the quiz is stopped: `clear`, then `fg`.
SHELL = "\x1b[H\x1b[2J[1]+  Stopped    lessonkit quiz lesson-one\r\n$ clear\r\n$ fg\r\n"


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    return make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})


def shown(output: str, columns: int = 80, lines: int = 24) -> list[str]:
    """What a terminal of that size shows after ``output`` (pyte)."""
    screen = pyte.Screen(columns, lines)
    pyte.Stream(screen).feed(output)
    return [line.rstrip() for line in screen.display]


def so_far(child: pexpect.spawn) -> str:
    return str(child.logfile_read.getvalue())


def holds(screen: list[str], *lines: str) -> bool:
    """Each of ``lines`` is on the screen, in this order (each a whole line's start)."""
    at = 0
    for line in lines:
        found = next((n for n in range(at, len(screen)) if screen[n].startswith(line)), None)
        if found is None:
            return False
        at = found + 1
    return True


def to_question_3(child: pexpect.spawn) -> None:
    """Answer questions 1 and 2, each once its prompt is up: question 3 is a line that
    readline reads (1 is picked key by key)."""
    child.send("3\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.send("1 2 3\r")
    child.expect("Question 3 of 3")
    child.expect("Answer")


@pytest.mark.parametrize(
    ("env", "columns"), [({}, 80), ({"COLUMNS": "50", "LINES": "20"}, 50)], ids=["80x24", "env"]
)
def test_a_terminal_of_0x0_gets_the_whole_question_at_columns_or_80(
    course: Path, env: dict[str, str], columns: int
) -> None:
    child = spawn(course, "--seed", "5", size=(0, 0), env=env)
    child.expect(r"Answer \(\? hint, q save and quit\): ")
    screen = shown(so_far(child), columns)
    assert holds(screen, "Quiz: Lesson one quiz", "\u2500" * columns, "Question 1 of 3",
                 *QUESTION_1, "Answer (? hint, q save and quit):"), screen  # fmt: skip
    assert "\u2500" * (columns + 1) not in so_far(child)  # the rule is as wide as said
    stop(child)


@pytest.mark.parametrize("question", [1, 3], ids=["picked", "typed"])
def test_ctrl_z_then_fg_draws_the_whole_question_again_with_what_was_typed(
    course: Path, question: int
) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    if question == 3:
        to_question_3(child)
    typed = "3" if question == 1 else "3,5 m"
    child.send(typed)
    child.expect(f"quit\\): {typed}")
    child.sendcontrol("z")
    child.expect(pexpect.TIMEOUT, timeout=1)  # give the stop time to land; nothing is drawn
    before = so_far(child)
    signalled(child, lambda: child.kill(signal.SIGCONT), f"quit\\): .*{typed}")  # `fg`
    child.expect(pexpect.TIMEOUT, timeout=0.5)  # the drawing is complete
    screen = shown(before + SHELL + so_far(child)[len(before) :])
    whole = QUESTION_1 if question == 1 else ["How long?", "Type a number"]
    assert holds(screen, f"Question {question} of 3", *whole,
                 f"Answer (? hint, q save and quit): {typed}"
                 if question == 1 else f"Answer (u undo, q save and quit): {typed}"), screen  # fmt: skip
    assert not any("Stopped" in line for line in screen), screen
    child.send("s\r" if question == 3 else "\r")
    child.expect("\u2713 Correct")
    stop(child)


@pytest.mark.parametrize("question", [1, 3], ids=["picked", "typed"])
def test_ctrl_l_clears_the_screen_and_draws_the_whole_question_with_what_was_typed(
    course: Path, question: int
) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    if question == 3:
        to_question_3(child)
    typed = "3" if question == 1 else "3,5"
    child.send(typed)
    child.expect(f"quit\\): {typed}")
    before = so_far(child)
    child.sendcontrol("l")
    child.expect("\x1b\\[2J")
    child.expect(f"quit\\): {typed}")
    child.expect(pexpect.TIMEOUT, timeout=0.5)
    # Another program wrote over the quiz: Ctrl-L is how a learner gets it back.
    screen = shown(
        before + "\r\nwall: the system goes down at 18:00\r\n" + so_far(child)[len(before) :]
    )
    whole = QUESTION_1 if question == 1 else ["How long?", "Type a number"]
    assert holds(screen, f"Question {question} of 3", *whole, "Answer ("), screen
    assert screen[-1] == "" and any(line.endswith(f"quit): {typed}") for line in screen), screen
    assert not any("wall:" in line for line in screen), screen
    child.send(" ms\r" if question == 3 else "\r")  # the line goes on where it was
    child.expect("\u2713 Correct")
    stop(child)
    if question == 3:  # Ctrl-L is not an answer, nor a line Up brings back
        assert "You answered: 3,5 ms" in so_far(child)


def test_shrinking_below_the_question_then_growing_draws_the_choices_again(course: Path) -> None:
    child = spawn(course, "--seed", "5", size=(24, 80))
    child.expect("Answer")
    child.send("3")
    child.expect("quit\\): 3")
    # Too small to pick from: the question drawn for numbers only, the 3 still typed.
    signalled(child, lambda: child.setwinsize(5, 40), "\x1b\\[2J",
              again=lambda: child.kill(signal.SIGWINCH))  # fmt: skip
    child.expect("quit\\): 3")
    child.expect(pexpect.TIMEOUT, timeout=0.5)
    small = so_far(child)
    assert shown(small[small.rindex("\x1b[H") :], 40, 5)[-2:] == [
        "Type one number from 1 to 3.",
        "Answer (? hint, q save and quit): 3",
    ]
    signalled(child, lambda: child.setwinsize(24, 80), "\x1b\\[2J",
              again=lambda: child.kill(signal.SIGWINCH))  # fmt: skip
    child.expect("quit\\): 3")
    child.expect(pexpect.TIMEOUT, timeout=0.5)
    screen = shown(so_far(child))
    assert holds(screen, "Question 1 of 3", *QUESTION_1, "Type one number from 1 to 3",
                 "Answer (? hint, q save and quit): 3"), screen  # fmt: skip
    assert sum("Answer (" in line for line in screen) == 1, screen
    child.send("\r")
    child.expect("\u2713 Correct")
    stop(child)


def test_a_typed_line_survives_shrink_then_grow_whole_and_once(course: Path) -> None:
    """readline takes in a new size only inside its next line: drawn at the old width
    first, it would clear a row of the question, or leave a second prompt above."""
    child = spawn(course, "--seed", "5", size=(24, 80))
    child.expect("Answer")
    to_question_3(child)
    child.send("3,5 ms")
    child.expect("quit\\): 3,5 ms")
    for lines, columns in ((8, 30), (24, 80)):
        before = len(so_far(child))
        signalled(child, lambda n=lines, m=columns: child.setwinsize(n, m), "\x1b\\[2J",
                  again=lambda: child.kill(signal.SIGWINCH))  # fmt: skip
        child.expect("3,5 ms")
        child.expect(pexpect.TIMEOUT, timeout=0.5)
        drawn = so_far(child)[before:]
        screen = shown(drawn[drawn.rindex("\x1b[H") :], columns, lines)
        assert sum(line.startswith("Answer (") for line in screen) == 1, screen
        assert "".join(screen).replace(" ", "").endswith("quit):3,5ms"), screen
    assert holds(screen, "Question 3 of 3", "How long?", "Type a number",
                 "Answer (u undo, q save and quit): 3,5 ms"), screen  # fmt: skip
    child.send("\r")
    child.expect("\u2713 Correct")
    stop(child)
