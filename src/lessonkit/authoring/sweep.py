"""The `parameters` rule: every parameterised question swept over its draws before it ships.

Each question is tried on its whole parameter space, or on a seeded sample of
``SAMPLE`` draws when the space is larger than ``WHOLE``. The sweep flags a formula
that fails (divides by zero, overflows) for some draw, constraints that no draw meets,
a distractor that equals the answer for some draw, an answer a learner cannot reach
from the numbers as printed (or cannot type at all), and a prompt that never changes.
Formulas are computed a column of draws at a time (``expressions``), which keeps the
sweep of a large bank to a fraction of reading it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lessonkit.bank import expressions, numbers, yamldoc
from lessonkit.bank.expressions import EvaluationError
from lessonkit.bank.loader import inside, value_at
from lessonkit.bank.models import ChoiceQuestion, NumericQuestion, Question
from lessonkit.bank.variants import PLACEHOLDER, Space, Variant, shown_numbers
from lessonkit.course.course import Course
from lessonkit.errors import Problem

__all__ = ["SAMPLE", "WHOLE", "check_course", "draws"]

WHOLE = 1024  # spaces up to this size are swept whole
SAMPLE = 256  # draws in the seeded sample of a larger space (the issue asks for 200 or more)
CLOSE = 0.01  # a distractor within 1 % of the answer cannot be told from it


def check_course(course: Course) -> list[Problem]:
    """The sweep's problems for every parameterised question that loaded."""
    found: list[Problem] = []
    for parts in course.bank_parts:
        for index, question in parts.questions:
            if isinstance(question, NumericQuestion | ChoiceQuestion) and question.params:
                found += Sweep(parts.document, index, question).run()
    return found


def draws(space: Space, question_id: str) -> list[int]:
    """Which indices of the space the sweep tries: all of them, or a seeded sample."""
    if space.size <= WHOLE:
        return list(range(space.size))
    return random.Random(f"sweep/{question_id}").sample(range(space.size), SAMPLE)


class Sweep:
    """One question's sweep; ``run`` returns its problems (at most one per kind)."""

    def __init__(self, document: yamldoc.Document, index: int, question: Question) -> None:
        self.document = document
        self.loc: tuple[str | int, ...] = ("questions", index)
        self.question = question
        self.data: dict[str, Any] = question.model_dump(mode="json")
        self.space = Space(self.data)
        self.problems: list[Problem] = []

    def problem(
        self, at: Sequence[str | int], message: str, hint: str = "", offset: int = -1
    ) -> None:
        where = (*self.loc, *at)
        shown = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
        made = self.document.problem(where, f"{shown.lstrip('.')}: {message}", hint)
        text = value_at(self.data, at)
        if offset >= 0 and isinstance(text, str):
            made = inside(made, text, offset)
        self.problems.append(made)

    def failed(self, error: EvaluationError, at: Sequence[str | int], variant: Variant) -> None:
        self.problem(
            at,
            f"{error.message} when {shown_numbers(self.data, variant, exact=True)}",
            "change the formula or the parameters' ranges, or add a constraint",
            error.offset,
        )

    def run(self) -> list[Problem]:
        variants = [self.space.choice(i) for i in draws(self.space, self.question.id)]
        try:
            cols = self.space.columns(variants)
        except EvaluationError as error:
            self.failed(error, ("derived", error.formula, "formula"), variants[error.draw])
            return self.problems
        kept = self._constraints(cols, variants)
        if not kept:
            return self.problems
        variants = [variants[i] for i in kept]
        cols = {name: [col[i] for i in kept] for name, col in cols.items()}
        self._prompt_changes(variants, cols)
        if isinstance(self.question, NumericQuestion):
            self._answer(variants, cols)
        else:
            self._options(variants, cols)
        return self.problems

    def _constraints(self, cols: Mapping[str, list[float]], variants: list[Variant]) -> list[int]:
        size = len(variants)
        holds = [True] * size
        for number, constraint in enumerate(self.space.constraints):
            try:
                found = constraint.columns(cols, size)
            except EvaluationError as error:
                self.failed(error, ("constraints", number), variants[error.draw])
                return []
            if not any(found):
                self.problem(
                    ("constraints", number),
                    f"no draw meets this constraint (tried {_count(size, 'draw')})",
                    "widen the parameters' values or loosen the constraint",
                )
                return []
            holds = [h and bool(f) for h, f in zip(holds, found, strict=True)]
        if not any(holds):
            self.problem(
                ("constraints",),
                f"no draw meets all the constraints together (tried {_count(size, 'draw')})",
                "loosen one of them",
            )
        return [i for i, h in enumerate(holds) if h]

    def _written(self, name: str, column: Sequence[float | str]) -> list[str]:
        memo: dict[float | str, str] = {}
        out = []
        for value in column:
            text = memo.get(value)
            if text is None:
                text = memo[value] = self.space.written(name, value)
            out.append(text)
        return out

    def _prompt_changes(self, variants: list[Variant], cols: Mapping[str, list[float]]) -> None:
        names = sorted({m.group(1) for m in PLACEHOLDER.finditer(self.question.prompt)} - {None})
        if not names:
            self.problem(
                ("prompt",),
                "the prompt shows none of the parameters, so every draw asks the same question",
                "write them into the prompt as `{name}`",
            )
            return
        shown = [
            self._written(n, cols[n] if n in cols else [v[n] for v in variants]) for n in names
        ]
        if len(set(zip(*shown, strict=True))) == 1 and self.space.size > 1:
            self.problem(
                ("prompt",),
                f"the prompt reads the same for every draw ({_count(len(variants), 'draw')})",
                "give the parameters it shows more than one value",
            )

    def _answer(self, variants: list[Variant], cols: dict[str, list[float]]) -> None:
        question = self.question
        assert isinstance(question, NumericQuestion) and isinstance(question.answer, str)
        formula = expressions.parse(question.answer)
        try:
            answers = formula.columns(cols, len(variants))
        except EvaluationError as error:
            self.failed(error, ("answer",), variants[error.draw])
            return
        tolerance = question.tolerance or 0.0
        relative = question.relative_tolerance or 0.0
        allowed = [max(tolerance, relative * abs(a)) for a in answers]
        for draw, (answer, room) in enumerate(zip(answers, allowed, strict=True)):
            if room == 0 and float(f"{answer:.6g}") != answer:
                self.problem(
                    ("answer",),
                    f"the answer is {answer!r} when "
                    f"{shown_numbers(self.data, variants[draw], exact=True)}: "
                    "no one can type it exactly",
                    "give a `tolerance` or a `relative_tolerance`",
                )
                return
        self._printed(formula, variants, cols, answers, allowed)

    def _printed(
        self,
        formula: expressions.Expression,
        variants: list[Variant],
        cols: dict[str, list[float]],
        answers: list[float],
        allowed: list[float],
    ) -> None:
        """The answer from the numbers as the prompt prints them must be within tolerance."""
        shown = {m.group(1) for m in PLACEHOLDER.finditer(self.question.prompt)}
        printed = dict(cols)
        changed = False
        for name in sorted(shown & set(cols)):
            values = [numbers.read(t) for t in self._written(name, cols[name])]
            changed = changed or values != cols[name]
            printed[name] = values
        if not changed:
            return
        try:
            for name, derived, _ in self.space.derived:
                if name not in shown:
                    printed[name] = derived.columns(printed, len(variants))
            again = formula.columns(printed, len(variants))
        except EvaluationError:
            return  # the exact numbers work; the rounded ones are only a check
        for draw, (exact, rough, room) in enumerate(zip(answers, again, allowed, strict=True)):
            if abs(rough - exact) > room + 4e-12 * abs(exact):
                self.problem(
                    ("answer",),
                    f"from the numbers as the prompt prints them the answer "
                    f"is {_short(rough)}, not {_short(exact)}, outside the tolerance, when "
                    f"{shown_numbers(self.data, variants[draw], exact=True)}",
                    "give the parameters more `decimals`, or widen the tolerance",
                )
                return

    def _options(self, variants: list[Variant], cols: dict[str, list[float]]) -> None:
        question = self.question
        assert isinstance(question, ChoiceQuestion)
        values: dict[int, list[float]] = {}
        for number, option in enumerate(question.options):
            if option.value is None:
                continue
            try:
                values[number] = expressions.parse(option.value).columns(cols, len(variants))
            except EvaluationError as error:
                self.failed(error, ("options", number, "value"), variants[error.draw])
                return
        texts = {n: _texts(question.options[n], column) for n, column in values.items()}
        for wrong in (n for n in values if not question.options[n].correct):
            for other in values:
                compared = other < wrong or question.options[other].correct
                if (
                    other != wrong
                    and compared
                    and self._apart(wrong, other, values, texts, variants)
                ):
                    break

    def _apart(
        self,
        wrong: int,
        other: int,
        values: Mapping[int, list[float]],
        texts: Mapping[int, list[str]],
        variants: list[Variant],
    ) -> bool:
        """Report the first draw where two options cannot be told apart; False if none."""
        right = self.question.options[other].correct  # type: ignore[union-attr]
        pairs = zip(values[wrong], values[other], texts[wrong], texts[other], strict=True)
        for draw, (d, a, mine, theirs) in enumerate(pairs):
            if abs(d - a) <= CLOSE * max(abs(a), abs(d)) or mine == theirs:
                what = "the right answer" if right else f"options[{other}]"
                self.problem(
                    ("options", wrong, "value"),
                    f"this distractor equals {what} "
                    f"({mine} and {theirs}) when "
                    f"{shown_numbers(self.data, variants[draw], exact=True)}",
                    "add a constraint that keeps them apart, or choose another mistake to compute",
                )
                return True
        return False


def _texts(option: Any, column: Sequence[float]) -> list[str]:
    fmt = option.model_dump(include={"decimals", "significant", "separators"})
    return [numbers.written_as(v, fmt) for v in column]


def _short(value: float) -> str:
    return numbers.written(value, significant=6)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
