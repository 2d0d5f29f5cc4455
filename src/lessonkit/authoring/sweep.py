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
from typing import Any, assert_never

from lessonkit.authoring.policy import RuleSettings, fixed
from lessonkit.bank import expressions, numerals, yamldoc
from lessonkit.bank.expressions import EvaluationError
from lessonkit.bank.loader import inside, value_at
from lessonkit.bank.questions import ChoiceQuestion, NumericQuestion
from lessonkit.bank.variants import PLACEHOLDER, Space, shown_numbers
from lessonkit.course.course import Course
from lessonkit.errors import Problem

__all__ = ["SAMPLE", "WHOLE", "check_course", "draws"]

# The question types that draw numbers: a numeric answer, or options with values.
Drawn = NumericQuestion | ChoiceQuestion

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

    def __init__(self, document: yamldoc.Document, index: int, question: Drawn) -> None:
        self.document = document
        self.loc: tuple[str | int, ...] = ("questions", index)
        self.question: Drawn = question
        self.data: dict[str, Any] = question.model_dump(mode="json")
        self.space = Space(self.data)
        self.problems: list[Problem] = []
        self._printed_values: dict[str, dict[float | str, str]] = {}

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

    def failed(self, error: EvaluationError, at: Sequence[str | int]) -> None:
        self.problem(
            at,
            f"{error.message} when {self.numbers(error.draw)}",
            "change the formula or the parameters' ranges, or add a constraint",
            error.offset,
        )

    def numbers(self, draw: int) -> str:
        """The numbers of one draw, in full, for a message."""
        return shown_numbers(self.data, self.space.choice(self.indices[draw]), exact=True)

    def run(self) -> list[Problem]:
        self.indices = draws(self.space, self.question.id)
        try:
            cols, labels = self.space.columns_at(self.indices)
        except EvaluationError as error:
            self.failed(error, ("derived", error.formula, "formula"))
            return self.problems
        kept = self._constraints(cols)
        if not kept:
            return self.problems
        if len(kept) < len(self.indices):
            self.indices = [self.indices[i] for i in kept]
            cols = {name: [col[i] for i in kept] for name, col in cols.items()}
            labels = {name: [col[i] for i in kept] for name, col in labels.items()}
        self._prompt_changes(cols, labels)
        question = self.question
        if isinstance(question, NumericQuestion):
            self._answer(question, cols)
        elif isinstance(question, ChoiceQuestion):
            self._options(question, cols)
        else:
            assert_never(question)
        return self.problems

    def _constraints(self, cols: Mapping[str, list[float]]) -> list[int]:
        size = len(self.indices)
        holds = [True] * size
        for number, constraint in enumerate(self.space.constraints):
            try:
                found = constraint.columns(cols, size)
            except EvaluationError as error:
                self.failed(error, ("constraints", number))
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

    def _written(self, name: str, column: Sequence[float | str]) -> dict[float | str, str]:
        """Each distinct value of a column as the texts print it (kept: asked twice)."""
        found = self._printed_values.get(name)
        if found is None:
            found = {value: self.space.written(name, value) for value in set(column)}
            self._printed_values[name] = found
        return found

    def _prompt_changes(
        self, cols: Mapping[str, list[float]], labels: Mapping[str, list[str]]
    ) -> None:
        names = sorted({m.group(1) for m in PLACEHOLDER.finditer(self.question.prompt)} - {None})
        if not names:
            self.problem(
                ("prompt",),
                "the prompt shows none of the parameters, so every draw asks the same question",
                "write them into the prompt as `{name}`",
            )
            return
        # The prompt changes when any value it shows prints two ways over the draws.
        columns: dict[str, Sequence[float | str]] = {**cols, **labels}
        changes = any(
            len(set(self._written(n, columns[n]).values())) > 1 for n in names if n in columns
        )
        if self.space.size > 1 and not changes:
            self.problem(
                ("prompt",),
                f"the prompt reads the same for every draw ({_count(len(self.indices), 'draw')})",
                "give the parameters it shows more than one value",
            )

    def _answer(self, question: NumericQuestion, cols: dict[str, list[float]]) -> None:
        assert isinstance(question.answer, str)  # with `params`, the answer is a formula
        formula = expressions.parse(question.answer)
        try:
            answers = formula.columns(cols, len(self.indices))
        except EvaluationError as error:
            self.failed(error, ("answer",))
            return
        tolerance = question.tolerance or 0.0
        relative = question.relative_tolerance or 0.0
        if tolerance == 0 and relative == 0:
            for draw, answer in enumerate(answers):
                # Typeable when the answer as the quiz writes it reads back exactly: a whole
                # number in full (123456789), any other to six significant figures.
                if numerals.read(numerals.written(answer)) != answer:
                    self.problem(
                        ("answer",),
                        f"the answer is {answer!r} when {self.numbers(draw)}: "
                        "no one can type it exactly",
                        "give a `tolerance` or a `relative_tolerance`",
                    )
                    return
        self._printed(formula, cols, answers, (tolerance, relative))

    def _printed(
        self,
        formula: expressions.Expression,
        cols: dict[str, list[float]],
        answers: list[float],
        tolerances: tuple[float, float],
    ) -> None:
        """The answer from the numbers as the prompt prints them must be within tolerance."""
        shown = {m.group(1) for m in PLACEHOLDER.finditer(self.question.prompt)}
        printed = dict(cols)
        changed = False
        for name in sorted(shown & set(cols)):
            read = {v: numerals.read(t) for v, t in self._written(name, cols[name]).items()}
            if any(v != r for v, r in read.items()):
                changed = True
                printed[name] = [float(read[v]) for v in cols[name]]
        if not changed:
            return
        size = len(self.indices)
        try:
            for name, derived, _ in self.space.derived:
                if name not in shown:
                    printed[name] = derived.columns(printed, size)
            again = formula.columns(printed, size)
        except EvaluationError:
            return  # the exact numbers work; the rounded ones are only a check
        tolerance, relative = tolerances
        for draw, (exact, rough) in enumerate(zip(answers, again, strict=True)):
            room = max(tolerance, relative * abs(exact))
            if abs(rough - exact) > room + 4e-12 * abs(exact):
                self.problem(
                    ("answer",),
                    f"from the numbers as the prompt prints them the answer is {_short(rough)}, "
                    f"not {_short(exact)}, outside the tolerance, when {self.numbers(draw)}",
                    "give the parameters more `decimals`, or widen the tolerance",
                )
                return

    def _options(self, question: ChoiceQuestion, cols: dict[str, list[float]]) -> None:
        values: dict[int, list[float]] = {}
        for number, option in enumerate(question.options):
            if option.value is None:
                continue
            try:
                values[number] = expressions.parse(option.value).columns(cols, len(self.indices))
            except EvaluationError as error:
                self.failed(error, ("options", number, "value"))
                return
        for wrong in (n for n in values if not question.options[n].correct):
            for other in values:
                compared = other < wrong or question.options[other].correct
                if other != wrong and compared and self._apart(question, wrong, other, values):
                    break

    def _apart(
        self, question: ChoiceQuestion, wrong: int, other: int, values: Mapping[int, list[float]]
    ) -> bool:
        """Report the first draw where two options cannot be told apart; False if none."""
        options = question.options
        mine, theirs = options[wrong], options[other]
        # Two numbers print alike only when close for the coarser format: format only those.
        relative = max(_relative(mine), _relative(theirs))
        absolute = max(_absolute(mine), _absolute(theirs))
        for draw, (d, a) in enumerate(zip(values[wrong], values[other], strict=True)):
            gap, size = abs(d - a), max(abs(a), abs(d))
            alike = gap <= CLOSE * size or (
                (gap <= relative * size or gap <= absolute) and _text(mine, d) == _text(theirs, a)
            )
            if alike:
                what = "the right answer" if theirs.correct else f"options[{other}]"
                self.problem(
                    ("options", wrong, "value"),
                    f"this distractor equals {what} ({_text(mine, d)} and {_text(theirs, a)}) "
                    f"when {self.numbers(draw)}",
                    "add a constraint that keeps them apart, or choose another mistake to compute",
                )
                return True
        return False


def _text(option: Any, value: float) -> str:
    fmt = {k: getattr(option, k) for k in ("decimals", "significant", "separators")}
    return numerals.written_as(value, fmt)


def _relative(option: Any) -> float:
    """How far apart, as a share, two numbers may be and print alike in significant figures."""
    if option.decimals is not None:
        return 0.0
    return float(10.0 ** (2 - (option.significant or numerals.DEFAULT_SIGNIFICANT)))


def _absolute(option: Any) -> float:
    """How far apart two numbers may be and print alike with fixed decimals."""
    return 0.0 if option.decimals is None else float(10.0**-option.decimals)


def _short(value: float) -> str:
    return numerals.written(value, significant=6)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _parameter_problems(course: Course, settings: RuleSettings) -> list[Problem]:
    return check_course(course)


PARAMETERS = fixed(
    "parameters",
    "A question with `params` works for every draw (all of them, or a seeded sample of "
    f"{SAMPLE}): no formula fails, some draw meets the constraints, no distractor equals the "
    "answer, the answer follows from the numbers as printed, and the prompt changes.",
    "each learner gets a different draw, and none may be broken",
    course_check=_parameter_problems,
)
