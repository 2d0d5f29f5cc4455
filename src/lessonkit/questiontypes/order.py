"""`order`: put items in order.

Response: ``tuple[int, ...]``, item bank indices in the order the learner placed them;
typed as the numbers they were shown with, first to last (`3 1 2`, or `312` for up to 9
items). Partial credit: the share of neighbouring pairs of the right order that the
learner also placed next to each other in that order.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from lessonkit.grading.credit import Grade, scored
from lessonkit.grading.textmatch import normalise_text
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
from lessonkit.questiontypes.options import SEPARATORS, in_range, listed, places

MOODLE_LOSS = (
    "type `order`: needs Moodle's Ordering question type (qtype_ordering, a plugin); "
    "a Moodle without it refuses this question"
)


class Order(RuntimeQuestion, tag="order"):
    """An `order` question at run time (``bank.questions.OrderQuestion``)."""

    items: tuple[str, ...]
    scoring: str = "partial"


def example(count: int) -> str:
    return " ".join(str(n) for n in [*range(2, count + 1), 1])


def _permutation(response: Any, count: int) -> tuple[int, ...]:
    if not isinstance(response, tuple):
        raise TypeError(f"an order response is a tuple, not {type(response).__name__}")
    if sorted(response) != list(range(count)):
        raise ValueError(f"an order response must be a permutation of 0..{count - 1}")
    return response


def _list(items: list[str], tag: str = "ul") -> str:
    return f"<{tag}>" + "".join(f"<li>{item}</li>" for item in items) + f"</{tag}>"


class OrderType(QuestionType[Order, tuple[int, ...]]):
    name = "order"
    runtime = Order
    script = "order.js"
    example = """\
  - id: {{id}}
    type: order
    prompt: "TODO(lessonkit): Put these steps in order."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say why the steps come in this order and not another."
    items:
      - "TODO(lessonkit): First step"
      - "TODO(lessonkit): Second step"
      - "TODO(lessonkit): Third step"
"""
    moodle_type = "ordering"
    qti_type = None  # Canvas has no ordering question: left out
    authored = True
    marks_meaning = "placed right after the item before it"

    def choices(self, question: Order) -> int:
        return len(question.items)

    def display(self, question: Order, rng: random.Random, shuffle: bool) -> tuple[int, ...]:
        shown = list(range(len(question.items)))
        rng.shuffle(shown)
        if shown == sorted(shown):  # items as written are the answer: never show that
            shown = shown[1:] + shown[:1]
        return tuple(shown)

    def listing(self, question: Order, display: Sequence[int]) -> list[str]:
        return [f"  {n}. {question.items[i]}" for n, i in enumerate(display, 1)]

    def expected_form(self, question: Order) -> str:
        count = len(question.items)
        return f"Type the numbers 1 to {count} in the right order, e.g. `{example(count)}`."

    def parse(self, question: Order, text: str, display: Sequence[int]) -> tuple[int, ...]:
        from lessonkit.grading.numbers import clean

        count = len(question.items)
        parts = [p for p in SEPARATORS.split(clean(text)) if p]
        if len(parts) == 1 and count < 10 and parts[0].isdigit() and len(parts[0]) == count:
            parts = list(parts[0])  # `312` is a fine way to type `3 1 2` when items are 1-9
        if not all(p.isdigit() for p in parts):
            raise ResponseError(
                f"Type the numbers 1 to {count} separated by spaces, e.g. `{example(count)}`."
            )
        numbers = [in_range(int(p), count) for p in parts]
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        missing = sorted(set(range(1, count + 1)) - set(numbers))
        if repeated or missing:
            said = []
            if repeated:
                said.append(f"{listed(repeated)} appear{'s' if len(repeated) == 1 else ''} twice")
            if missing:
                said.append(f"{listed(missing)} {'is' if len(missing) == 1 else 'are'} missing")
            raise ResponseError(f"{'; '.join(said).capitalize()}. Use each of 1 to {count} once.")
        return tuple(display[n - 1] for n in numbers)

    def to_json(self, response: tuple[int, ...]) -> Any:
        return list(response)

    def from_json(self, question: Order, value: Any) -> tuple[int, ...]:
        return tuple(int(v) for v in value)

    def grade(self, question: Order, response: tuple[int, ...]) -> Grade:
        placed = _permutation(response, len(question.items))
        position = {item: at for at, item in enumerate(placed)}
        pairs = len(placed) - 1
        kept = sum(position[i + 1] == position[i] + 1 for i in range(pairs))
        return scored(question.scoring, question.points, kept / pairs)

    def answer_key(self, question: Order) -> tuple[int, ...]:
        return tuple(range(len(question.items)))

    def wrong_responses(self, question: Order) -> list[tuple[int, ...]]:
        count = len(question.items)
        return [tuple(reversed(range(count))), (1, 0, *range(2, count))]

    def key_fields(self, question: Order) -> dict[str, Any]:
        key: dict[str, Any] = {"items": [normalise_text(item) for item in question.items]}
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def shown(self, question: Order, response: tuple[int, ...], display: Sequence[int]) -> str:
        place = places(display)
        return " ".join(str(place[i]) for i in response)

    def described(
        self, question: Order, response: tuple[int, ...], display: Sequence[int]
    ) -> list[str]:
        place = places(display)  # numbered as shown, so as typed
        return [f"{place[i]}. {question.items[i]}" for i in response]

    def part_marks(self, question: Order, response: tuple[int, ...]) -> list[bool] | None:
        # The first item is right when it is the right first, every other when it comes
        # right after the item it should follow, as partial credit counts neighbours.
        if not response:
            return None
        follows = [after == before + 1 for before, after in itertools.pairwise(response)]
        return [response[0] == 0, *follows]

    def key_described(self, question: Order) -> list[str]:
        return self.described(question, self.answer_key(question), range(len(question.items)))

    def anki(self, question: Order, kit: HtmlKit) -> AnkiCard:
        # As on the site: alphabetical, so the order written in the bank gives nothing away.
        shown = sorted(question.items, key=str.casefold)
        options = "Put these in order:" + _list([kit.escape(i) for i in shown])
        return AnkiCard(
            options, "<b>Answer:</b>" + _list([kit.escape(i) for i in question.items], "ol")
        )

    def gift(self, question: Order, kit: GiftKit) -> Carried[list[str]]:
        return Carried(None, ("type `order`: GIFT has no ordering type; left out",))

    def moodle(self, question: Order, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "layouttype", "VERTICAL")
        kit.sub(element, "selecttype", "ALL")
        kit.sub(element, "selectcount", "0")
        # Moodle's "relative to the next item (excluding last)" is lessonkit's neighbouring
        # pairs rule; its ALL_OR_NOTHING is lessonkit's `all_or_nothing`.
        partial = question.scoring == "partial"
        kit.sub(
            element, "gradingtype", "RELATIVE_NEXT_EXCLUDE_LAST" if partial else "ALL_OR_NOTHING"
        )
        kit.sub(element, "showgrading", "SHOW")
        kit.sub(element, "numberingstyle", "none")
        for position, item in enumerate(question.items, start=1):
            kit.answer(element, str(position), kit.escape(item))  # written in the right order
        return (MOODLE_LOSS,)

    def qti(self, question: Order, kit: QtiKit | None) -> tuple[str, ...]:
        return ("type `order`: Canvas has no ordering question; left out",)

    def widget_key(self, question: Order) -> dict[str, Any]:
        key: dict[str, Any] = {"count": len(question.items)}
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def widget(self, question: Order, kit: PageKit) -> Widget:
        items = "".join(
            f'<li data-item="{i}"><span>{kit.text(question.items[i])}</span></li>'
            for i in kit.order(question, len(question.items))
        )
        inputs = [
            # Without the script the items cannot move: the page's script says "Put these in
            # order" once they can.
            '<p class="lk-instruction">Decide their order, first to last, then open the '
            "answer.</p>",
            f'<ol class="lk-order" aria-labelledby="lk-{question.id}-prompt">{items}</ol>',
        ]
        rows = "".join(f"<li>{kit.text(item)}</li>" for item in question.items)
        return Widget(inputs, [f"<p><strong>Answer:</strong></p><ol>{rows}</ol>"])


TYPE = OrderType()
