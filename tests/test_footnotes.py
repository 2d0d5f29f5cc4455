"""Footnotes: a reference without a definition is a problem, not literal text on the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_an_undefined_footnote_is_reported_with_a_suggestion(make_course: MakeCourse) -> None:
    body = (
        "\nA figure.[^nvidia] Another.[^nvida] In code, `[^x]` is text.[^goog]\n\n"
        "[^nvidia]: NVIDIA, a datasheet.\n"
    )
    lesson = LESSON + body
    line = len(lesson.splitlines()) - 2
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    assert [str(p) for p in check_course(root).problems] == [
        f"content/test-plan/lesson-one.md:{line}:28: footnote `[^nvida]` has no definition, so "
        "the page shows it as text (did you mean `[^nvidia]`?)",
        f"content/test-plan/lesson-one.md:{line}:61: footnote `[^goog]` has no definition, so "
        "the page shows it as text (add `[^goog]: the source` on a line of its own at the end "
        "of the page)",
    ]


def test_footnotes_that_resolve_are_fine(make_course: MakeCourse) -> None:
    body = "\nA figure.[^1] Again.[^1]\n\n[^1]: A source.\n    More of it.\n"
    root = make_course(
        {"content/test-plan/lesson-one.md": LESSON + body, "quizzes/lesson-one.yml": FULL_BANK}
    )
    assert check_course(root).problems == []
