"""Questions with parameters: what can be drawn, one draw (a variant), and the question it gives.

A parameterised question declares ``params`` (each drawn from a list of numbers, a range
with a step, or a table of named cases), ``derived`` values (formulas over them) and
``constraints`` every draw must meet; its texts name them as ``{name}``, its numeric
answer and its options' values are formulas. ``render`` turns the question and one
variant into the plain question it stands for, with every number written out and the
answer computed, so that the grader, the quiz, the site and the exporters never see a
formula. Works on the plain JSON form of questions (``model_dump(mode="json")``), so the
quiz renders without pydantic. Pure: the draw takes a ``random.Random``.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from lessonkit.bank import expressions, numerals
from lessonkit.bank.expressions import EvaluationError, Expression

__all__ = [
    "PLACEHOLDER",
    "DrawError",
    "Space",
    "Variant",
    "is_parameterised",
    "render",
    "sample",
    "seeded",
    "shown_numbers",
]

Variant = dict[str, float | str]
Slot = Callable[[str, str], str]  # (slot name, text as written) -> what goes in the text
# `{name}` in text; `{{` and `}}` are literal braces.
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)\}")
ENUMERATE_LIMIT = 4096  # spaces up to this size are filtered whole; larger ones are sampled
DRAW_TRIES = 1000
_DROPPED = ("params", "derived", "constraints", "numbers_before")
_OPTION_DROPPED = ("value", "decimals", "significant", "separators")


class DrawError(ValueError):
    """No draw of the parameters meets the constraints (validate reports why)."""


def is_parameterised(question: Mapping[str, Any]) -> bool:
    """Whether the question draws numbers (has ``params``)."""
    return bool(question.get("params"))


def _fmt(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: spec[k] for k in ("decimals", "significant", "separators") if spec.get(k) is not None
    }


class _Param:
    """One parameter: its choices, each giving one or more named values."""

    def __init__(self, name: str, spec: Mapping[str, Any]) -> None:
        self.name = name
        self.format = _fmt(spec)
        cases = spec.get("cases")
        if cases:
            self.choices: list[dict[str, float | str]] = [
                {name: label, **{k: float(v) for k, v in fields.items()}}
                for label, fields in cases.items()
            ]
            self.label = True
        else:
            self.label = False
            self.choices = [{name: float(v)} for v in _values(spec)]
        self.names = list(self.choices[0]) if self.choices else [name]


def _values(spec: Mapping[str, Any]) -> list[float]:
    if spec.get("values") is not None:
        return [float(v) for v in spec["values"]]
    low, high, step = float(spec["min"]), float(spec["max"]), float(spec["step"])
    count = range_count(low, high, step)
    places = max(0, -math.floor(math.log10(step)) + 3) if step > 0 else 0
    return [round(low + k * step, places) for k in range(count)]


def range_count(low: float, high: float, step: float) -> int:
    """How many values `min, min + step, … ≤ max` holds (binary rounding forgiven)."""
    if step <= 0 or high < low:
        return 0
    return math.floor((high - low) / step + 1e-9) + 1


class Space:
    """A question's parameters compiled: every variant it can draw, and its formulas."""

    def __init__(self, question: Mapping[str, Any]) -> None:
        self.question_id = str(question.get("id", ""))
        self.params = [_Param(n, s) for n, s in (question.get("params") or {}).items()]
        self.derived: list[tuple[str, Expression, dict[str, Any]]] = [
            (name, expressions.parse(str(spec["formula"])), _fmt(spec))
            for name, spec in (question.get("derived") or {}).items()
        ]
        self.constraints = [
            expressions.parse(str(text), comparison=True)
            for text in question.get("constraints") or ()
        ]
        self.formats: dict[str, dict[str, Any]] = {}
        self.labels: set[str] = set()
        for param in self.params:
            for name in param.names:
                self.formats[name] = param.format
            if param.label:
                self.labels.add(param.name)
        for name, _, fmt in self.derived:
            self.formats[name] = fmt
        self.size = math.prod(len(p.choices) for p in self.params)
        self._allowed: list[int] | None = None

    # -- variants by index -------------------------------------------------------

    def choice(self, index: int) -> Variant:
        """The variant at ``index`` of the whole space (mixed radix, first parameter slowest)."""
        variant: Variant = {}
        for param in reversed(self.params):
            index, at = divmod(index, len(param.choices))
            variant.update(param.choices[at])
        return {name: variant[name] for p in self.params for name in p.names}

    def columns(self, variants: Sequence[Variant]) -> dict[str, list[float]]:
        """Every number of each variant, derived values included, as columns.

        Raises EvaluationError (its ``formula`` set to the derived value) for the first
        draw a formula fails on.
        """
        cols: dict[str, list[float]] = {}
        for param in self.params:
            for name in param.names:
                if name not in self.labels:
                    cols[name] = [float(v[name]) for v in variants]
        return self._derive(cols, len(variants))

    def columns_at(
        self, indices: Sequence[int]
    ) -> tuple[dict[str, list[float]], dict[str, list[str]]]:
        """The numbers (derived values included) and the case names of the variants at
        ``indices``, as columns, without building each variant (validate's sweep)."""
        cols: dict[str, list[float]] = {}
        labels: dict[str, list[str]] = {}
        whole = len(indices) == self.size and list(indices) == list(range(self.size))
        stride = 1
        for param in reversed(self.params):
            count = len(param.choices)
            for name in param.names:
                choices = [c[name] for c in param.choices]
                if whole:  # the whole space: each value repeated, the pattern repeated
                    block = [v for v in choices for _ in range(stride)]
                    column = block * (self.size // len(block))
                else:
                    column = [choices[i // stride % count] for i in indices]
                if name in self.labels:
                    labels[name] = [str(v) for v in column]
                else:
                    cols[name] = [float(v) for v in column]
            stride *= count
        return self._derive(cols, len(indices)), labels

    def _derive(self, cols: dict[str, list[float]], size: int) -> dict[str, list[float]]:
        for name, formula, _ in self.derived:
            try:
                cols[name] = formula.columns(cols, size)
            except EvaluationError as error:
                error.formula = name
                raise
        return cols

    def holding(self, cols: Mapping[str, Sequence[float]], size: int) -> list[bool]:
        """For each draw, whether every constraint holds."""
        holds = [True] * size
        for constraint in self.constraints:
            found = constraint.columns(cols, size)
            holds = [h and bool(f) for h, f in zip(holds, found, strict=True)]
        return holds

    def values(self, variant: Variant) -> dict[str, float | str]:
        """A variant with its derived values: everything its texts and formulas can name."""
        cols = self.columns([variant])
        return {**variant, **{name: col[0] for name, col in cols.items()}}

    def _fits(self, variant: Variant) -> bool:
        try:
            cols = self.columns([variant])
            return all(self.holding(cols, 1))
        except EvaluationError:
            return False

    def allowed(self) -> list[int]:
        """Indices of every variant that meets the constraints (spaces up to ENUMERATE_LIMIT)."""
        if self._allowed is None:
            indices = list(range(self.size))
            try:
                cols, _ = self.columns_at(indices)
                holds = self.holding(cols, len(indices))
                self._allowed = [i for i, h in zip(indices, holds, strict=True) if h]
            except EvaluationError:  # some draw fails: look at each on its own
                self._allowed = [i for i in indices if self._fits(self.choice(i))]
        return self._allowed

    def draw(self, rng: random.Random, avoid: Collection[Variant] = ()) -> Variant:
        """One variant that meets the constraints, unlike those in ``avoid`` when it can be.

        Raises DrawError when no draw meets the constraints.
        """
        for _ in range(32):  # most draws meet the constraints: a few at random first
            picked = self.choice(rng.randrange(self.size))
            if picked not in avoid and (not self.constraints or self._fits(picked)):
                return picked
        if self.size <= ENUMERATE_LIMIT and (self.constraints or avoid):
            allowed: Sequence[int] = self.allowed() if self.constraints else range(self.size)
            if not allowed:
                raise DrawError(
                    f"{self.question_id}: no draw of the parameters meets the constraints"
                )
            fresh = [i for i in allowed if self.choice(i) not in avoid]
            return self.choice(rng.choice(fresh or allowed))
        found: Variant | None = None
        for _ in range(DRAW_TRIES):
            variant = self.choice(rng.randrange(self.size))
            if not self.constraints or self._fits(variant):
                if variant not in avoid:
                    return variant
                found = found or variant
        if found is None:
            raise DrawError(f"{self.question_id}: no draw of the parameters meets the constraints")
        return found

    def written(self, name: str, value: float | str) -> str:
        """A named value as the question's texts show it."""
        if isinstance(value, str):
            return value
        return numerals.written_as(value, self.formats.get(name, {}))


def render(
    question: Mapping[str, Any],
    variant: Variant,
    *,
    slot: Slot | None = None,
    space: Space | None = None,
) -> dict[str, Any]:
    """The plain question ``variant`` makes of ``question``: texts written out, answer computed.

    ``slot(name, text)`` (for the site) decides what each placeholder becomes; by default
    the number as written. Raises EvaluationError when a formula fails for this variant.
    """
    space = space or Space(question)  # the caller's, when it renders many draws
    values = space.values(variant)
    fill = slot or (lambda name, text: text)

    def words(text: str | None, own: Mapping[str, tuple[str, str]] | None = None) -> str | None:
        if text is None:
            return None
        own = own or {}

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name is None:
                return match.group(0)[0]
            if name in own:
                return fill(*own[name])
            if name not in values:
                return match.group(0)
            return fill(name, space.written(name, values[name]))

        return PLACEHOLDER.sub(one, text)

    plain = {k: v for k, v in question.items() if k not in _DROPPED}
    for field in ("prompt", "explanation", "hint"):
        if plain.get(field) is not None:
            plain[field] = words(plain[field])
    numeric = {k: float(v) for k, v in values.items() if not isinstance(v, str)}
    if isinstance(plain.get("answer"), str):
        plain["answer"] = expressions.parse(plain["answer"]).value(numeric)
    if "options" in plain:
        plain["options"] = [_option(o, n, numeric, words) for n, o in enumerate(plain["options"])]
    return plain


Words = Callable[[str | None, Mapping[str, tuple[str, str]] | None], str | None]


def _option(
    option: Mapping[str, Any], number: int, numeric: Mapping[str, float], words: Words
) -> dict[str, Any]:
    own: dict[str, tuple[str, str]] = {}
    if option.get("value") is not None:
        value = expressions.parse(str(option["value"])).value(numeric)
        own["value"] = (f"options.{number}", numerals.written_as(value, _fmt(option)))
    plain = {k: v for k, v in option.items() if k not in _OPTION_DROPPED}
    plain["text"] = words(plain["text"], own)
    if plain.get("feedback") is not None:
        plain["feedback"] = words(plain["feedback"], own)
    return plain


def seeded(
    question: Mapping[str, Any], seed: str, avoid: Collection[Variant] = ()
) -> tuple[Variant, dict[str, Any]]:
    """A variant drawn from ``seed`` (unlike those in ``avoid`` when it can be) and the plain
    question it gives. A draw whose formulas fail is set aside for another; validate's sweep
    makes that rare. Raises DrawError when no draw works."""
    rng, space = random.Random(seed), Space(question)
    tried = list(avoid)
    for _ in range(20):
        variant = space.draw(rng, tried)
        try:
            return variant, render(question, variant, space=space)
        except EvaluationError:
            tried.append(variant)
    raise DrawError(f"{space.question_id}: every draw of the parameters tried makes a formula fail")


def sample(question: Mapping[str, Any], count: int, seed: str) -> list[Variant]:
    """Up to ``count`` different draws that render, the same for the same ``seed``: what a
    built page or an export carries. Draws whose formulas fail are left out."""
    space, rng = Space(question), random.Random(seed)
    found: list[Variant] = []
    for _ in range(count * 2):
        try:
            drawn = space.draw(rng, avoid=found)
            render(question, drawn, space=space)
        except (DrawError, EvaluationError):
            continue  # validate's sweep says which draw fails
        if drawn in found:
            break  # every allowed draw is already taken
        found.append(drawn)
        if len(found) == count:
            break
    return found


def option_value(option: Mapping[str, Any], numeric: Mapping[str, float]) -> float | None:
    """An option's own value for a variant's numbers, when it has one."""
    if option.get("value") is None:
        return None
    return expressions.parse(str(option["value"])).value(numeric)


def shown_numbers(
    question: Mapping[str, Any], variant: Mapping[str, Any], *, exact: bool = False
) -> str:
    """The numbers a learner was given, briefly: `chip = H100 SXM, batch = 8`.

    A case's label stands for its numbers; names the bank no longer has are shown as
    stored. ``exact`` shows each number in full (for authors) rather than as printed.
    """
    space = Space(question)
    hidden = {n for p in space.params if p.label for n in p.names if n != p.name}
    parts = []
    for name, value in variant.items():
        if name in hidden:
            continue
        if isinstance(value, str):
            shown = value
        else:
            shown = numerals.written(float(value)) if exact else space.written(name, float(value))
        parts.append(f"{name} = {shown}")
    return ", ".join(parts)
