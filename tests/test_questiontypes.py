"""The registry of question types: complete, and clear when a type is missing or half done."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from lessonkit.errors import LessonkitError
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import QuestionType, RuntimeQuestion, TypeIncomplete


def test_every_registered_type_is_complete() -> None:
    assert registry.check() == []


def test_an_unregistered_type_is_a_clear_error() -> None:
    with pytest.raises(LessonkitError) as raised:
        registry.named("essay")
    assert str(raised.value) == (
        "question type `essay` is not registered (known: single, multiple, true_false, "
        "numeric, text, order, match, cloze); a new type needs its module in "
        "lessonkit/questiontypes/ and a line in `REGISTERED` "
        "(lessonkit/questiontypes/registry.py)"
    )


class Half(RuntimeQuestion, frozen=True, kw_only=True, tag="half"):
    words: tuple[str, ...] = ()


class HalfType(QuestionType[Half, str]):
    name = "half"
    runtime = Half
    script = "half.js"

    def grade(self, question: Half, response: str) -> Any:
        raise AssertionError("not reached")


def test_a_half_registered_type_says_what_is_missing() -> None:
    gaps = registry.check([HalfType()])
    assert gaps[0] == "question type `half` does not implement `expected_form`"
    assert "question type `half` does not implement `grade`" not in gaps
    assert len(gaps) == len(registry.REQUIRED) - 1


def test_a_missing_method_is_a_lessonkit_error_naming_it() -> None:
    question = msgspec.convert(
        {
            "type": "half",
            "id": "h",
            "prompt": "p",
            "explanation": "e",
            "section": "s",
            "insight": 1,
        },
        Half,
    )
    with pytest.raises(TypeIncomplete) as raised:
        HalfType().expected_form(question)
    assert str(raised.value) == (
        "question type `half` does not implement `expected_form`; add it to its module in "
        'lessonkit/questiontypes/ (CONTRIBUTING.md, "Adding a question type")'
    )
