"""Answer keys the self-test cannot judge: a count's limit, a rounded answer's tolerance,
and the report's advice on text answers narrower than their prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.authoring.report import report_course
from lessonkit.authoring.rulebook import check_course


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course sees them


def numeric(fields: str) -> str:
    """One numeric question on insight 1, its own fields given as YAML lines (6 spaces in)."""
    return (
        "  - id: q-extra\n"
        "    type: numeric\n"
        "    prompt: How many sequences of 16,384 tokens fit at most?\n"
        "    insight: 1\n"
        "    section: 1-first-idea\n"
        "    explanation: 249.4 GB left, 2.684 GB each, so 92 whole sequences fit.\n"
        "    hint: Divide what is left by what one needs.\n"
        "    unit: sequences\n" + fields
    )


# The first line after FULL_BANK's questions and numeric()'s eight lines.
FIRST = FULL_BANK.count("\n") + 9


def problems(make_course: MakeCourse, extra: str) -> list[str]:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + extra})
    return [str(p) for p in check_course(root).problems]


def test_a_maximum_count_that_accepts_one_more_is_a_problem(make_course: MakeCourse) -> None:
    extra = numeric("    answer: 92\n    tolerance: 1\n    bound: maximum\n")
    assert problems(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST + 1}:16: questions[10].tolerance 1 accepts 93 "
        "sequences, more than the maximum 92 that `bound: maximum` allows (make `tolerance` "
        "less than 1, e.g. `tolerance: 0`, so that 93 does not count)"
    ]


def test_a_minimum_with_a_relative_tolerance_that_accepts_one_fewer(
    make_course: MakeCourse,
) -> None:
    extra = numeric("    answer: 40\n    relative_tolerance: 0.05\n    bound: minimum\n")
    assert problems(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST + 1}:25: questions[10].relative_tolerance 0.05 "
        "accepts 39 sequences, fewer than the minimum 40 that `bound: minimum` allows (make "
        "`relative_tolerance` less than 0.025 (1 ÷ 40), or use `tolerance: 0`, so that 39 "
        "does not count)"
    ]


def test_a_limit_must_be_a_whole_number(make_course: MakeCourse) -> None:
    extra = numeric("    answer: 92.5\n    tolerance: 0\n    bound: maximum\n")
    assert problems(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST}:13: questions[10].answer 92.5 is not a whole number, "
        "but `bound: maximum` says it is a whole-number limit (write the whole number that "
        "is the limit, or remove `bound`)"
    ]


@pytest.mark.parametrize(
    "fields",
    [
        "    answer: 92\n    tolerance: 0.5\n    bound: maximum\n",
        "    answer: 92\n    tolerance: 0\n    bound: minimum\n",
        "    answer: 92\n    tolerance: 3\n",  # no bound declared: the report may advise
    ],
)
def test_a_limit_kept_or_not_declared_is_no_problem(make_course: MakeCourse, fields: str) -> None:
    assert problems(make_course, numeric(fields)) == []


@pytest.mark.parametrize(
    ("written", "tolerance", "rounded", "enough"),
    [
        ("0.3333", "0", "0.333", "0.0005"),
        ("0.3333", "0.0001", "0.333", "0.0005"),
        ("246.6", "0", "247", "0.5"),
        ("2.684", "0.001", "2.68", "0.005"),
        ("0.0833", "0", "0.083", "0.0005"),
    ],
)
def test_an_answer_more_precise_than_its_tolerance_is_a_problem(
    make_course: MakeCourse, written: str, tolerance: str, rounded: str, enough: str
) -> None:
    value = written
    extra = numeric(f"    answer: {value}\n    tolerance: {tolerance}\n")
    places = len(value.partition(".")[2])
    said = "with no tolerance" if tolerance == "0" else f"with a tolerance of {tolerance}"
    assert problems(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST}:13: questions[10].answer {value} has {places} decimal "
        f"place{'' if places == 1 else 's'}; {said}, a learner who rounds it to {rounded} "
        f"scores 0 (set `tolerance: {enough}` or more, so that {rounded} counts, or round the "
        "answer to the precision you ask for)"
    ]


@pytest.mark.parametrize(
    "fields",
    [
        "    answer: 0.3333\n    tolerance: 0.0005\n",
        "    answer: 0.3333\n    relative_tolerance: 0.01\n",
        "    answer: 3.10\n    tolerance: 0\n",  # a price: exact, and only 3 digits
        "    answer: 2.5\n    tolerance: 0\n",
        "    answer: 0.001\n    tolerance: 0\n",  # one significant digit: exact
        "    answer: 1.0e-3\n    tolerance: 0\n",
        "    answer: 92\n    tolerance: 0\n",
    ],
)
def test_an_answer_whose_tolerance_allows_its_precision(
    make_course: MakeCourse, fields: str
) -> None:
    assert problems(make_course, numeric(fields)) == []


def test_the_precision_is_read_as_written_not_as_a_float(make_course: MakeCourse) -> None:
    # Read as the float 12.34, this would look rounded to two places and turn away 12.3;
    # written 12.340, rounding it one place sooner gives 12.34 itself.
    assert problems(make_course, numeric("    answer: 12.340\n    tolerance: 0\n")) == []


TEXT = """\
  - id: q-name
    type: text
    prompt: {prompt}
    insight: 2
    section: a-detail
    explanation: The compiler that every TPU program passes through is XLA.
    accept: {accept}
"""


def warnings(make_course: MakeCourse, extra: str) -> list[str]:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + extra})
    [report] = report_course(check_course(root, advice=True))
    return [str(w) for w in report.warnings if "questions[10]" in str(w)]


def test_report_warns_when_the_prompt_invites_a_form_that_is_not_accepted(
    make_course: MakeCourse,
) -> None:
    prompt = "Which compiler? Its abbreviation or its full name will do."
    extra = TEXT.format(prompt=prompt, accept="[XLA]")
    assert warnings(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST - 2}:13: questions[10]'s prompt invites another "
        'form ("abbreviation"), but `accept` has only one-word forms: `XLA` (accept each '
        "form the prompt allows, e.g. the abbreviation and the full name)"
    ]
    both = TEXT.format(prompt=prompt, accept="[XLA, Accelerated Linear Algebra]")
    assert warnings(make_course, both) == []


@pytest.mark.parametrize("prompt", ["Which compiler?", "Its abbreviation or full name?"])
def test_report_warns_about_two_forms_in_one_accepted_answer(
    make_course: MakeCourse, prompt: str
) -> None:
    extra = TEXT.format(prompt=prompt, accept="[XLA (Accelerated Linear Algebra)]")
    assert warnings(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST - 2}:14: questions[10].accept[0] `XLA (Accelerated "
        "Linear Algebra)` puts two forms in one answer, so a learner who types either alone "
        "scores 0 (accept `XLA` and `Accelerated Linear Algebra` separately; `XLA "
        "(Accelerated Linear Algebra)` then counts too)"
    ]


def test_report_advises_a_bound_where_a_count_limit_accepts_one_more(
    make_course: MakeCourse,
) -> None:
    extra = numeric("    answer: 92\n    tolerance: 1\n")
    assert warnings(make_course, extra) == [
        f"quizzes/lesson-one.yml:{FIRST + 1}:16: questions[10] asks for a count that reads "
        'like a limit ("fit"), and its `tolerance` accepts 93 (if no whole number past 92 is '
        "right, set `bound: maximum` and a tolerance below 1; `validate` then keeps it so)"
    ]
