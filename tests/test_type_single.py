"""`single`: one option right; reading, grading, words, exports and widget data."""

from __future__ import annotations

import pytest

from lessonkit.grading.credit import Grade
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from typecases import carried, question

OPTIONS = [
    {"text": "A", "feedback": "A is slow."},
    {"text": "B", "correct": True, "feedback": "Yes."},
    {"text": "C"},
]
Q = question(type="single", options=OPTIONS)
KIND = registry.of(Q)
SHOWN = (2, 0, 1)  # the learner sees C, A, B numbered 1, 2, 3


@pytest.mark.parametrize(
    ("typed", "display", "response"),
    [("2", (0, 1, 2), 1), ("3", SHOWN, 1), (" 1 ", SHOWN, 2)],
)
def test_a_number_is_read_as_the_option_shown_there(
    typed: str, display: tuple[int, ...], response: int
) -> None:
    assert KIND.parse(Q, typed, display) == response


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("4", "There is no 4. Choose from 1 to 3."),
        ("b", "`b` is not a number. Type one number from 1 to 3."),
    ],
)
def test_what_is_not_an_option_is_refused_with_the_form_to_type(typed: str, message: str) -> None:
    with pytest.raises(ResponseError) as refused:
        KIND.parse(Q, typed, (0, 1, 2))
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("response", "grade"),
    [
        (1, Grade(1, 1, True, ("Yes.",))),
        (0, Grade(0, 1, False, ("A is slow.",))),
        (2, Grade(0, 1, False)),
    ],
)
def test_grade_gives_the_chosen_options_feedback(response: int, grade: Grade) -> None:
    assert KIND.grade(Q, response) == grade


def test_key_wrong_answers_and_hash() -> None:
    assert KIND.answer_key(Q) == 1
    assert KIND.wrong_responses(Q) == [0, 2]
    # Golden: history keys on this hash, so it must not drift between releases.
    assert registry.key_hash(Q) == "66d0a84502f0"


def test_words_number_options_as_the_learner_saw_them() -> None:
    assert KIND.expected_form(Q) == "Type one number from 1 to 3."
    assert KIND.shown(Q, 1, SHOWN) == "3"
    assert KIND.described(Q, 1, SHOWN) == ["3. B"]
    assert KIND.key_described(Q) == ["2. B"]
    assert KIND.chosen_feedback(Q, 0, (0, 1, 2)) == [("option 1", "A is slow.")]


def test_every_format_carries_it_whole() -> None:
    assert carried(type="single", options=OPTIONS) == {
        "anki": [], "qti": [], "moodle": [], "gift": [],
    }  # fmt: skip


def test_the_widget_grades_with_the_right_option() -> None:
    assert registry.widget_key(Q) == {"type": "single", "points": 1, "correct": [1]}
