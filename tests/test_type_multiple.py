"""`multiple`: every right option, partial credit less wrong picks; reading, grading,
words, exports and widget data."""

from __future__ import annotations

import pytest

from lessonkit.grading.credit import Grade
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from typecases import carried, question

OPTIONS = [
    {"text": "A", "correct": True},
    {"text": "B", "correct": True, "feedback": "B fb"},
    {"text": "C", "correct": True},
    {"text": "D", "feedback": "D fb"},
    {"text": "E"},
]
Q = question(type="multiple", points=3, options=OPTIONS)
KIND = registry.of(Q)
ALL = range(5)


@pytest.mark.parametrize("typed", ["1,3", "1 3", "3, 1", " 1 , 3 "])
def test_numbers_in_any_order_and_separator_are_one_set(typed: str) -> None:
    assert KIND.parse(Q, typed, ALL) == frozenset({0, 2})


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1,9", "There is no 9. Choose from 1 to 5."),
        ("1,3,3", "3 is typed twice. Type each number once, e.g. `1,3`."),
    ],
)
def test_a_number_past_the_options_or_typed_twice_is_refused(typed: str, message: str) -> None:
    with pytest.raises(ResponseError) as refused:
        KIND.parse(Q, typed, ALL)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("picked", "grade"),
    [
        ({0, 1, 2}, Grade(3, 3, True, ("B fb",))),
        ({0, 2}, Grade(2, 3, False)),
        ({0, 1, 3}, Grade(1, 3, False, ("B fb", "D fb"))),  # two right less one wrong
        ({0, 3, 4}, Grade(0, 3, False, ("D fb",))),  # never below nothing
        (set(), Grade(0, 3, False)),
    ],
)
def test_partial_credit_is_right_picks_less_wrong_ones(picked: set[int], grade: Grade) -> None:
    assert KIND.grade(Q, frozenset(picked)) == grade


def test_all_or_nothing_scoring_gives_full_points_or_none() -> None:
    strict = question(type="multiple", scoring="all_or_nothing", points=3, options=OPTIONS)
    kind = registry.of(strict)
    assert kind.grade(strict, frozenset({0, 1, 2})).score == 3
    assert kind.grade(strict, frozenset({0, 1})).score == 0


def test_key_wrong_answers_and_hash() -> None:
    assert KIND.answer_key(Q) == frozenset({0, 1, 2})
    assert KIND.wrong_responses(Q) == [frozenset(), frozenset(ALL)]
    assert registry.key_hash(Q) == "7b167508f963"  # golden: history keys on it


def test_words() -> None:
    assert KIND.expected_form(Q) == (
        "Type every number that applies, from 1 to 5, e.g. `1,3` or `1 3`."
    )
    assert KIND.shown(Q, frozenset({0, 2}), ALL) == "1,3"
    assert KIND.described(Q, frozenset({0, 3}), ALL) == ["1. A", "4. D"]
    assert KIND.key_described(Q) == ["1. A", "2. B", "3. C"]


def test_what_each_format_carries_of_the_scoring() -> None:
    assert carried(type="multiple", options=[OPTIONS[0], OPTIONS[3]]) == {
        "anki": [],
        "qti": [
            "scoring `partial`: Canvas grades multiple answers by its own option; choose "
            '"partial credit with penalty" (lessonkit\'s rule)'
        ],
        "moodle": [],
        "gift": [],
    }
    assert carried(type="multiple", scoring="all_or_nothing", options=[OPTIONS[0], OPTIONS[3]]) == {
        "anki": [],
        "qti": [
            "scoring `all_or_nothing`: Canvas grades multiple answers by its own option; "
            'choose "exact match"'
        ],
        "moodle": ["scoring `all_or_nothing`: Moodle's multichoice always gives partial credit"],
        "gift": ["scoring `all_or_nothing`: GIFT gives partial credit"],
    }


def test_the_widget_grades_with_the_right_options() -> None:
    assert registry.widget_key(Q) == {"type": "multiple", "points": 3, "correct": [0, 1, 2]}
