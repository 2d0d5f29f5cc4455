"""Arithmetic formulas in banks, parsed and checked against an allow-list, never `eval`ed.

A formula is read by Python's own parser (``ast``) and then walked: numbers, names,
``+ - * / **``, parentheses and the functions ``min max round ceil floor sqrt log``
pass; everything else (attribute access, subscripts, strings, keywords, lambdas…) is
refused with the offset of what was refused, so that an author is pointed at it. The
walk builds plain Python closures that compute on floats only: no big integers, so no
`9 ** 9 ** 9` can hang, and an exponent beyond ``MAX_EXPONENT`` is refused.

Closures work on columns (one value per draw of a question's parameters), because
`validate` sweeps hundreds of draws per question and a column costs little more than
one value. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from lessonkit.bank.arithmetic import (
    MAX_EXPONENT,
    Column,
    Columns,
    EvaluationError,
    Run,
    binary,
    function,
    number_text,
)

__all__ = [
    "FUNCTIONS",
    "EvaluationError",
    "Expression",
    "ExpressionError",
    "parse",
]

MAX_CHARS = 500
MAX_DEPTH = 40
FUNCTIONS = ("min", "max", "round", "ceil", "floor", "sqrt", "log")
ALLOWED = "numbers, names, + - * / **, parentheses and " + ", ".join(FUNCTIONS)
# Signs people paste from prose: the same operators in Python's spelling, one for one,
# so offsets into the author's text stay right.
_TYPOGRAPHY = str.maketrans({"\u00d7": "*", "\u00f7": "/", "\u2212": "-", "\u00a0": " ", "\n": " "})


class ExpressionError(ValueError):
    """A formula that may not be used; ``offset`` is where in its text (0-based)."""

    def __init__(self, message: str, offset: int = 0, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


@dataclass(frozen=True, eq=False)
class Expression:
    """A checked formula: its text, the names it reads, and how to compute it."""

    text: str
    names: frozenset[str]
    comparison: bool
    _run: Run

    def columns(self, columns: Columns, size: int) -> Column:
        """The formula for each of ``size`` draws; a comparison gives 1.0 (holds) or 0.0.

        Raises EvaluationError for the first draw that divides by zero, overflows, or
        gives a result that is not a finite real number.
        """
        found = self._run(columns, size)
        if not all(map(math.isfinite, found)):
            draw = next(d for d, value in enumerate(found) if not math.isfinite(value))
            raise EvaluationError("the result is not a finite number", 0, draw)
        return found

    def value(self, values: Mapping[str, float]) -> float:
        """The formula for one set of values."""
        return self.columns({name: [values[name]] for name in self.names}, 1)[0]


@lru_cache(maxsize=4096)
def parse(text: str, *, comparison: bool = False) -> Expression:
    """A formula checked against the allow-list; ExpressionError says what and where.

    ``comparison`` allows (and requires) a comparison such as `a * b < c`, for constraints.
    """
    if len(text) > MAX_CHARS:
        raise ExpressionError(
            f"the formula is {len(text):,} characters long, over the limit of {MAX_CHARS}",
            MAX_CHARS,
            "split it into derived values",
        )
    source = text.translate(_TYPOGRAPHY)
    for offset, char in enumerate(source):
        if not char.isascii():
            raise ExpressionError(f"`{char}` cannot be used in a formula", offset, ALLOWED)
    lead = len(source) - len(source.lstrip())
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        # Python gives no place for some errors at the end (`a +`): point at the end.
        offset = lead + (error.offset - 1 if error.offset else len(source.strip()))
        raise ExpressionError(_syntax(error, source), offset, _syntax_hint(source)) from None
    except (ValueError, MemoryError, RecursionError):
        raise ExpressionError("the formula cannot be read", lead, ALLOWED) from None
    builder = _Builder(source, lead, comparison)
    run = builder.build(tree.body, 0)
    if comparison and not builder.compared:
        raise ExpressionError(
            "a constraint compares two values", lead, "write it like `batch * kv_gb < memory_gb`"
        )
    return Expression(text, frozenset(builder.names), comparison, run)


def _syntax(error: SyntaxError, source: str) -> str:
    message = (error.msg or "invalid syntax").rstrip(".")
    if "nested" in message or "too many" in message:
        return "the formula is nested too deeply"
    if message.startswith(("invalid syntax", "unexpected EOF")):
        return "the formula is not complete or has a character out of place"
    return message[0].lower() + message[1:]


def _syntax_hint(source: str) -> str:
    if "^" in source:
        return "write a power as `**`, e.g. `2 ** 10`"
    if source.count("(") != source.count(")"):
        return "check that every `(` has its `)`"
    return f"formulas may use {ALLOWED}"


_BINARY: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Pow: "**",
}
_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access (`.`)",
    ast.Subscript: "indexing (`[...]`)",
    ast.Lambda: "a lambda",
    ast.IfExp: "`if`/`else`",
    ast.BoolOp: "`and`/`or`",
    ast.NamedExpr: "`:=`",
    ast.JoinedStr: "text",
    ast.List: "a list",
    ast.Tuple: "a tuple",
    ast.Dict: "a mapping",
    ast.Set: "a set",
    ast.Starred: "`*`",
    ast.ListComp: "a list",
    ast.SetComp: "a set",
    ast.DictComp: "a mapping",
    ast.GeneratorExp: "a generator",
    ast.Await: "`await`",
    ast.Yield: "`yield`",
    ast.YieldFrom: "`yield`",
}
_COMPARE: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}


class _Builder:
    """Walks a parsed formula, refusing what is not allowed, and builds its closures."""

    def __init__(self, source: str, lead: int, comparison: bool) -> None:
        self.source = source
        self.lead = lead
        self.comparison = comparison
        self.compared = False
        self.names: set[str] = set()

    def at(self, node: ast.AST) -> int:
        return self.lead + int(getattr(node, "col_offset", 0))

    def refuse(self, node: ast.AST, message: str, hint: str = "") -> ExpressionError:
        return ExpressionError(message, self.at(node), hint or f"formulas may use {ALLOWED}")

    def build(self, node: ast.expr, depth: int) -> Run:
        if depth > MAX_DEPTH:
            raise self.refuse(
                node,
                f"the formula is nested more than {MAX_DEPTH} levels deep",
                "split it into derived values",
            )
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node, depth)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.build(node.operand, depth + 1)
            if isinstance(node.op, ast.UAdd):
                return inner
            return lambda cols, n: [-x for x in inner(cols, n)]
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        if isinstance(node, ast.Compare):
            return self.compare(node, depth)
        what = _REFUSED.get(type(node))
        if isinstance(node, ast.UnaryOp):
            what = "`not`" if isinstance(node.op, ast.Not) else "`~`"
        return self._refuse_any(node, what)

    def _refuse_any(self, node: ast.AST, what: str | None) -> Run:
        if isinstance(node, ast.Attribute):
            while isinstance(node.value, ast.Attribute):
                node = node.value
            self.build(node.value, 0)  # reading left to right, what comes before the dot first
            offset = self.lead + int(getattr(node.value, "end_col_offset", 0) or 0)
            raise ExpressionError(f"{what} is not allowed in a formula", offset, ALLOWED)
        raise self.refuse(node, f"{what or 'this'} is not allowed in a formula")

    def constant(self, node: ast.Constant) -> Run:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            kind = "text" if isinstance(value, str | bytes) else repr(value)
            raise self.refuse(node, f"{kind} is not allowed in a formula")
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):
            raise self.refuse(node, "the number is too large", "write an ordinary number")
        return lambda cols, n: [number] * n

    def name(self, node: ast.Name) -> Run:
        name = node.id
        if name in FUNCTIONS:
            raise self.refuse(node, f"`{name}` is a function", f"call it: `{name}(…)`")
        self.names.add(name)

        def run(cols: Columns, n: int) -> Column:
            return list(cols[name])

        return run

    def operator_at(self, node: ast.BinOp, sign: str) -> int:
        """Where the operator itself stands, between its two operands."""
        start = int(getattr(node.left, "end_col_offset", 0) or 0)
        end = int(getattr(node.right, "col_offset", start) or start)
        found = self.source.strip().find(sign, start, end)
        return self.lead + (found if found >= 0 else start)

    def binary(self, node: ast.BinOp, depth: int) -> Run:
        sign = _BINARY.get(type(node.op))
        if sign is None:
            written = {ast.BitXor: "^", ast.FloorDiv: "//", ast.Mod: "%"}.get(type(node.op), "")
            hint = {
                "^": "write a power as `**`, e.g. `2 ** 10`",
                "//": "write `floor(a / b)`",
                "%": "formulas have no remainder; rewrite it with floor()",
            }.get(written, f"formulas may use {ALLOWED}")
            shown = f"`{written}`" if written else "this operator"
            raise ExpressionError(
                f"{shown} is not allowed in a formula", self.operator_at(node, written or " "), hint
            )
        left, right = self.build(node.left, depth + 1), self.build(node.right, depth + 1)
        at = self.operator_at(node, sign)
        if sign == "**" and not any(isinstance(n, ast.Name) for n in ast.walk(node.right)):
            try:
                exponent = right({}, 1)[0]  # a fixed exponent is known now, e.g. `9 ** 9`
            except EvaluationError:
                exponent = 0.0
            if abs(exponent) > MAX_EXPONENT:
                raise ExpressionError(
                    f"the exponent {number_text(exponent)} is too large",
                    self.at(node.right),
                    f"exponents are at most {MAX_EXPONENT}",
                )
        return binary(sign, left, right, at)

    def call(self, node: ast.Call, depth: int) -> Run:
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in FUNCTIONS:
            if isinstance(func, ast.Attribute):
                return self._refuse_any(func, _REFUSED[ast.Attribute])
            name = func.id if isinstance(func, ast.Name) else "this"
            raise self.refuse(
                func,
                f"`{name}` is not a function formulas may call",
                "the functions are " + ", ".join(FUNCTIONS),
            )
        if node.keywords:
            raise self.refuse(node.keywords[0].value, "named arguments are not allowed")
        name, count = func.id, len(node.args)
        low, high = {"min": (2, 20), "max": (2, 20), "round": (1, 2), "log": (1, 2)}.get(
            name, (1, 1)
        )
        if not low <= count <= high:
            wanted = (
                f"{low}" if low == high else f"{low} to {high}" if high < 20 else f"{low} or more"
            )
            raise self.refuse(
                node, f"`{name}` takes {wanted} argument{'s' if high > 1 else ''}, not {count}"
            )
        args = [self.build(arg, depth + 1) for arg in node.args]
        return function(name, args, self.at(node))

    def compare(self, node: ast.Compare, depth: int) -> Run:
        if not self.comparison:
            raise self.refuse(
                node,
                "a comparison is only allowed in `constraints`",
                "write a formula that gives a number",
            )
        if self.compared or depth:
            raise self.refuse(
                node,
                "a constraint makes one comparison",
                "write each condition as its own constraint",
            )
        self.compared = True
        parts = [self.build(node.left, depth + 1)]
        parts += [self.build(c, depth + 1) for c in node.comparators]
        tests = [_COMPARE[type(op)] for op in node.ops]

        def run(cols: Columns, n: int) -> Column:
            values = [part(cols, n) for part in parts]
            holds = [1.0] * n
            for k, test in enumerate(tests):
                left, right = values[k], values[k + 1]
                holds = [
                    h if h and test(a, b) else 0.0
                    for h, a, b in zip(holds, left, right, strict=True)
                ]
            return holds

        return run
