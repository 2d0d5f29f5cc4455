"""Questions with fresh numbers in the terminal: drawn from the attempt's seed, the same on
`--seed` and on resuming, kept in history with each answer, and new in a review."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import START, LearnerCourse, ticking
from lessonkit.course import catalog
from lessonkit.history.tables import history_command
from lessonkit.quiz import session
from lessonkit.quiz.review import review_command
from lessonkit.quiz.runner import quiz_command

MKDOCS = "site_name: Test\ndocs_dir: content\n"
RIDGE = """\
  - id: q-ridge
    type: numeric
    prompt: "{chip} peaks at {tflops} TFLOPS and reads {tb_s} TB/s. Ridge point?"
    insight: 1
    section: 1-first-idea
    explanation: "{tflops} ÷ {tb_s} ≈ {ridge} FLOPs per byte."
    params:
      chip:
        cases:
          H100 SXM: {tflops: 989, tb_s: 3.35}
          B200: {tflops: 2250, tb_s: 7.7}
          TPU v5e: {tflops: 197, tb_s: 0.819}
          TPU v6e: {tflops: 918, tb_s: 1.64}
          TPU7x: {tflops: 2307, tb_s: 7.38}
    derived:
      ridge: {formula: tflops / tb_s, significant: 3}
    numbers_before: {chip: MI300X}
    answer: tflops / tb_s
    relative_tolerance: 0.02
    unit: FLOPs/byte
"""
BANK = f"""\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.5
shuffle: {{questions: false, options: false}}
questions:
{RIDGE}\
  - id: q-read
    type: single
    prompt: "{{gb}} GB at {{tb_s}} TB/s: how long at least?"
    insight: 2
    section: 2-second-idea
    explanation: GB over TB/s gives milliseconds.
    params:
      gb: {{values: [16, 40, 70, 141]}}
      tb_s: {{values: [3.35, 4.8, 8.0]}}
    options:
      - {{text: "{{value}} ms", value: gb / tb_s, decimals: 1, correct: true}}
      - {{text: "{{value}} ms", value: gb / tb_s / 1000, decimals: 4, feedback: Seconds read as ms.}}
  - id: q-tf
    type: true_false
    prompt: Sky is blue.
    insight: 2
    section: a-detail
    explanation: It is.
    answer: true
"""
# The same question before it drew numbers: MI300X's, fixed.
FIXED = BANK.replace(
    RIDGE,
    """\
  - id: q-ridge
    type: numeric
    prompt: MI300X peaks at 1,307 TFLOPS and reads 5.3 TB/s. Ridge point?
    insight: 1
    section: 1-first-idea
    explanation: 1,307 ÷ 5.3 ≈ 247 FLOPs per byte.
    answer: 246.6
    tolerance: 3
    unit: FLOPs/byte
""",
)


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def quiz(typed: str, *, seed: int = 5, start: datetime = START, **options: Any) -> str:
    out, clock = io.StringIO(), ticking(start)
    code = quiz_command("lesson-one", seed=seed, stdin=io.StringIO(typed), stdout=out,
                        clock=lambda: next(clock), **options)  # fmt: skip
    assert code == 0, out.getvalue()
    return out.getvalue()


def drawn(seed: int) -> dict[str, Any]:
    """The numbers ``seed`` draws for each parameterised question, as the quiz draws them."""
    return dict(session.plan(catalog.find("lesson-one").bank, seed).numbers)


def ridge_line(transcript: str) -> list[str]:
    return re.findall(
        r"^.* peaks at .* TFLOPS and reads .* TB/s\. Ridge point\?$", transcript, re.M
    )


def params(root: Path) -> list[tuple[str, Any]]:
    with sqlite3.connect(root / "home" / "history.db") as con:
        rows = con.execute("SELECT question_id, params FROM answers ORDER BY id").fetchall()
    return [(q, None if p is None else json.loads(p)) for q, p in rows]


def right_answer(numbers: dict[str, Any]) -> str:
    return f"{float(numbers['tflops']) / float(numbers['tb_s']):.1f}"


def test_the_seed_draws_the_numbers_and_repeats_them(course: Path) -> None:
    numbers = drawn(5)["q-ridge"]
    first = quiz(f"{right_answer(numbers)}\n1\nt\n")
    chip = numbers["chip"]
    assert ridge_line(first) == [
        f"{chip} peaks at {numbers['tflops']:,g} TFLOPS and reads {numbers['tb_s']:g} TB/s. "
        "Ridge point?"
    ]
    assert "\u2713 Correct: 1 of 1 point." in first
    again = quiz("1\n1\nt\n")  # the same seed: the same numbers, and this time wrong
    assert ridge_line(again) == ridge_line(first)
    assert "\u2717 Incorrect: 0 of 1 point." in again
    assert [s for s in range(1, 40) if drawn(s)["q-ridge"] != numbers]  # other seeds differ


def test_each_question_draws_the_same_numbers_whichever_is_asked_first(course: Path) -> None:
    # Numbers are drawn when a question is first shown, not for the whole bank at the
    # start: the order of asking must change none of them.
    bank = catalog.find("lesson-one").bank
    ids = [q.id for q in bank["questions"] if getattr(q, "params", None)]
    assert len(ids) > 1
    forward = session.plan(bank, 5).numbers
    backward = session.plan(bank, 5).numbers
    assert [backward[q] for q in reversed(ids)][::-1] == [forward[q] for q in ids]
    assert dict(backward) == dict(forward) == drawn(5)


def test_history_keeps_the_numbers_with_each_answer(course: Path) -> None:
    quiz("1\n1\nt\n")
    numbers = drawn(5)
    assert params(course) == [("q-ridge", numbers["q-ridge"]), ("q-read", numbers["q-read"]),
                              ("q-tf", None)]  # fmt: skip


def test_resuming_shows_the_numbers_the_attempt_drew(course: Path) -> None:
    before = quiz("1\nq\n")  # the first answered, then saved and quit
    after = quiz("1\nt\n", seed=99, resume=True)  # the attempt's own seed wins
    numbers = drawn(5)["q-read"]
    shown = f"{numbers['gb']:g} GB at {numbers['tb_s']:g} TB/s: how long at least?"
    assert shown in before and shown in after
    assert "Resuming: 1 answered, 2 to go." in after


def test_the_summary_and_history_show_the_numbers_of_a_missed_calculation(course: Path) -> None:
    numbers = drawn(5)["q-ridge"]
    out = quiz("1\n1\nt\n")
    assert f"      with chip = {numbers['chip']}\n" in out.split("Summary:")[1]
    shown = io.StringIO()
    assert history_command("lesson-one", stdout=shown, zone=UTC) == 0
    lines = shown.getvalue().split("Numbers you were given\n")[1].splitlines()
    assert lines[:2] == [
        "  2026-11-22 09:00  q-ridge  \u2717 0/1",
        f"    with chip = {numbers['chip']}; you answered 1 FLOPs/byte",
    ]
    read = drawn(5)["q-read"]
    assert lines[3] == (
        f"    with gb = {read['gb']:g}, tb_s = {read['tb_s']:g}; you answered "
        f"{float(read['gb']) / float(read['tb_s']):.1f} ms"
    )


def test_an_answer_from_before_the_numbers_were_drawn_shows_its_fixed_numbers(
    learner_course: LearnerCourse,
) -> None:
    root = learner_course(FIXED, MKDOCS)
    quiz("246\n1\nt\n")  # the fixed question, answered right
    (root / "quizzes" / "lesson-one.yml").write_text(BANK, encoding="utf-8")
    shown = io.StringIO()
    history_command("lesson-one", stdout=shown, zone=UTC)
    assert (
        "  2026-11-22 09:00  q-ridge  \u2713 right\n"
        "    with chip = MI300X (fixed, before it drew new numbers); you answered 246\n"
        "      FLOPs/byte\n"
    ) in shown.getvalue()


def test_a_review_asks_a_missed_calculation_with_new_numbers(course: Path) -> None:
    first = quiz("1\n1\nt\n")  # both calculations missed
    for seed in range(1, 12):  # whatever the review's seed, the numbers are new
        out, clock = io.StringIO(), ticking(START + timedelta(hours=1))
        review_command("lesson-one", seed=seed, stdin=io.StringIO("q\n"), stdout=out,
                       clock=clock.__next__, zone=UTC)  # fmt: skip
        asked = ridge_line(out.getvalue())
        assert len(asked) == 1 and asked != ridge_line(first), (seed, asked)


def test_an_answers_file_is_graded_against_the_seeds_numbers(course: Path) -> None:
    numbers = drawn(7)["q-ridge"]
    (course / "answers.yml").write_text(f"q-ridge: {right_answer(numbers)}\nq-tf: true\n")
    out = io.StringIO()
    quiz_command("lesson-one", seed=7, answers=course / "answers.yml", as_json=True, stdout=out)
    report = json.loads(out.getvalue())
    (ridge,) = [q for q in report["questions"] if q["id"] == "q-ridge"]
    assert ridge["correct"] and ridge["numbers"] == numbers


def test_history_of_one_attempt_shows_each_question_with_the_numbers_it_was_given(
    course: Path,
) -> None:
    from lessonkit.quiz.transcript import attempt_command

    numbers = drawn(5)["q-ridge"]
    asked = ridge_line(quiz("1\n1\nt\n"))
    out = io.StringIO()
    assert attempt_command("lesson-one", "last", stdout=out, zone=UTC) == 0
    shown = out.getvalue()
    assert ridge_line(shown) == asked  # the question as it was asked, not its template
    ridge = float(numbers["tflops"]) / float(numbers["tb_s"])
    # The computed answer, as precise as its 2% tolerance needs, never the formula.
    assert f"The right answer: {ridge:.0f} FLOPs/byte\n" in shown


def test_the_numbers_under_history_fit_a_50_column_terminal(course: Path) -> None:
    from lessonkit.history.store import Store
    from lessonkit.history.tables import numbers_lines

    quiz("1\n1\nt\n")
    store, _ = Store.open(None)
    with store:
        answers = store.drawn_answers("lesson-one")
    lines = numbers_lines(catalog.find("lesson-one").bank, answers, UTC, width=49)
    assert lines[1] == "Numbers you were given" and len(lines) > 4
    assert max(len(line) for line in lines) <= 49, lines
