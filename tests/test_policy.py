"""A course's own policy, `lessonkit.yml`: defaults for any course, this repository's house
style, the rules no course can change, and the file's own problems at file:line:col."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK, MakeCourse
from lessonkit.authoring.policy import Policy
from lessonkit.authoring.rulebook import RULES

LESSONKIT = str(Path(sys.executable).parent / "lessonkit")

# Two questions on each insight: what a course written elsewhere typically has.
TWO_PER_INSIGHT = (
    BANK
    + """\
  - id: q-second-on-one
    type: true_false
    prompt: A second statement about the first idea.
    insight: 1
    section: 1-first-idea
    explanation: Because the lesson says so in its first section.
    answer: true
  - id: q-second-on-two
    type: true_false
    prompt: A second statement about the second idea.
    insight: 2
    section: 2-second-idea
    explanation: Because the lesson says so in its second section.
    answer: false
"""
)


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return subprocess.run(
        [LESSONKIT, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def test_two_questions_per_insight_pass_by_default_and_fail_the_house_style(
    make_course: MakeCourse,
) -> None:
    general = make_course({"quizzes/lesson-one.yml": TWO_PER_INSIGHT, "lessonkit.yml": None})
    result = run(general, "validate", "--strict")
    assert (result.returncode, result.stdout) == (
        0,
        "checked 1 bank (4 questions) and 1 lesson: no problems found\n",
    )
    house_policy = (Path(__file__).parents[1] / "lessonkit.yml").read_text()
    schema_line = "# yaml-language-server: $schema=../schemas/quiz-bank.schema.json\n"
    house = make_course(
        {"quizzes/lesson-one.yml": schema_line + TWO_PER_INSIGHT, "lessonkit.yml": house_policy}
    )
    result = run(house, "validate")
    assert result.returncode == 1
    # Today's messages, word for word.
    assert result.stdout.splitlines() == [
        "content/test-plan/lesson-one.md:8:5: insight 1 has 2 questions in "
        "quizzes/lesson-one.yml; every insight needs at least 5 (add questions with "
        "`insight: 1`)",
        "content/test-plan/lesson-one.md:9:5: insight 2 has 2 questions in "
        "quizzes/lesson-one.yml; every insight needs at least 5 (add questions with "
        "`insight: 2`)",
        "2 problems in 1 file",
    ]


def test_a_warning_fails_only_a_strict_check(make_course: MakeCourse) -> None:
    root = make_course(
        {"lessonkit.yml": "rules:\n  min-questions: {level: warn, per_insight: 3}\n"}
    )
    relaxed = run(root, "validate")
    assert relaxed.returncode == 0
    assert relaxed.stdout.splitlines() == [
        "content/test-plan/lesson-one.md:8:5: warning: insight 1 has 1 question in "
        "quizzes/lesson-one.yml; every insight needs at least 3 (add questions with "
        "`insight: 1`)",
        "content/test-plan/lesson-one.md:9:5: warning: insight 2 has 1 question in "
        "quizzes/lesson-one.yml; every insight needs at least 3 (add questions with "
        "`insight: 2`)",
        "checked 1 bank (2 questions) and 1 lesson: no problems found, but 2 warnings "
        "(run with --strict to fail on them)",
    ]
    strict = run(root, "validate", "--strict")
    assert strict.returncode == 1
    assert strict.stdout.splitlines()[-1].endswith("but 2 warnings (which fail with --strict)")
    github = run(root, "validate", "--format", "github")
    assert "::warning file=content/test-plan/lesson-one.md,line=8,col=5::insight 1" in github.stdout


def test_a_rule_switched_off_is_not_checked(make_course: MakeCourse) -> None:
    root = make_course({"lessonkit.yml": "rules:\n  min-questions: {level: off}\n"})
    assert run(root, "validate", "--strict").returncode == 0


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (
            "rules:\n  answer-key: {level: off}\n",
            "lessonkit.yml:2:3: rules: `answer-key` keeps every course correct, so no course "
            "can switch it off or change it (remove `answer-key`; `lessonkit rules` shows such "
            "rules as `always`)",
        ),
        (
            "rules:\n  min-question: {level: warn}\n",
            "lessonkit.yml:2:3: rules.min-question: unknown field `min-question` (did you mean "
            "`min-questions`?)",
        ),
        (
            "rules:\n  min-questions: {level: loud}\n",
            "lessonkit.yml:2:26: rules.min-questions.level: `loud` is not allowed (use "
            "'error', 'warn', 'advice' or 'off')",
        ),
        (
            "rules:\n  min-questions: {per_insight: '5'}\n",
            "lessonkit.yml:2:32: rules.min-questions.per_insight: must be a whole number, not "
            "`5` (write digits without quotes, e.g. 2 or 0.5)",
        ),
        (
            "rules:\n  sections: {required: Glossary}\n",
            "lessonkit.yml:2:24: rules.sections.required: must be a list, not text (put each "
            "item on its own line starting with `- `)",
        ),
        ("rules: [\n", "lessonkit.yml:2:1: invalid YAML: did not find expected node content"),
    ],
)
def test_problems_in_the_policy_file_are_reported_at_file_line_col(
    make_course: MakeCourse, policy: str, expected: str
) -> None:
    root = make_course({"lessonkit.yml": policy})
    result = run(root, "validate")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith(expected), result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_rules_shows_each_rule_with_this_courses_setting(make_course: MakeCourse) -> None:
    root = make_course()
    result = run(root, "rules", "min-questions", "answer-key")
    assert result.returncode == 0
    blocks = result.stdout.split("\n\n")
    assert blocks[0].startswith("The rule book, as this course's lessonkit.yml sets it. Levels:")
    assert blocks[1:] == [
        "answer-key: always\n"
        "  The answer key earns full points and some wrong answer earns less.\n"
        "  Why: a key that fails its own question marks every learner wrong.",
        "min-questions: error (default: warn)\n"
        "  Each insight has at least 5 questions.\n"
        "  Why: a quiz samples each insight fairly, and a retry gets new questions.\n"
        "  Settings: per_insight: 5 (default: 2)\n",
    ]
    unknown = run(root, "rules", "min-question")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "lessonkit: no rule `min-question`; did you mean `min-questions`?\n",
    )


def test_rules_outside_a_course_shows_the_defaults(tmp_path: Path) -> None:
    result = run(tmp_path, "rules", "min-questions")
    assert result.stdout == (
        "The rule book, with its defaults (this course has no lessonkit.yml). Levels:\n"
        "  always  keeps every course correct; no course can change it\n"
        "  error   fails `lessonkit validate`, CI and the site build\n"
        "  warn    printed by `lessonkit validate`; fails `validate --strict` and the strict "
        "site build\n"
        "  advice  shown by `lessonkit report`; never fails anything\n"
        "  off     not checked\n\n"
        "min-questions: warn\n"
        "  Each insight has at least 2 questions.\n"
        "  Why: a quiz samples each insight fairly, and a retry gets new questions.\n"
        "  Settings: per_insight: 2\n"
    )


def test_each_rules_defaults_as_declared_are_valid_settings() -> None:
    """A course without a policy file runs each rule on its defaults as declared, not
    validated (``Policy.settings``): they must be what validating them gives."""
    for rule in RULES:
        declared = Policy("").settings(rule)
        validated = rule.settings.model_validate({})
        assert (type(declared), declared.model_dump()) == (type(validated), validated.model_dump())
