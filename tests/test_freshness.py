"""Fresh by rule: a lesson past its review interval warns in `validate` and fails the strict
site build; `report` lists the lesson's dated figures by age. The clock is conftest's."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring import freshness
from lessonkit.authoring.freshness import add_months
from lessonkit.authoring.report import render_text, report_course
from lessonkit.authoring.rulebook import check_course
from sitebuilds import STAND_IN_LESSON, build, make_stand_in, make_target

LESSONKIT = str(Path(sys.executable).parent / "lessonkit")
OVERDUE = LESSON.replace("last_reviewed: 2026-11-20", "reviewed: 2026-03")


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return subprocess.run(
        [LESSONKIT, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def _course(make_course: MakeCourse, lesson: str) -> Path:
    return make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )


OVERDUE_LINE = (
    "content/test-plan/lesson-one.md:16:11: warning: reviewed: 2026-03 is more than 6 months "
    "ago; the lesson was due for review by 2026-09-30 (check each figure and price against "
    "its source, note what changed under `## Updates`, then set `reviewed: 2026-11`)"
)


def test_an_overdue_lesson_warns_and_fails_a_strict_validate(make_course: MakeCourse) -> None:
    root = _course(make_course, OVERDUE)
    relaxed = run(root, "validate")
    assert relaxed.returncode == 0
    assert relaxed.stdout.splitlines()[0] == OVERDUE_LINE
    report = run(root, "report")
    assert "  reviewed: 2026-03; due for review by 2026-09-30 (overdue)\n" in report.stdout
    strict = run(root, "validate", "--strict")
    assert strict.returncode == 1
    assert strict.stdout.splitlines()[0] == OVERDUE_LINE


def test_a_lesson_sets_its_own_interval(make_course: MakeCourse) -> None:
    lesson = OVERDUE.replace("reviewed: 2026-03\n", "reviewed: 2026-03\nreview_months: 9\n")
    assert check_course(_course(make_course, lesson)).warnings == []


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("reviewed: 2027-01", "reviewed: 2027-01 is in the future"),
        ("reviewed: 2026-13", "reviewed: `2026-13` is not a month: write `YYYY-MM`, e.g. `2026-11`"),
        ("reviewed: 2026", "reviewed: write the month or the day of the review, `YYYY-MM` or "
         "`YYYY-MM-DD`, not 2026"),
    ],
)  # fmt: skip
def test_review_dates_an_author_gets_wrong(
    make_course: MakeCourse, written: str, message: str
) -> None:
    course = check_course(_course(make_course, OVERDUE.replace("reviewed: 2026-03", written)))
    assert [p.message for p in [*course.problems, *course.warnings]] == [message]


def test_the_old_name_last_reviewed_still_works(make_course: MakeCourse) -> None:
    course = check_course(_course(make_course, LESSON))
    assert course.problems == [] and course.warnings == []
    assert course.lessons["lesson-one"].meta.reviewed == "2026-11-20"


def test_add_months_keeps_the_day_or_the_months_end() -> None:
    assert add_months(dt.date(2026, 8, 31), 6) == dt.date(2027, 2, 28)
    assert add_months(dt.date(2026, 11, 20), 14) == dt.date(2028, 1, 20)


def test_report_lists_figures_by_age_and_the_review_date(make_course: MakeCourse) -> None:
    body = (
        "\nPrices as of March 2025 and, later, as of November 2026.\n\n"
        "| chip | price |\n|---|---|\n| a | 1 |\n\nAs of march 2025, again.\n"
    )
    root = _course(make_course, LESSON + body)
    text = render_text(report_course(check_course(root, advice=True)))
    first = len(LESSON.splitlines()) + 2
    assert (
        "  reviewed: 2026-11-20; due for review by 2027-05-20\n"
        '  figures by age ("as of" in the text, oldest first):\n'
        f"    March 2025      20 months old  (lines {first}, {first + 6})\n"
        f"    November 2026    0 months old  (line {first})\n"
    ) in text


def test_an_overdue_lesson_fails_the_strict_site_build(tmp_path: Path) -> None:
    """Never published silently: `make site` checks the course strictly before either engine
    builds, and says why it stopped; a preview still builds the lesson."""
    project = tmp_path / "project"
    make_stand_in(
        project, lesson=STAND_IN_LESSON.replace("last_reviewed: 2026-02-03", "reviewed: 2025-06")
    )
    strict = make_target(project, "site")
    output = strict.stdout + strict.stderr
    assert strict.returncode == 1, output
    due = (
        "content/ai-hardware-fundamentals/gpu-vs-tpu.md:19:11: warning: reviewed: 2025-06 is "
        "more than 12 months ago; the lesson was due for review by 2026-06-30 (check each "
        "figure and price against its source, note what changed under `## Updates`, then set "
        "`reviewed: 2026-11`)"
    )
    assert due in output.splitlines()
    assert "1 lesson overdue for review" in output
    assert "not ready" not in output and "placeholder" not in output
    assert "Traceback" not in output
    assert not (project / "site").exists()  # stopped before the build
    preview = build(project, tmp_path / "preview", strict=False)
    assert preview.returncode == 0, preview.stderr
    # The page says how old its review is, from `reviewed:` as from `last_reviewed:` before.
    page = (tmp_path / "preview/ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    assert 'Last reviewed <time datetime="2025-06">2025-06</time>' in page


@pytest.mark.parametrize(
    "day",
    ["2026-11-25", "2027-05-31", "2027-06-10", "2026-10-15"],
    ids=["fresh", "overdue-first-days", "overdue", "reviewed-in-the-future"],
)
def test_the_review_says_the_same_over_its_steady_span_and_else_at_either_end(
    make_course: MakeCourse, day: str
) -> None:
    """`validate`'s cache reads a lesson again only outside this span (see checkcache)."""
    root = _course(make_course, LESSON)  # reviewed 2026-11-20; the house policy: 6 months

    def said(when: dt.date) -> list[str]:
        found = check_course(root, today=when).warnings
        return [str(p) for p in found if p.message.startswith("reviewed:")]

    today = dt.date.fromisoformat(day)
    course = check_course(root, today=today)
    settings = course.policy.settings(freshness.REVIEW)
    assert isinstance(settings, freshness.Review)
    first, last = freshness.steady(course.lessons["lesson-one"], settings, today)
    assert first <= today <= last
    now, one = said(today), dt.timedelta(days=1)
    assert said(first) == now == said(last)
    assert said(first - one) != now
    assert said(last + one) != now
