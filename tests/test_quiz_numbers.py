"""`lessonkit quiz` with numbers as people write them: how each was read, what is refused,
and the hint when a share is typed for a percentage."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import LearnerCourse, ticking
from lessonkit.quiz.runner import quiz_command

MKDOCS = "site_name: Test\ndocs_dir: content\nsite_url: https://learn.example.org/\n"
BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
shuffle: {questions: false}
questions:
  - id: q-peak
    type: numeric
    prompt: "A chip's sparse FP8 peak is 4,000 TFLOPS. Its dense BF16 peak?"
    insight: 1
    section: 1-first-idea
    explanation: 4,000 ÷ 2 ÷ 2 = 1,000 TFLOPS.
    answer: 1000
    tolerance: 10
    unit: TFLOPS
  - id: q-share
    type: numeric
    prompt: What share of the peak did the run reach, in percent?
    insight: 2
    section: 2-second-idea
    explanation: 1.25 ÷ 5.88 is about 21 %.
    answer: 21.2
    tolerance: 0.6
    unit: "%"
"""


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def quiz(typed: str) -> str:
    out = io.StringIO()
    clock = ticking()
    code = quiz_command(
        "lesson-one", stdin=io.StringIO(typed), stdout=out, clock=lambda: next(clock), seed=1
    )
    assert code == 0
    return out.getvalue()


def test_grouped_thousands_count_and_say_how_they_were_read(course: Path) -> None:
    out = quiz("2 4 1 1\n1,000\n1,000.0\n21\n")
    assert (
        "Answer (q save and quit): 2 4 1 1\n"
        "Not counted: `2 4 1 1` is not one number: a space may only group digits in threes, "
        "as in `12 345`. Type one number.\n"
        # The answer may have decimals (± 10) and the prompt invites a decimal comma: a lone
        # comma before three digits is asked about, never silently read one way.
        "Answer (q save and quit): 1,000\n"
        "Not counted: `1,000` could be 1000 (with `,` grouping thousands) or 1 (with a "
        "decimal `,`). Type `1000` or `1`.\n"
        "Answer (q save and quit): 1,000.0\n"
        "You answered: 1,000.0 (read as 1000 TFLOPS)\n"
        "\u2713 Correct: 1 of 1 point.\n"
    ) in out


def test_a_bank_that_sets_its_decimal_mark_is_not_asked(learner_course: LearnerCourse) -> None:
    learner_course(BANK.replace("shuffle:", "decimal_mark: point\nshuffle:"), MKDOCS)
    out = quiz("1,000\n21\n")
    assert "You answered: 1,000 (read as 1000 TFLOPS)\n\u2713 Correct" in out


def test_a_share_typed_for_a_percentage_is_asked_about_not_graded(course: Path) -> None:
    out = quiz("1 000\n0.21\n21\n")
    assert "You answered: 1 000 (read as 1000 TFLOPS)\n\u2713 Correct" in out
    assert (
        "Type a percentage (decimal point or comma), e.g. 50 for half, optionally followed "
        "by %.\n"
        "Answer (u undo, q save and quit): 0.21\n"
        "Not counted: `0.21` looks like a share, and this question asks in %. Did you mean "
        "21 %? Type `21`, or `0.21 %` if you mean 0.21 %.\n"
        "Answer (u undo, q save and quit): 21\n"
        "You answered: 21 %\n"
        "\u2713 Correct: 1 of 1 point.\n"
    ) in out


def test_a_share_typed_with_its_percent_sign_is_graded_with_a_hint(course: Path) -> None:
    out = quiz("1 000\n0.21 %\n")
    assert (
        "You answered: 0.21 %\n"
        "\u2717 Incorrect: 0 of 1 point.\n"
        "The right answer: 21.2 %\n"
        "Note: The unit is %: your 0.21 means 0.21 %. A share of 0.21 is 21 %.\n"
    ) in out
