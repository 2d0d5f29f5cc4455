"""What `single` and `multiple` share: options to choose from, numbered as shown.

Not a type of its own (the registry lists ``single`` and ``multiple``): each of those
modules subclasses ``ChoiceType`` and adds how a choice is read, graded and exported.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from lessonkit.grading.textmatch import normalise_text
from lessonkit.questiontypes.base import (
    AnkiCard,
    DrawnQuestion,
    HtmlKit,
    PageKit,
    QtiKit,
    QuestionType,
    ResponseError,
    Widget,
    drawn,
)
from lessonkit.questiontypes.frozen import Part

SEPARATORS = re.compile(r"[\s,;]+")
# Words between numbers, as in `1, 4 and 5`; a number as it is labelled, as in `3.` or `3)`.
JOINING = frozenset({"and", "&", "+"})
LABEL_END = ".)"


def choice_parts(text: str) -> list[str]:
    """The numbers of a typed choice, as the learner wrote them: `1, 4 and 5` is 1, 4 and 5;
    `3.` (the label as shown) is 3. A sentence's full stop goes too."""
    from lessonkit.grading.numbers import clean

    parts = [p for p in SEPARATORS.split(clean(text)) if p and p not in JOINING]
    return [p[:-1] if len(p) > 1 and p[-1] in LABEL_END and p[:-1].isdigit() else p for p in parts]


class Option(Part):
    """One choice (``bank.questions.Option``)."""

    text: str
    correct: bool = False
    feedback: str | None = None
    value: float | str | None = None
    decimals: int | None = None
    significant: int | None = None
    separators: bool = True


class ChoiceQuestion(DrawnQuestion):
    """Options to choose from; ``shuffle`` unset follows the bank."""

    options: tuple[Option, ...]
    shuffle: bool | None = None


C = TypeVar("C", bound=ChoiceQuestion)
R = TypeVar("R")


def in_range(number: int, count: int) -> int:
    """A typed 1-based number, if there is such a thing to choose."""
    if not 1 <= number <= count:
        raise ResponseError(f"There is no {number}. Choose from 1 to {count}.")
    return number


def listed(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def places(display: Sequence[int]) -> dict[int, int]:
    """Bank index → the number it was shown with."""
    return {index: at + 1 for at, index in enumerate(display)}


def shuffled(question: Any, rng: random.Random, shuffle: bool, count: int) -> list[int]:
    """``range(count)``, shuffled by ``rng`` unless the question's `shuffle:` or the
    bank's setting says not to."""
    shown = list(range(count))
    own = question.shuffle
    if own is not False and (shuffle or own is True):
        rng.shuffle(shown)
    return shown


class ChoiceType(QuestionType[C, R]):
    """The parts of `single` and `multiple` that are the same."""

    authored = True

    def choices(self, question: C) -> int:
        return len(question.options)

    def qti_answers(self, question: C) -> int:
        return len(question.options)

    def qti_options(self, question: C, kit: QtiKit, cardinality: str) -> None:
        """The options as one QTI choice response, with each option's feedback shown when it
        is chosen; the type adds how it scores."""
        labels = [(a, kit.inline(o.text))
                  for a, o in zip(kit.answers, question.options, strict=True)]  # fmt: skip
        kit.choices(labels, cardinality, "response1")
        for answer, option in zip(kit.answers, question.options, strict=True):
            if option.feedback:
                kit.feedbacks[f"{answer}_fb"] = kit.html(option.feedback)
                kit.condition(kit.equal("response1", answer), feedback=f"{answer}_fb")

    def display(self, question: C, rng: random.Random, shuffle: bool) -> tuple[int, ...]:
        return tuple(shuffled(question, rng, shuffle, len(question.options)))

    def listing(self, question: C, display: Sequence[int]) -> list[str]:
        return [f"  {n}. {question.options[i].text}" for n, i in enumerate(display, 1)]

    def chosen(self, response: R) -> list[int]:
        """The bank indices of the options a response chose."""
        raise NotImplementedError

    def chosen_feedback(
        self, question: C, response: R, display: Sequence[int]
    ) -> list[tuple[str, str]]:
        place = places(display)
        options = question.options
        return [
            (f"option {place[i]}", str(options[i].feedback))
            for i in sorted(self.chosen(response), key=place.__getitem__)
            if options[i].feedback
        ]

    def described(self, question: C, response: R, display: Sequence[int]) -> list[str]:
        place = places(display)
        chosen = sorted(self.chosen(response), key=place.__getitem__)
        return [f"{place[i]}. {question.options[i].text}" for i in chosen] or ["nothing"]

    def in_words(
        self, question: C, response: R, numbers: Mapping[str, float | str] | None = None
    ) -> str:
        plain = drawn(question, numbers) if numbers else question
        return "; ".join(plain.options[i].text for i in self.chosen(response))

    def key_described(self, question: C) -> list[str]:
        identity = range(len(question.options))
        return self.described(question, self.answer_key(question), identity)  # type: ignore[arg-type]

    def texts(self, question: C) -> list[str]:
        return [o.text for o in question.options] + [o.feedback or "x" for o in question.options]

    def key_fields(self, question: C) -> dict[str, Any]:
        options = [
            [normalise_text(o.text), o.correct, *([o.value] if o.value is not None else [])]
            for o in question.options
        ]
        scoring = getattr(question, "scoring", "partial")
        return {
            "options": options,
            **({"scoring": scoring} if scoring != "partial" else {}),
            **question.parameters_key(),
        }

    def analysed_options(self, question: C) -> tuple[tuple[str, ...], frozenset[int]]:
        texts = tuple(option.text for option in question.options)
        return texts, frozenset(i for i, o in enumerate(question.options) if o.correct)

    def widget_key(self, question: C) -> dict[str, Any]:
        return {"correct": [i for i, o in enumerate(question.options) if o.correct]}

    def anki(self, question: C, kit: HtmlKit) -> AnkiCard:
        letter = "abcdefghijklmnopqrstuvwxyz"
        options = html_list([f"{letter[i]}) {kit.inline(o.text)}"
                         for i, o in enumerate(question.options)])  # fmt: skip
        right = [
            f"{letter[i]}) {kit.inline(o.text)}"
            for i, o in enumerate(question.options)
            if o.correct
        ]
        text = "<b>Answer:</b>" + html_list(right) if self.several else f"<b>Answer:</b> {right[0]}"
        feedback = [
            f"{letter[i]}) {kit.html(o.feedback, inline=True)}"
            for i, o in enumerate(question.options)
            if o.feedback
        ]
        about = "<p>About the options:</p>" + html_list(feedback) if feedback else ""
        return AnkiCard(options, text + about)

    several = False  # `multiple`: every correct option is chosen, not one

    def widget(self, question: C, kit: PageKit) -> Widget:
        order = kit.order(question, len(question.options), shuffle=kit.shuffles(question))
        labels = [(i, kit.inline(question.options[i].text)) for i in order]
        if self.several:
            lead = '<p class="lk-instruction">Choose every correct option.</p>'
            inputs = [lead, *kit.choices(question, "checkbox", labels)]
        else:
            lead = '<p class="lk-instruction">Choose one option.</p>'
            inputs = [lead, *kit.choices(question, "radio", labels)]
        letter = {index: kit.letter(shown) for shown, index in enumerate(order)}
        right = [
            f"{letter[i]}) {kit.inline(question.options[i].text)}"
            for i in order
            if question.options[i].correct
        ]
        if self.several:
            items = "".join(f"<li>{text}</li>" for text in right)
            lines = [f"<p><strong>Answer:</strong></p><ul>{items}</ul>"]
        else:
            lines = [f"<p><strong>Answer:</strong> {right[0]}</p>"]
        feedback = [
            f'<li data-option="{i}">{letter[i]}) {kit.html(feedback, inline=True)}</li>'
            for i in order
            if (feedback := question.options[i].feedback)
        ]
        if feedback:
            lines.append(f'<p>About the options:</p><ul class="lk-about">{"".join(feedback)}</ul>')
        return Widget(inputs, lines)


def html_list(items: list[str], tag: str = "ul") -> str:
    """Items as an HTML list, as the types' Anki cards show options, items and pairs."""
    return f"<{tag}>" + "".join(f"<li>{item}</li>" for item in items) + f"</{tag}>"
