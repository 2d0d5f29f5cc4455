"""A lesson's framing metaphor: set up in the opening, used again in the last insight."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course

FRAMED = LESSON.replace(
    "last_reviewed: 2026-11-20\n", "last_reviewed: 2026-11-20\nframing: [workshop, factory line]\n"
)


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _problems(make_course: MakeCourse, lesson: str) -> list[str]:
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    return [str(p) for p in check_course(root).problems]


def test_framing_kept_through_the_lesson(make_course: MakeCourse) -> None:
    lesson = FRAMED.replace("Opening text.", "A Workshop and a factory line.").replace(
        "## 2. Second idea\n\nText.", "## 2. Second idea\n\nThe workshop or the factory line?"
    )
    assert _problems(make_course, lesson) == []


def test_framing_dropped_is_reported_at_its_word(make_course: MakeCourse) -> None:
    lesson = FRAMED.replace("Opening text.", "A workshop.")
    assert _problems(make_course, lesson) == [
        "content/test-plan/lesson-one.md:17:11: framing: `workshop` is never said in the "
        "section `Second idea` (use the framing again where the reader makes the choice)",
        "content/test-plan/lesson-one.md:17:21: framing: `factory line` is never said in the "
        "opening, before the first `##` (set the picture up where the reader starts)",
        "content/test-plan/lesson-one.md:17:21: framing: `factory line` is never said in the "
        "section `Second idea` (use the framing again where the reader makes the choice)",
    ]
