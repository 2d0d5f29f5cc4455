"""Render question banks as sanitised HTML for the lesson site; no I/O, no MkDocs."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Mapping, Sequence
from string import ascii_lowercase
from typing import Any

from lessonkit.bank import variants
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import Question
from lessonkit.bank.richtext import safe_html
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import DrawnQuestion, RuntimeQuestion

__all__ = [
    "block",
    "grading_key",
]


def _text(value: str) -> str:
    # Plain fields (items, pairs, units) are shown as typed, never as markup.
    return html.escape(value, quote=True)


def _number(value: float) -> str:
    return f"{value:g}"


def _letter(index: int) -> str:
    return ascii_lowercase[index]


def _shown(count: int, seed: str, *, shuffle: bool = True) -> list[int]:
    """Indices in the order the page shows them: the same on every build (seeded by the
    question's id, as the site has no learner's seed), and never the written order when
    shuffled, since authors tend to write the right answer first."""
    order = list(range(count))
    if not shuffle:
        return order
    random.Random(seed).shuffle(order)
    if count > 1 and order == sorted(order):
        order = order[1:] + order[:1]
    return order


class _Page:
    """What the page lends a question type to draw its widget (``questiontypes.PageKit``)."""

    def __init__(self, bank: Bank, answer: str | None = None) -> None:
        self._bank, self._answer = bank, answer

    def html(self, markdown: str, *, inline: bool = False) -> str:
        return safe_html(markdown, inline=inline)

    def text(self, plain: str) -> str:
        return _text(plain)

    def number(self, value: float) -> str:
        return _number(value)

    def letter(self, index: int) -> str:
        return _letter(index)

    def order(self, question: RuntimeQuestion, count: int, *, shuffle: bool = True) -> list[int]:
        return _shown(count, question.id, shuffle=shuffle)

    def shuffles(self, question: RuntimeQuestion) -> bool:
        # Contract with the question format: `shuffle: None` follows the bank's setting.
        own: bool | None = getattr(question, "shuffle", None)
        return self._bank.shuffle.options if own is None else own

    def choices(
        self, question: RuntimeQuestion, kind: str, labels: Sequence[tuple[int, str]]
    ) -> list[str]:
        """Options as real inputs: a reader can commit to an answer before opening it."""
        lines = [f'<fieldset class="lk-options" aria-labelledby="lk-{question.id}-prompt">']
        for shown, (index, label) in enumerate(labels):
            lines.append(
                f'<label class="lk-option"><input type="{kind}" name="lk-{question.id}"'
                f' value="{index}"> <span>{_letter(shown)}) {label}</span></label>'
            )
        lines.append("</fieldset>")
        return lines

    def field(self, question: RuntimeQuestion, label: str, control: str) -> list[str]:
        field = f"lk-{question.id}-answer"
        shown = control.replace("{id}", field)  # not format(): a unit may hold braces
        return [f'<p class="lk-field"><label for="{field}">{label}</label> {shown}</p>']

    def shown_answer(self, question: RuntimeQuestion) -> str | None:
        return self._answer


def grading_key(question: RuntimeQuestion) -> dict[str, Any]:
    """What the page's script needs to grade a response exactly as `lessonkit quiz` does."""
    return registry.widget_key(question)


def _attribute(value: object) -> str:
    """JSON for an attribute in single quotes (its double quotes stay as they are)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return html.escape(text, quote=False).replace("'", "&#x27;")


def _question(
    number: int,
    question: RuntimeQuestion,
    bank: Bank,
    sections: Mapping[str, str],
    drawn: tuple[str, str | None] | None = None,
) -> str:
    """One question's HTML; ``drawn`` (a parameterised question's) adds its variants'
    attribute and the shown answer."""
    heading = sections.get(question.section, question.section)
    # In single quotes, so the key's many double quotes need no escaping: readers download
    # every key. `&`, `<`, `>` and `'` are escaped all the same.
    key = _attribute(grading_key(question))
    more, answer = ("", None) if drawn is None else drawn
    widget = registry.of(question).widget(question, _Page(bank, answer))
    lines = [
        f'<li class="lk-question" id="lk-{question.id}" data-key=\'{key}\'{more}>',
        f'<p class="lk-number">Question {number}</p>',
        f'<div class="lk-prompt" id="lk-{question.id}-prompt">{safe_html(question.prompt)}</div>',
        *widget.inputs,
        # Material styles <details class="info"> as a collapsible admonition; it opens
        # without JavaScript. Not "success": its tick would claim a right answer unasked.
        '<details class="lk-answer info" data-search-exclude>',
        f"<summary>Show the answer to question {number}</summary>",
        *widget.answer,
        f'<div class="lk-explanation">{safe_html(question.explanation)}</div>',
        f'<p class="lk-section">Re-read: <a href="#{_text(question.section)}">'
        f"{_text(heading)}</a></p>",
        "</details>",
        "</li>",
    ]
    return "\n".join(lines)


def block(
    bank: Bank, questions: Sequence[Question], sections: Mapping[str, str], *, first: int = 1
) -> str:
    """One self-check block: `questions` from `bank`, numbered from `first`.

    `sections` maps each heading anchor of the lesson to its text, so answers link back.
    """
    items = "\n".join(
        _parameterised(number, question, bank, sections)
        if isinstance(question, DrawnQuestion) and question.params
        else _question(number, question, bank, sections)
        for number, question in enumerate(map(registry.runtime, questions), start=first)
    )
    count = len(questions)
    noun = "question" if count == 1 else "questions"
    # A <section>, not a <div>: mkdocs-material's search indexer ends an exclusion at the
    # first closing tag of the same name, and the questions hold <div>s of their own.
    # The intro is for a reader without the script; the script says "press Check".
    return (
        f'<section class="lk-self-check" data-search-exclude data-pass-mark="{bank.pass_mark:g}">\n'
        f'<p class="lk-intro">{count} {noun}. Answer each, then open its answer to compare.</p>\n'
        f'<ol class="lk-questions">\n{items}\n</ol>\n'
        "</section>\n"
    )


# --- questions with parameters -----------------------------------------------------------

# Draws a parameterised self-check carries, all computed here: the page's script only puts
# one draw's numbers in place (`Try new numbers`) and grades against its answer, so the page
# needs no formula engine, and every number a reader sees was computed by lessonkit itself.
VARIANTS = 12
_SLOT = re.compile(r"LKSLOT(\d+)Z")
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")


def _parameterised(
    number: int, question: DrawnQuestion, bank: Bank, sections: Mapping[str, str]
) -> str:
    """A question with parameters: the first draw in place, every draw's numbers in
    ``data-variants`` for the script, each number in a ``lk-n`` slot it can refill."""
    data = registry.as_json(question)
    draws = variants.sample(data, VARIANTS, f"site/{question.id}")
    if not draws:
        return ""  # nothing to show: `lessonkit validate` has reported why
    slots: dict[str, int] = {}
    table: list[list[str]] = []
    answers: list[float] = []
    first: RuntimeQuestion | None = None
    for drawn in draws:
        texts: dict[str, str] = {}

        def slot(name: str, text: str, texts: dict[str, str] = texts) -> str:
            texts[name] = text
            return f"LKSLOT{slots.setdefault(name, len(slots))}Z"

        plain = registry.decode(variants.render(data, drawn, slot=slot))
        # The computed answer, from the draw's numbers as numbers (not as slots).
        computed = registry.of(plain).widget_answer(registry.drawn(question, drawn))
        if computed is not None:
            texts["answer"], value = computed
            answers.append(value)
            slots.setdefault("answer", len(slots))
        table.append([texts.get(name, "") for name in sorted(slots, key=slots.__getitem__)])
        first = first or plain
    table = [row + [""] * (len(slots) - len(row)) for row in table]
    payload = {"slots": table, **({"answers": answers} if answers else {})}
    attribute = _attribute(payload)
    assert first is not None
    answer = f"LKSLOT{slots['answer']}Z" if "answer" in slots else None
    rendered = _question(number, first, bank, sections, (f" data-variants='{attribute}'", answer))
    return _filled(rendered, table[0])


def _filled(rendered: str, first: Sequence[str]) -> str:
    """Slots as spans the script refills; inside a tag (an address, a title) the first
    draw's text, which stays."""

    def text(found: re.Match[str]) -> str:
        return html.escape(first[int(found.group(1))], quote=True)

    def span(found: re.Match[str]) -> str:
        return f'<span class="lk-n" data-n="{found.group(1)}">{text(found)}</span>'

    parts = _TAG_OR_TEXT.split(rendered)
    return "".join(_SLOT.sub(text if p.startswith("<") else span, p) for p in parts)
