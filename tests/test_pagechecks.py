"""Lesson body checks: alt text, links, anchors, blocked hosts and template placeholders."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK, FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.pagechecks import external_problem
from lessonkit.authoring.placeholders import PLACEHOLDER
from lessonkit.authoring.rulebook import check_course

LESSON_PATH = "content/test-plan/lesson-one.md"
# The body of conftest's LESSON starts on this line of the file.
BODY = LESSON.splitlines().index("Opening text.") + 1


@pytest.fixture
def make_course(make_course: MakeCourse) -> MakeCourse:
    """The shared small course, with five questions per insight as validate requires."""

    def make(files: dict[str, str | None] | None = None) -> Path:
        return make_course({"quizzes/lesson-one.yml": FULL_BANK, **(files or {})})

    return make


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Problems name files relative to the working directory, as authors type them.
    monkeypatch.chdir(tmp_path)


def problems_for(make_course: MakeCourse, body: str, **files: str) -> list[str]:
    """Every problem in the course after appending ``body`` to the lesson."""
    root = make_course({LESSON_PATH: LESSON + body, **files})
    return [str(p) for p in check_course(root).problems]


def test_the_fixture_course_is_clean(make_course: MakeCourse) -> None:
    assert check_course(make_course()).problems == []


def test_image_without_alt_text(make_course: MakeCourse) -> None:
    body = "\n![](img/a.svg)\n\nText <img src='a.svg'> and <img alt=\"ok\" src='a.svg'>\n"
    found = problems_for(make_course, body, **{"content/test-plan/img/a.svg": "<svg/>"})
    line = len(LESSON.splitlines()) + 2  # the blank line, then the image
    assert [m.split(": ", 1)[0] for m in found] == [
        f"{LESSON_PATH}:{line}:1",
        f"{LESSON_PATH}:{line + 2}:6",
    ]
    assert all("image has no alt text" in m for m in found)


def test_links_and_anchors(make_course: MakeCourse) -> None:
    end = len(LESSON.splitlines())
    body = (
        "\n"
        "[ok](#1-first-idea) [self](#no-such) [file](missing.md)\n"
        "[other](index.md#nowhere) [fine](index.md) [up](../../README.md)\n"
        "[plain](http://www.python.org/) <https://sub.example.com/x> [abs](/x.md)\n"
    )
    found = problems_for(make_course, body)
    assert found == [
        f"{LESSON_PATH}:{end + 2}:21: anchor `#no-such` is not a heading in this page "
        "(use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` "
        "becomes `#2-where-tpus-are-strongest`)",
        f"{LESSON_PATH}:{end + 2}:38: link `missing.md` points to a file that does not exist "
        "(check the path; it is relative to this page's folder)",
        f"{LESSON_PATH}:{end + 3}:1: anchor `#nowhere` is not a heading in "
        "content/test-plan/index.md (use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` "
        "becomes `#2-where-tpus-are-strongest`)",
        f"{LESSON_PATH}:{end + 3}:44: link `../../README.md` leads outside content/ "
        "(the site only holds files under content/; copy the file there or link to it "
        "with its https address)",
        f"{LESSON_PATH}:{end + 4}:1: link `http://www.python.org/` does not use https "
        "(use the page's `https://` address; readers should not be sent over plain http)",
        f"{LESSON_PATH}:{end + 4}:33: link `https://sub.example.com/x` points to "
        "`sub.example.com`, which is a placeholder or local address (link to the real page "
        "you used)",
        f"{LESSON_PATH}:{end + 4}:61: link `/x.md` starts with `/` (link relative to this page, "
        "e.g. `../other-plan/lesson.md`, so the site works from any folder)",
    ]


def test_code_is_skipped(make_course: MakeCourse) -> None:
    body = "\n```md\n![](x.png) [a](http://x) TODO(lessonkit): x\n```\n\n`[b](#nope)` ok\n"
    assert problems_for(make_course, body) == []


@pytest.mark.parametrize(
    ("url", "bad"),
    [
        ("https://www.python.org/", False),
        ("https://example.com/", True),
        ("https://docs.example.org/a", True),
        ("https://example.net", True),
        ("https://localhost:8000/", True),
        ("https://127.0.0.1/", True),
        ("https://site.invalid/", True),
        ("https://notexample.com/", False),
        ("http://www.python.org/", True),
        ("ftp://www.python.org/", True),
        ("https:///path", True),
    ],
)
def test_external_addresses(url: str, bad: bool) -> None:
    assert bool(external_problem(url)[0]) is bad


def test_sources_are_checked_like_links(make_course: MakeCourse) -> None:
    lesson = LESSON.replace("https://www.python.org/", "https://example.com/paper")
    root = make_course({LESSON_PATH: lesson})
    [problem] = check_course(root).problems
    assert problem.line == LESSON.splitlines().index("    url: https://www.python.org/") + 1
    assert problem.column == 10
    assert problem.message.startswith("sources[0].url: link `https://example.com/paper` points")


def test_placeholders_in_front_matter_body_and_bank(make_course: MakeCourse) -> None:
    lesson = LESSON.replace(
        "summary: A lesson for tests.", f'summary: "{PLACEHOLDER}: say what it covers"'
    )
    bank = FULL_BANK.replace("prompt: Pick b.", f'prompt: "{PLACEHOLDER}: ask something"')
    root = make_course(
        {
            LESSON_PATH: lesson + f"\nMore. {PLACEHOLDER}: a paragraph\n",
            "quizzes/lesson-one.yml": bank,
        }
    )
    found = [str(p) for p in check_course(root).problems]
    end = len(LESSON.splitlines())
    hint = " (replace it with your own text; see CONTRIBUTING.md)"
    bank_line = BANK.splitlines().index("    prompt: Pick b.") + 1
    assert found == [
        f"{LESSON_PATH}:4:11: placeholder left from the template: "
        f"{PLACEHOLDER}: say what it covers" + hint,
        f"{LESSON_PATH}:{end + 2}:7: placeholder left from the template: "
        f"{PLACEHOLDER}: a paragraph" + hint,
        f"quizzes/lesson-one.yml:{bank_line}:14: placeholder left from the template: "
        f"{PLACEHOLDER}: ask something" + hint,
    ]


def test_broken_lesson_through_the_cli(make_course: MakeCourse) -> None:
    """Missing insight heading, a bad anchor and a placeholder: one run reports all three."""
    lesson = LESSON.replace("## 2. Second idea", "## 2. Another idea").replace(
        "Opening text.", f"Opening text, see [below](#2-second-idea). {PLACEHOLDER}: intro"
    )
    root = make_course({LESSON_PATH: lesson})
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "validate"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    insight_line = LESSON.splitlines().index("  - Second idea") + 1
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{LESSON_PATH}:{insight_line}:5: insights[1]: `Second idea` has no `##` heading "
        "(each insight is also a `## ` heading, in the same order)",
        # A body link gets a "did you mean", as a question's `section:` does.
        f"{LESSON_PATH}:{BODY}:19: anchor `#2-second-idea` is not a heading in this page "
        "(did you mean `#2-another-idea`?)",
        f"{LESSON_PATH}:{BODY}:44: placeholder left from the template: {PLACEHOLDER}: intro "
        "(replace it with your own text; see CONTRIBUTING.md)",
        "2 problems and 1 placeholder in 1 file",
    ]
