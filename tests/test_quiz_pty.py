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


def spawn(course: Path, *args: str, size: tuple[int, int] = (40, 100)) -> pexpect.spawn:
    """The quiz in a pseudo-terminal of `size` (lines, columns), without colour."""
    lines, columns = size
    env = {
        **os.environ,
        "LESSONKIT_HOME": str(course / "home"),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": str(columns),
        "LINES": str(lines),
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "lessonkit", "quiz", "lesson-one", *args],
        cwd=str(course),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=size,
    )


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
        "Score: 2.5 of 3 points (83%)",
        "\u2713 Passed (pass mark 60%)",
    ]
    assert "\u2717 Q2  0.5/1  lessonkit read lesson-one a-detail" in table
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] for r in con.execute("SELECT question_id FROM answers ORDER BY id")] == [
            "q-single",
            "q-order",
            "q-num",
        ]


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
            "q-single",
            "q-order",
        ]
    child = spawn(course, "--resume")
    child.expect("Resuming: 2 answered, 1 to go.")
    child.expect("Question 3 of 3")
    child.expect("Answer")  # typed before its prompt, it would be discarded as type-ahead
    child.sendline("3.5")
    child.expect("Summary: Lesson one quiz")
    child.expect(pexpect.EOF)
    assert "3 of 3 points (100%)" in ANSI.sub("", child.before)


# --- line editing, type-ahead, undo, feedback and summary as a learner meets them ----------

UP, LEFT, DELETE, BACKSPACE = "\x1b[A", "\x1b[D", "\x1b[3~", "\x7f"


def test_arrow_keys_and_up_recall_edit_the_answer(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.send("3x" + LEFT + DELETE + "\r")  # the x is deleted, not sent as escape codes
    child.expect("You answered: 3. b")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.send("2 3 9\r")
    child.expect("Not counted: There is no 9.")
    child.expect("Answer")
    child.send(UP + BACKSPACE + "1\r")  # Up brings back `2 3 9`; fix its last number
    child.expect("You answered:")
    child.expect("\u2713 Correct: 1 of 1 point.")
    assert "^[[" not in child.before
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_a_paste_answers_only_the_question_on_screen_and_undo_takes_it_back(
    course: Path,
) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.send("1\r3 1 2\r3.5\r")  # three answers pasted at once, at question 1
    child.expect("You answered: 1. a")
    child.expect("Question 2 of 3")
    child.expect(r"Answer \(u undo, q save and quit\): ")
    child.send("u\r")  # the pasted `3 1 2` was dropped: this `u` is what question 2 gets
    child.expect("Taken back: your answer to question 1. Answer it again.")
    child.expect("Question 1 of 3")
    child.expect("Answer")
    child.send("3\r")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Question 2 of 3")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    with sqlite3.connect(course / "home" / "history.db") as con:
        rows = list(con.execute("SELECT question_id, response FROM answers ORDER BY id"))
    assert rows == [("q-single", "0"), ("q-single", "1")]  # both kept; the later counts


def answers_given(course: Path) -> list[tuple[str, str, int]]:
    """Every answer saved, with 1 when it was taken back (kept, not counted)."""
    with sqlite3.connect(course / "home" / "history.db") as con:
        return list(
            con.execute(
                "SELECT question_id, response, id IN (SELECT answer_id FROM taken_back)"
                " FROM answers ORDER BY id"
            )
        )


@pytest.mark.parametrize("leave", ["q", "ctrl-c", "ctrl-d", "kill -9"])
def test_an_answer_taken_back_before_quitting_is_asked_again_on_resuming(
    course: Path, leave: str
) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.sendline("1")  # wrong
    child.expect("Question 2 of 3")
    child.expect(r"Answer \(u undo, q save and quit\): ")
    child.sendline("u")
    child.expect("Taken back: your answer to question 1. Answer it again.")
    child.expect("Question 1 of 3")
    child.expect(r"Answer \(\? hint, q save and quit\): ")
    if leave == "kill -9":
        child.kill(signal.SIGKILL)  # the taking back was saved when it was said
    elif leave == "q":
        child.sendline("q")
    else:
        child.sendcontrol(leave[-1])
    child.expect(pexpect.EOF)
    assert answers_given(course) == [("q-single", "0", 1)]  # kept in history, not counted
    child = spawn(course, "--resume")
    child.expect(r"Seed 5 \(--seed repeats this order\)")  # the same attempt, resumed
    child.expect("Question 1 of 3")
    child.expect("Answer")
    child.sendline("3")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Question 2 of 3")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    assert answers_given(course) == [("q-single", "0", 1), ("q-single", "1", 0)]


EVERY_TYPE = """\
lesson: lesson-one
title: Every type
pass_mark: 0.9
shuffle: {questions: false, options: false}
questions:
  - id: t-single
    type: single
    prompt: Which loop prints 0, 1, 2?
    insight: 1
    section: 1-first-idea
    explanation: "`range(3)` counts from *zero*."
    options:
      - text: |
          ```python
          for i in range(1, 4):
              print(i)
          ```
        feedback: That starts at **one**.
      - text: |
          ```python
          for i in range(3):
              print(i)
          ```
        correct: true
  - id: t-multiple
    type: multiple
    prompt: Which are accelerators?
    insight: 1
    section: 1-first-idea
    explanation: Both GPU and TPU.
    options:
      - {text: GPU, correct: true}
      - {text: TPU, correct: true}
      - {text: "A *disk*", feedback: A disk stores data.}
  - id: t-tf
    type: true_false
    prompt: TPUs were designed by Google.
    insight: 1
    section: 1-first-idea
    explanation: Google designed them.
    answer: true
  - id: t-num
    type: numeric
    prompt: How many threads in a warp?
    insight: 2
    section: 2-second-idea
    explanation: Thirty-two.
    answer: 32
    unit: threads
  - id: t-text
    type: text
    prompt: What does this print?
    insight: 2
    section: 2-second-idea
    explanation: Two lines.
    multiline: true
    accept: ["1\\n2"]
  - id: t-order
    type: order
    prompt: Order them.
    insight: 2
    section: 2-second-idea
    explanation: Alphabetical.
    items: [alpha, beta, gamma]
  - id: t-match
    type: match
    prompt: Match them.
    insight: 2
    section: a-detail
    explanation: GPU-SIMT, TPU-MXU.
    shuffle: false
    pairs:
      - {left: GPU, right: SIMT}
      - {left: TPU, right: MXU}
"""


def answer(child: pexpect.spawn, typed: str) -> str:
    """Type a line; what the screen shows up to the next prompt, without escape codes."""
    child.send(typed + "\r")
    child.expect([r"Answer \(", r"\.\.\. ", pexpect.EOF])
    return "\n".join(line.rstrip() for line in ANSI.sub("", child.before).splitlines())


def test_feedback_for_every_type_in_words_with_markdown_rendered(
    make_course: MakeCourse,
) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": EVERY_TYPE})
    child = spawn(course, "--seed", "1")
    child.expect("Answer")
    first = "\n".join(line.rstrip() for line in ANSI.sub("", child.before).splitlines())
    # A code block in an option: highlighted on screen, no fences, indented under its number.
    assert " 1.\n     for i in range(1, 4):\n         print(i)\n" in first, first
    assert "```" not in first
    shown = answer(child, "1")
    assert (
        shown.index("You answered:")
        < shown.index("\u2717 Incorrect: 0 of 1 point.")
        < (shown.index("The right answer:"))
        < shown.index("Feedback on your choice (option 1):")
    )
    assert "for i in range(1, 4):" in shown.split("Incorrect")[0]
    assert "for i in range(3):" in shown.split("The right answer:")[1]
    assert "Feedback on your choice (option 1): That starts at one." in shown
    assert "Why: range(3) counts from zero." in shown
    assert (
        "Re-read: Lesson one \u203a First idea\n"
        "  https://learn.example.org/test-plan/lesson-one/#1-first-idea"
    ) in shown
    shown = answer(child, "1 3")
    assert "You answered:\n  1. GPU\n  3. A disk\n" in shown
    assert "The right answer:\n  1. GPU\n  2. TPU\n" in shown
    assert "Feedback on your choice (option 3): A disk stores data." in shown
    shown = answer(child, "f")
    assert "You answered: false\n\u2717 Incorrect: 0 of 1 point.\nThe right answer: true" in shown
    shown = answer(child, "31")
    assert "You answered: 31 threads\n\u2717 Incorrect" in shown
    assert "The right answer: 32 threads" in shown
    assert "Not counted: Nothing was typed." in answer(child, "")
    answer(child, "1")
    answer(child, "3")
    shown = answer(child, "")
    assert (
        "You answered:\n   1\n   3\n\u2717 Incorrect: 0 of 1 point.\nThe right answer:\n   1\n   2"
        in shown
    )
    shown = answer(child, "3 2 1")
    assert "You answered:\n  1. beta\n  2. alpha\n  3. gamma\n" in shown  # seed 1
    assert "The right answer:\n  1. alpha\n  2. beta\n  3. gamma" in shown
    shown = answer(child, "1b 2a")
    assert "You answered:\n  1. GPU \u2192 b. MXU\n  2. TPU \u2192 a. SIMT\n" in shown
    assert "The right answer:\n  1. GPU \u2192 a. SIMT\n  2. TPU \u2192 b. MXU" in shown


def test_markup_is_plain_text_under_term_dumb(make_course: MakeCourse) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": EVERY_TYPE})
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "lessonkit", "quiz", "lesson-one"],
        cwd=str(course),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(24, 80),
    )
    child.expect("Answer")
    text = child.before
    assert "  1. for i in range(1, 4):\r\n         print(i)" in text  # hanging indent
    assert "```" not in text and "\x1b[" not in text
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_a_failed_attempt_summary_fits_80_by_24_with_the_score_last(
    make_course: MakeCourse,
) -> None:
    pyte = pytest.importorskip("pyte")
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": EVERY_TYPE})
    child = spawn(course, "--seed", "1", size=(24, 80))
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    for typed in ("1", "3", "f", "1", "1", "", "3 2 1", "1b 2a"):
        child.expect(r"Answer \(|\.\.\. ")
        stream.feed(child.before + child.after)
        child.send(typed + "\r")
    child.expect(pexpect.EOF)
    stream.feed(child.before)
    lines = [line.rstrip() for line in screen.display]
    while lines and not lines[-1]:
        lines.pop()
    assert lines[-2:] == ["Score: 0 of 7 points (0%)", "\u2717 Not passed (pass mark 90%)"]
    summary = lines[lines.index("Summary: Every type") :]
    assert summary[1] == "Missed (7); `lessonkit review lesson-one` asks them again:"
    assert summary[2] == "  \u2717 Q1  0/1  lessonkit read lesson-one 1-first-idea"
    assert summary[-4:-2] == ["Insight 1: 0/3  First idea", "Insight 2: 0/4  Second idea"]


def test_a_calculation_with_drawn_numbers_right_and_wrong_then_reviewed_anew(
    make_course: MakeCourse,
) -> None:
    from test_drawn_numbers import BANK as DRAWN

    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": DRAWN})
    child = spawn(course, "--seed", "5", size=(24, 80))
    child.expect(r"(\S[^\n]*) peaks at ([\d,]+) TFLOPS and reads ([\d.]+) TB/s\.")
    tflops, tb_s = (float(g.replace(",", "")) for g in child.match.groups()[1:])
    child.expect("Answer")
    child.sendline(f"{tflops / tb_s:.0f}")  # worked out from the numbers on screen
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect(r"(\d+) GB at ([\d.]+) TB/s: how long at least\?")
    asked = child.match.group(0)
    child.expect("Answer")
    child.sendline("2")  # the distractor: seconds read as milliseconds
    child.expect("\u2717 Incorrect: 0 of 1 point.")
    child.expect("Seconds read as ms.")
    child.expect("Answer")
    child.sendline("t")
    child.expect("Summary: Lesson one quiz")
    child.expect(pexpect.EOF)
    child.close()
    summary = ANSI.sub("", child.before)
    gb, read_tb_s = re.search(r"(\d+) GB at ([\d.]+)", asked).groups()  # type: ignore[union-attr]
    assert f"      with gb = {gb}, tb_s = {read_tb_s}" in summary.splitlines()

    review = pexpect.spawn(
        sys.executable, ["-m", "lessonkit", "review", "lesson-one", "--seed", "3"],
        cwd=str(course), env={**os.environ, "LESSONKIT_HOME": str(course / "home"),
                              "TERM": "xterm", "NO_COLOR": "1"},
        encoding="utf-8", timeout=20, dimensions=(24, 80),
    )  # fmt: skip
    review.expect("1 question to review")
    review.expect(r"(\d+) GB at ([\d.]+) TB/s: how long at least\?")
    assert review.match.group(0) != asked  # new numbers, not the ones just missed
    review.expect("Answer")
    review.sendline("1")
    review.expect("\u2713 Correct: 1 of 1 point.")
    review.expect("Review done: 1 answered, 1 right.")
    review.expect(pexpect.EOF)
