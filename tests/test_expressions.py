"""Formulas in banks: parsed against an allow-list, never run as code; hostile ones refused
with the place they go wrong, quickly, and never a crash or a hang."""

from __future__ import annotations

import time

import pytest

from lessonkit.bank import expressions
from lessonkit.bank.expressions import EvaluationError, ExpressionError


def value(text: str, **names: float) -> float:
    return expressions.parse(text).value(names)


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("flops / bandwidth", {"flops": 989, "bandwidth": 3.35}, 989 / 3.35),
        ("2 * layers * heads * 128 * 2", {"layers": 80, "heads": 8}, 327_680),
        ("-a + +b", {"a": 2, "b": 5}, 3),
        ("2 ** 10", {}, 1024),
        ("min(a, b, 3) + max(a, b)", {"a": 1, "b": 2}, 3),
        ("ceil(332 / 86.4) + floor(2.9)", {}, 6),
        ("sqrt(16) + log(1) + log(8, 2)", {}, 7),
        ("round(2.5) + round(-2.5) + round(2.675, 2)", {}, 2.68),  # halves away from zero
        ("round(1234, -2)", {}, 1200),
        ("989 \u00d7 2 \u00f7 4 \u2212 1", {}, 989 * 2 / 4 - 1),  # prose's signs are operators
    ],
)
def test_arithmetic_is_computed_on_floats(
    text: str, names: dict[str, float], expected: float
) -> None:
    assert value(text, **names) == pytest.approx(expected)


def test_a_formula_reports_the_names_it_reads() -> None:
    assert expressions.parse("min(flops, 2) / bw + flops").names == {"flops", "bw"}


def test_a_constraint_compares_and_gives_one_for_each_draw_that_holds() -> None:
    constraint = expressions.parse("batch * kv < memory <= 100", comparison=True)
    found = constraint.columns({"batch": [1, 20, 2], "kv": [5, 5, 5], "memory": [80, 80, 120]}, 3)
    assert found == [1.0, 0.0, 0.0]


# Each: the formula, the message, and the offset in the text it points at.
HOSTILE = [
    ("x.__class__.__bases__", "attribute access (`.`) is not allowed in a formula", 1),
    ("().__class__.__bases__", "a tuple is not allowed in a formula", 0),
    ("bw.real", "attribute access (`.`) is not allowed in a formula", 2),
    ("__import__('os').system('ls')", "`__import__` is not a function formulas may call", 0),
    ("open('/etc/passwd')", "`open` is not a function formulas may call", 0),
    ("a[0]", "indexing (`[...]`) is not allowed in a formula", 0),
    ("lambda: 1", "a lambda is not allowed in a formula", 0),
    ("'text' * 9", "text is not allowed in a formula", 0),
    ("9 ** 9 ** 9", "the exponent 387420489 is too large", 5),
    ("2 ** 1000", "the exponent 1000 is too large", 5),
    ("a ^ 2", "`^` is not allowed in a formula", 2),
    ("a // 2", "`//` is not allowed in a formula", 2),
    ("a if b else c", "`if`/`else` is not allowed in a formula", 0),
    ("a and b", "`and`/`or` is not allowed in a formula", 0),
    ("min(a)", "`min` takes 2 or more arguments, not 1", 0),
    ("round(a, ndigits=2)", "named arguments are not allowed", 17),
    ("min + 1", "`min` is a function", 0),
    ("1e999", "the number is too large", 0),
    ("True + 1", "True is not allowed in a formula", 0),
    ("a < b", "a comparison is only allowed in `constraints`", 0),
    ("(a + b", "'(' was never closed", 0),
    ("a +", "the formula is not complete or has a character out of place", 3),
    ("a µ b", "`µ` cannot be used in a formula", 2),
    ("(" * 300 + "1" + ")" * 300, "the formula is 601 characters long, over the limit of 500", 500),
    ("(" * 201 + "a" + ")" * 201, "the formula is nested too deeply", 200),
    ("-" * 60 + "1", "the formula is nested more than 40 levels deep", 41),
    ("+".join(["a"] * 60), "the formula is nested more than 40 levels deep", 0),
]


@pytest.mark.parametrize(("text", "message", "offset"), HOSTILE, ids=[h[0][:24] for h in HOSTILE])
def test_a_hostile_formula_is_refused_with_where(text: str, message: str, offset: int) -> None:
    started = time.perf_counter()
    with pytest.raises(ExpressionError) as refused:
        expressions.parse(text)
    assert (refused.value.message, refused.value.offset) == (message, offset)
    assert refused.value.hint
    assert time.perf_counter() - started < 1  # refused at once: nothing was run


@pytest.mark.parametrize(
    ("text", "names", "message", "offset"),
    [
        ("a / (b - 2)", {"a": 1, "b": 2}, "divides by zero", 2),
        ("a ** b", {"a": 10, "b": 400}, "the exponent 400 is over 100", 2),
        ("a ** b", {"a": 1e10, "b": 99}, "the power is too large or divides by zero", 2),
        ("a ** 0.5", {"a": -4}, "a negative number to a fractional power", 2),
        ("sqrt(a)", {"a": -1}, "the square root of a negative number", 0),
        ("log(a)", {"a": 0}, "the logarithm of a number that is not positive", 0),
        ("a * a * a", {"a": 1e200}, "the result is not a finite number", 0),
    ],
)
def test_a_formula_that_fails_for_a_draw_says_what_where_and_which_draw(
    text: str, names: dict[str, float], message: str, offset: int
) -> None:
    columns = {name: [1.0, 1.0, v] for name, v in names.items()}  # the third draw fails
    if text == "a / (b - 2)":
        columns["b"] = [3.0, 4.0, 2.0]
    with pytest.raises(EvaluationError) as failed:
        expressions.parse(text).columns(columns, 3)
    assert (failed.value.message, failed.value.offset, failed.value.draw) == (message, offset, 2)


def test_a_huge_power_of_a_name_is_refused_at_once_not_computed() -> None:
    started = time.perf_counter()
    with pytest.raises(EvaluationError):
        value("a ** b ** c", a=9, b=9, c=9)
    assert time.perf_counter() - started < 1
