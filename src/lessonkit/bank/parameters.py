"""The bank format's parameters: numbers a question draws afresh for each attempt.

Models in the same style as ``questions`` (which builds its `numeric`, `single` and
`multiple` questions on ``Parameterised``): strict, every field described, the JSON
Schema generated from them. Formulas are checked here with ``expressions`` (parsed,
never run as code); a problem is raised as a ``parameters`` error whose context says
which field (``at``) and where in its text (``offset``), so the loader can point into it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from lessonkit.bank import expressions
from lessonkit.bank.templating import foreign
from lessonkit.bank.variants import PLACEHOLDER, range_count

NAME_PATTERN = r"^[a-z_][a-z0-9_]*$"
_NAME = re.compile(NAME_PATTERN)
RESERVED = frozenset({*expressions.FUNCTIONS, "value"})
MAX_RANGE = 100_000


class _Strict(BaseModel):
    # The same settings as fields.Strict (kept here so this module needs nothing above it).
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, allow_inf_nan=False, defer_build=True
    )


def problem(
    message: str,
    hint: str = "",
    at: Sequence[str | int] = (),
    offset: int = -1,
    *,
    key: bool = False,
) -> PydanticCustomError:
    """A parameters problem for the loader: ``at`` is the path below the model, ``offset``
    the place in the text (-1: the whole value), ``key`` to point at a mapping key."""
    context = {"message": message, "hint": hint, "at": list(at), "offset": offset, "key": key}
    return PydanticCustomError("parameters", "{message}", context)


def _formula(text: str, *, comparison: bool = False) -> str:
    try:
        expressions.parse(text, comparison=comparison)
    except expressions.ExpressionError as error:
        raise problem(error.message, error.hint, offset=error.offset) from None
    return text


def _constraint(text: str) -> str:
    return _formula(text, comparison=True)


FORMULA_DESCRIPTION = (
    "An arithmetic formula over the question's parameters and derived values: "
    f"{expressions.ALLOWED} (e.g. `flops / bandwidth`). Halves round away from zero."
)
Formula = Annotated[
    str,
    Field(min_length=1, max_length=expressions.MAX_CHARS, description=FORMULA_DESCRIPTION),
    AfterValidator(_formula),
]
Constraint = Annotated[
    str,
    Field(
        min_length=1,
        max_length=expressions.MAX_CHARS,
        description="A comparison every draw must meet, e.g. `batch * kv_gb < memory_gb` "
        "(`<`, `<=`, `>`, `>=`, `==`, `!=`).",
    ),
    AfterValidator(_constraint),
]


# A parameter's number; in the file it may be a reference to one of the course's facts,
# which the loader replaces with the fact's value before validation (``citations``).
FactNumber = Annotated[
    float,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number"},
                {
                    "type": "string",
                    "pattern": r"^\(\(fact [a-z0-9.-]+( [a-z]+=\S+| bare)*\)\)$",
                    "description": "A fact of the course, e.g. "
                    "`((fact h100-sxm.hbm-bandwidth unit=TB/s))`: its value in that unit.",
                },
            ]
        }
    ),
]


class NumberFormat(_Strict):
    """How a number is written in the question's texts (`{name}`)."""

    decimals: int | None = Field(
        None, ge=0, le=12, description="Digits after the decimal point, e.g. `2` for `3.35`."
    )
    significant: int | None = Field(
        None, ge=1, le=15, description="Significant figures, e.g. `3` for `295` or `0.0833`."
    )
    separators: bool = Field(True, description="Separate thousands with commas: `4,800`.")

    @model_validator(mode="after")
    def _one_precision(self) -> NumberFormat:
        if self.decimals is not None and self.significant is not None:
            raise ValueError("give `decimals` or `significant`, not both")
        return self


class Param(NumberFormat):
    """A parameter: a list of `values`, a range (`min`, `max`, `step`) or named `cases`.

    Without `decimals` or `significant`, numbers show up to six significant figures.
    """

    values: list[FactNumber] | None = Field(
        None, min_length=1, max_length=1000, description="The numbers to draw from."
    )
    min: FactNumber | None = Field(None, description="First number of a range.")
    max: FactNumber | None = Field(None, description="Last number of a range (kept if on a step).")
    step: float | None = Field(None, gt=0, description="Step of a range, e.g. `0.1`.")
    cases: (
        dict[Annotated[str, Field(min_length=1, max_length=80)], dict[str, FactNumber]] | None
    ) = Field(
        None,
        min_length=1,
        max_length=100,
        description="Named cases, each with its numbers, e.g. `H100 SXM: {tflops: 989, "
        "tb_s: 3.35}`: `{name}` shows the case's name, each number is a name of its own.",
    )

    @model_validator(mode="after")
    def _one_form(self) -> Param:
        ranged = [self.min, self.max, self.step]
        forms = (
            (self.values is not None)
            + (self.cases is not None)
            + any(r is not None for r in ranged)
        )
        if forms != 1:
            raise ValueError("give `values`, or `min`, `max` and `step`, or `cases`: exactly one")
        if self.min is not None or self.max is not None or self.step is not None:
            if None in ranged:
                raise ValueError("a range needs `min`, `max` and `step`")
            assert self.min is not None and self.max is not None and self.step is not None
            count = range_count(self.min, self.max, self.step)
            if count == 0:
                raise ValueError("`max` is below `min`: the range is empty")
            if count > MAX_RANGE:
                raise ValueError(
                    f"the range has {count:,} values, over {MAX_RANGE:,}; use a larger step"
                )
        if self.cases:
            names = [list(fields) for fields in self.cases.values()]
            if any(n != names[0] for n in names):
                raise ValueError("every case must give the same numbers, in the same order")
        return self

    def names(self, name: str) -> list[str]:
        """The names this parameter gives: its own, plus each case's numbers."""
        return [name, *next(iter(self.cases.values()))] if self.cases else [name]


class Derived(NumberFormat):
    """A value computed from the parameters (and earlier derived values)."""

    formula: Formula


class Parameterised(_Strict):
    """The fields that let a question draw fresh numbers for each attempt."""

    params: dict[str, Param] = Field(
        default_factory=dict,
        max_length=12,
        description="Parameters drawn for each attempt; texts show them as `{name}`. "
        "Names are lower_case words. Only `numeric`, `single` and `multiple` questions take them.",
    )
    derived: dict[str, Derived] = Field(
        default_factory=dict,
        max_length=30,
        description="Values computed from the parameters, in order; texts show them as `{name}`.",
    )
    constraints: list[Constraint] = Field(
        default_factory=list, max_length=20, description="Comparisons every draw must meet."
    )
    numbers_before: dict[str, float | str] | None = Field(
        None,
        description="The numbers the question used when it was fixed, by parameter name: "
        "answers recorded before it drew numbers are shown in history with them.",
    )


# --- the checks that need the whole question --------------------------------------


def check(question: Any) -> None:
    """Names declared, known where used, and formulas only where parameters are.

    ``question`` is a numeric or choice question (duck-typed: this module sits below them).
    """
    params: dict[str, Param] = question.params
    if not params:
        _fixed(question)
        return
    labels, numbers = _declared(params, question.derived)
    known = numbers | labels
    later = set(question.derived)
    numbers -= later  # each derived value is known from its own line on
    for name, derived in question.derived.items():
        _uses(derived.formula, numbers, labels, ("derived", name, "formula"), later)
        numbers.add(name)
        later.discard(name)
    for number, constraint in enumerate(question.constraints):
        _uses(constraint, numbers, labels, ("constraints", number))
    answer = getattr(question, "answer", None)
    if isinstance(answer, str):
        _uses(answer, numbers, labels, ("answer",))
    elif answer is not None:
        raise problem(
            "the answer is a fixed number, but the question draws parameters",
            "write the formula that computes it, e.g. `flops / bandwidth`",
            ("answer",),
        )
    for field in ("prompt", "explanation", "hint"):
        _placeholders(getattr(question, field), known, (field,))
    for number, option in enumerate(getattr(question, "options", ())):
        _check_option(option, number, numbers, labels, known)
    if question.numbers_before is not None:
        _before(question.numbers_before, params)


def _fixed(question: Any) -> None:
    """A question without parameters uses none of their fields, nor another tool's way of
    drawing them."""
    texts: list[tuple[tuple[str | int, ...], str | None]] = [
        ((field,), getattr(question, field, None)) for field in ("prompt", "explanation", "hint")
    ]
    for number, option in enumerate(getattr(question, "options", ())):
        texts += [(("options", number, "text"), option.text),
                  (("options", number, "feedback"), option.feedback)]  # fmt: skip
    for at, text in texts:
        found = foreign(text, set(), drawn=False)
        if found is not None:
            offset, message, hint = found
            raise problem(message, hint, at, offset)
    if question.derived or question.constraints or question.numbers_before is not None:
        field = next(
            f for f in ("derived", "constraints", "numbers_before") if getattr(question, f)
        )
        raise problem(f"`{field}` needs `params`", "declare the parameters, or remove it", (field,))
    if isinstance(getattr(question, "answer", None), str):
        raise problem(
            "the answer is a formula, but the question has no `params`",
            "write the number itself, or declare the parameters it uses",
            ("answer",),
        )
    for number, option in enumerate(getattr(question, "options", ())):
        if option.value is not None:
            raise problem(
                "an option's `value` needs `params` in its question",
                "write the number in the text, or declare the parameters",
                ("options", number, "value"),
            )


def _declared(params: Mapping[str, Param], derived: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    labels: set[str] = set()
    numbers: set[str] = set()
    seen: set[str] = set()
    places: list[tuple[str, tuple[str | int, ...]]] = []
    for name, param in params.items():
        places.append((name, ("params", name)))
        if param.cases:
            labels.add(name)
            first = next(iter(param.cases))
            places += [(n, ("params", name, "cases", first, n)) for n in param.cases[first]]
            numbers.update(param.names(name)[1:])
        else:
            numbers.add(name)
    places += [(name, ("derived", name)) for name in derived]
    numbers.update(derived)
    for name, at in places:
        if not _NAME.match(name):
            raise problem(
                f"`{name}` is not a name formulas can use",
                "use lower-case letters, digits and `_`, starting with a letter",
                at,
                key=True,
            )
        if name in RESERVED:
            raise problem(
                f"`{name}` is reserved"
                + (" for an option's own value" if name == "value" else " for a function"),
                "choose another name",
                at,
                key=True,
            )
        if name in seen:
            raise problem(
                f"`{name}` is declared twice", "give each value its own name", at, key=True
            )
        seen.add(name)
    return labels, numbers


def _uses(
    text: str,
    numbers: set[str],
    labels: set[str],
    at: Sequence[str | int],
    later: Iterable[str] = (),
) -> None:
    try:
        formula = expressions.parse(text, comparison=at[0] == "constraints")
    except expressions.ExpressionError as error:
        raise problem(error.message, error.hint, at, error.offset) from None
    for name in sorted(formula.names - numbers):
        offset = _name_offset(text, name)
        if name in labels:
            raise problem(
                f"`{name}` names a case, which is text", "use one of its numbers", at, offset
            )
        if name in later:
            raise problem(f"`{name}` is derived further down", "move it above this one", at, offset)
        raise problem(f"unknown name `{name}`", _close(name, numbers), at, offset)


def _name_offset(text: str, name: str) -> int:
    found = re.search(rf"\b{re.escape(name)}\b", text)
    return found.start() if found else -1


def _close(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    listed = ", ".join(f"`{k}`" for k in sorted(known)) or "none"
    return f"declare it under `params` or `derived`; known here: {listed}"


def _placeholders(text: str | None, known: set[str], at: Sequence[str | int]) -> None:
    found = foreign(text, known, drawn=True)
    if found is not None:
        offset, message, hint = found
        raise problem(message, hint, at, offset)
    for match in PLACEHOLDER.finditer(text or ""):
        name = match.group(1)
        if name is not None and name not in known:
            hint = _close(name, known) + "; write `{{` for a literal brace"
            raise problem(f"unknown name `{{{name}}}`", hint, at, match.start())


def _check_option(
    option: Any, number: int, numbers: set[str], labels: set[str], known: set[str]
) -> None:
    at = ("options", number)
    mine = known | ({"value"} if option.value is not None else set())
    if option.value is not None:
        _uses(option.value, numbers, labels, (*at, "value"))
        if not any(m.group(1) == "value" for m in PLACEHOLDER.finditer(option.text)):
            raise problem(
                "the option has a `value` its text does not show",
                "write `{value}` in the text where the number goes",
                (*at, "text"),
            )
    _placeholders(option.text, mine, (*at, "text"))
    _placeholders(option.feedback, mine, (*at, "feedback"))


def _before(before: Mapping[str, float | str], params: Mapping[str, Param]) -> None:
    for name in before:
        if name not in params:
            raise problem(
                f"`{name}` is not a parameter",
                _close(name, params),
                ("numbers_before", name),
                key=True,
            )
    missing = [name for name in params if name not in before]
    if missing:
        raise problem(
            f"`numbers_before` gives no value for {', '.join(missing)}",
            "give every parameter the value the fixed question used",
            ("numbers_before",),
        )
