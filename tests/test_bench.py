"""The benchmarks' generated courses and configs are what they claim (no timing here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's bench/
from bench import course, scale, sitescale

from lessonkit.authoring.validate import validate_paths

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.usefixtures("real_calendar")
def test_a_generated_course_is_valid_with_unique_slugs_and_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = course.write(tmp_path / "course", 8)
    monkeypatch.chdir(root)
    report = validate_paths([], full=True)
    assert report.problems == ()
    assert (
        report.summary_line() == "checked 8 banks (194 questions) and 8 lessons: no problems found"
    )
    assert sorted(p.stem for p in (root / "quizzes").iterdir()) == sorted(
        course.slug(n) for n in range(8)
    )
    for number in range(2):  # the edit `validate, one bank changed` times, twice, on each
        for n in range(8):
            scale._edit_bank(root, course.slug(n), number)
        edited = validate_paths([], full=True)
        assert edited.problems == (), edited.problems
    assert "(edit 1)" in (root / "quizzes" / f"{course.slug(0)}.yml").read_text()


def test_a_course_of_four_is_this_repository_s_course(tmp_path: Path) -> None:
    root = course.write(tmp_path / "course", 4)
    for folder in ("content", "quizzes", "facts"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file():
                copy = root / path.relative_to(ROOT)
                assert copy.read_bytes() == path.read_bytes(), copy


def test_plain_mkdocs_config_drops_lessonkit_hooks_and_extensions_only() -> None:
    config = {
        "site_name": "x",
        "hooks": ["site_overrides/hooks/lessonkit_hook.py", "hooks/other.py"],
        "markdown_extensions": [
            "admonition",
            "lessonkit.site.markdown",
            {"lessonkit.site.selfchecks": {"root": "."}},
            {"toc": {"permalink": True}},
        ],
    }
    assert sitescale.plain_config(config) == {
        "site_name": "x",
        "hooks": ["hooks/other.py"],
        "markdown_extensions": ["admonition", {"toc": {"permalink": True}}],
    }
    assert "hooks" not in sitescale.plain_config({"hooks": ["a/lessonkit_hook.py"]})
