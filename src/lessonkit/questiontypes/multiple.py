"""`multiple`: pick every correct option.

Response: ``frozenset[int]``, the chosen options' bank indices; typed as the numbers they
were shown with, e.g. `1,3` or `1 3`. Partial credit: (right chosen - wrong chosen) /
right options, floored at 0, so choosing everything earns nothing extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessonkit.grading.credit import Grade, index, scored
from lessonkit.questiontypes.base import (
    Carried,
    GiftKit,
    MoodleKit,
    QtiKit,
    ResponseError,
)
from lessonkit.questiontypes.options import (
    ChoiceQuestion,
    ChoiceType,
    choice_parts,
    in_range,
    listed,
    places,
)


class Multiple(ChoiceQuestion, tag="multiple"):
    """A `multiple` question at run time (``bank.questions.MultipleQuestion``)."""

    scoring: str = "partial"


class MultipleType(ChoiceType[Multiple, frozenset[int]]):
    name = "multiple"
    runtime = Multiple
    script = "multiple.js"
    example = """\
  - id: {{id}}
    type: multiple
    prompt: "TODO(lessonkit): Ask for every option that applies."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Explain each right option, and what the wrong one misses."
    options:
      - text: "TODO(lessonkit): A right option"
        correct: true
      - text: "TODO(lessonkit): Another right option"
        correct: true
      - text: "TODO(lessonkit): A wrong option"
"""
    moodle_type = "multichoice"
    qti_type = "multiple_answers_question"
    several = True
    picking = "several"

    def chosen(self, response: frozenset[int]) -> list[int]:
        return sorted(response)

    def expected_form(self, question: Multiple) -> str:
        count = len(question.options)
        return f"Type every number that applies, from 1 to {count}, e.g. `1,3` or `1 3`."

    def parse(self, question: Multiple, text: str, display: Sequence[int]) -> frozenset[int]:
        count = len(question.options)
        parts = choice_parts(text)
        wrong = [p for p in parts if not p.isdigit()]
        if wrong:
            raise ResponseError(
                f"`{wrong[0]}` is not a number. Type numbers from 1 to {count} separated by "
                "commas or spaces, e.g. `1,3`."
            )
        numbers = [in_range(int(p), count) for p in parts]
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        if repeated:
            raise ResponseError(
                f"{listed(repeated)} {'is' if len(repeated) == 1 else 'are'} "
                "typed twice. Type each number once, e.g. `1,3`."
            )
        return frozenset(display[n - 1] for n in sorted(numbers))

    def to_json(self, response: frozenset[int]) -> Any:
        return sorted(response)

    def from_json(self, question: Multiple, value: Any) -> frozenset[int]:
        return frozenset(int(v) for v in value)

    def grade(self, question: Multiple, response: frozenset[int]) -> Grade:
        if not isinstance(response, frozenset):
            raise TypeError(f"a multiple response is a frozenset, not {type(response).__name__}")
        count = len(question.options)
        chosen = sorted(index(i, count, "option index") for i in response)
        right = sum(question.options[i].correct for i in chosen)
        wrong = len(chosen) - right
        needed = sum(o.correct for o in question.options)
        feedback = tuple(f for i in chosen if (f := question.options[i].feedback))
        share = max(0, right - wrong) / needed
        return scored(question.scoring, question.points, share, feedback)

    def answer_key(self, question: Multiple) -> frozenset[int]:
        return frozenset(i for i, o in enumerate(question.options) if o.correct)

    def wrong_responses(self, question: Multiple) -> list[frozenset[int]]:
        return [frozenset(), frozenset(range(len(question.options)))]

    def shown(self, question: Multiple, response: frozenset[int], display: Sequence[int]) -> str:
        place = places(display)
        return ",".join(str(n) for n in sorted(place[i] for i in response))

    def picked(self, question: Multiple, value: Any) -> tuple[int, ...]:
        return tuple(set(value)) if isinstance(value, list) else ()

    def widget_key(self, question: Multiple) -> dict[str, Any]:
        key = super().widget_key(question)
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def gift(self, question: Multiple, kit: GiftKit) -> Carried[list[str]]:
        needed = sum(o.correct for o in question.options)
        lines = [
            f"~%{kit.weight(1 / needed if o.correct else -1 / needed)}%"
            f"{kit.inline(o.text)}{kit.feedback(o.feedback)}"
            for o in question.options
        ]
        lost = f"scoring `{question.scoring}`: GIFT gives partial credit"
        return Carried(lines, (lost,) if question.scoring != "partial" else ())

    def moodle(self, question: Multiple, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "single", "false")
        kit.sub(element, "shuffleanswers", kit.shuffle(question))
        kit.sub(element, "answernumbering", "abc")
        needed = sum(o.correct for o in question.options)
        for option in question.options:
            share = 1 / needed if option.correct else -1 / needed
            kit.answer(element, kit.fraction(share), kit.inline(option.text),
                       option.feedback)  # fmt: skip
        if question.scoring != "partial":
            return (f"scoring `{question.scoring}`: Moodle's multichoice always gives "
                    "partial credit",)  # fmt: skip
        return ()

    def qti(self, question: Multiple, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        options = question.options
        self.qti_options(question, kit, "Multiple")

        def every(parent: Any) -> None:
            both = kit.sub(parent, "and")
            for answer, option in zip(kit.answers, options, strict=True):
                if option.correct:
                    kit.equal("response1", answer)(both)
                else:
                    kit.equal("response1", answer)(kit.sub(both, "not"))

        kit.condition(every, score=("Set", "100"), more=False)
        rule = question.scoring
        # QTI 1.2 cannot say how to score a partly right choice; Canvas scores multiple
        # answers by its own grading option, chosen in Canvas.
        what = (f"scoring `{rule}`: Canvas grades multiple answers by its own option; "
                + ("choose \"partial credit with penalty\" (lessonkit's rule)" if rule == "partial"
                   else "choose \"exact match\""))  # fmt: skip
        return (what,)


TYPE = MultipleType()
