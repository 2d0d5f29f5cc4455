"""The answer-key self-test `read_course` runs on every question: what it grades, and each
message it gives, for plain questions and for questions that draw their numbers.

With lessonkit's own grader no sound question fails it (a key scores full marks by
construction), so the failures here come from a grader made to fail, as a grader with a
bug would: the messages, their places and the draws they name are what authors would see.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.course import course
from lessonkit.grading.credit import Grade
from lessonkit.questiontypes import registry
from test_validate import run

DRAWN = """\
  - id: d-numeric
    type: numeric
    prompt: "{a} over {b}?"
    insight: 1
    section: 1-first-idea
    explanation: Because.
    params:
      a: {values: [1, 2, 4]}
      b: {min: 1, max: 3, step: 0.5}
    derived:
      q: {formula: a / b, significant: 3}
    answer: q
    relative_tolerance: 0.01
  - id: d-single
    type: single
    prompt: "Twice {a}?"
    insight: 2
    section: a-detail
    explanation: Because.
    params:
      a: {values: [3, 5, 7, 9]}
    options:
      - {text: "{value}", value: a * 2, correct: true}
      - {text: "{value}", value: a * 3}
      - {text: "{value}", value: a + 100}
  - id: d-multiple
    type: multiple
    prompt: "Which are more than {a}?"
    insight: 2
    section: a-detail
    explanation: Because.
    params:
      a: {values: [3, 5, 7, 9]}
    constraints: ["a > 4"]
    options:
      - {text: "{value}", value: a + 1, correct: true}
      - {text: "{value}", value: a - 1}
      - {text: "{value}", value: a * 2, correct: true}
"""

Graded = list[tuple[str, Any, Any]]


def _recording(monkeypatch: pytest.MonkeyPatch, verdict: str = "real") -> Graded:
    """Record what the self-test grades; ``verdict`` "key" fails every key, "wrong" gives
    every response full marks."""
    graded: Graded = []
    real = registry.grade

    def grade(question: Any, response: Any) -> Grade:
        found = real(question, response)
        graded.append((question.id, getattr(question, "answer", None), response))
        if verdict == "key" and response == registry.answer_key(question):
            return Grade(0.0, found.max_score, False)
        if verdict == "wrong":
            return Grade(found.max_score, found.max_score, True)
        return found

    monkeypatch.setattr(registry, "grade", grade)
    return graded


def _messages(root: Any) -> list[str]:
    return [
        f"{p.line}:{p.column}: {p.message} ({p.hint})" for p in course.read_course(root).problems
    ]


def test_each_draw_is_graded_on_its_own_answer(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + DRAWN})
    graded = _recording(monkeypatch)
    assert _messages(root) == []
    assert [g for g in graded if g[0].startswith("d-")] == [
        ("d-numeric", 2.6666666666666665, 2.6666666666666665),  # a = 4, b = 1.5
        ("d-numeric", 0.6666666666666666, 0.6666666666666666),  # a = 1, b = 1.5
        ("d-single", None, 0),
        ("d-single", None, 1),
        ("d-single", None, 0),
        ("d-single", None, 1),
        ("d-multiple", None, frozenset({0, 2})),
        ("d-multiple", None, frozenset()),
        ("d-multiple", None, frozenset({0, 2})),
        ("d-multiple", None, frozenset()),
    ]


KEY_FAILS = "answer-key self-test failed: the key scores 0 of 1"
KEY_HINT = "(check the answer, its tolerance or accepted answers)"
WRONG_FAILS = "answer-key self-test failed: no wrong answer scores less than full marks"
WRONG_HINT = "(make sure the options, items or pairs really differ)"


def test_a_key_that_fails_is_reported_with_the_draw_it_failed_on(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + DRAWN})
    _recording(monkeypatch, "key")
    found = _messages(root)
    assert found[:2] == [
        f"5:5: questions[0]: {KEY_FAILS} {KEY_HINT}",
        f"15:5: questions[1]: {KEY_FAILS} {KEY_HINT}",
    ]
    assert found[10:] == [
        f"78:5: questions[10]: {KEY_FAILS} (when a = 4, b = 1.5) {KEY_HINT}",
        f"91:5: questions[11]: {KEY_FAILS} (when a = 5) {KEY_HINT}",
        f"103:5: questions[12]: {KEY_FAILS} (when a = 9) {KEY_HINT}",
    ]


def test_a_question_no_wrong_answer_fails_is_reported(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + DRAWN})
    _recording(monkeypatch, "wrong")
    found = _messages(root)
    assert found[:2] == [
        f"5:5: questions[0]: {WRONG_FAILS} {WRONG_HINT}",
        f"15:5: questions[1]: {WRONG_FAILS} {WRONG_HINT}",
    ]
    assert found[10:] == [
        f"91:5: questions[11]: {WRONG_FAILS} (when a = 5) {WRONG_HINT}",
        f"103:5: questions[12]: {WRONG_FAILS} (when a = 9) {WRONG_HINT}",
    ]


def test_a_draw_whose_prompt_grows_over_the_limit_passes_the_self_test(
    make_course: MakeCourse,
) -> None:
    # The number written into the prompt takes it over 4,000 characters for one draw: the
    # key still scores full marks, and validate says nothing about the answer key.
    long = """\
  - id: d-long
    type: numeric
    prompt: "{a} PAD"
    insight: 1
    section: 1-first-idea
    explanation: Because.
    params:
      a: {values: [1, 1234567]}
    answer: a
    tolerance: 0.5
""".replace("PAD", "x" * 3992)
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + long})
    result = run(root, "validate")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "checked 1 bank (11 questions) and 1 lesson: no problems found\n",
        "",
    )
