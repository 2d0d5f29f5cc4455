"""Waivers: one question or lesson steps outside one rule of taste, says why, and the report
lists it; what keeps a course correct cannot be waived."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.report import render_text, report_course
from lessonkit.authoring.rulebook import check_course

# The first question's two options differ only by a plural, on purpose.
PLURAL = FULL_BANK.replace(
    "      - text: a\n      - text: b\n        correct: true\n",
    "      - text: The input pipeline\n      - text: The input pipelines\n        correct: true\n",
)
WAIVED = PLURAL.replace(
    "    explanation: Because b.\n",
    "    explanation: Because b.\n"
    "    waive:\n"
    "      - rule: similar-options\n"
    "        reason: the plural is what the question tests\n",
)


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _advice(root: Path) -> list[str]:
    return [f.problem.message for f in check_course(root, advice=True).findings]


def test_a_waiver_sets_a_finding_aside_and_the_report_lists_it(make_course: MakeCourse) -> None:
    plain = make_course({"quizzes/lesson-one.yml": PLURAL})
    similar = "questions[0].options[1] is nearly the same as options[0] (97% alike)"
    assert similar in _advice(plain)
    root = make_course({"quizzes/lesson-one.yml": WAIVED})
    course = check_course(root, advice=True)
    assert similar not in [f.problem.message for f in course.findings]
    assert [f.problem.message for f in course.waived] == [similar]
    text = render_text(report_course(course))
    assert (
        "  waivers: 1\n"
        "    quizzes/lesson-one.yml:12:9: questions[0] (q-single) waives `similar-options`: the "
        "plural is what the question tests (waives 1 finding)\n"
    ) in text


def test_a_waiver_that_waives_nothing_says_so(make_course: MakeCourse) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": WAIVED.replace("The input pipelines", "Another answer")}
    )
    [grant] = check_course(root, advice=True).grants
    assert str(grant).endswith("(waives nothing now: remove it)")


def test_a_lesson_can_waive_a_rule_the_course_makes_an_error(make_course: MakeCourse) -> None:
    lesson = LESSON.replace(
        "last_reviewed: 2026-11-20\n",
        "last_reviewed: 2026-11-20\n"
        "waive: [{rule: min-questions, reason: a short recap with one question per idea}]\n",
    )
    root = make_course({"content/test-plan/lesson-one.md": lesson})
    course = check_course(root)
    assert course.problems == []
    assert [f.rule for f in course.waived] == ["min-questions", "min-questions"]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            "answer-key",
            "quizzes/lesson-one.yml:12:15: questions[0].waive[0].rule: `answer-key` keeps every "
            "course correct and cannot be waived (fix what it reports instead)",
        ),
        (
            "similar-option",
            "quizzes/lesson-one.yml:12:15: questions[0].waive[0].rule: no rule `similar-option` "
            "(did you mean `similar-options`?)",
        ),
    ],
)
def test_waivers_of_fixed_or_unknown_rules_are_errors(
    make_course: MakeCourse, rule: str, expected: str
) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": WAIVED.replace("rule: similar-options", f"rule: {rule}")}
    )
    assert [str(p) for p in check_course(root).problems] == [expected]


def test_a_waiver_without_a_reason_is_refused(make_course: MakeCourse) -> None:
    bank = WAIVED.replace("        reason: the plural is what the question tests\n", "")
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert [str(p) for p in check_course(root).problems] == [
        "quizzes/lesson-one.yml:12:9: questions[0].waive[0]: missing required field `reason` "
        "(add `reason: …`)"
    ]
