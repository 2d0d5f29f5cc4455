"""`match`: match each left-hand item to its right-hand partner.

Response: ``tuple[int, ...]``: for pair *i*, the index of the chosen right-hand item in
``rights(question)``, the pairs' right-hand items (each once, in the order first written)
then the distractors; typed as number-letter pairs as shown, e.g. `1b 2a 3c`. Partial
credit: the share of left-hand items matched correctly.

Several pairs may share a right-hand item (Moodle's own example: frog and newt are both
amphibians). It is listed once, and only then may one letter go with several numbers;
otherwise each letter goes with one number at most, as before. Without a shared item
every index, the answer key and the answer-key hash are what they were before sharing
was allowed, so no learner's history changes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from string import ascii_lowercase as LETTERS
from typing import Any

from lessonkit.grading.credit import Grade, index, scored
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
from lessonkit.questiontypes.frozen import Part
from lessonkit.questiontypes.options import html_list, listed, places, shuffled

_PAIR = re.compile(r"(\d+)\s*[-:=.)]?\s*([a-z])")


class Pair(Part):
    """One left-hand item and the right-hand item it matches (``bank.questions.Pair``)."""

    left: str
    right: str


class Match(RuntimeQuestion, tag="match"):
    """A `match` question at run time (``bank.questions.MatchQuestion``)."""

    pairs: tuple[Pair, ...]
    distractors: tuple[str, ...] = ()
    scoring: str = "partial"
    shuffle: bool | None = None


def rights(question: Match) -> list[str]:
    """The right-hand items in bank order: each pair's (a shared one once, where first
    written), then the distractors."""
    return list(dict.fromkeys(pair.right for pair in question.pairs)) + list(question.distractors)


def key(question: Match) -> tuple[int, ...]:
    """For each pair, the index of its right-hand item in ``rights``."""
    at = {right: n for n, right in enumerate(dict.fromkeys(p.right for p in question.pairs))}
    return tuple(at[pair.right] for pair in question.pairs)


def shared(question: Match) -> bool:
    """Whether some right-hand item goes with several left-hand ones."""
    return len({pair.right for pair in question.pairs}) < len(question.pairs)


def _example(count: int) -> str:
    return " ".join(f"{n}{LETTERS[(n) % count]}" for n in range(1, min(count, 3) + 1))


class MatchType(QuestionType[Match, tuple[int, ...]]):
    name = "match"
    runtime = Match
    script = "match.js"
    example = """\
  - id: {{id}}
    type: match
    prompt: "TODO(lessonkit): Match each term to its meaning."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say what links each pair, and why the spare one fits none."
    pairs:
      - left: "TODO(lessonkit): Term one"
        right: "TODO(lessonkit): Meaning one"
      - left: "TODO(lessonkit): Term two"
        right: "TODO(lessonkit): Meaning two"
    distractors: ["TODO(lessonkit): A meaning that matches neither"]
"""
    moodle_type = "matching"
    qti_type = "matching_question"
    authored = True
    wrong_parts = "pairs"

    def choices(self, question: Match) -> int:
        return len(rights(question))

    def display(self, question: Match, rng: random.Random, shuffle: bool) -> tuple[int, ...]:
        shown = shuffled(question, rng, shuffle, self.choices(question))
        own, answers = question.shuffle, max(key(question)) + 1
        shuffles = own is not False and (shuffle or own is True)
        if shuffles and answers > 1 and shown[:answers] == list(range(answers)):
            shown = shown[1:] + shown[:1]  # `1a 2b 3c…` would be right: never show that
        return tuple(shown)

    def listing(self, question: Match, display: Sequence[int]) -> list[str]:
        right = rights(question)
        lefts = [f"  {n}. {p.left}" for n, p in enumerate(question.pairs, 1)]
        letters = [f"  {LETTERS[n]}. {right[i]}" for n, i in enumerate(display)]
        return [*lefts, "  with", *letters]

    def expected_form(self, question: Match) -> str:
        left, count = len(question.pairs), self.choices(question)
        again = " A letter may go with more than one number." if shared(question) else ""
        return (
            f"Match each of 1 to {left} with a letter from a to {LETTERS[count - 1]}, "
            f"e.g. `{_example(left)}`.{again}"
        )

    def parse(self, question: Match, text: str, display: Sequence[int]) -> tuple[int, ...]:
        from lessonkit.grading.numbers import clean

        typed, left = clean(text), len(question.pairs)
        letters = LETTERS[: len(display)]
        example = _example(left)
        rest = _PAIR.sub(" ", typed)
        if rest.strip(" ,;"):
            raise ResponseError(f"Type pairs of a number and a letter, e.g. `{example}`.")
        chosen: dict[int, int] = {}
        for number_text, letter in _PAIR.findall(typed):
            number = int(number_text)
            if not 1 <= number <= left:
                raise ResponseError(f"There is no {number} on the left. Use 1 to {left}.")
            if letter not in letters:
                raise ResponseError(f"There is no {letter} on the right. Use a to {letters[-1]}.")
            if number in chosen:
                raise ResponseError(f"{number} is matched twice. Give each number one letter.")
            if not shared(question) and display[letters.index(letter)] in chosen.values():
                raise ResponseError(
                    f"{letter} is used twice. Give each letter to one number at most."
                )
            chosen[number] = display[letters.index(letter)]
        missing = [n for n in range(1, left + 1) if n not in chosen]
        if missing:
            verb = "has" if len(missing) == 1 else "have"
            raise ResponseError(
                f"{listed(missing)} {verb} no letter. "
                f"Match every number from 1 to {left}, e.g. `{example}`."
            )
        return tuple(chosen[n] for n in range(1, left + 1))

    def to_json(self, response: tuple[int, ...]) -> Any:
        return list(response)

    def from_json(self, question: Match, value: Any) -> tuple[int, ...]:
        return tuple(int(v) for v in value)

    def grade(self, question: Match, response: tuple[int, ...]) -> Grade:
        if not isinstance(response, tuple):
            raise TypeError(f"a match response is a tuple, not {type(response).__name__}")
        count = len(question.pairs)
        if len(response) != count:
            raise ValueError(
                f"a match response has one choice per pair: {count}, not {len(response)}"
            )
        choices, answers = self.choices(question), key(question)
        right = sum(
            index(r, choices, "right-hand index") == answers[i] for i, r in enumerate(response)
        )
        return scored(question.scoring, question.points, right / count)

    def answer_key(self, question: Match) -> tuple[int, ...]:
        return key(question)

    def wrong_responses(self, question: Match) -> list[tuple[int, ...]]:
        # Each left item takes the right-hand item after its own: every pair is wrong (and
        # without a shared item, each letter still goes to one number).
        answers = key(question)
        count = max(answers) + 1 if not shared(question) else self.choices(question)
        return [tuple((k + 1) % count for k in answers)]

    def key_fields(self, question: Match) -> dict[str, Any]:
        key: dict[str, Any] = {
            "pairs": [[normalise_text(p.left), normalise_text(p.right)] for p in question.pairs],
            "distractors": [normalise_text(d) for d in question.distractors],
        }
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def shown(self, question: Match, response: tuple[int, ...], display: Sequence[int]) -> str:
        place = places(display)
        return " ".join(f"{n}{LETTERS[place[i] - 1]}" for n, i in enumerate(response, start=1))

    def described(
        self, question: Match, response: tuple[int, ...], display: Sequence[int]
    ) -> list[str]:
        place, right = places(display), rights(question)
        return [
            f"{n}. {pair.left} \u2192 {LETTERS[place[i] - 1]}. {right[i]}"
            for n, (pair, i) in enumerate(zip(question.pairs, response, strict=True), 1)
        ]

    def part_marks(self, question: Match, response: tuple[int, ...]) -> list[bool] | None:
        return [chosen == right for chosen, right in zip(response, key(question), strict=True)]

    def key_described(self, question: Match) -> list[str]:
        return self.described(question, key(question), range(self.choices(question)))

    def anki(self, question: Match, kit: HtmlKit) -> AnkiCard:
        # As on the site: alphabetical, so the order written in the bank gives nothing away.
        shown = sorted(rights(question), key=str.casefold)
        lefts = html_list([kit.inline(p.left) for p in question.pairs], "ol")
        lettered = html_list([f"{LETTERS[i]}) {kit.inline(r)}" for i, r in enumerate(shown)])
        rows = [f"{kit.inline(p.left)} → {kit.inline(p.right)}" for p in question.pairs]
        again = " (a lettered one may go with several)" if shared(question) else ""
        return AnkiCard(
            f"Match each numbered item to a lettered one{again}:{lefts}{lettered}",
            "<b>Answer:</b>" + html_list(rows, "ol"),
        )

    def gift(self, question: Match, kit: GiftKit) -> Carried[list[str]]:
        arrow = "→"  # a side holding `->` would split the pair in the wrong place
        lines = [f"={kit.escape(p.left.replace('->', arrow))} -> "
                 f"{kit.escape(p.right.replace('->', arrow))}"
                 for p in question.pairs]  # fmt: skip
        losses = []
        if question.scoring != "partial":
            losses.append(f"scoring `{question.scoring}`: GIFT gives partial credit")
        if question.distractors:
            losses.append("distractors: GIFT matching has none")
        return Carried(lines, tuple(losses))

    def moodle(self, question: Match, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "shuffleanswers", kit.shuffle(question))
        for pair in question.pairs:
            sub = kit.html_element(element, "subquestion", kit.inline(pair.left))
            kit.sub(kit.sub(sub, "answer"), "text", pair.right)
        for distractor in question.distractors:
            sub = kit.html_element(element, "subquestion", "")
            kit.sub(kit.sub(sub, "answer"), "text", distractor)
        if question.scoring != "partial":
            return (f"scoring `{question.scoring}`: Moodle's matching always gives partial "
                    "credit",)  # fmt: skip
        return ()

    def qti_answers(self, question: Match) -> int:
        return self.choices(question)

    def qti(self, question: Match, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        labels = [(a, kit.inline(r)) for a, r in zip(kit.answers, rights(question), strict=True)]
        share = kit.number(round(100 / len(question.pairs), 4))
        answers = key(question)  # a shared answer is one label, right for several items
        for at, pair in enumerate(question.pairs):
            ident = f"response_{kit.ident('left', question.id, str(at))}"
            response = kit.sub(kit.presentation, "response_lid", {"ident": ident})
            kit.material(response, kit.escape(pair.left), "text/plain")
            render = kit.sub(response, "render_choice")
            for answer, markup in labels:
                kit.material(kit.sub(render, "response_label", {"ident": answer}), markup)
            kit.condition(kit.equal(ident, kit.answers[answers[at]]), score=("Add", share))
        return ()

    def widget_key(self, question: Match) -> dict[str, Any]:
        found: dict[str, Any] = {"count": len(question.pairs)}
        if shared(question):  # else pair n's answer is choice n, and each is used once
            found["answers"] = list(key(question))
        return found | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def widget(self, question: Match, kit: PageKit) -> Widget:
        right = rights(question)
        order = kit.order(question, len(right), shuffle=kit.shuffles(question))
        choices = '<option value="">Choose…</option>' + "".join(
            f'<option value="{i}">{kit.letter(shown)}) {kit.inline_text(right[i])}</option>'
            for shown, i in enumerate(order)
        )
        rows = "".join(
            f'<li><label for="lk-{question.id}-{n}">{kit.inline(pair.left)}</label> '
            f'<select id="lk-{question.id}-{n}" data-pair="{n}">{choices}</select></li>'
            for n, pair in enumerate(question.pairs)
        )
        again = " A choice may go with more than one item." if shared(question) else ""
        inputs = [
            f'<p class="lk-instruction">Match each item with one of the choices.{again}</p>',
            f'<ol class="lk-pairs">{rows}</ol>',
        ]
        answer = "".join(
            f"<li>{kit.inline(pair.left)} → {kit.letter(order.index(k))}) "
            f"{kit.inline(pair.right)}</li>"
            for k, pair in zip(key(question), question.pairs, strict=True)
        )
        return Widget(inputs, [f"<p><strong>Answer:</strong></p><ol>{answer}</ol>"])


TYPE = MatchType()
