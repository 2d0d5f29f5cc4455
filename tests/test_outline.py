"""The outline `lessonkit list` shows, read from a per-file cache that is never stale."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import BANK, MakeCourse
from lessonkit.course import outline

HOUR_AGO = time.time() - 3600


def _settle(root: Path) -> None:
    """Date every course file an hour back, as files are that were not just edited."""
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (HOUR_AGO, HOUR_AGO))


def _shown(found: outline.Outline) -> list[tuple[str, str, str, int | None]]:
    return [
        (plan.title, lesson.title, lesson.quiz, found.questions.get(lesson.quiz))
        for plan in found.plans
        for lesson in plan.lessons
    ]


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every file the outline reads instead of taking it from the cache."""
    read: list[str] = []
    for name in ("_plan", "_lesson", "_bank"):
        real = getattr(outline, name)

        def reader(path: Path, real: object = real) -> object:
            read.append(path.name)
            return real(path)  # type: ignore[operator]

        monkeypatch.setattr(outline, name, reader)
    return read


def test_an_unchanged_course_is_listed_from_the_cache(
    make_course: MakeCourse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course()
    _settle(root)
    first = outline.read(root, tmp_path / "cache")
    read = _no_reading(monkeypatch)
    assert outline.read(root, tmp_path / "cache") == first
    assert read == []
    assert _shown(first) == [("Test plan", "Lesson one", "lesson-one", 2)]


def test_an_edited_file_is_read_again_even_with_its_old_times_restored(
    make_course: MakeCourse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course()
    _settle(root)
    outline.read(root, tmp_path / "cache")
    bank = root / "quizzes" / "lesson-one.yml"
    before = bank.stat()
    # Same size, modification time put back: only the change time tells.
    bank.write_text(BANK.replace("q-single", "q-singl2").replace("Pick b.", "Pick b!"))
    os.utime(bank, ns=(before.st_atime_ns, before.st_mtime_ns))
    bank.write_text(bank.read_text().replace("\n  - id: q-order", "\n  - id: q-orde2"))
    os.utime(bank, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert bank.stat().st_size == before.st_size
    read = _no_reading(monkeypatch)
    outline.read(root, tmp_path / "cache")
    assert read == ["lesson-one.yml"]


def test_a_file_written_just_now_is_not_trusted_from_the_cache(
    make_course: MakeCourse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A second write in the same clock tick leaves every stat field as it was, so a file
    # modified less than two seconds before it was read is read again next time.
    root = make_course()
    outline.read(root, tmp_path / "cache")
    read = _no_reading(monkeypatch)
    outline.read(root, tmp_path / "cache")
    assert sorted(read) == ["index.md", "lesson-one.md", "lesson-one.yml"]


def test_counts_and_lessons_follow_edits_and_broken_files(
    make_course: MakeCourse, tmp_path: Path
) -> None:
    root = make_course()
    _settle(root)
    outline.read(root, tmp_path / "cache")
    broken = make_course({"quizzes/lesson-one.yml": BANK.replace("pass_mark: 0.5", "pass_mark: x")})
    assert _shown(outline.read(broken, tmp_path / "cache")) == [
        ("Test plan", "Lesson one", "lesson-one", None)
    ]
    gone = make_course({"content/test-plan/lesson-one.md": "no front matter\n"})
    assert outline.read(gone, tmp_path / "cache").plans == (outline.Plan("Test plan", ()),)
