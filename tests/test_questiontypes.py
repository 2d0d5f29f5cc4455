"""The registry of question types: complete, and clear when a type is missing or half done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.cli import main
from lessonkit.errors import LessonkitError
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import QuestionType, RuntimeQuestion, TypeIncomplete
from lessonkit.questiontypes.truefalse import TrueFalse, TrueFalseType


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


class Half(RuntimeQuestion, tag="half"):
    words: tuple[str, ...] = ()


class HalfType(QuestionType[Half, str]):
    name = "half"
    runtime = Half
    script = "half.js"

    def grade(self, question: Half, response: str) -> Any:
        raise AssertionError("not reached")


def test_a_half_registered_type_says_what_is_missing() -> None:
    assert registry.check([HalfType()]) == [
        "question type `half` gives no example question (`example`)",
        *(
            f"question type `half` does not implement `{method}`"
            for method in registry.REQUIRED
            if method != "grade"
        ),
    ]


def test_a_missing_method_is_a_lessonkit_error_naming_it() -> None:
    question = Half.from_json(
        {
            "type": "half",
            "id": "h",
            "prompt": "p",
            "explanation": "e",
            "section": "s",
            "insight": 1,
        }
    )
    with pytest.raises(TypeIncomplete) as raised:
        HalfType().expected_form(question)
    assert str(raised.value) == (
        "question type `half` does not implement `expected_form`; add it to its module in "
        'lessonkit/questiontypes/ (CONTRIBUTING.md, "Adding a question type")'
    )


def test_a_type_left_out_of_the_registry_is_a_clear_error_not_a_traceback(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As if `true_false`'s model were in the bank format but its line not in `REGISTERED`.
    monkeypatch.chdir(make_course({"quizzes/lesson-one.yml": FULL_BANK}))
    monkeypatch.setattr(
        registry,
        "REGISTERED",
        {name: module for name, module in registry.REGISTERED.items() if name != "true_false"},
    )
    monkeypatch.delitem(registry._BY_NAME, "true_false", raising=False)
    monkeypatch.delitem(registry._BY_RUNTIME, TrueFalse, raising=False)
    assert main(["validate", "--full"]) == 1
    assert capsys.readouterr().err == (
        "lessonkit: question type `true_false` is not registered (known: single, multiple, "
        "numeric, text, order, match, cloze); a new type needs its module in "
        "lessonkit/questiontypes/ and a line in `REGISTERED` "
        "(lessonkit/questiontypes/registry.py)\n"
    )


def test_a_half_written_type_is_a_clear_error_not_a_traceback(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = "site_name: Test\ndocs_dir: content\n"
    monkeypatch.chdir(make_course({"quizzes/lesson-one.yml": FULL_BANK, "mkdocs.yml": site}))
    monkeypatch.setenv("LESSONKIT_HOME", "home")
    monkeypatch.setattr(TrueFalseType, "gift", QuestionType.gift)
    assert main(["export", "lesson-one", "--to", "gift", "--out", "bank.gift"]) == 1
    assert capsys.readouterr().err == (
        "lessonkit: question type `true_false` does not implement `gift`; add it to its "
        'module in lessonkit/questiontypes/ (CONTRIBUTING.md, "Adding a question type")\n'
    )


def test_every_registered_type_has_its_widget_script() -> None:
    folder = Path(__file__).resolve().parents[1] / "site_overrides/assets/lessonkit/types"
    scripts = sorted(path.name for path in folder.glob("*.js"))
    assert scripts == sorted(kind.script for kind in registry.types())
    for kind in registry.types():  # each registers itself under its type's name
        assert f'register("{kind.name}"' in (folder / kind.script).read_text(encoding="utf-8")
