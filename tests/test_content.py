"""The gate for real content: every lesson and bank in the repository, checked as a reader would."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import pytest

from lessonkit.course import Course, check_course
from lessonkit.errors import ContentError
from lessonkit.lessons import LessonPage, read_lesson
from lessonkit.models import Bank

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
QUIZZES = ROOT / "quizzes"

# Lessons are `content/<plan>/<slug>.md`; a plan's own page is its `index.md`.
LESSON_PATHS = sorted(p for p in CONTENT.glob("*/*.md") if p.name != "index.md")

MIN_QUESTIONS_PER_INSIGHT = 5

# Lessons built around a framing metaphor: the words must be set up in the opening
# (before the first `##`) and used again in the section of the last insight.
FRAMING = {
    "gpu-vs-tpu": ("workshop", "factory line"),
    "rooflines-and-serving": ("loading dock",),
}

# Files under content/ and quizzes/ that a reader or the site can see.
TEXT_SUFFIXES = {".md", ".yml", ".yaml", ".svg", ".html", ".css", ".txt", ".json"}
BLOCKED_HOST = re.compile(r"\bexample\.com\b", re.IGNORECASE)
# `path:line:column: message` is how every validation problem is printed.
PROBLEM_LINE = re.compile(r"^\S+:\d+:\d+: ", re.MULTILINE)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def course() -> Course:
    # check_course keeps whatever loaded even when some files have problems, so each
    # test below reports its own rule; test_validate_reports_no_problems lists them all.
    return check_course(ROOT)


@pytest.fixture(params=LESSON_PATHS, ids=lambda path: path.stem)
def lesson(request: pytest.FixtureRequest) -> LessonPage:
    path: Path = request.param
    try:
        return read_lesson(path)
    except ContentError as error:
        pytest.fail(f"{_rel(path)} does not load:\n" + "\n".join(map(str, error.problems)))


def _bank_for(lesson: LessonPage, course: Course) -> Bank:
    bank = course.banks.get(lesson.meta.quiz)
    if bank is None:
        pytest.fail(
            f"{_rel(lesson.path)}: its quiz `{lesson.meta.quiz}` has no bank; "
            f"create quizzes/{lesson.meta.quiz}.yml"
        )
    return bank


def _body_lines(lesson: LessonPage, start: int, stop: int | None) -> str:
    """Body text between two file line numbers (``stop`` exclusive, None = end)."""
    lines = lesson.body.splitlines()
    first = start - lesson.body_line
    last = None if stop is None else stop - lesson.body_line
    return "\n".join(lines[first:last])


def test_lessons_are_found() -> None:
    assert LESSON_PATHS, f"no lessons found as content/<plan>/<slug>.md under {CONTENT}"


# --- every lesson -----------------------------------------------------------


def test_insights_are_level_two_headings_in_order(lesson: LessonPage) -> None:
    titles = [h.title for h in lesson.headings if h.level == 2]
    position = 0
    for number, insight in enumerate(lesson.meta.insights, start=1):
        if insight not in titles[position:]:
            where = "out of order" if insight in titles else "missing"
            pytest.fail(
                f"{_rel(lesson.path)}: insight {number} `{insight}` is {where} among the "
                f"`##` headings {titles}; each insight must be the text of a `##` heading "
                "(an optional leading `1. ` is ignored), in front-matter order"
            )
        position = titles.index(insight, position) + 1


def test_heading_levels_never_skip(lesson: LessonPage) -> None:
    # The page title is the h1 the site makes from the front matter, so the body starts at ##.
    previous = 1
    skips = []
    for heading in lesson.headings:
        if heading.level > previous + 1:
            skips.append(
                f"line {heading.line}: h{heading.level} `{heading.text}` follows h{previous}"
            )
        previous = heading.level
    assert not skips, f"{_rel(lesson.path)} skips heading levels:\n" + "\n".join(skips)


def test_sources_are_well_formed_https_urls(lesson: LessonPage) -> None:
    bad = []
    for source in lesson.meta.sources:
        parts = urlparse(source.url)
        if parts.scheme != "https" or "." not in parts.netloc or " " in source.url:
            bad.append(f"{source.title}: {source.url}")
        elif BLOCKED_HOST.search(parts.netloc):
            bad.append(f"{source.title}: {source.url} (placeholder host)")
    assert not bad, (
        f"{_rel(lesson.path)}: these sources need an https:// address on a real host:\n"
        + "\n".join(bad)
    )


def test_every_question_section_is_a_heading(lesson: LessonPage, course: Course) -> None:
    bank = _bank_for(lesson, course)
    anchors = lesson.anchors()
    missing = [f"{q.id}: `{q.section}`" for q in bank.questions if q.section not in anchors]
    assert not missing, (
        f"quizzes/{lesson.meta.quiz}.yml: these sections are not heading anchors of "
        f"{_rel(lesson.path)}:\n" + "\n".join(missing) + f"\nanchors: {sorted(anchors)}"
    )


def test_each_insight_has_enough_questions(lesson: LessonPage, course: Course) -> None:
    bank = _bank_for(lesson, course)
    counts = Counter(q.insight for q in bank.questions)
    short = {
        number: counts[number]
        for number in range(1, len(lesson.meta.insights) + 1)
        if counts[number] < MIN_QUESTIONS_PER_INSIGHT
    }
    assert not short, (
        f"quizzes/{lesson.meta.quiz}.yml: every insight needs at least "
        f"{MIN_QUESTIONS_PER_INSIGHT} questions; these have fewer (insight: count): {short}"
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


# --- the whole tree ---------------------------------------------------------


def test_no_placeholder_host_anywhere() -> None:
    hits = []
    for folder in (CONTENT, QUIZZES):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.suffix.lower() not in TEXT_SUFFIXES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), start=1):
                if BLOCKED_HOST.search(line):
                    hits.append(f"{_rel(path)}:{number}: {line.strip()[:100]}")
    assert not hits, "example.com is a placeholder, never a source:\n" + "\n".join(hits)


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
