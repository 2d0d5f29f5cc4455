"""`numeric`: a number, right within a tolerance.

Response: ``float`` (a ``grading.numbers.Number``, which remembers what was typed). Typed
with a decimal point or comma, grouping, and optionally the unit; `decimal_mark` says how
an ambiguous `1,000` is read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from lessonkit.grading import numbers
from lessonkit.grading.credit import Grade
from lessonkit.questiontypes.base import (
    AnkiCard,
    Carried,
    DrawnQuestion,
    GiftKit,
    HtmlKit,
    MoodleKit,
    PageKit,
    QtiKit,
    QuestionType,
    ResponseError,
    RuntimeQuestion,
    Widget,
)

_AUTO = {"fraction": "100", "format": "moodle_auto_format"}


class Numeric(DrawnQuestion, tag="numeric"):
    """A `numeric` question at run time (``bank.questions.NumericQuestion``)."""

    answer: float | str
    tolerance: float | None = None
    relative_tolerance: float | None = None
    unit: str | None = None
    decimal_mark: str | None = None
    bound: str | None = None

    def allowed_error(self) -> float:
        """How far from `answer` a response may be and still be right: the larger of the
        two tolerances (0 with neither)."""
        return max(self.tolerance or 0.0, (self.relative_tolerance or 0.0) * abs(self.value()))

    def value(self) -> float:
        """The answer as a number; a question with `params` has one per draw, so render a
        draw first."""
        if isinstance(self.answer, str):
            raise TypeError(f"{self.id}: the answer is a formula; render a variant first")
        return float(self.answer)


def right(question: Numeric, value: float) -> bool:
    """Whether ``value`` is within the question's tolerance of its answer."""
    answer = question.value()
    allowed = question.allowed_error()
    # A few units in the last place absorb binary rounding: 0.4 - 0.3 is not quite 0.1.
    slack = 4 * math.ulp(max(abs(answer), abs(value)))
    return abs(value - answer) <= allowed + slack


def convention(question: Numeric) -> numbers.DecimalMark:
    """How this question reads a lone `,` or `.` before three digits (`2,147`, `1.000`): as
    the bank or question says, else by whether its answer may have decimals."""
    mark = question.decimal_mark
    if mark in ("point", "comma", "either"):
        return mark  # type: ignore[return-value]
    return numbers.unset_mark(decimals=_decimals(question))


def _decimals(question: Numeric) -> bool:
    """Whether a right answer may have decimals: not a count (`bound`), and not a whole
    number that must be typed exactly. A formula not yet drawn may."""
    if question.bound is not None:
        return False
    try:
        whole = question.value().is_integer()
    except TypeError:
        return True
    return not whole or question.allowed_error() >= 1


def _number(response: Any) -> float:
    if isinstance(response, bool) or not isinstance(response, int | float):
        raise TypeError(f"a numeric response is a float, not {type(response).__name__}")
    value = float(response)
    if not math.isfinite(value):
        raise ValueError(f"a numeric response must be finite, not {value}")
    return value


def _share_for_percent(question: Numeric, value: float, text: str) -> bool:
    """A share (`0.75`) typed without a % sign where the question asks for a percentage of
    1 or more: asked about rather than graded (`0.75 %`, typed so, is graded)."""
    if question.unit not in numbers.PERCENT_UNITS or not 0 < abs(value) < 1:
        return False
    if any(word in numbers.clean(text) for word in ("%", "percent", "per cent")):
        return False
    try:
        return abs(question.value()) >= 1
    except TypeError:
        return False  # a formula not yet drawn: graded, with the note below


def _notes(question: Numeric, value: float) -> tuple[str, ...]:
    """A hint for a wrong number that looks like a share where a percentage was asked for."""
    if question.unit not in numbers.PERCENT_UNITS or not 0 < abs(value) < 1 <= abs(
        question.value()
    ):
        return ()
    share = numbers.number_text(value)
    percent = numbers.number_text(float(f"{value * 100:.12g}"))
    return (f"The unit is %: your {share} means {share} %. A share of {share} is {percent} %.",)


def _margin(question: Numeric, number: Any, unit: str) -> str:
    if question.tolerance:
        return f" (± {number(question.tolerance)}{unit})"
    if question.relative_tolerance:
        return f" (± {number(question.relative_tolerance * 100)} %)"
    return ""


class NumericType(QuestionType[Numeric, float]):
    name = "numeric"
    runtime = Numeric
    script = "numeric.js"
    example = """\
  - id: {{id}}
    type: numeric
    prompt: "TODO(lessonkit): Ask for a number the learner can work out from the lesson."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Show the working, step by step, with the numbers."
    hint: "TODO(lessonkit): Name the formula or the first step."
    answer: 42
    relative_tolerance: 0.05
    unit: "%"
"""
    moodle_type = "numerical"
    qti_type = "numerical_question"

    def expected_form(self, question: Numeric) -> str:
        unit = question.unit
        where = f", optionally followed by {unit}" if unit else ""
        if unit in numbers.PERCENT_UNITS:
            return f"Type a percentage (decimal point or comma), e.g. `50` for half{where}."
        return f"Type a number (decimal point or comma){where}."

    def parse(self, question: Numeric, text: str, display: Sequence[int]) -> float:
        try:
            number = numbers.read_number(text, question.unit, convention(question))
        except numbers.NumberError as error:
            raise ResponseError(str(error)) from None
        if _share_for_percent(question, number, text):
            share = numbers.number_text(number)
            percent = numbers.number_text(float(f"{number * 100:.12g}"))
            raise ResponseError(
                f"`{text.strip()}` looks like a share, and this question asks in %. Did you mean "
                f"{percent} %? Type `{percent}`, or `{share} %` if you mean {share} %."
            )
        return number

    def from_json(self, question: Numeric, value: Any) -> float:
        return float(value)

    def grade(self, question: Numeric, response: float) -> Grade:
        value = _number(response)
        ok = right(question, value)
        notes = () if ok else _notes(question, value)
        return Grade(question.points if ok else 0.0, question.points, ok, notes)

    def answer_key(self, question: Numeric) -> float:
        return question.answer  # type: ignore[return-value]  # a formula before a draw

    def shown_key(self, question: Numeric, *, drawn: bool) -> float:
        key = question.value()
        if not drawn:
            return key  # as the author wrote it
        from lessonkit.bank.numerals import places_for

        places = places_for(question.allowed_error())
        return key if places is None else round(key, places)

    def key_fields(self, question: Numeric) -> dict[str, Any]:
        answer = question.answer  # a formula is hashed as written
        return {
            "answer": answer if isinstance(answer, str) else float(answer),
            "tolerance": _maybe_float(question.tolerance),
            "relative_tolerance": _maybe_float(question.relative_tolerance),
            **question.parameters_key(),
        }

    def shown(self, question: Numeric, response: float, display: Sequence[int]) -> str:
        unit = question.unit
        return numbers.number_text(response) + (f" {unit}" if unit else "")

    def described(self, question: Numeric, response: float, display: Sequence[int]) -> list[str]:
        if isinstance(response, numbers.Number) and response.read_as:
            return [f"{response.typed} (read as {response.read_as})"]
        return [self.shown(question, response, display)]

    def in_words(
        self, question: Numeric, response: float, numbers: Mapping[str, float | str] | None = None
    ) -> str:
        return f"{response:g}" + (f" {question.unit}" if question.unit else "")

    def key_described(self, question: Numeric) -> list[str]:
        return [self.shown(question, question.value(), ())]

    def asked_numbers(
        self, question: Numeric
    ) -> list[tuple[tuple[str | int, ...], RuntimeQuestion]]:
        return [((), question)]

    def unit(self, question: Numeric) -> str | None:
        return question.unit

    wrong_advice = (
        "marked wrong: a shared mistake worth its own feedback, or a rounding the "
        "tolerance should allow"
    )

    def wrong_form(self, question: Numeric, value: Any) -> str | None:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return str(value)
        return _as_people_write(float(value)) + (f" {question.unit}" if question.unit else "")

    def exact_key(self, question: Numeric) -> float | None:
        # A question that draws numbers has a key per draw: no one key to be off.
        return None if question.params else question.value()

    def anki(self, question: Numeric, kit: HtmlKit) -> AnkiCard:
        unit = f" {question.unit}" if question.unit else ""
        text = f"{kit.number(question.value())}{unit}{_margin(question, kit.number, unit)}"
        options = f"Answer with a number in {kit.escape(question.unit)}." if question.unit else ""
        return AnkiCard(options, f"<b>Answer:</b> {kit.escape(text)}")

    def gift(self, question: Numeric, kit: GiftKit) -> Carried[list[str]]:
        margin = question.allowed_error()
        return Carried([f"#{kit.number(question.value())}:{kit.number(margin)}"])

    def moodle(self, question: Numeric, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        answer = kit.sub(element, "answer", attributes=_AUTO)
        kit.sub(answer, "text", kit.number(question.value()))
        kit.sub(answer, "tolerance", kit.number(question.allowed_error()))
        return ()

    def qti(self, question: Numeric, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        kit.blank(numeric=True)
        margin, value = question.allowed_error(), question.value()

        def within(parent: Any) -> None:
            either = kit.sub(parent, "or")
            kit.sub(either, "varequal", {"respident": "response1"}).text = kit.number(value)
            both = kit.sub(either, "and")
            low, high = value - margin, value + margin
            kit.sub(both, "vargte", {"respident": "response1"}).text = kit.number(low)
            kit.sub(both, "varlte", {"respident": "response1"}).text = kit.number(high)

        kit.condition(within, score=("Set", "100"), more=False)
        return ()

    def widget_key(self, question: Numeric) -> dict[str, Any]:
        key: dict[str, Any] = {"answer": question.answer}
        for name in ("tolerance", "relative_tolerance", "unit"):
            if getattr(question, name) is not None:
                key[name] = getattr(question, name)
        if (mark := convention(question)) != "point":  # the page's script reads `point` unsaid
            key["decimal_mark"] = mark
        return key

    def widget_answer(self, question: Numeric) -> tuple[str, float]:
        # As precise as its tolerance needs: typed as shown, it is right.
        from lessonkit.bank import numerals

        places = numerals.places_for(question.allowed_error())
        shown = numerals.written(question.value(), decimals=places, separators=False)
        return shown, question.value()

    def widget(self, question: Numeric, kit: PageKit) -> Widget:
        unit = f" in {kit.text(question.unit)}" if question.unit else ""
        # The field and its unit are one box that wraps as a whole, and the field is sized
        # for a number: on a phone a default-width field pushed the unit onto its own line.
        control = '<input type="text" id="{id}" inputmode="decimal" autocomplete="off" size="10">'
        if question.unit:
            control = (
                f'<span class="lk-entry">{control} '
                f'<span class="lk-unit">{kit.text(question.unit)}</span></span>'
            )
        unit_text = kit.text(question.unit) if question.unit else ""
        inputs = [
            f'<p class="lk-instruction">Answer with a number{unit}; a decimal point or comma.</p>',
            *kit.field(question, "Your answer", control, unit=unit_text or None),
        ]
        shown_unit = f" {kit.text(question.unit)}" if question.unit else ""
        margin = _margin(question, _page_number, shown_unit)
        drawn = kit.shown_answer(question)
        shown = _page_number(question.value()) if drawn is None else drawn
        return Widget(inputs, [f"<p><strong>Answer:</strong> {shown}{shown_unit}{margin}</p>"])


def _as_people_write(value: float) -> str:
    """Up to six significant digits, no exponent between a millionth and a million billion
    (2400000, not 2.4e+06): how results list a common wrong number."""
    if value == 0 or not 1e-6 <= abs(value) < 1e15:
        return f"{value:g}"
    decimals = max(0, 5 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"


def _page_number(value: float) -> str:
    return f"{value:g}"


def _maybe_float(value: float | None) -> float | None:
    return None if value is None else float(value)


TYPE = NumericType()
