"""Parameters in the bank format: every mistake, and every hostile formula, reported at the
file, line and column where it is, with the place inside the formula where it can be."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lessonkit.bank.loader import load_bank
from lessonkit.errors import ContentError

HEAD = """\
lesson: lesson-one
title: T
pass_mark: 0.5
questions:
  - id: q
    type: numeric
    prompt: "{a} and {b}?"
    insight: 1
    section: s
    explanation: Because.
"""


def problems(tmp_path: Path, body: str, head: str = HEAD) -> list[str]:
    path = tmp_path / "bank.yml"
    path.write_text(head + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    with pytest.raises(ContentError) as failed:
        load_bank(path)
    return [str(p).replace(str(tmp_path) + "/", "") for p in failed.value.problems]


def loads(tmp_path: Path, body: str) -> None:
    path = tmp_path / "bank.yml"
    path.write_text(HEAD + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    load_bank(path)


PARAMS = """\
params:
  a: {values: [1, 2]}
  b: {min: 1, max: 3, step: 1}
"""


# Each: the answer line as written, then the problem, pointing into the formula.
HOSTILE = [
    ('answer: "a.__class__"', "14:15: questions[0].answer: attribute access (`.`) is not allowed"),
    ("answer: a ** 99999", "14:18: questions[0].answer: the exponent 99999 is too large"),
    ("answer: 9 ** 9 ** 9", "14:18: questions[0].answer: the exponent 387420489 is too large"),
    (
        "answer: " + "(" * 210 + "a" + ")" * 210,
        "14:213: questions[0].answer: the formula is nested too deeply",
    ),
    ("answer: " + "-" * 50 + "a", "14:54: questions[0].answer: the formula is nested more than 40"),
    ("answer: a / c", "14:17: questions[0].answer: unknown name `c`"),
    ("answer: __import__('os')", "14:13: questions[0].answer: `__import__` is not a function"),
    ("answer: '[x for x in a]'", "14:14: questions[0].answer: a list is not allowed"),
]


@pytest.mark.parametrize(("answer", "expected"), HOSTILE, ids=[h[0][8:30] for h in HOSTILE])
def test_a_hostile_answer_is_refused_at_its_place(
    tmp_path: Path, answer: str, expected: str
) -> None:
    found = problems(tmp_path, PARAMS + answer + "\n")
    assert len(found) == 1
    assert found[0].startswith("bank.yml:" + expected), found


def test_each_kind_of_formula_points_into_itself(tmp_path: Path) -> None:
    derived = PARAMS + 'derived:\n  r: {formula: "a / bb"}\nanswer: r\n'
    assert problems(tmp_path, derived) == [
        "bank.yml:15:25: questions[0].derived.r.formula: unknown name `bb` (did you mean `b`?)"
    ]
    constraint = PARAMS + "constraints:\n  - a * b < limit\nanswer: a\n"
    assert problems(tmp_path, constraint) == [
        "bank.yml:15:17: questions[0].constraints[0]: unknown name `limit` "
        "(declare it under `params` or `derived`; known here: `a`, `b`)"
    ]
    later = PARAMS + "derived:\n  r: {formula: s * 2}\n  s: {formula: a}\nanswer: r\n"
    assert problems(tmp_path, later) == [
        "bank.yml:15:20: questions[0].derived.r.formula: `s` is derived further down "
        "(move it above this one)"
    ]


def test_a_placeholder_with_no_value_is_pointed_at_in_the_text(tmp_path: Path) -> None:
    head = HEAD.replace('prompt: "{a} and {b}?"', 'prompt: "{a} and {bee}?"')
    assert problems(tmp_path, PARAMS + "answer: a\n", head) == [
        "bank.yml:7:22: questions[0].prompt: unknown name `{bee}` (declare it under `params` "
        "or `derived`; known here: `a`, `b`; write `{{` for a literal brace)"
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "params:\n  a: {values: [1]}\n  value: {values: [1]}\nanswer: a\n",
            "bank.yml:13:7: questions[0].params.value: `value` is reserved for an option's own value",
        ),
        (
            "params:\n  a: {values: [1]}\n  Big: {values: [1]}\nanswer: a\n",
            "bank.yml:13:7: questions[0].params.Big: `Big` is not a name formulas can use",
        ),
        (
            "params:\n  a: {values: [1], min: 1, max: 2, step: 1}\nanswer: a\n",
            "bank.yml:12:10: questions[0].params.a: give `values`, or `min`, `max` and `step`, or",
        ),
        (
            "params:\n  a: {min: 5, max: 1, step: 1}\nanswer: a\n",
            "bank.yml:12:10: questions[0].params.a: `max` is below `min`: the range is empty",
        ),
        (
            "params:\n  a: {min: 0, max: 1, step: 0.000001}\nanswer: a\n",
            "bank.yml:12:10: questions[0].params.a: the range has 1,000,001 values, over 100,000",
        ),
        (
            "params:\n  a: {values: [1], decimals: 1, significant: 2}\nanswer: a\n",
            "bank.yml:12:10: questions[0].params.a: give `decimals` or `significant`, not both",
        ),
        (
            "params:\n  a: {values: [1, 2]}\nanswer: 2\n",
            "bank.yml:13:13: questions[0].answer: the answer is a fixed number, but the question draws",
        ),
        (
            "answer: a * 2\n",
            "bank.yml:11:13: questions[0].answer: the answer is a formula, but the question has no `params`",
        ),
        (
            "params:\n  a: {values: [1]}\nnumbers_before: {b: 1}\nanswer: a\n",
            "bank.yml:13:22: questions[0].numbers_before.b: `b` is not a parameter",
        ),
        (
            "params:\n  chip:\n    cases:\n      X: {t: 1}\n      Y: {u: 2}\nanswer: t\n",
            "bank.yml:13:9: questions[0].params.chip: every case must give the same numbers",
        ),
        (
            "params:\n  chip:\n    cases:\n      X: {t: 1}\nanswer: chip * 2\n",
            "bank.yml:15:13: questions[0].answer: `chip` names a case, which is text",
        ),
        ("answer: true\n", "bank.yml:11:13: questions[0].answer: must be a number, not true"),
    ],
)
def test_mistakes_in_parameters_are_reported_where_they_are(
    tmp_path: Path, body: str, expected: str
) -> None:
    head = HEAD.replace('"{a} and {b}?"', '"{a}?"')
    found = problems(tmp_path, body, head)
    assert len(found) == 1 and found[0].startswith(expected), found


def test_an_option_with_a_value_must_show_it(tmp_path: Path) -> None:
    head = HEAD.replace("type: numeric", "type: single")
    body = PARAMS + (
        "options:\n  - {text: 'right', value: a * b, correct: true}\n  - {text: 'no', value: a}\n"
    )
    assert problems(tmp_path, body, head) == [
        "bank.yml:15:16: questions[0].options[0].text: the option has a `value` its text does "
        "not show (write `{value}` in the text where the number goes)"
    ]
    fixed = body.replace("'right'", "'{value} ms'").replace("'no'", "'{value} ms'")
    (tmp_path / "bank.yml").write_text(head + textwrap.indent(fixed, "    "), encoding="utf-8")
    load_bank(tmp_path / "bank.yml")  # the same text twice is fine: their values differ


def test_a_question_without_params_is_read_as_before(tmp_path: Path) -> None:
    head = HEAD.replace('"{a} and {b}?"', '"What is {x} in Python?"')
    loads(tmp_path, "answer: 2\ntolerance: 0\n")  # braces in a fixed question are just text
    (tmp_path / "bank.yml").write_text(head + "    answer: 2\n", encoding="utf-8")
    assert load_bank(tmp_path / "bank.yml").questions[0].prompt == "What is {x} in Python?"
