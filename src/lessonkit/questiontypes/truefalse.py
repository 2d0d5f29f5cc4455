"""`true_false`: a statement the learner says is true or false.

Response: ``bool``. Typed as `t`/`true`/`y`/`yes` or `f`/`false`/`n`/`no`, any case.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessonkit.grading import numbers
from lessonkit.grading.credit import Grade, full_or_nothing
from lessonkit.questiontypes.base import (
    AnkiCard,
    Carried,
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

_TRUE = frozenset({"t", "true", "y", "yes"})
_FALSE = frozenset({"f", "false", "n", "no"})
FORM = "Type t (true) or f (false)."


class TrueFalse(RuntimeQuestion, tag="true_false"):
    """A `true_false` question at run time (``bank.questions.TrueFalseQuestion``)."""

    answer: bool


class TrueFalseType(QuestionType[TrueFalse, bool]):
    name = "true_false"
    runtime = TrueFalse
    script = "true_false.js"
    example = """\
  - id: {{id}}
    type: true_false
    prompt: "TODO(lessonkit): A statement that is clearly true or false."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say why it is true or false, and what misleads people."
    answer: false
"""
    moodle_type = "truefalse"
    dead_distractors = False
    qti_type = "true_false_question"

    def expected_form(self, question: TrueFalse) -> str:
        return FORM

    def parse(self, question: TrueFalse, text: str, display: Sequence[int]) -> bool:
        typed = numbers.clean(text)
        if typed in _TRUE:
            return True
        if typed in _FALSE:
            return False
        raise ResponseError(f"`{typed}` is neither true nor false. {FORM}")

    def from_json(self, question: TrueFalse, value: Any) -> bool:
        return bool(value)

    def grade(self, question: TrueFalse, response: bool) -> Grade:
        if not isinstance(response, bool):
            raise TypeError(f"a true_false response is a bool, not {type(response).__name__}")
        return full_or_nothing(question.points, response == question.answer)

    def answer_key(self, question: TrueFalse) -> bool:
        return question.answer

    def wrong_responses(self, question: TrueFalse) -> list[bool]:
        return [not question.answer]

    def key_fields(self, question: TrueFalse) -> dict[str, Any]:
        return {"answer": question.answer}

    def shown(self, question: TrueFalse, response: bool, display: Sequence[int]) -> str:
        return "true" if response else "false"

    def echoed(
        self, question: TrueFalse, typed: str, response: bool, display: Sequence[int]
    ) -> list[str]:
        # `TRUE` echoed as typed; `t` or `yes` spelled out as `true`.
        if typed.strip().casefold() in ("true", "false"):
            return [typed.strip()]
        return self.described(question, response, display)

    def key_described(self, question: TrueFalse) -> list[str]:
        return [self.shown(question, question.answer, ())]

    def analysed_options(self, question: TrueFalse) -> tuple[tuple[str, ...], frozenset[int]]:
        return ("true", "false"), frozenset({0 if question.answer else 1})

    def picked(self, question: TrueFalse, value: Any) -> tuple[int, ...]:
        return (0,) if value is True else (1,) if value is False else ()

    def anki(self, question: TrueFalse, kit: HtmlKit) -> AnkiCard:
        return AnkiCard("True or false?", f"<b>Answer:</b> {_word(question.answer)}")

    def gift(self, question: TrueFalse, kit: GiftKit) -> Carried[list[str]]:
        return Carried(["TRUE" if question.answer else "FALSE"])

    def moodle(self, question: TrueFalse, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.answer(element, "100" if question.answer else "0", "true")
        kit.answer(element, "0" if question.answer else "100", "false")
        return ()

    def qti_answers(self, question: TrueFalse) -> int:
        return 2

    def qti(self, question: TrueFalse, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        true, false = kit.answers
        kit.choices([(true, "True"), (false, "False")], "Single", "response1")
        right = true if question.answer else false
        kit.condition(kit.equal("response1", right), score=("Set", "100"), more=False)
        return ()

    def widget_key(self, question: TrueFalse) -> dict[str, Any]:
        return {"answer": question.answer}

    def widget(self, question: TrueFalse, kit: PageKit) -> Widget:
        lead = '<p class="lk-instruction">True or false?</p>'
        # The letters would only get in the way of two words.
        lines = [
            line.replace("a) True", "True").replace("b) False", "False")
            for line in kit.choices(question, "radio", [(1, "True"), (0, "False")])
        ]
        answer = f"<p><strong>Answer:</strong> {_word(question.answer)}</p>"
        return Widget([lead, *lines], [answer])


def _word(answer: bool) -> str:
    return "True" if answer else "False"


TYPE = TrueFalseType()
