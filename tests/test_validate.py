"""`lessonkit validate` end to end: every problem of a broken course in one run, golden output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK, FULL_BANK, MakeCourse

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def make_course(make_course: MakeCourse) -> MakeCourse:
    """The shared small course, with five questions per insight as validate requires."""

    def make(files: dict[str, str | None] | None = None) -> Path:
        return make_course({"quizzes/lesson-one.yml": FULL_BANK, **(files or {})})

    return make


def run(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {})}
    environment.pop("GITHUB_ACTIONS", None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "lessonkit", *args],
        cwd=cwd, capture_output=True, text=True, env=environment, timeout=60,
    )  # fmt: skip


def test_clean_course_passes(make_course: MakeCourse) -> None:
    root = make_course()
    result = run(root, "validate")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "checked 1 bank (10 questions) and 1 lesson: no problems found\n",
        "",
    )


def test_broken_bank_reports_every_problem(make_course: MakeCourse) -> None:
    broken = (GOLDEN / "broken-bank.yml").read_text()
    root = make_course({"quizzes/lesson-two.yml": broken})
    result = run(root, "validate")
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    expected = (GOLDEN / "broken-bank.txt").read_text()
    assert result.stdout == expected


def test_cross_file_problems(make_course: MakeCourse) -> None:
    other = BANK.replace("lesson: lesson-one", "lesson: lesson-on")
    root = make_course({"quizzes/other.yml": other})
    result = run(root, "validate")
    assert result.stdout.splitlines() == [
        "quizzes/other.yml:1:9: lesson: no lesson `lesson-on` in content/ (did you mean `lesson-one`?)",
        "quizzes/other.yml:5:9: questions[0].id: `q-single` is already used at "
        "quizzes/lesson-one.yml:5 (ids are unique across all banks; give this question a new id)",
        "quizzes/other.yml:15:9: questions[1].id: `q-order` is already used at "
        "quizzes/lesson-one.yml:15 (ids are unique across all banks; give this question a new id)",
        "3 problems in 1 file",
    ]


def test_insight_headings_and_levels(make_course: MakeCourse) -> None:
    from conftest import LESSON

    lesson = LESSON.replace("### A detail", "#### A detail").replace(
        "  - Second idea\n", "  - Third idea\n  - Second idea\n"
    )
    root = make_course({"content/test-plan/lesson-one.md": lesson})
    result = run(root, "validate", "content")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "content/test-plan/lesson-one.md:9:5: insights[1]: `Third idea` has no `##` heading "
        "(each insight is also a `## ` heading, in the same order)",
        "content/test-plan/lesson-one.md:10:5: insight 3 has 0 questions in "
        "quizzes/lesson-one.yml; every insight needs at least 5 (add questions with "
        "`insight: 3`)",
        "content/test-plan/lesson-one.md:25:1: heading level jumps from ## to #### (use ### here)",
        "3 problems in 1 file",
    ]


def test_github_annotations(make_course: MakeCourse) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": FULL_BANK.replace("pass_mark: 0.5", "pass_mark: 2")}
    )
    result = run(root, "validate", env={"GITHUB_ACTIONS": "true"})
    assert result.stdout.splitlines() == [
        "quizzes/lesson-one.yml:3:12: pass_mark: 2 is more than 1: the pass mark is a fraction "
        "of the points, from 0 to 1; e.g. `pass_mark: 0.7` for 70 %",
        "::error file=quizzes/lesson-one.yml,line=3,col=12::pass_mark: 2 is more than 1: the "
        "pass mark is a fraction of the points, from 0 to 1; e.g. `pass_mark: 0.7` for 70 %25",
        "1 problem in 1 file",
    ]


def test_only_named_files_are_reported(make_course: MakeCourse) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": FULL_BANK.replace("pass_mark: 0.5", "pass_mark: 2")}
    )
    result = run(root, "validate", "content")
    assert (result.returncode, result.stdout) == (
        0,
        "checked 0 banks (0 questions) and 1 lesson: no problems found\n",
    )


def test_usage_errors(tmp_path: Path) -> None:
    result = run(tmp_path, "validate")
    assert (result.returncode, result.stderr) == (
        2,
        "lessonkit: no course here: run inside a folder with content/ and quizzes/, "
        "or name the files to check\n",
    )
    result = run(tmp_path, "validate", "nope.yml")
    assert (result.returncode, result.stderr) == (
        2,
        "lessonkit: nope.yml: no such file or folder\n",
    )


def test_bank_outside_a_course_is_checked(tmp_path: Path) -> None:
    (tmp_path / "loose.yml").write_text("- just\n- a list\n")
    result = run(tmp_path, "validate", "loose.yml")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "loose.yml:1:1: the bank must be a mapping of fields, but this is a list "
        "(write `field: value` lines at the top level)",
        "1 problem in 1 file",
    ]


def test_lesson_must_be_a_plain_slug(make_course: MakeCourse) -> None:
    root = make_course(
        {
            "quizzes/lesson-one.yml": FULL_BANK.replace(
                "lesson: lesson-one", "lesson: ../../etc/passwd"
            )
        }
    )
    result = run(root, "validate", "quizzes")
    assert result.stdout.splitlines()[0] == (
        "quizzes/lesson-one.yml:1:9: lesson: `../../etc/passwd` is not in the expected form "
        "(use lower-case words joined by hyphens, e.g. `gpu-cost-basics`)"
    )


@pytest.mark.parametrize(
    ("objectives", "message"),
    [
        (
            "[Explain, Compare]",
            "3 does not exist; the lesson has 2 objectives (use a number from 1 to 2",
        ),
        ("[Explain]", "3 does not exist; the lesson has 1 objective (use 1"),
    ],
)
def test_objective_beyond_the_lessons_objectives(
    make_course: MakeCourse, objectives: str, message: str
) -> None:
    from conftest import LESSON

    lesson = LESSON.replace("objectives: [Explain things]", f"objectives: {objectives}")
    bank = FULL_BANK.replace("    insight: 2\n", "    insight: 2\n    objectives: [1, 3]\n", 1)
    root = make_course({"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": bank})
    result = run(root, "validate")
    assert (result.returncode, result.stdout.splitlines()) == (
        1,
        [
            f"quizzes/lesson-one.yml:19:21: questions[1].objectives[1]: {message} "
            "or add the objective to the lesson's front matter)",
            "1 problem in 1 file",
        ],
    )


def test_folder_with_nothing_to_check(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes/readme.txt").write_text("hi\n")
    result = run(tmp_path, "validate", "notes")
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "nothing to check in notes: no bank (.yml) and no lesson (.md) found\n",
        "",
    )


def test_empty_course_has_nothing_to_check(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "quizzes").mkdir()
    result = run(tmp_path, "validate")
    assert (result.returncode, result.stdout) == (
        1,
        "nothing to check in .: no bank (.yml) and no lesson (.md) found\n",
    )


def test_latin1_lesson_gives_only_the_encoding_error(make_course: MakeCourse) -> None:
    root = make_course()
    page = root / "content/test-plan/lesson-one.md"
    page.write_bytes(page.read_text().replace("Opening text.", "Opening café.").encode("latin-1"))
    result = run(root, "validate")
    assert (result.returncode, result.stdout.splitlines()) == (
        1,
        [
            "content/test-plan/lesson-one.md:18:12: is not valid UTF-8 (byte 0xe9) "
            "(save the file with UTF-8 encoding)",
            "1 problem in 1 file",
        ],
    )


def test_a_course_folder_needs_no_mkdocs_yml(make_course: MakeCourse) -> None:
    from lessonkit.course.folder import find_root, is_course

    root = make_course()
    assert not (root / "mkdocs.yml").exists()
    assert is_course(root)
    assert find_root(root / "content/test-plan") == root
    assert not is_course(root / "content")
    assert run(root / "quizzes", "validate").returncode == 0


def test_a_pass_mark_written_as_a_percentage_says_it_is_a_fraction(
    make_course: MakeCourse,
) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": FULL_BANK.replace("pass_mark: 0.5", "pass_mark: 70")}
    )
    result = run(root, "validate")
    assert result.stdout.splitlines()[0] == (
        "quizzes/lesson-one.yml:3:12: pass_mark: 70 is more than 1: the pass mark is a fraction "
        "of the points, from 0 to 1; write `pass_mark: 0.7` for 70 %"
    )
