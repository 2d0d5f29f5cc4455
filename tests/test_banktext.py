"""Option, item and match text that Markdown would read as a block is pointed out at the
bank's line and column (``authoring.banktext``); it is shown as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BANK, FULL_BANK, MakeCourse
from lessonkit.authoring.rulebook import check_course


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _bank(old: str, new: str) -> dict[str, str]:
    assert old in FULL_BANK
    return {"quizzes/lesson-one.yml": FULL_BANK.replace(old, new, 1)}


def test_inline_text_that_looks_like_a_block_is_a_warning(make_course: MakeCourse) -> None:
    bank = _bank("      - text: a\n", "      - text: '>= 100'\n")
    text = bank["quizzes/lesson-one.yml"]
    bank["quizzes/lesson-one.yml"] = text.replace("[a, b, c]", "['- 100', '1. first', c]")
    checked = check_course(make_course(bank))
    assert checked.problems == []
    assert [str(p) for p in checked.warnings] == [
        "quizzes/lesson-one.yml:12:15: `>= 100` would read as a quote in Markdown; an option, "
        "an item or a match side is one line of inline text, so learners see `>= 100` (nothing "
        "to change if that is what learners should see; for a real quote, put it in the "
        "prompt (`prompt: |` keeps its lines) and refer to it here)",
        "quizzes/lesson-one.yml:21:13: `- 100` would read as a bulleted list in Markdown; an "
        "option, an item or a match side is one line of inline text, so learners see `- 100` "
        "(nothing to change if that is what learners should see; for a real bulleted list, "
        "put it in the prompt (`prompt: |` keeps its lines) and refer to it here)",
        "quizzes/lesson-one.yml:21:22: `1. first` would read as a numbered list in Markdown; "
        "an option, an item or a match side is one line of inline text, so learners see "
        "`1. first` (nothing to change if that is what learners should see; for a real "
        "numbered list, put it in the prompt (`prompt: |` keeps its lines) and refer to it "
        "here)",
    ]


def test_a_course_may_switch_the_inline_text_warning_off(make_course: MakeCourse) -> None:
    files = _bank("      - text: a\n", "      - text: '# all'\n")
    files["lessonkit.yml"] = "rules:\n  inline-text: {level: off}\n"
    assert check_course(make_course(files)).warnings == []


def test_the_bank_of_the_tests_has_no_findings(make_course: MakeCourse) -> None:
    assert BANK in FULL_BANK
    checked = check_course(make_course({"quizzes/lesson-one.yml": FULL_BANK}))
    assert checked.problems == [] and checked.warnings == []
