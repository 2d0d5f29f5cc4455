"""`single`: pick exactly one option. Full points for the correct one, none otherwise.

Response: ``int``, the chosen option's bank index; typed as the number it was shown with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessonkit.grading.credit import Grade, index, scaled
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
    places,
)


class Single(ChoiceQuestion, tag="single"):
    """A `single` question at run time (``bank.questions.SingleQuestion``)."""


class SingleType(ChoiceType[Single, int]):
    name = "single"
    runtime = Single
    script = "single.js"
    example = """\
  - id: {{id}}
    type: single
    prompt: "TODO(lessonkit): Ask one thing; exactly one option is right."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say why the answer is right and why the others are not."
    options:
      - text: "TODO(lessonkit): A plausible wrong answer"
        feedback: "TODO(lessonkit): Shown to learners who pick this option."
      - text: "TODO(lessonkit): The right answer"
        correct: true
      - text: "TODO(lessonkit): Another plausible wrong answer"
"""
    moodle_type = "multichoice"
    qti_type = "multiple_choice_question"
    picking = "one"

    def chosen(self, response: int) -> list[int]:
        return [response]

    def expected_form(self, question: Single) -> str:
        return f"Type one number from 1 to {len(question.options)}."

    def parse(self, question: Single, text: str, display: Sequence[int]) -> int:
        parts, count = choice_parts(text), len(question.options)
        if len(parts) != 1 or not parts[0].isdigit():
            raise ResponseError(
                f"`{text.strip()}` is not a number. Type one number from 1 to {count}."
            )
        return display[in_range(int(parts[0]), count) - 1]

    def from_json(self, question: Single, value: Any) -> int:
        return int(value)

    def grade(self, question: Single, response: int) -> Grade:
        chosen = question.options[index(response, len(question.options), "option index")]
        feedback = (chosen.feedback,) if chosen.feedback else ()
        return scaled(question.points, 1.0 if chosen.correct else 0.0, feedback)

    def answer_key(self, question: Single) -> int:
        return next(i for i, o in enumerate(question.options) if o.correct)

    def wrong_responses(self, question: Single) -> list[int]:
        return [i for i, o in enumerate(question.options) if not o.correct]

    def shown(self, question: Single, response: int, display: Sequence[int]) -> str:
        return str(places(display)[response])

    def picked(self, question: Single, value: Any) -> tuple[int, ...]:
        return (value,) if type(value) is int else ()

    def gift(self, question: Single, kit: GiftKit) -> Carried[list[str]]:
        return Carried(
            [
                f"{'=' if o.correct else '~'}{kit.inline(o.text)}{kit.feedback(o.feedback)}"
                for o in question.options
            ]
        )

    def moodle(self, question: Single, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "single", "true")
        kit.sub(element, "shuffleanswers", kit.shuffle(question))
        kit.sub(element, "answernumbering", "abc")
        for option in question.options:
            share = float(option.correct)
            kit.answer(element, kit.fraction(share), kit.inline(option.text),
                       option.feedback)  # fmt: skip
        return ()

    def qti(self, question: Single, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        options = question.options
        self.qti_options(question, kit, "Single")
        right = next(a for a, o in zip(kit.answers, options, strict=True) if o.correct)
        kit.condition(kit.equal("response1", right), score=("Set", "100"), more=False)
        return ()


TYPE = SingleType()
