"""`text`: a short answer matched against accepted forms and patterns; reading, grading,
words, exports and widget data. Matching itself is grading/textmatch.py's."""

from __future__ import annotations

import pytest

from lessonkit.questiontypes import registry
from typecases import carried, question

Q = question(type="text", accept=["systolic array"], patterns=[r"MXUs?"])
KIND = registry.of(Q)


def test_what_was_typed_is_kept_but_for_the_spaces_around_it() -> None:
    # Case and inner spacing stay as typed (history shows the learner's own words);
    # the grader normalises them when it compares.
    assert KIND.parse(Q, " Systolic  Array ", ()) == "Systolic  Array"


@pytest.mark.parametrize(
    ("typed", "right"),
    [
        ("systolic array", True),
        ("  Systolic\t ARRAY \n", True),  # spacing and case
        ("mxus", True),  # a pattern, case ignored
        ("many MXUs", False),  # a pattern matches the whole answer
        ("vector unit", False),
    ],
)
def test_grade_by_accepted_forms_and_patterns(typed: str, right: bool) -> None:
    assert KIND.grade(Q, typed).correct is right


def test_case_sensitive_answers_keep_case() -> None:
    strict = question(type="text", accept=["HBM"], case_sensitive=True)
    assert [registry.of(strict).grade(strict, t).correct for t in ["HBM", "hbm"]] == [True, False]


def test_key_and_hash() -> None:
    assert KIND.answer_key(Q) == "systolic array"
    assert registry.key_hash(Q) == "66b5eda60f86"  # golden: history keys on it
    patterns_only = question(type="text", patterns=[r"MXUs?"])
    assert registry.of(patterns_only).answer_key(patterns_only) is None


def test_words() -> None:
    assert KIND.expected_form(Q) == "Type your answer."
    assert KIND.described(Q, "mxu", ()) == ["mxu"]
    assert KIND.key_described(Q) == ["systolic array"]


@pytest.mark.parametrize(
    ("fields", "losses"),
    [
        ({"accept": ["XLA", "xla compiler"]}, {"anki": [], "qti": [], "moodle": [], "gift": []}),
        (
            {"accept": ["XLA"], "patterns": ["Open ?XLA"]},
            {
                "anki": [],
                "qti": ["patterns: Canvas compares exact answers only"],
                "moodle": [
                    "patterns: Moodle short answers take exact answers and `*` wildcards only"
                ],
                "gift": ["patterns: GIFT takes exact answers only"],
            },
        ),
        (
            {"accept": ["HBM"], "case_sensitive": True},
            {
                "anki": [],
                "qti": ["case_sensitive: Canvas ignores letter case"],
                "moodle": [],
                "gift": ["case_sensitive: GIFT ignores letter case"],
            },
        ),
    ],
)
def test_each_format_names_what_it_cannot_match(
    fields: dict[str, object], losses: dict[str, list[str]]
) -> None:
    assert carried(type="text", **fields) == losses


def test_the_widget_grades_with_forms_and_patterns() -> None:
    assert registry.widget_key(Q) == {
        "type": "text", "points": 1, "accept": ["systolic array"], "patterns": ["MXUs?"],
    }  # fmt: skip
