"""Values YAML reads otherwise than the author meant, each with a hint that says what to
write: `NULL` (YAML's word for none), a percentage where a share belongs, a date in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BANK, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course

NUMERIC = """\
  - id: q-share
    type: numeric
    prompt: How many?
    insight: 1
    section: 1-first-idea
    explanation: Because.
    answer: 40
    relative_tolerance: {tolerance}
"""


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"quizzes/lesson-one.yml": BANK.replace("      - text: a\n", "      - text: NULL\n")},
            "quizzes/lesson-one.yml:12:15: questions[0].options[0].text: `NULL` is YAML's word "
            "for no value, so this is empty (to write the text NULL, quote it: 'NULL')",
        ),
        (
            {"quizzes/lesson-one.yml": BANK.replace("      - text: a\n", "      - text: ~\n")},
            "quizzes/lesson-one.yml:12:15: questions[0].options[0].text: `~` is YAML's word "
            "for no value, so this is empty (to write the text ~, quote it: '~')",
        ),
        (
            {"quizzes/lesson-one.yml": BANK + NUMERIC.format(tolerance=5)},
            "quizzes/lesson-one.yml:29:25: questions[2].relative_tolerance: 5 is more than 1, "
            "the most it can be: it is a share, not a percentage (did you mean 5% (0.05)? "
            "write `relative_tolerance: 0.05`)",
        ),
        (
            {"quizzes/lesson-one.yml": BANK + NUMERIC.format(tolerance="2.5%")},
            "quizzes/lesson-one.yml:29:25: questions[2].relative_tolerance: must be a number, "
            "not `2.5%` (did you mean 2.5% (0.025)? write `relative_tolerance: 0.025`)",
        ),
        (
            {"content/test-plan/lesson-one.md": LESSON.replace(
                "last_reviewed: 2026-11-20", "last_reviewed: November 2026")},
            "content/test-plan/lesson-one.md:16:16: last_reviewed: `November 2026` is not a month or "
            "a day (write `2026-11`)",
        ),
        (
            {"content/test-plan/lesson-one.md": LESSON.replace(
                "last_reviewed: 2026-11-20", "last_reviewed: Nov 20, 2026")},
            "content/test-plan/lesson-one.md:16:16: last_reviewed: `Nov 20, 2026` is not a month or "
            "a day (write `2026-11-20`)",
        ),
        (
            {"content/test-plan/lesson-one.md": LESSON.replace(
                "accessed: 2026-11-01", "accessed: November 2026")},
            "content/test-plan/lesson-one.md:15:15: sources[0].accessed: `November 2026` is not "
            "a date (write the day, e.g. `2026-11-01` for a day in that month)",
        ),
    ],
    ids=["NULL", "tilde", "percent-number", "percent-text", "month-words", "day-words",
         "accessed-words"],
)  # fmt: skip
def test_each_value_gets_a_hint_that_says_what_to_write(
    make_course: MakeCourse, files: dict[str, str], expected: str
) -> None:
    root = make_course(files)
    assert [str(p) for p in check_course(root).problems] == [expected]


def test_a_quoted_null_is_text(make_course: MakeCourse) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": BANK.replace("      - text: a\n", "      - text: 'NULL'\n")}
    )
    assert [p for p in check_course(root).problems if p.path.endswith(".yml")] == []
