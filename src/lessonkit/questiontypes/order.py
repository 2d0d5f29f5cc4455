"""`order`: put items in order.

Response: ``tuple[int, ...]``, item bank indices in the order the learner placed them;
typed as the numbers they were shown with, first to last (`3 1 2`, or `312` for up to 9
items).

Partial credit counts moves, as PrairieLearn's order blocks do: the items outside one
longest subsequence that is already in the right order (``in_order``) are the fewest a
learner must move to put everything right, and the credit is
1 - moves ÷ (n - 1) = (kept - 1) ÷ (n - 1). The key scores 1, a full reversal 0, two
neighbours swapped (n - 2) ÷ (n - 1), and one item moved from its place only that.
Those out-of-place items are what the terminal and the page mark ✗.

The answer-key hash is unchanged by this rule (it replaced one counting neighbouring
pairs): which order is right did not change, only the credit for a wrong one. A new
hash would restart every learner's reviews of every order question and tell them the
answer had changed when it had not. Earlier answers keep the score they were given;
full marks mean the same under both rules.
"""

from __future__ import annotations

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
from lessonkit.questiontypes.options import SEPARATORS, html_list, in_range, listed, places

MOODLE_LOSS = (
    "type `order`: needs Moodle's Ordering question type (qtype_ordering, a plugin); "
    "a Moodle without it refuses this question"
)

MOODLE_CREDIT = (
    "partial credit: Moodle's longest ordered subset scores its length out of all the "
    "items (3 of 4 for two neighbours swapped), lessonkit (length - 1) out of (items - 1) "
    "(2 of 3)"
)


class Order(RuntimeQuestion, tag="order"):
    """An `order` question at run time (``bank.questions.OrderQuestion``)."""

    items: tuple[str, ...]
    scoring: str = "partial"


def example(count: int) -> str:
    return " ".join(str(n) for n in [*range(2, count + 1), 1])


def swaps(shown: Sequence[int]) -> int:
    """The fewest exchanges of two items that put ``shown`` in order: one per item, less
    one per cycle of the permutation."""
    seen: set[int] = set()
    cycles = 0
    for start in range(len(shown)):
        if start not in seen:
            cycles += 1
            at = start
            while at not in seen:
                seen.add(at)
                at = shown[at]
    return len(shown) - cycles


# Shuffles tried before the fallback: with three items, two of six orders are far enough.
_TRIES = 50


def scrambled(count: int, rng: random.Random) -> tuple[int, ...]:
    """The order items start in: never the key, nor one swap from it, which pressing
    Check unchanged would score as half right (two items can only be swapped)."""
    shown = list(range(count))
    for _ in range(_TRIES):
        rng.shuffle(shown)
        if swaps(shown) >= min(2, count - 1):
            return tuple(shown)
    return (*range(1, count), 0)  # a cycle of them all: count - 1 swaps away


def _permutation(response: Any, count: int) -> tuple[int, ...]:
    if not isinstance(response, tuple):
        raise TypeError(f"an order response is a tuple, not {type(response).__name__}")
    if sorted(response) != list(range(count)):
        raise ValueError(f"an order response must be a permutation of 0..{count - 1}")
    return response


def in_order(placed: Sequence[int]) -> list[bool]:
    """Which of the learner's placings are kept: one longest subsequence of ``placed``
    (bank indices, first to last) whose items stand in the right order among
    themselves. Of several such subsequences, the one taking the earliest placings
    (compared place by place from the first): read first to last, an item is out of
    place when it comes too late for what came before it. ``types/order.js`` computes
    the same, line for line.
    """
    count = len(placed)
    # longest[i]: the longest subsequence in the right order that starts at placing i.
    longest = [1] * count
    for i in reversed(range(count)):
        for j in range(i + 1, count):
            if placed[j] > placed[i] and longest[j] + 1 > longest[i]:
                longest[i] = longest[j] + 1
    kept = [False] * count
    need, last = max(longest, default=0), -1
    for i in range(count):  # the earliest placing that can still start the rest
        if need and longest[i] == need and placed[i] > last:
            kept[i], need, last = True, need - 1, placed[i]
    return kept


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
    marks_meaning = "in the right order with each other; \u2717 out of place"

    def choices(self, question: Order) -> int:
        return len(question.items)

    def display(self, question: Order, rng: random.Random, shuffle: bool) -> tuple[int, ...]:
        return scrambled(len(question.items), rng)

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
        kept = sum(in_order(placed))
        return scored(question.scoring, question.points, (kept - 1) / (len(placed) - 1))

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
        # ✗ on exactly the items partial credit counts as moves.
        return in_order(response) if response else None

    def key_described(self, question: Order) -> list[str]:
        return self.described(question, self.answer_key(question), range(len(question.items)))

    def anki(self, question: Order, kit: HtmlKit) -> AnkiCard:
        # As on the site: alphabetical, so the order written in the bank gives nothing away.
        shown = sorted(question.items, key=str.casefold)
        options = "Put these in order:" + html_list([kit.inline(i) for i in shown])
        return AnkiCard(
            options, "<b>Answer:</b>" + html_list([kit.inline(i) for i in question.items], "ol")
        )

    def gift(self, question: Order, kit: GiftKit) -> Carried[list[str]]:
        return Carried(None, ("type `order`: GIFT has no ordering type; left out",))

    def moodle(self, question: Order, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "layouttype", "VERTICAL")
        kit.sub(element, "selecttype", "ALL")
        kit.sub(element, "selectcount", "0")
        # Moodle's "longest ordered subset" finds the same subsequence, but scores its
        # length ÷ n (3 of 4 for two neighbours swapped) where lessonkit scores moves,
        # (length - 1) ÷ (n - 1) (2 of 3); both give the key 1 and a reversal 0.
        partial = question.scoring == "partial"
        kit.sub(element, "gradingtype", "LONGEST_ORDERED_SUBSET" if partial else "ALL_OR_NOTHING")
        kit.sub(element, "showgrading", "SHOW")
        kit.sub(element, "numberingstyle", "none")
        for position, item in enumerate(question.items, start=1):
            kit.answer(element, str(position), kit.inline(item))  # written in the right order
        if partial:
            return (MOODLE_LOSS, MOODLE_CREDIT)
        return (MOODLE_LOSS,)

    def qti(self, question: Order, kit: QtiKit | None) -> tuple[str, ...]:
        return ("type `order`: Canvas has no ordering question; left out",)

    def widget_key(self, question: Order) -> dict[str, Any]:
        key: dict[str, Any] = {"count": len(question.items)}
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def widget(self, question: Order, kit: PageKit) -> Widget:
        items = "".join(
            f'<li data-item="{i}"><span>{kit.inline(question.items[i])}</span></li>'
            for i in scrambled(len(question.items), kit.rng(question))
        )
        inputs = [
            # Without the script the items cannot move: the page's script says "Put these in
            # order" once they can.
            '<p class="lk-instruction">Decide their order, first to last, then open the '
            "answer.</p>",
            f'<ol class="lk-order" aria-labelledby="lk-{question.id}-prompt">{items}</ol>',
        ]
        rows = "".join(f"<li>{kit.inline(item)}</li>" for item in question.items)
        return Widget(inputs, [f"<p><strong>Answer:</strong></p><ol>{rows}</ol>"])


TYPE = OrderType()
