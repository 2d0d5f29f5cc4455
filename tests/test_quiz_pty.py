"""A real pseudo-terminal: a learner takes a small quiz through the `lessonkit` command."""

from __future__ import annotations

import io
import os
import re
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import LESSON as LESSON_FILE
from conftest import PLAN as PLAN_FILE
from conftest import WAIT, MakeCourse
from test_runner import BANK, MKDOCS

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def styled(text: str) -> str:
    """A pattern for ``text`` as a terminal gets it: styles may change between characters."""
    return r"(?:\x1b\[[0-9;]*m)*".join(re.escape(char) for char in text)


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    return make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})


def spawn(
    course: Path,
    *args: str,
    size: tuple[int, int] = (40, 100),
    pause: bool = False,
    command: str = "quiz",
    target: tuple[str, ...] = ("lesson-one",),
    env: dict[str, str] | None = None,
) -> pexpect.spawn:
    """`lessonkit quiz lesson-one` in a pseudo-terminal of `size` (lines, columns), without
    colour, and without the pause after feedback unless ``pause``; ``env`` adds settings.

    Every step of a test waits for the output it expects (up to WAIT seconds), never for
    a set time: a busy machine makes a test slower, not red.
    """
    environ = {
        **os.environ,
        "LESSONKIT_HOME": str(course / "home"),
        "TERM": "xterm",
        "NO_COLOR": "1",
    }
    for name in ("COLUMNS", "LINES", "LESSONKIT_NO_PAUSE"):  # the terminal's own size counts
        environ.pop(name, None)
    if not pause:
        environ["LESSONKIT_NO_PAUSE"] = "1"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "lessonkit", command, *target, *args],
        cwd=str(course),
        env={**environ, **(env or {})},
        encoding="utf-8",
        timeout=WAIT,
        dimensions=size,
    )
    child.logfile_read = io.StringIO()  # everything shown, for screen_of()
    return child


def signalled(
    child: pexpect.spawn,
    send: Callable[[], object],
    after: object,
    again: Callable[[], object] | None = None,
) -> None:
    """Send a signal, then wait for what it shows.

    CPython's readline notices a signal only when one interrupts its wait for a key, so a
    signal landing in the instant before that wait begins is held until the next one. A
    learner never presses Ctrl-C that fast; a test does. If nothing shows within a few
    seconds the signal is sent again (by ``again``, if given), and the two count as one.
    """
    for attempt in range(WAIT // 5):
        (send if attempt == 0 or again is None else again)()
        if child.expect([after, pexpect.TIMEOUT], timeout=5) == 0:
            return
    raise AssertionError(f"no {after!r} after {WAIT} s of signals")


def stop(child: pexpect.spawn, after: object = pexpect.EOF) -> None:
    """Ctrl-C, then wait for ``after`` (the end, by default)."""
    signalled(child, lambda: child.sendcontrol("c"), after)


PAUSE = r"Press Enter for (question \d|your summary) \(u undo, q quit\): "


def test_taking_a_quiz_in_a_terminal(course: Path) -> None:
    child = spawn(course, "--seed", "5", pause=True)
    child.expect("Question 1 of 3")
    child.expect("Type one number from 1 to 3")
    child.expect("Answer")
    child.send("b\r")  # the wrong form: a letter where a number is expected
    child.expect("Not counted: `b` is not a number. Type one number from 1 to 3.")
    child.expect("Answer")
    child.send("?\r")
    child.expect("Hint: The second letter.")
    child.expect("Answer")
    child.send("3\r")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Why: Because b.")
    child.expect("Re-read: Lesson one \u203a First idea")
    child.expect(PAUSE)
    child.send("\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.sendline("3 1 2")
    child.expect("You answered")
    child.expect("Partly correct: 0.5 of 1 point.")
    child.expect("The right answer:")
    child.expect("2. a")
    child.expect(PAUSE)
    child.send("\r")
    child.expect("Question 3 of 3")
    child.expect("optionally followed by ms")
    child.sendline("3,5 ms")
    child.expect("\u2713 Correct")
    child.expect("Press Enter for your summary")
    child.send("\r")
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
    child.expect(r"You have an unfinished attempt \(1 of 3 answered\).")
    child.expect(r"Resume it \(y\), or start afresh \(n\)\? \[y/n\]")
    child.sendline("y")
    child.expect("Resuming: 1 answered, 2 to go.")
    child.expect("Question 2 of 3")
    stop(child, "Stopped. Your answers so far are kept")  # Ctrl-C keeps what was answered
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

UP, DOWN, LEFT, DELETE, BACKSPACE = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[3~", "\x7f"


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
    child.expect("You answered")
    child.expect("\u2713 Correct: 1 of 1 point.")
    assert "^[[" not in child.before
    stop(child)


def take_back_the_first_and_answer_it_right(child: pexpect.spawn) -> None:
    """At question 2: `u`, then question 1 again, answered right; then stop with Ctrl-C."""
    child.send("u\r")
    child.expect("Taken back: your answer to question 1. Answer it again.")
    child.expect("Question 1 of 3")
    child.expect("Answer")
    child.send("3\r")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Question 2 of 3")
    stop(child)


def test_a_paste_answers_only_the_question_on_screen_and_undo_takes_it_back(
    course: Path,
) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.send("1\r3 1 2\r3.5\r")  # three answers pasted at once, at question 1
    child.expect("You answered: 1. a")
    child.expect("Question 2 of 3")
    child.expect(r"Answer \(u undo, q save and quit\): ")
    take_back_the_first_and_answer_it_right(child)  # the pasted `3 1 2` was dropped
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
    elif leave == "ctrl-c":
        stop(child)
    else:
        child.sendcontrol("d")
    child.expect(pexpect.EOF)
    assert answers_given(course) == [("q-single", "0", 1)]  # kept in history, not counted
    child = spawn(course, "--resume")
    child.expect(r"Seed 5 \(--seed repeats this order\)")  # the same attempt, resumed
    child.expect("Question 1 of 3")
    child.expect("Answer")
    child.sendline("3")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Question 2 of 3")
    stop(child)
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
    """Type a line; what the screen shows up to the next prompt, without escape codes.

    A choice's prompt is drawn again at each key, so the next prompt counts only after the
    feedback (`Re-read:`), a refusal, or the prompt for a further line (`... `).
    """
    child.send(typed + "\r")
    said = child.expect(["Re-read:", "Not counted:", r"\.\.\. "])
    shown = child.before + child.after
    if said < 2:
        child.expect([r"Answer \(", pexpect.EOF])
        shown += child.before
    return "\n".join(line.rstrip() for line in ANSI.sub("", shown).splitlines())


def test_feedback_for_every_type_in_words_with_markdown_rendered(
    make_course: MakeCourse,
) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": EVERY_TYPE})
    child = spawn(course, "--seed", "1")
    child.expect("Answer")
    first = "\n".join(line.rstrip() for line in ANSI.sub("", child.before).splitlines())
    # A code block in an option: highlighted on screen, no fences, indented under its number.
    # (the choices can be picked with the arrow keys: a column is kept for the pointer)
    assert "  1.\n      for i in range(1, 4):\n          print(i)\n" in first, first
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
    # Numbered as shown and typed (seed 1 shows 1. gamma, 2. alpha, 3. beta), each item marked:
    # alpha is the one to move.
    assert (
        "You answered (\u2713 in the right order with each other; \u2717 out of place):\n"
        "  \u2713 3. beta\n  \u2717 2. alpha\n  \u2713 1. gamma\n"
    ) in shown
    assert "The right answer:\n  2. alpha\n  3. beta\n  1. gamma" in shown
    shown = answer(child, "1b 2a")  # each pair marked right or wrong
    assert "You answered:\n  \u2717 1. GPU \u2192 b. MXU\n  \u2717 2. TPU \u2192 a. SIMT\n" in shown
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
        timeout=WAIT,
        dimensions=(24, 80),
    )
    child.expect("Answer")
    text = child.before
    assert "  1. for i in range(1, 4):\r\n         print(i)" in text  # hanging indent
    assert "```" not in text and "\x1b[" not in text
    stop(child)


def test_a_failed_attempt_summary_fits_80_by_24_with_the_score_last(
    make_course: MakeCourse,
) -> None:
    pyte = pytest.importorskip("pyte")
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": EVERY_TYPE})
    child = spawn(course, "--seed", "1", size=(24, 80))
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child.expect(r"Answer \(")
    stream.feed(child.before + child.after)
    for typed in ("1", "3", "f", "1", "1", "", "3 2 1", "1b 2a"):
        child.send(typed + "\r")
        said = child.expect(["Re-read:", r"\.\.\. "])
        stream.feed(child.before + child.after)
        if said == 0:
            child.expect([r"Answer \(", "Summary: Every type"])
            stream.feed(child.before + child.after)
    child.expect(pexpect.EOF)
    stream.feed(child.before)
    lines = [line.rstrip() for line in screen.display]
    while lines and not lines[-1]:
        lines.pop()
    # Q6, an order question, keeps two of its three items in order: half its credit.
    assert lines[-2:] == ["Score: 0.5 of 7 points (7%)", "\u2717 Not passed (pass mark 90%)"]
    summary = lines[lines.index("Summary: Every type") :]
    assert summary[1] == "Missed (7); `lessonkit review lesson-one` asks them again:"
    assert summary[2] == "  \u2717 Q1  0/1  lessonkit read lesson-one 1-first-idea"
    assert summary[-4:-2] == ["Insight 1: 0/3  First idea", "Insight 2: 0.5/4  Second idea"]


# --- issue 22: the quiz as a learner meets it ------------------------------------------------


def screen_of(child: pexpect.spawn, columns: int, lines: int = 24) -> list[str]:
    """What a terminal of that size shows once the program has ended (via pyte)."""
    pyte = pytest.importorskip("pyte")
    child.expect(pexpect.EOF)
    screen = pyte.Screen(columns, lines)
    stream = pyte.Stream(screen)
    stream.feed(child.logfile_read.getvalue())
    return [line.rstrip() for line in screen.display]


def test_feedback_stays_on_screen_until_enter(course: Path) -> None:
    child = spawn(course, "--seed", "5", pause=True)
    child.expect("Answer")
    child.send("3\r")
    child.expect("Re-read: Lesson one \u203a First idea")
    child.expect(r"Press Enter for question 2 \(u undo, q quit\): ")
    # Waiting for Enter: nothing more comes, however long the machine takes.
    assert child.expect([pexpect.TIMEOUT, "Question 2"], timeout=1) == 0
    child.send("\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.send("2 3 1\r")
    child.expect(r"Press Enter for question 3 ")
    child.send("u\r")  # the pause offers undo too
    child.expect("Taken back: your answer to question 2. Answer it again.")
    child.expect("Question 2 of 3")
    stop(child)


LONG_WHY = " ".join(f"Reason {n} is spelled out here at some length." for n in range(1, 31))


def test_feedback_taller_than_the_screen_waits_before_its_start_scrolls_away(
    make_course: MakeCourse,
) -> None:
    bank = BANK.replace("explanation: Because b.", f"explanation: {LONG_WHY}")
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": bank})
    child = spawn(course, "--seed", "5", size=(24, 50), pause=True)
    child.expect("Answer")
    child.send("3\r")
    child.expect(r"More below: press Enter ")
    # The learner's own answer and its verdict are still on screen while they read.
    pyte = pytest.importorskip("pyte")
    screen = pyte.Screen(50, 24)
    pyte.Stream(screen).feed(child.logfile_read.getvalue())
    shown = [line.rstrip() for line in screen.display]
    assert any(line.startswith("You answered:") for line in shown), shown
    assert any(line.endswith("of 1 point.") for line in shown), shown
    assert not any("Press Enter for question 2" in line for line in shown), shown
    child.send("\r")
    child.expect("Reason 30 is spelled out")
    child.expect(r"Press Enter for question 2 \(u undo, q quit\): ")
    child.send("\r")
    child.expect("Question 2 of 3")
    stop(child)


@pytest.mark.parametrize("how", ["--no-pause", "LESSONKIT_NO_PAUSE=1"])
def test_the_pause_can_be_turned_off(course: Path, how: str) -> None:
    flag = how.startswith("--")  # else the setting, which spawn() makes without `pause`
    child = spawn(course, "--seed", "5", *([how] if flag else []), pause=flag)
    child.expect("Answer")
    child.send("3\r")
    child.expect("Re-read: Lesson one")
    child.expect("Question 2 of 3")
    assert "Press Enter" not in child.before
    stop(child)


def test_undo_works_after_resuming(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.send("1\r")  # wrong
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.send("q\r")
    child.expect(pexpect.EOF)
    child = spawn(course, "--resume")
    child.expect("Question 2 of 3")
    child.expect(r"Answer \(u undo, q save and quit\): ")  # offered, as the header says
    take_back_the_first_and_answer_it_right(child)
    assert answers_given(course) == [("q-single", "0", 1), ("q-single", "1", 0)]


MULTIPLE = BANK.replace("pass_mark: 0.5", "pass_mark: 0.5\nshuffle: {questions: false}").replace(
    """  - id: q-order""",
    """  - id: q-many
    type: multiple
    prompt: Pick a and c.
    insight: 1
    section: 1-first-idea
    explanation: Both.
    shuffle: false
    options:
      - {text: a, correct: true}
      - {text: b}
      - {text: c, correct: true}
  - id: q-order""",
)


def test_choices_can_be_picked_with_the_arrow_keys(make_course: MakeCourse) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": MULTIPLE})
    child = spawn(course, "--seed", "5")
    child.expect("or choose with \u2191 \u2193 and Enter.")
    child.expect("Answer")
    child.send(DOWN)
    child.expect(styled("\u276f 1. a"))  # the pointer at the first choice
    child.send(DOWN + DOWN + UP + UP + UP)  # down to 3, then up past the top: 3 again
    child.expect(styled("\u276f 3. b"))
    child.send("\r")  # seed 5 shows a, c, b: the third is b, which is right
    child.expect("You answered: 3. b")
    child.expect("\u2713 Correct")
    child.expect("Pick a and c.")
    child.expect("Answer")
    child.send(DOWN + " " + DOWN + DOWN + " ")
    child.expect(styled("[x] 3. c"))
    child.send("\r")
    child.expect("You answered:")
    child.expect("\u2713 Correct: 1 of 1 point.")
    stop(child)


def test_ctrl_z_then_fg_draws_the_prompt_again_with_what_was_typed(course: Path) -> None:
    child = spawn(course, "--seed", "5")
    child.expect("Answer")
    child.send("3")  # a choice: read key by key
    child.expect("quit\\): 3")
    child.sendcontrol("z")
    child.expect(pexpect.TIMEOUT, timeout=1)  # give the stop time to land; nothing is drawn
    # SIGCONT is what `fg` sends.
    signalled(
        child, lambda: child.kill(signal.SIGCONT), r"\r\n.*Answer \(\? hint, q save and quit\): .*3"
    )
    child.send("\r")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    child.send("3 1")  # a line: read by readline
    child.expect("quit\\): 3 1")  # echoed, so read: Ctrl-Z flushes what is still unread
    child.sendcontrol("z")
    child.expect(pexpect.TIMEOUT, timeout=1)
    # Drawn again, the text kept:
    signalled(child, lambda: child.kill(signal.SIGCONT), r"Answer \(u undo, q save and quit\): 3 1")
    child.send(" 2\r")
    child.expect("Partly correct")
    stop(child)


def test_a_resized_terminal_gets_questions_at_its_new_width(course: Path) -> None:
    pyte = pytest.importorskip("pyte")
    child = spawn(course, "--seed", "5", size=(30, 100))
    child.expect("Answer")
    child.send("3\r")
    child.expect("Question 2 of 3")
    child.expect("Answer")
    # The learner narrows the window at the prompt: the screen is cleared and the question
    # drawn again.
    signalled(child, lambda: child.setwinsize(30, 50), "\x1b\\[2J",
              again=lambda: child.kill(signal.SIGWINCH))  # fmt: skip
    child.expect("Answer")
    screen = pyte.Screen(50, 30)
    pyte.Stream(screen).feed(child.before + child.after)
    shown = [line.rstrip() for line in screen.display]
    assert "\u2500" * 50 in shown  # the rule spans the new width, no more
    assert re.fullmatch(
        r"Question 2 of 3  \[#+-+\]  1 answered", shown[shown.index("\u2500" * 50) + 1]
    )
    child.send("2 3 1\r")
    child.expect("Question 3 of 3")  # the next question: at the new width from the start
    assert "\u2500" * 50 + "\r\n" in child.before and "\u2500" * 51 not in child.before
    stop(child)


def test_the_no_color_progress_bar_fits_50_columns(course: Path) -> None:
    child = spawn(course, "--seed", "5", size=(24, 50))
    child.expect("Answer")
    stop(child)
    shown = screen_of(child, 50)
    header = next(line for line in shown if line.startswith("Question 1 of 3"))
    assert header.endswith("0 answered") and "[" in header and "]" in header


LONG = "memory-bandwidth-and-rooflines"


def test_list_and_history_never_cut_the_slug_at_50_columns(make_course: MakeCourse) -> None:
    lesson = LESSON_FILE.replace(
        "title: Lesson one", "title: Memory bandwidth, rooflines and cost"
    ).replace("quiz: lesson-one", f"quiz: {LONG}")
    course = make_course({
        "mkdocs.yml": MKDOCS,
        "content/test-plan/index.md": PLAN_FILE.replace("[lesson-one]", f"[{LONG}]"),
        "content/test-plan/lesson-one.md": None,
        f"content/test-plan/{LONG}.md": lesson,
        "quizzes/lesson-one.yml": None,
        f"quizzes/{LONG}.yml": BANK.replace("lesson: lesson-one", f"lesson: {LONG}"),
    })  # fmt: skip
    for colour in ({"NO_COLOR": "1"}, {}):
        child = spawn(course, command="list", target=(), size=(24, 50))
        if not colour:
            child.close()
            env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "TERM": "xterm"}
            env.pop("NO_COLOR", None)
            env.pop("COLUMNS", None)
            child = pexpect.spawn(sys.executable, ["-m", "lessonkit", "list"], cwd=str(course),
                                  env=env, encoding="utf-8", timeout=WAIT, dimensions=(24, 50))  # fmt: skip
            child.logfile_read = io.StringIO()
        shown = screen_of(child, 50)
        assert any(LONG in line for line in shown), shown
        assert not any("\u2026" in line for line in shown), shown
    child = spawn(course, "--seed", "5", target=(LONG,), size=(24, 50))
    child.expect("Answer")
    child.send("3\r")
    child.expect("Question 2 of 3")
    stop(child)
    shown = screen_of(spawn(course, command="history", target=(), size=(24, 50)), 50)
    assert any(LONG in line for line in shown), shown
    note = shown.index("`lessonkit history SLUG N` shows attempt N")  # folded between words
    assert shown[note + 1] == "question by question."


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
    assert f"      with {gb} GB, {read_tb_s} TB/s" in summary.splitlines()  # the prompt's words

    review = spawn(course, "--seed", "3", size=(24, 80), command="review")
    review.expect("1 question to review")
    review.expect(r"(\d+) GB at ([\d.]+) TB/s: how long at least\?")
    assert review.match.group(0) != asked  # new numbers, not the ones just missed
    review.expect("Answer")
    review.sendline("1")
    review.expect("\u2713 Correct: 1 of 1 point.")
    review.expect("Review done: 1 answered, 1 right.")
    review.expect(pexpect.EOF)


def test_the_summary_folds_its_sentences_between_words_at_50_columns(
    make_course: MakeCourse,
) -> None:
    in_order = BANK.replace("pass_mark: 0.6", "pass_mark: 0.6\nshuffle: {questions: false}")
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": in_order})
    child = spawn(course, "--seed", "5", size=(24, 50))
    child.expect(r"Answer \(")
    for typed in ("1", "3 2 1", "9"):  # all three wrong; each after the last one's feedback
        answer(child, typed)
    shown = screen_of(child, 50)
    at = shown.index("Missed (3); `lessonkit review lesson-one` asks")
    assert shown[at + 1] == "them again:"
    # A command is never broken: where it does not fit, it starts a line of its own.
    assert shown[at + 2 : at + 4] == [
        "  \u2717 Q1  0/1",
        "      lessonkit read lesson-one 1-first-idea",
    ]


def test_a_terminal_draws_this_course_s_first_question_without_markdown_it(tmp_path: Path) -> None:
    # rich.markdown brings markdown-it and pygments, about a fifth of the wait for the first
    # question in a terminal; a plain paragraph never needs them (markup.inline_spans).
    root = Path(__file__).resolve().parents[1]
    probe = (
        "import sys; from lessonkit.cli import main; main(['quiz', 'gpu-vs-tpu', '--seed', '1']); "
        "print('loaded:', sorted({m.split('.')[0] for m in sys.modules} & {'markdown_it', 'pygments'}))"
    )
    env = {**os.environ, "LESSONKIT_HOME": str(tmp_path / "home"), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-c", probe], cwd=str(root), env=env,
                          dimensions=(24, 80), encoding="utf-8", timeout=WAIT)  # fmt: skip
    child.expect(r"Answer \(")
    child.send("q\r")
    child.expect(r"loaded: (\[.*\])")
    assert child.match.group(1) == "[]"
    child.expect(pexpect.EOF)
