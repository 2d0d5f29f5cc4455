"""Table-driven tests of the grader: every type, partial credit, edge cases, key hashes."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import TypeAdapter

from lessonkit.bank.questions import Question as Model
from lessonkit.grading.credit import Grade, Response
from lessonkit.questiontypes.base import RuntimeQuestion as Question
from lessonkit.questiontypes.registry import (
    answer_key,
    as_json,
    grade,
    key_hash,
    runtime,
    wrong_responses,
)

QUESTION: TypeAdapter[Model] = TypeAdapter(Model)
BASE = {"prompt": "P?", "insight": 1, "section": "s", "explanation": "Because."}


def make(**fields: Any) -> Question:
    """A question validated by its model, as a bank's are, in its run-time form."""
    return runtime(QUESTION.validate_python({"id": "q", **BASE, **fields}))


SINGLE = make(
    type="single",
    options=[
        {"text": "A", "feedback": "A is slow."},
        {"text": "B", "correct": True, "feedback": "Yes."},
        {"text": "C"},
    ],
)
MULTIPLE = make(
    type="multiple",
    points=3,
    options=[
        {"text": "A", "correct": True},
        {"text": "B", "correct": True, "feedback": "B fb"},
        {"text": "C", "correct": True},
        {"text": "D", "feedback": "D fb"},
        {"text": "E"},
    ],
)
TRUE_FALSE = make(type="true_false", answer=False)
NUMERIC_ABS = make(type="numeric", answer=0.3, tolerance=0.1, unit="ms")
NUMERIC_REL = make(type="numeric", answer=200, relative_tolerance=0.05)
NUMERIC_EXACT = make(type="numeric", answer=42)
TEXT = make(type="text", accept=["systolic array", "fine-tuning"], patterns=[r"MXUs?"])
TEXT_CASE = make(type="text", accept=["HBM"], case_sensitive=True)
XLA = make(type="text", accept=["XLA", "Accelerated Linear Algebra"], patterns=[r"Open ?XLA"])
PERCENT = make(type="numeric", answer=21.2, tolerance=0.6, unit="%")
SHARE_NOTE = "The unit is %: your 0.21 means 0.21 %. A share of 0.21 is 21 %."
ORDER = make(type="order", points=2, items=["a", "b", "c", "d"])
MATCH = make(
    type="match",
    pairs=[{"left": "GPU", "right": "SIMT"}, {"left": "TPU", "right": "MXU"}],
    distractors=["CPU"],
)


# "systolic array" typed in full-width letters, as some East Asian input methods do.
FULL_WIDTH = "".join(chr(ord(c) + 0xFEE0) if c != " " else c for c in "systolic array")


def g(score: float, max_score: float, correct: bool, *feedback: str) -> Grade:
    return Grade(score, max_score, correct, tuple(feedback))


CASES: list[tuple[str, Question, Response, Grade]] = [
    ("single right", SINGLE, 1, g(1, 1, True, "Yes.")),
    ("single wrong with feedback", SINGLE, 0, g(0, 1, False, "A is slow.")),
    ("single wrong no feedback", SINGLE, 2, g(0, 1, False)),
    ("multiple all right", MULTIPLE, frozenset({0, 1, 2}), g(3, 3, True, "B fb")),
    ("multiple two of three", MULTIPLE, frozenset({0, 2}), g(2, 3, False)),
    ("multiple right minus wrong", MULTIPLE, frozenset({0, 1, 3}), g(1, 3, False, "B fb", "D fb")),
    ("multiple floored at zero", MULTIPLE, frozenset({0, 3, 4}), g(0, 3, False, "D fb")),
    (
        "multiple everything earns nothing extra",
        MULTIPLE,
        frozenset(range(5)),
        g(1, 3, False, "B fb", "D fb"),
    ),
    ("multiple empty", MULTIPLE, frozenset(), g(0, 3, False)),
    ("true_false right", TRUE_FALSE, False, g(1, 1, True)),
    ("true_false wrong", TRUE_FALSE, True, g(0, 1, False)),
    ("numeric exact", NUMERIC_ABS, 0.3, g(1, 1, True)),
    ("numeric at the tolerance edge despite binary rounding", NUMERIC_ABS, 0.4, g(1, 1, True)),
    ("numeric below the edge", NUMERIC_ABS, 0.2, g(1, 1, True)),
    ("numeric just outside", NUMERIC_ABS, 0.40001, g(0, 1, False)),
    ("numeric int accepted", NUMERIC_ABS, 0, g(0, 1, False)),
    ("numeric relative inside", NUMERIC_REL, 209.9, g(1, 1, True)),
    ("numeric relative outside", NUMERIC_REL, 211, g(0, 1, False)),
    ("numeric exact only", NUMERIC_EXACT, 42.0, g(1, 1, True)),
    ("numeric exact miss", NUMERIC_EXACT, 42.001, g(0, 1, False)),
    ("text accepted", TEXT, "systolic array", g(1, 1, True)),
    ("text stray whitespace and case", TEXT, "  Systolic\t  ARRAY \n", g(1, 1, True)),
    ("text ligature fi (NFKC)", TEXT, "\ufb01ne-tuning", g(1, 1, True)),
    ("text full-width letters (NFKC)", TEXT, FULL_WIDTH, g(1, 1, True)),
    ("text pattern ignores case", TEXT, "mxus", g(1, 1, True)),
    ("text pattern must match whole", TEXT, "many MXUs", g(0, 1, False)),
    ("text empty", TEXT, "", g(0, 1, False)),
    ("text wrong", TEXT, "vector unit", g(0, 1, False)),
    ("text case sensitive right", TEXT_CASE, " HBM ", g(1, 1, True)),
    ("text case sensitive wrong", TEXT_CASE, "hbm", g(0, 1, False)),
    ("text full stop", XLA, "XLA.", g(1, 1, True)),
    ("text end punctuation and spaces", XLA, "xla ?! ", g(1, 1, True)),
    ("text quoted", XLA, "\u201cXLA\u201d", g(1, 1, True)),
    ("text leading article", XLA, "The XLA", g(1, 1, True)),
    ("text article and full stop on a pattern", XLA, "the OpenXLA.", g(1, 1, True)),
    ("text both forms", XLA, "XLA (Accelerated Linear Algebra)", g(1, 1, True)),
    ("text both forms the other way", XLA, "Accelerated Linear Algebra (OpenXLA).", g(1, 1, True)),
    ("text an extra word is not normalised", XLA, "the XLA compiler", g(0, 1, False)),
    ("text both forms need both accepted", XLA, "XLA (a compiler)", g(0, 1, False)),
    ("text case sensitive keeps case under an article", TEXT_CASE, "the hbm.", g(0, 1, False)),
    ("text case sensitive full stop", TEXT_CASE, "The HBM.", g(1, 1, True)),
    ("numeric share for a percentage", PERCENT, 0.21, g(0, 1, False, SHARE_NOTE)),
    ("numeric percentage right", PERCENT, 21.0, g(1, 1, True)),
    ("numeric percentage wrong, not a share", PERCENT, 30.0, g(0, 1, False)),
    ("order right", ORDER, (0, 1, 2, 3), g(2, 2, True)),
    ("order reversed keeps no pair", ORDER, (3, 2, 1, 0), g(0, 2, False)),
    ("order one pair kept", ORDER, (0, 1, 3, 2), g(2 / 3, 2, False)),
    ("order rotated keeps two pairs", ORDER, (1, 2, 3, 0), g(4 / 3, 2, False)),
    ("match right", MATCH, (0, 1), g(1, 1, True)),
    ("match half", MATCH, (0, 2), g(0.5, 1, False)),
    ("match swapped", MATCH, (1, 0), g(0, 1, False)),
    ("match same partner twice", MATCH, (1, 1), g(0.5, 1, False)),
]


@pytest.mark.parametrize(
    ("question", "response", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_grade(question: Question, response: Response, expected: Grade) -> None:
    got = grade(question, response)
    assert got.score == pytest.approx(expected.score)
    assert (got.max_score, got.correct, got.feedback) == (
        expected.max_score,
        expected.correct,
        expected.feedback,
    )


def test_a_share_is_no_hint_where_the_answer_is_below_one_percent() -> None:
    small = make(type="numeric", answer=0.5, tolerance=0.1, unit="%")
    assert grade(small, 0.3) == g(0, 1, False)


def test_combining_accent_matches_precomposed() -> None:
    question = make(type="text", accept=["caf\u00e9"])
    assert grade(question, "cafe\u0301").correct


REFUSED: list[tuple[str, Question, Any, type[Exception]]] = [
    ("numeric NaN", NUMERIC_ABS, math.nan, ValueError),
    ("numeric infinity", NUMERIC_ABS, math.inf, ValueError),
    ("numeric minus infinity", NUMERIC_EXACT, -math.inf, ValueError),
    ("numeric bool", NUMERIC_EXACT, True, TypeError),
    ("numeric text", NUMERIC_EXACT, "42", TypeError),
    ("single out of range", SINGLE, 3, ValueError),
    ("single negative", SINGLE, -1, ValueError),
    ("single bool", SINGLE, True, TypeError),
    ("multiple as a set", MULTIPLE, {0}, TypeError),
    ("multiple out of range", MULTIPLE, frozenset({5}), ValueError),
    ("true_false int", TRUE_FALSE, 0, TypeError),
    ("text bytes", TEXT, b"x", TypeError),
    ("order not a permutation", ORDER, (0, 0, 1, 2), ValueError),
    ("order too short", ORDER, (0, 1, 2), ValueError),
    ("order list", ORDER, [0, 1, 2, 3], TypeError),
    ("match too short", MATCH, (0,), ValueError),
    ("match out of range", MATCH, (0, 3), ValueError),
]


@pytest.mark.parametrize(
    ("question", "response", "error"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_grade_refuses_malformed(question: Question, response: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        grade(question, response)


ALL = [
    SINGLE,
    MULTIPLE,
    TRUE_FALSE,
    NUMERIC_ABS,
    NUMERIC_REL,
    NUMERIC_EXACT,
    TEXT,
    TEXT_CASE,
    ORDER,
    MATCH,
]


@pytest.mark.parametrize("question", ALL, ids=lambda q: q.type)
def test_answer_key_scores_full_and_wrong_ones_less(question: Question) -> None:
    key = answer_key(question)
    assert key is not None
    full = grade(question, key)
    assert full.correct and full.score == full.max_score == question.points
    for wrong in wrong_responses(question):
        got = grade(question, wrong)
        assert 0 <= got.score < got.max_score and not got.correct


def test_wrong_responses_exist_for_choice_order_match() -> None:
    for question in (SINGLE, MULTIPLE, ORDER, MATCH, TRUE_FALSE):
        assert wrong_responses(question), question.type


def test_pattern_only_text_has_no_literal_key() -> None:
    assert answer_key(make(type="text", patterns=["a+"])) is None


def test_keys() -> None:
    assert [answer_key(q) for q in (SINGLE, MULTIPLE, ORDER, MATCH, TRUE_FALSE)] == [
        1,
        frozenset({0, 1, 2}),
        (0, 1, 2, 3),
        (0, 1),
        False,
    ]


@pytest.mark.parametrize("question", ALL, ids=lambda q: q.type)
def test_partial_credit_never_negative(question: Question) -> None:
    for response in wrong_responses(question):
        assert grade(question, response).score >= 0


def changed(question: Question, **update: Any) -> Question:
    return runtime(QUESTION.validate_python({**as_json(question), **update}))


def test_key_hash_is_short_and_stable() -> None:
    assert key_hash(SINGLE) == key_hash(changed(SINGLE))
    assert len(key_hash(SINGLE)) == 12
    assert key_hash(make(type="true_false", answer=False, points=1.0)) == key_hash(TRUE_FALSE)
    # A golden value: the hash must not drift between releases, or every history resets.
    assert key_hash(TRUE_FALSE) == "6c50cbf88a23"


@pytest.mark.parametrize(
    ("question", "update"),
    [
        (SINGLE, {"prompt": "Reworded?"}),
        (SINGLE, {"explanation": "Other words.", "hint": "A hint", "tags": ["x"]}),
        (NUMERIC_ABS, {"unit": "s"}),
    ],
)
def test_key_hash_ignores_wording(question: Question, update: dict[str, Any]) -> None:
    assert key_hash(changed(question, **update)) == key_hash(question)


@pytest.mark.parametrize(
    ("question", "update"),
    [
        (SINGLE, {"options": [{"text": "A", "correct": True}, {"text": "B"}, {"text": "C"}]}),
        (SINGLE, {"points": 2}),
        (TRUE_FALSE, {"answer": True}),
        (NUMERIC_ABS, {"tolerance": 0.2}),
        (NUMERIC_ABS, {"answer": 0.31}),
        (NUMERIC_REL, {"relative_tolerance": 0.1}),
        (TEXT, {"accept": ["systolic array"]}),
        (TEXT, {"patterns": ["MXU"]}),
        (TEXT, {"case_sensitive": True}),
        (ORDER, {"items": ["b", "a", "c", "d"]}),
        (MATCH, {"pairs": [{"left": "GPU", "right": "MXU"}, {"left": "TPU", "right": "SIMT"}]}),
        (MATCH, {"distractors": []}),
        (MATCH, {"scoring": "all_or_nothing"}),
        (ORDER, {"scoring": "all_or_nothing"}),
        (MULTIPLE, {"scoring": "all_or_nothing"}),
        (TEXT, {"multiline": True}),
    ],
)
def test_key_hash_follows_the_key(question: Question, update: dict[str, Any]) -> None:
    assert key_hash(changed(question, **update)) != key_hash(question)


def test_key_hash_ignores_shuffle_and_default_scoring() -> None:
    assert key_hash(changed(SINGLE, shuffle=False)) == key_hash(SINGLE)
    assert key_hash(changed(ORDER, scoring="partial")) == key_hash(ORDER)


@pytest.mark.parametrize(
    ("question", "partial", "full"),
    [
        (MULTIPLE, frozenset({0, 1}), frozenset({0, 1, 2})),
        (ORDER, (0, 1, 3, 2), (0, 1, 2, 3)),
        (MATCH, (0, 2), (0, 1)),
    ],
)
def test_all_or_nothing_gives_full_points_or_none(
    question: Question, partial: Response, full: Response
) -> None:
    strict = changed(question, scoring="all_or_nothing")
    assert 0 < grade(question, partial).score < question.points
    assert grade(strict, partial) == Grade(
        0.0, question.points, False, grade(strict, partial).feedback
    )
    assert grade(strict, full).score == question.points


MULTILINE = make(
    type="text", multiline=True, accept=["Hello\nWORLD", "a\n\nb"], patterns=[r"\d+\n\d+"]
)


@pytest.mark.parametrize(
    ("response", "right"),
    [
        ("hello\nworld", True),
        ("\n\n  Hello   \n world\n\n", True),  # blank lines around and spaces do not matter
        ("hello world", False),  # one line is not two
        ("hello\nworld\nagain", False),
        ("hello", False),
        ("a\n\nb", True),  # a blank line inside the answer is part of it
        ("a\nb", False),
        ("12\n34", True),  # patterns see the lines joined by a newline
        ("12 34", False),
    ],
)
def test_multiline_text_is_right_only_when_every_line_matches(response: str, right: bool) -> None:
    assert grade(MULTILINE, response).correct is right
