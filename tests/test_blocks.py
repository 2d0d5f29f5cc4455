"""Each bank's blocks, rendered once and kept in the course's cache until that bank changes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import BANK, MakeCourse
from lessonkit.errors import ContentError
from lessonkit.site import blocks, plans

CACHED = Path(".cache/lessonkit/banks/lesson-one.json")


@pytest.fixture
def root(course_root: Path) -> Path:
    return course_root


def fresh_process() -> None:
    """Forget what this process kept, as the next `mkdocs build` would."""
    blocks._MEMO.clear()


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The banks rendered (not read from the cache), in order."""
    done: list[str] = []
    real: Callable[[Path], dict[str, Any]] = blocks._render

    def counting(path: Path) -> dict[str, Any]:
        done.append(path.stem)
        return real(path)

    monkeypatch.setattr(blocks, "_render", counting)
    return done


def test_a_bank_is_rendered_once_and_then_read_from_the_cache(
    root: Path, renders: list[str]
) -> None:
    first = blocks.rendered(root, "lesson-one")
    assert (first.lesson, first.questions, list(first.blocks)) == ("lesson-one", 2, [1, 2])
    assert 'id="lk-q-single"' in first.blocks[1] and "Question 2" in first.blocks[2]
    assert (root / CACHED).is_file()
    fresh_process()
    assert blocks.rendered(root, "lesson-one") == first
    assert renders == ["lesson-one"]


def test_one_changed_bank_is_the_only_one_rendered_again(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, renders: list[str]
) -> None:
    second = BANK.replace("lesson: lesson-one", "lesson: lesson-two").replace("id: q-", "id: r-")
    root = make_course({"quizzes/lesson-two.yml": second})
    monkeypatch.chdir(root)
    for slug in ("lesson-one", "lesson-two"):
        blocks.rendered(root, slug)
    fresh_process()
    (root / "quizzes/lesson-two.yml").write_text(second.replace("Pick b.", "Pick B."))
    for slug in ("lesson-one", "lesson-two"):
        blocks.rendered(root, slug)
    assert renders == ["lesson-one", "lesson-two", "lesson-two"]
    assert "Pick B." in blocks.rendered(root, "lesson-two").blocks[1]


def test_an_edit_is_seen_even_with_the_same_size_and_time(root: Path) -> None:
    blocks.rendered(root, "lesson-one")
    bank = root / "quizzes/lesson-one.yml"
    before = bank.stat()
    bank.write_text(BANK.replace("Pick b.", "Pick B."), encoding="utf-8")
    os.utime(bank, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert bank.stat().st_size == before.st_size
    assert "Pick B." in blocks.rendered(root, "lesson-one").blocks[1]


def test_a_change_to_lessonkit_itself_renders_again(
    root: Path, renders: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks.rendered(root, "lesson-one")
    fresh_process()
    monkeypatch.setattr(blocks, "code_digest", lambda: "an edited checkout")
    blocks.rendered(root, "lesson-one")
    assert renders == ["lesson-one", "lesson-one"]


def test_a_broken_bank_fails_every_time_and_is_never_cached(root: Path) -> None:
    good = blocks.rendered(root, "lesson-one")
    cached = (root / CACHED).read_bytes()
    bank = root / "quizzes/lesson-one.yml"
    bank.write_text(BANK.replace("insight: 2", "insight: 0"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError) as caught:
            blocks.rendered(root, "lesson-one")
        assert [str(p) for p in caught.value.problems] == [
            "quizzes/lesson-one.yml:18:14: questions[1].insight: "
            "input should be greater than or equal to 1"
        ]
    assert (root / CACHED).read_bytes() == cached
    bank.write_text(BANK, encoding="utf-8")
    assert blocks.rendered(root, "lesson-one") == good


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b"[]", b'{"key": 1}', b'{"value": 3}', b"\xff\xfe"]
)
def test_a_damaged_cache_is_worked_out_again(root: Path, damage: bytes) -> None:
    good = blocks.rendered(root, "lesson-one")
    (root / CACHED).write_bytes(damage)
    fresh_process()
    assert blocks.rendered(root, "lesson-one") == good
    assert json.loads((root / CACHED).read_bytes())["value"]["questions"] == 2


def test_a_cache_that_cannot_be_written_costs_time_only(root: Path) -> None:
    (root / ".cache").write_text("a file where the cache folder would go")
    assert blocks.rendered(root, "lesson-one").questions == 2
    assert not (root / CACHED).exists()


def test_section_names_come_from_the_page_not_the_cache(root: Path) -> None:
    block = blocks.rendered(root, "lesson-one").blocks[2]
    assert '<a href="#a-detail">A &lt;detail&gt;</a>' in blocks.with_sections(
        block, {"a-detail": "A <detail>"}
    )
    # A heading the page no longer has: the link still names its anchor.
    assert '<a href="#a-detail">a-detail</a>' in blocks.with_sections(block, {})


def test_a_plan_reads_each_lesson_once_and_keeps_it(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = plans.entries(root, "test-plan")
    assert found == [plans.Entry("Lesson one", "lesson-one.md", 5, 2, "A lesson for tests.")]
    fresh_process()
    monkeypatch.setattr(plans, "_card", lambda path: pytest.fail("the lesson was read again"))
    assert plans.entries(root, "test-plan") == found


def test_a_plan_naming_a_lesson_without_a_page_says_so(root: Path) -> None:
    plan = root / "content/test-plan/index.md"
    plan.write_text(plan.read_text().replace("[lesson-one]", "[lesson-one, lesson-nine]"))
    with pytest.raises(ContentError) as caught:
        plans.entries(root, "test-plan")
    assert [str(p) for p in caught.value.problems] == [
        "content/test-plan/index.md: the plan lists `lesson-nine`, which has no lesson page "
        "(add content/test-plan/lesson-nine.md, or take it off the plan's list)"
    ]
