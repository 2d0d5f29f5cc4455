"""Figures: light/dark pairs are a validate rule; small SVG text is report advice."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.figures import svg_text_warnings
from lessonkit.authoring.rulebook import check_course

LESSON_PATH = "content/test-plan/lesson-one.md"
END = len(LESSON.splitlines())  # the body appended below starts on the next line
SVG = '<svg xmlns="http://www.w3.org/2000/svg">\n  <text font-size="16">Big</text>\n</svg>\n'
FIGURES = {f"content/test-plan/img/{name}.svg": SVG for name in ("a", "a-dark", "b", "b-dark")}


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course sees them


def _course(make_course: MakeCourse, body: str, **files: str) -> Path:
    return make_course(
        {"quizzes/lesson-one.yml": FULL_BANK, LESSON_PATH: LESSON + body, **FIGURES, **files}
    )


def _problems(root: Path) -> list[str]:
    return [str(p) for p in check_course(root).problems]


def test_a_light_and_dark_pair_is_clean(make_course: MakeCourse) -> None:
    body = '\n![A](img/a.svg#only-light)\n![A](img/a-dark.svg#only-dark){ width="420" }\n'
    assert _problems(_course(make_course, body)) == []


def test_unpaired_variants_are_problems_at_the_image(make_course: MakeCourse) -> None:
    body = (
        "\n![A](img/a.svg#only-light)\n"  # no dark twin: b's light comes next
        "![B](img/b.svg#only-light)\n"
        "![B](img/b-dark.svg#only-dark)\n"
        "Text ![A](img/a-dark.svg#only-dark)\n"  # dark without its light just before
        "![B](img/b.svg#only-light)\n"  # last image: no dark twin
    )
    assert _problems(_course(make_course, body)) == [
        f"{LESSON_PATH}:{END + 2}:1: figure `img/a.svg#only-light` has no dark variant after "
        "it, so dark mode shows no figure (place the light variant, then the dark one on the "
        "next line: `![the same alt text](img/a.svg#only-light)` then "
        "`![the same alt text](img/a-dark.svg#only-dark)`)",
        f"{LESSON_PATH}:{END + 5}:6: figure `img/a-dark.svg#only-dark` has no light variant "
        "before it, so light mode shows no figure (place the light variant, then the dark one "
        "on the next line: `![the same alt text](img/a.svg#only-light)` then "
        "`![the same alt text](img/a-dark.svg#only-dark)`)",
        f"{LESSON_PATH}:{END + 6}:1: figure `img/b.svg#only-light` has no dark variant after "
        "it, so dark mode shows no figure (place the light variant, then the dark one on the "
        "next line: `![the same alt text](img/b.svg#only-light)` then "
        "`![the same alt text](img/b-dark.svg#only-dark)`)",
    ]


def test_a_missing_variant_file_is_a_broken_link(make_course: MakeCourse) -> None:
    body = "\n![A](img/c.svg#only-light)\n![A](img/c-dark.svg#only-dark)\n"
    root = _course(make_course, body, **{"content/test-plan/img/c.svg": SVG})
    assert _problems(root) == [
        f"{LESSON_PATH}:{END + 3}:1: link `img/c-dark.svg` points to a file that does not "
        "exist (check the path; it is relative to this page's folder)"
    ]


def test_small_svg_text_is_a_warning_at_the_svg_line(make_course: MakeCourse) -> None:
    small = (
        '<svg xmlns="http://www.w3.org/2000/svg" font-size="14">\n'
        '  <text font-size="12px">Small</text>\n'
        '  <text style="fill: red; font-size: 13.5px">Smaller</text>\n'
        '  <text font-size="1.2em">Other units are left alone</text>\n'
        "</svg>\n"
    )
    body = "\n![A](img/a.svg#only-light)\n![A](img/a-dark.svg#only-dark)\n"
    root = _course(make_course, body, **{"content/test-plan/img/a-dark.svg": small})
    course = check_course(root)
    assert course.problems == []
    assert [str(w) for w in svg_text_warnings(course.lessons["lesson-one"])] == [
        "content/test-plan/img/a-dark.svg:2:9: figure text of 12 px is smaller than 14 px "
        "(and 1 more below 14 px in this file) (make every font-size at least 14 at the SVG's "
        "natural size, and prefer a tall, narrow layout: the figure shrinks to fit a 390 px "
        "phone screen)"
    ]
