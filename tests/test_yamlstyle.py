"""YAML that parses but changes the text: folded Markdown blocks and plain text cut at ` #`."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.authoring.rulebook import check_course
from lessonkit.authoring.yamlstyle import style_problems


def _found(text: str) -> list[str]:
    return [str(p) for p in style_problems(text, "quizzes/x.yml")]


@pytest.mark.parametrize(
    ("block", "what"),
    [
        ("| Chip | GB/s |\n      |---|---|\n      | A | 1 |", 'table (line 4: "|---|---|")'),
        ("Pick one:\n      - first\n      - second", 'list (line 4: "- first")'),
        ("Steps:\n      1. first\n      2. second", 'list (line 4: "1. first")'),
        ("Run:\n      ```sh\n      make\n      ```", 'code block (line 4: "```sh")'),
    ],
)
def test_folded_markdown_blocks(block: str, what: str) -> None:
    text = f"questions:\n  - prompt: >-\n      {block}\n    explanation: ok\n"
    assert _found(text) == [
        "quizzes/x.yml:2:13: `>-` folds this text's lines into one, which breaks its Markdown "
        f"{what} (use `|-`, which keeps each line as written (write: prompt: |-))"
    ]


def test_folded_table_exact_message() -> None:
    text = "explanation: >\n  | Chip | GB/s |\n  |---|---|\n  | A | 1 |\n"
    assert _found(text) == [
        "quizzes/x.yml:1:14: `>` folds this text's lines into one, which breaks its Markdown "
        'table (line 3: "|---|---|") (use `|`, which keeps each line as written (write: '
        "explanation: |))"
    ]


def test_folded_prose_and_literal_blocks_are_fine() -> None:
    text = (
        "prompt: >-\n  A sentence that wraps\n  2024. onto a line starting with a year\n"
        "explanation: |-\n  | a |\n  |---|\n"
    )
    assert _found(text) == []


def test_plain_text_cut_at_a_comment() -> None:
    text = "prompt: Issue #42 is fixed\nhint: See PR #7\nitems:\n  - step one # then two\n"
    assert _found(text) == [
        "quizzes/x.yml:1:15: ` #` starts a YAML comment, so the text stops before it (`prompt` "
        "is read as 'Issue'); put the text in quotes (write: prompt: 'Issue #42 is fixed'; a "
        "comment meant as one goes on its own line)",
        "quizzes/x.yml:2:14: ` #` starts a YAML comment, so the text stops before it (`hint` is "
        "read as 'See PR'); put the text in quotes (write: hint: 'See PR #7'; a comment meant "
        "as one goes on its own line)",
        "quizzes/x.yml:4:14: ` #` starts a YAML comment, so the text stops before it (`items` is "
        "read as 'step one'); put the text in quotes (write: - 'step one # then two'; a comment "
        "meant as one goes on its own line)",
    ]


def test_comments_elsewhere_are_fine() -> None:
    text = (
        "# heading comment\nanswer: 42  # not text\nid: a-b  # not prose\n"
        "prompt: 'Issue #42'\ntitle: C# and F#\n"
    )
    assert _found(text) == []


def test_through_validate(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> None:
    bank = FULL_BANK.replace("prompt: Pick b.", "prompt: Pick b # or c")
    root = make_course({"quizzes/lesson-one.yml": bank})
    monkeypatch.chdir(root)
    line = bank.splitlines().index("    prompt: Pick b # or c") + 1
    assert [str(p) for p in check_course(Path(root)).problems] == [
        f"quizzes/lesson-one.yml:{line}:20: ` #` starts a YAML comment, so the text stops "
        "before it (`prompt` is read as 'Pick b'); put the text in quotes (write: prompt: "
        "'Pick b # or c'; a comment meant as one goes on its own line)"
    ]
