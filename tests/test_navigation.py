"""How readers move between pages: the nav, hand-written counts and lists, links back."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, PLAN, MakeCourse, quizzing
from lessonkit.authoring.rulebook import check_course

NAV = """\
site_name: test
docs_dir: content
nav:
  - Test plan:
      - test-plan/index.md
      - test-plan/lesson-one.md
"""
# A second lesson in the plan, with its own (full) bank.
SECOND = quizzing(LESSON, "lesson-two").replace("title: Lesson one", "title: Lesson two")
SECOND_BANK = FULL_BANK.replace("lesson: lesson-one", "lesson: lesson-two").replace(
    "id: ", "id: two-"
)


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _course(make_course: MakeCourse, **files: str) -> Path:
    layout = {
        "quizzes/lesson-one.yml": FULL_BANK,
        "content/test-plan/index.md": PLAN.replace("[lesson-one]", "[lesson-one, lesson-two]"),
        "content/test-plan/lesson-two.md": SECOND,
        "quizzes/lesson-two.yml": SECOND_BANK,
        "mkdocs.yml": NAV + "      - test-plan/lesson-two.md\n",
    }
    return make_course(layout | {name.replace("__", "/"): text for name, text in files.items()})


def _problems(root: Path) -> list[str]:
    return [str(p) for p in check_course(root).problems]


def test_a_course_that_follows_the_rules(make_course: MakeCourse) -> None:
    lesson = SECOND.replace("Opening text.", "Opening text, after [Lesson one](lesson-one.md).")
    assert _problems(_course(make_course, **{"content__test-plan__lesson-two.md": lesson})) == []


def test_a_lesson_missing_from_the_nav(make_course: MakeCourse) -> None:
    lesson = SECOND.replace("Opening text.", "Opening text, after [Lesson one](lesson-one.md).")
    root = _course(make_course, **{"mkdocs.yml": NAV, "content__test-plan__lesson-two.md": lesson})
    assert _problems(root) == [
        "mkdocs.yml:6:9: nav: `test-plan/lesson-two.md` is not listed, so the lesson drops out "
        "of every page's sidebar (add `- test-plan/lesson-two.md` under its plan in `nav`; "
        "`lessonkit new lesson` does this for new lessons)"
    ]


def test_a_lesson_that_does_not_link_back(make_course: MakeCourse) -> None:
    # The house style makes it an error, with a position and a fix (it was a pytest
    # assertion with neither).
    assert _problems(_course(make_course)) == [
        "content/test-plan/lesson-two.md:18:1: the opening never links back to the lesson "
        "before this one, `lesson-one` (link it before the first `##`, e.g. "
        "`[Lesson one](lesson-one.md)`, so a reader who skipped it can go back)"
    ]


def test_hand_written_counts_and_an_incomplete_list_of_quiz_commands(
    make_course: MakeCourse,
) -> None:
    lesson = SECOND.replace("Opening text.", "Opening text, after [Lesson one](lesson-one.md).")
    plan = PLAN.replace("[lesson-one]", "[lesson-one, lesson-two]").replace(
        "Body.", "It has two lessons.\n\n```sh\nlessonkit quiz lesson-one\n```\n"
    )
    home = "# Home\n\nThree lessons so far, and `3 lessons` in code is fine.\n"
    root = _course(
        make_course,
        **{
            "content__test-plan__lesson-two.md": lesson,
            "content__test-plan__index.md": plan,
            "content__index.md": home,
        },
    )
    assert _problems(root) == [
        "content/index.md:3:1: the page counts lessons by hand (`Three lessons`); the course "
        "has 2 lessons, and a hand-written count goes stale with the next lesson (drop the "
        "count: the site lists each plan's lessons on the plan's page)",
        "content/test-plan/index.md:7:8: the page counts lessons by hand (`two lessons`); the "
        "plan has 2 lessons, and a hand-written count goes stale with the next lesson (drop "
        "the count: the site lists each plan's lessons on the plan's page)",
        "content/test-plan/index.md:10:1: the plan page gives `lessonkit quiz` for 1 of its 2 "
        "lessons; none for `lesson-two` (list a command for every lesson, or none: each "
        "lesson ends with its own)",
    ]
