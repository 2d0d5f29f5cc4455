"""Markers: how a comment is read, and what `lessonkit validate` says about a lesson's markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course
from lessonkit.course import markers
from lessonkit.course.markers import Marker, MarkerError

LESSON_PATH = "content/test-plan/lesson-one.md"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<!-- lessonkit:check gpu-vs-tpu 1 -->", Marker("check", "gpu-vs-tpu", (1,), "")),
        ("<!--lessonkit:check gpu-vs-tpu 3 1 2-->  ", Marker("check", "gpu-vs-tpu", (3, 1, 2), "")),
        ("<!-- lessonkit:quiz gpu-vs-tpu -->", Marker("quiz", "gpu-vs-tpu", (), "")),
        ("<!-- lessonkit:lessons ai-hardware -->", Marker("lessons", "ai-hardware", (), "")),
        ("<!-- lessonkit:install -->", Marker("install", "", (), "")),
    ],
)
def test_a_marker_is_read_with_what_it_names(line: str, expected: Marker) -> None:
    found = markers.read(line)
    assert found == expected._replace(text=line.strip())


@pytest.mark.parametrize(
    "line",
    [
        "Text <!-- lessonkit:check gpu-vs-tpu 1 -->",  # not alone on its line
        "    <!-- lessonkit:check gpu-vs-tpu 1 -->",  # indented: code, or inside a list
        "<!-- a comment about lessonkit:check -->",
        "<!-- lessonkit:check gpu-vs-tpu 1 --> and text",
    ],
)
def test_other_lines_are_not_markers(line: str) -> None:
    assert markers.read(line) is None


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            "<!-- lessonkit:checks x 1 -->",
            "unknown marker `lessonkit:checks`",
            "use one of `lessonkit:check`, `lessonkit:quiz`, `lessonkit:lessons`, "
            "`lessonkit:install`, `lessonkit:facts`",
        ),
        (
            "<!-- lessonkit:check 1 2 -->",
            "the marker names no bank",
            "write `<!-- lessonkit:check BANK 1 -->`",
        ),
        (
            "<!-- lessonkit:check gpu-vs-tpu -->",
            "a check marker names the insights it places, by number",
            "write `<!-- lessonkit:check gpu-vs-tpu 1 -->`, or several numbers for a review",
        ),
        (
            "<!-- lessonkit:check gpu-vs-tpu 0 -->",
            "a check marker names the insights it places, by number",
            "write `<!-- lessonkit:check gpu-vs-tpu 1 -->`, or several numbers for a review",
        ),
        ("<!-- lessonkit:check g 1 1 -->", "an insight is named twice", "name each insight once"),
        (
            "<!-- lessonkit:quiz gpu-vs-tpu 1 -->",
            "only the bank follows `lessonkit:quiz`",
            "write `<!-- lessonkit:quiz BANK -->`",
        ),
        (
            "<!-- lessonkit:install now -->",
            "this marker takes nothing after it",
            "write `<!-- lessonkit:install -->`",
        ),
    ],
)
def test_a_malformed_marker_says_what_to_write(line: str, message: str, hint: str) -> None:
    with pytest.raises(MarkerError) as caught:
        markers.read(line)
    assert (caught.value.message, caught.value.hint) == (message, hint)


@pytest.fixture(autouse=True)
def in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course folder would


def problems(root: Path) -> list[str]:
    return [str(p) for p in check_course(root).problems]


def lesson_with(old: str, new: str) -> str:
    assert old in LESSON
    return LESSON.replace(old, new)


def line_of(text: str, lesson: str) -> int:
    return lesson.splitlines().index(text) + 1


def test_the_fixture_lesson_places_everything(make_course: MakeCourse) -> None:
    assert problems(make_course({"quizzes/lesson-one.yml": FULL_BANK})) == []


def test_a_missing_marker_is_reported_at_its_insight(make_course: MakeCourse) -> None:
    lesson = lesson_with("<!-- lessonkit:check lesson-one 2 -->\n", "")
    lesson = lesson.replace("<!-- lessonkit:quiz lesson-one -->\n", "")
    root = make_course({LESSON_PATH: lesson, "quizzes/lesson-one.yml": FULL_BANK})
    end = len(lesson.splitlines())
    assert problems(root) == [
        f"{LESSON_PATH}:{line_of('## 2. Second idea', lesson)}:1: insight 2's self-check has "
        "no marker of its own; this course's `markers` rule asks for one (write "
        "`<!-- lessonkit:check lesson-one 2 -->` on a line of its own where it should appear, usually at the end of its section)",
        f"{LESSON_PATH}:{end}:1: the call to action for the terminal quiz has no marker "
        "of its own; this course's `markers` rule asks for one (write `<!-- lessonkit:quiz lesson-one -->` on a line of its own, usually before the "
        "footnotes)",
    ]


def test_markers_naming_another_bank_or_a_missing_insight(make_course: MakeCourse) -> None:
    lesson = lesson_with(
        "<!-- lessonkit:check lesson-one 2 -->",
        "<!-- lessonkit:check lesson-two 2 -->\n<!-- lessonkit:check lesson-one 1 5 -->",
    )
    root = make_course({LESSON_PATH: lesson, "quizzes/lesson-one.yml": FULL_BANK})
    other = line_of("<!-- lessonkit:check lesson-two 2 -->", lesson)
    assert problems(root) == [
        f"{LESSON_PATH}:{line_of('## 2. Second idea', lesson)}:1: insight 2's self-check has "
        "no marker of its own; this course's `markers` rule asks for one (write "
        "`<!-- lessonkit:check lesson-one 2 -->` on a line of its own where it should appear, usually at the end of its section)",
        f"{LESSON_PATH}:{other}:1: the marker names bank `lesson-two`, but this lesson's quiz "
        "is `lesson-one` (write `<!-- lessonkit:check lesson-one 2 -->`)",
        f"{LESSON_PATH}:{other + 1}:1: insight 1's self-check is placed twice (keep the one "
        f"on line {line_of('<!-- lessonkit:check lesson-one 1 -->', lesson)})",
        f"{LESSON_PATH}:{other + 1}:1: insight 5 has no questions in the bank (name an "
        "insight with questions (1, 2), or add questions with `insight: 5`)",
    ]


def test_a_malformed_marker_and_a_second_title(make_course: MakeCourse) -> None:
    lesson = lesson_with(
        "Opening text.", "# Lesson one\n\nOpening text.\n\n<!-- lessonkit:chek -->"
    )
    root = make_course({LESSON_PATH: lesson, "quizzes/lesson-one.yml": FULL_BANK})
    title = line_of("# Lesson one", lesson)
    assert problems(root) == [
        f"{LESSON_PATH}:{title}:1: `# Lesson one` is a second title: the page's title is "
        "`title:` in the front matter (make it a `##` section, or move its words into `title:`)",
        f"{LESSON_PATH}:{title + 4}:1: `<!-- lessonkit:chek -->`: unknown marker "
        "`lessonkit:chek` (use one of `lessonkit:check`, `lessonkit:quiz`, `lessonkit:lessons`, "
        "`lessonkit:install`, `lessonkit:facts`)",
    ]


def test_a_marker_quoted_in_a_code_block_is_an_example(make_course: MakeCourse) -> None:
    body = "\n```markdown\n<!-- lessonkit:check lesson-one 9 -->\n<!-- lessonkit:nope -->\n```\n"
    root = make_course({LESSON_PATH: LESSON + body, "quizzes/lesson-one.yml": FULL_BANK})
    assert problems(root) == []
