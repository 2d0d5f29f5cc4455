"""The arithmetic formulas compute, one operation at a time, on columns of floats.

Each function here returns a closure over columns (one value per draw of a question's
parameters) that ``expressions`` composes while it checks a formula. Floats only, so no
big integer is ever built; a draw that divides by zero, overflows or leaves the real
numbers raises EvaluationError saying which draw and where in the formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

__all__ = ["MAX_EXPONENT", "EvaluationError", "binary", "function", "number_text"]

MAX_EXPONENT = 100
Column = list[float]
Columns = Mapping[str, Sequence[float]]
Run = Callable[[Columns, int], Column]


class EvaluationError(ArithmeticError):
    """A formula that failed for one draw: divided by zero, overflowed, left the reals."""

    def __init__(self, message: str, offset: int, draw: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.draw = draw  # which value of the columns failed first
        self.formula = ""  # set by whoever knows: the derived value it computes


def number_text(value: float) -> str:
    value = float(value)
    return f"{value:.0f}" if value.is_integer() and abs(value) < 1e15 else f"{value:g}"


def _first(values: Sequence[float], bad: Callable[[float], bool]) -> int:
    return next((i for i, v in enumerate(values) if bad(v)), 0)


def binary(sign: str, left: Run, right: Run, at: int) -> Run:
    if sign == "+":
        return lambda cols, n: [a + b for a, b in zip(left(cols, n), right(cols, n), strict=True)]
    if sign == "-":
        return lambda cols, n: [a - b for a, b in zip(left(cols, n), right(cols, n), strict=True)]
    if sign == "*":
        return lambda cols, n: [a * b for a, b in zip(left(cols, n), right(cols, n), strict=True)]
    if sign == "/":

        def divide(cols: Columns, n: int) -> Column:
            tops, bottoms = left(cols, n), right(cols, n)
            try:
                return [a / b for a, b in zip(tops, bottoms, strict=True)]
            except ZeroDivisionError:
                draw = _first(bottoms, lambda b: b == 0)
                raise EvaluationError("divides by zero", at, draw) from None

        return divide

    def power(cols: Columns, n: int) -> Column:
        bases, exponents = left(cols, n), right(cols, n)
        for draw, exponent in enumerate(exponents):
            if abs(exponent) > MAX_EXPONENT:
                message = f"the exponent {number_text(exponent)} is over {MAX_EXPONENT}"
                raise EvaluationError(message, at, draw)
        found: Column = []
        for draw, (a, b) in enumerate(zip(bases, exponents, strict=True)):
            try:
                value = a**b
            except (OverflowError, ZeroDivisionError):
                raise EvaluationError(
                    "the power is too large or divides by zero", at, draw
                ) from None
            if isinstance(value, complex):
                raise EvaluationError("a negative number to a fractional power", at, draw)
            found.append(value)
        return found

    return power


def function(name: str, args: list[Run], at: int) -> Run:
    def run(cols: Columns, n: int) -> Column:
        values = [arg(cols, n) for arg in args]
        if name == "min":
            return [min(row) for row in zip(*values, strict=True)]
        if name == "max":
            return [max(row) for row in zip(*values, strict=True)]
        first = values[0]
        if name == "ceil":
            return [float(math.ceil(x)) for x in first]
        if name == "floor":
            return [float(math.floor(x)) for x in first]
        if name == "sqrt":
            if any(x < 0 for x in first):
                raise EvaluationError(
                    "the square root of a negative number", at, _first(first, lambda x: x < 0)
                )
            return [math.sqrt(x) for x in first]
        if name == "log":
            return _log(first, values[1] if len(values) > 1 else None, at)
        return _round(first, values[1] if len(values) > 1 else None, at)

    return run


def _log(values: Column, bases: Column | None, at: int) -> Column:
    if any(x <= 0 for x in values):
        raise EvaluationError(
            "the logarithm of a number that is not positive", at, _first(values, lambda x: x <= 0)
        )
    if bases is None:
        return [math.log(x) for x in values]
    if any(b <= 0 or b == 1 for b in bases):
        raise EvaluationError(
            "a logarithm's base must be positive and not 1",
            at,
            _first(bases, lambda b: b <= 0 or b == 1),
        )
    return [math.log(x, b) for x, b in zip(values, bases, strict=True)]


def _round(values: Column, places: Column | None, at: int) -> Column:
    """Halves away from zero, as people round (Python's own round() goes to even)."""
    from decimal import ROUND_HALF_UP, Decimal  # only a formula that rounds needs it

    found: Column = []
    for draw, value in enumerate(values):
        digits = 0.0 if places is None else places[draw]
        if not digits.is_integer() or not -12 <= digits <= 12:
            raise EvaluationError("round() takes a whole number of places from -12 to 12", at, draw)
        step = Decimal(1).scaleb(-int(digits))
        found.append(float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP)))
    return found
