"""Text typed at "Press Enter for question N" (the learner thought the question was up) is
kept as the start of the next answer, or named; it is never dropped without a word."""

from __future__ import annotations

import re

import pytest

from conftest import MakeCourse
from test_quiz_pty import PAUSE, screen_of, spawn, stop
from test_runner import BANK, MKDOCS

pexpect = pytest.importorskip("pexpect")


def test_an_answer_typed_at_the_pause_is_kept_for_the_next_question(
    make_course: MakeCourse,
) -> None:
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": BANK})
    child = spawn(course, "--seed", "5", pause=True)
    child.expect("Answer")
    child.send("3\r")
    child.expect(PAUSE)
    child.send("2 3 1\r")  # question 2's answer, typed before question 2 was shown
    child.expect("Question 2 of 3")
    child.expect(re.escape("Kept from before this question appeared: `2 3 1`. Press Enter to "
                           "answer with it, or change it first."))  # fmt: skip
    child.expect(r"Answer \(u undo, q save and quit\): 2 3 1")
    child.send("\r")  # sent as it was kept
    child.expect("You answered")
    child.expect("\u2713 Correct: 1 of 1 point.")
    child.expect(PAUSE)
    child.send("3,5 ms\r")
    child.expect("Question 3 of 3")
    child.expect(r"Answer \(u undo, q save and quit\): 3,5 ms")
    child.send("\x15" + "3.5\r")  # Ctrl-U: changed before sending
    child.expect("\u2713 Correct")
    child.expect(r"Press Enter for your summary \(u undo, q quit\): ")
    child.send("thanks\r")  # nothing left to answer: said, not silently dropped
    child.expect("Not used: `thanks`; every question is answered.")
    child.expect("Summary: Lesson one quiz")
    shown = screen_of(child, 100, 40)
    assert "Score: 3 of 3 points (100%)" in shown


def test_a_choice_typed_at_the_pause_is_kept_in_the_picker(make_course: MakeCourse) -> None:
    bank = BANK.replace("pass_mark: 0.6", "pass_mark: 0.6\nshuffle: {questions: false}")
    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": bank.replace(
        "  - id: q-single", "  - id: q-first\n    type: true_false\n    prompt: Yes?\n"
        "    insight: 1\n    section: 1-first-idea\n    explanation: Yes.\n    answer: true\n"
        "  - id: q-single")})  # fmt: skip
    child = spawn(course, "--seed", "5", pause=True)
    child.expect("Answer")
    child.send("t\r")
    child.expect(PAUSE)
    child.send("3\r")
    child.expect("Question 2 of 4")
    child.expect("Kept from before this question appeared: `3`.")
    child.expect(r"Answer \(\? hint, u undo, q save and quit\): 3")
    child.send("\r")
    child.expect("You answered: 3. b")
    child.expect("\u2713 Correct")
    stop(child)
