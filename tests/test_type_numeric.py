"""`numeric`: a number within a tolerance, in a unit; reading, grading, words, exports and
widget data. How numbers are written is grading/numbers.py's (tests/test_numbers.py)."""

from __future__ import annotations

import pytest

from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from typecases import carried, question

Q = question(type="numeric", answer=0.3, tolerance=0.1, unit="ms")
KIND = registry.of(Q)


@pytest.mark.parametrize("typed", ["0.3", "0,3", "0.3 ms", " 0,3ms "])
def test_a_number_with_or_without_its_unit_is_read(typed: str) -> None:
    assert KIND.parse(Q, typed, ()) == pytest.approx(0.3)


def test_words_instead_of_a_number_are_refused_with_the_form() -> None:
    with pytest.raises(ResponseError) as refused:
        KIND.parse(Q, "fast", ())
    assert str(refused.value) == (
        "`fast` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by ms."
    )


@pytest.mark.parametrize(
    ("question_fields", "response", "score"),
    [
        ({"answer": 0.3, "tolerance": 0.1}, 0.4, 1.0),  # the edge, despite binary rounding
        ({"answer": 0.3, "tolerance": 0.1}, 0.40001, 0.0),
        ({"answer": 200, "relative_tolerance": 0.05}, 209.9, 1.0),
        ({"answer": 200, "relative_tolerance": 0.05}, 211, 0.0),
        ({"answer": 42}, 42.0, 1.0),
        ({"answer": 42}, 42.001, 0.0),
    ],
)
def test_grade_within_the_tolerance(
    question_fields: dict[str, float], response: float, score: float
) -> None:
    numeric = question(type="numeric", **question_fields)
    assert registry.of(numeric).grade(numeric, response).score == score


def test_key_and_hash() -> None:
    assert KIND.answer_key(Q) == 0.3
    assert registry.key_hash(Q) == "682546f41a77"  # golden: history keys on it


def test_words_keep_the_unit() -> None:
    assert KIND.expected_form(Q) == (
        "Type a number (decimal point or comma), optionally followed by ms."
    )
    assert KIND.shown(Q, 0.3, ()) == "0.3 ms"
    assert KIND.key_described(Q) == ["0.3 ms"]


@pytest.mark.parametrize(
    "fields",
    [{"answer": 2.5, "relative_tolerance": 0.05, "unit": "ms"}, {"answer": 2.5, "tolerance": 0.1}],
)
def test_every_format_carries_a_fixed_number(fields: dict[str, object]) -> None:
    assert carried(type="numeric", **fields) == {"anki": [], "qti": [], "moodle": [], "gift": []}


def test_the_widget_grades_with_answer_tolerance_and_unit() -> None:
    # No mark set and an answer with decimals: the page asks about `1,000`, as the quiz does.
    assert registry.widget_key(Q) == {
        "type": "numeric", "points": 1, "answer": 0.3, "tolerance": 0.1, "unit": "ms",
        "decimal_mark": "either",
    }  # fmt: skip
