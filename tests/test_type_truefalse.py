"""`true_false`: reading, grading, words, exports and widget data, through the registry."""

from __future__ import annotations

import pytest

from lessonkit.bank.questions import TrueFalseQuestion
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from lessonkit.questiontypes.truefalse import TrueFalse

DATA = {"id": "tf", "type": "true_false", "prompt": "TPUs are ASICs.", "answer": True,
        "insight": 1, "section": "s", "explanation": "They are."}  # fmt: skip


def question() -> TrueFalse:
    return TrueFalse.from_json(TrueFalseQuestion.model_validate(DATA).model_dump(mode="json"))


@pytest.mark.parametrize(
    ("typed", "response"),
    [("t", True), ("TRUE", True), ("yes", True), ("f", False), ("No", False)],
)
def test_parse(typed: str, response: bool) -> None:
    assert registry.of(question()).parse(question(), typed, ()) is response


def test_parse_refuses_other_words() -> None:
    with pytest.raises(ResponseError, match=r"^`maybe` is neither true nor false\. Type t"):
        registry.of(question()).parse(question(), "maybe", ())


@pytest.mark.parametrize(("response", "score"), [(True, 1.0), (False, 0.0)])
def test_grade(response: bool, score: float) -> None:
    grade = registry.of(question()).grade(question(), response)
    assert (grade.score, grade.correct) == (score, score == 1.0)


def test_key_wrong_answer_and_hash() -> None:
    kind = registry.of(question())
    assert kind.answer_key(question()) is True
    assert kind.wrong_responses(question()) == [False]
    # A golden value: the hash must not drift between releases, or every history resets.
    assert registry.key_hash(question()) == "112765d9eaa3"


def test_words() -> None:
    kind = registry.of(question())
    assert kind.shown(question(), False, ()) == "false"
    assert kind.described(question(), True, ()) == ["true"]
    assert kind.key_described(question()) == ["true"]
    assert kind.expected_form(question()) == "Type t (true) or f (false)."
