"""The gate for real content: the repository's course checked by the same code as `validate`.

Every rule that can fail an author's pull request is a `lessonkit validate` rule
(``lessonkit.authoring.rulebook``); this file calls that code, so "validate is clean" and "these
tests pass" are the same statement. Only what is particular to one lesson (its framing
metaphor) is checked here alone.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from lessonkit.authoring.rulebook import check_course
from lessonkit.course.lessons import LessonPage, read_lesson

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"

# Lessons are `content/<plan>/<slug>.md`; a plan's own page is its `index.md`.
LESSON_PATHS = sorted(p for p in CONTENT.glob("*/*.md") if p.name != "index.md")

# Lessons built around a framing metaphor: the words must be set up in the opening
# (before the first `##`) and used again in the section of the last insight.
FRAMING = {
    "gpu-vs-tpu": ("workshop", "factory line"),
    "rooflines-and-serving": ("loading dock",),
}

# `path:line:column: message` is how every validation problem is printed.
PROBLEM_LINE = re.compile(r"^\S+:\d+:\d+: ", re.MULTILINE)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _body_lines(lesson: LessonPage, start: int, stop: int | None) -> str:
    """Body text between two file line numbers (``stop`` exclusive, None = end)."""
    lines = lesson.body.splitlines()
    first = start - lesson.body_line
    last = None if stop is None else stop - lesson.body_line
    return "\n".join(lines[first:last])


def test_lessons_are_found() -> None:
    assert LESSON_PATHS, f"no lessons found as content/<plan>/<slug>.md under {CONTENT}"


def test_the_course_follows_the_rule_book() -> None:
    problems = check_course(ROOT).problems
    assert not problems, "fix these (`lessonkit validate` lists the same):\n" + "\n".join(
        map(str, problems)
    )


# --- framing ----------------------------------------------------------------


@pytest.mark.parametrize(("slug", "words"), sorted(FRAMING.items()), ids=sorted(FRAMING))
def test_framing_in_opening_and_choosing_section(slug: str, words: tuple[str, ...]) -> None:
    paths = [p for p in LESSON_PATHS if p.stem == slug]
    assert paths, f"lesson `{slug}` not found as content/<plan>/{slug}.md"
    lesson = read_lesson(paths[0])
    level_two = [h for h in lesson.headings if h.level == 2]
    assert level_two, f"{_rel(lesson.path)} has no `##` headings"

    opening = _body_lines(lesson, lesson.body_line, level_two[0].line).casefold()

    last_insight = lesson.meta.insights[-1]
    index = next((i for i, h in enumerate(level_two) if h.title == last_insight), None)
    assert index is not None, f"{_rel(lesson.path)}: no `##` heading `{last_insight}`"
    after = level_two[index + 1].line if index + 1 < len(level_two) else None
    choosing = _body_lines(lesson, level_two[index].line, after).casefold()

    for word in words:
        assert word in opening, (
            f"{_rel(lesson.path)}: the opening (before the first `##`) never says `{word}`"
        )
        assert word in choosing, (
            f"{_rel(lesson.path)}: the section `{last_insight}` never says `{word}`; "
            "use the framing again where the reader makes the choice"
        )


# --- through the command ------------------------------------------------------


def test_validate_reports_no_problems() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "validate"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"`lessonkit validate` exited {result.returncode}:\n{output}"
    assert not PROBLEM_LINE.search(output), f"`lessonkit validate` reported problems:\n{output}"
    assert "no problems found" in result.stdout, f"unexpected validate output:\n{output}"
