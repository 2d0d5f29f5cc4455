"""Render question banks as sanitised HTML for the lesson site; no I/O, no MkDocs."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Mapping, Sequence
from string import ascii_lowercase
from typing import Any

from lessonkit.bank import numerals, variants
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import (
    ChoiceQuestion,
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    TextQuestion,
    TrueFalseQuestion,
    instantiate,
    question_adapter,
)
from lessonkit.bank.richtext import safe_html

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


def _shuffles(question: Question, bank: Bank) -> bool:
    # Contract with the question format: `shuffle: None` follows the bank's setting.
    own: bool | None = getattr(question, "shuffle", None)
    return bank.shuffle.options if own is None else own


def _rights(question: MatchQuestion) -> list[str]:
    return [pair.right for pair in question.pairs] + list(question.distractors)


def grading_key(question: Question) -> dict[str, Any]:
    """What the page's script needs to grade a response exactly as `lessonkit quiz` does."""
    key: dict[str, Any] = {"type": question.type, "points": question.points}
    scoring = getattr(question, "scoring", "partial")
    if isinstance(question, ChoiceQuestion):
        key["correct"] = [i for i, o in enumerate(question.options) if o.correct]
    elif isinstance(question, TrueFalseQuestion):
        key["answer"] = question.answer
    elif isinstance(question, NumericQuestion):
        key["answer"] = question.answer
        for name in ("tolerance", "relative_tolerance", "unit", "decimal_mark"):
            if getattr(question, name) is not None:
                key[name] = getattr(question, name)
    elif isinstance(question, TextQuestion):
        key |= {"accept": question.accept, "patterns": question.patterns}
        if question.case_sensitive:
            key["case_sensitive"] = True
        if question.multiline:
            key["multiline"] = True
    elif isinstance(question, OrderQuestion):
        key["count"] = len(question.items)
    else:
        key["count"] = len(question.pairs)
    partial = isinstance(question, MultipleQuestion | OrderQuestion | MatchQuestion)
    if partial and scoring != "partial":
        key["scoring"] = scoring
    return key


def _choices(question: Question, kind: str, labels: Sequence[tuple[int, str]]) -> list[str]:
    """Options as real inputs: a reader can commit to an answer before opening it."""
    lines = [f'<fieldset class="lk-options" aria-labelledby="lk-{question.id}-prompt">']
    for shown, (index, label) in enumerate(labels):
        lines.append(
            f'<label class="lk-option"><input type="{kind}" name="lk-{question.id}"'
            f' value="{index}"> <span>{_letter(shown)}) {label}</span></label>'
        )
    lines.append("</fieldset>")
    return lines


def _field(question: Question, label: str, control: str) -> list[str]:
    field = f"lk-{question.id}-answer"
    shown = control.replace("{id}", field)  # not format(): a unit may hold braces
    return [f'<p class="lk-field"><label for="{field}">{label}</label> {shown}</p>']


def _inputs(question: Question, bank: Bank) -> list[str]:
    """The instruction and the controls the reader answers with."""
    if isinstance(question, ChoiceQuestion):
        order = _shown(len(question.options), question.id, shuffle=_shuffles(question, bank))
        labels = [(i, safe_html(question.options[i].text, inline=True)) for i in order]
        if isinstance(question, MultipleQuestion):
            lead = '<p class="lk-instruction">Choose every correct option.</p>'
            return [lead, *_choices(question, "checkbox", labels)]
        lead = '<p class="lk-instruction">Choose one option.</p>'
        return [lead, *_choices(question, "radio", labels)]
    if isinstance(question, TrueFalseQuestion):
        lead = '<p class="lk-instruction">True or false?</p>'
        truth = [(1, "True"), (0, "False")]
        # The letters would only get in the way of two words.
        lines = [
            line.replace("a) True", "True").replace("b) False", "False")
            for line in _choices(question, "radio", truth)
        ]
        return [lead, *lines]
    if isinstance(question, NumericQuestion):
        unit = f" in {_text(question.unit)}" if question.unit else ""
        # The field and its unit are one box that wraps as a whole, and the field is sized
        # for a number: on a phone a default-width field pushed the unit onto its own line.
        control = '<input type="text" id="{id}" inputmode="decimal" autocomplete="off" size="10">'
        if question.unit:
            control = (
                f'<span class="lk-entry">{control} '
                f'<span class="lk-unit">{_text(question.unit)}</span></span>'
            )
        return [
            f'<p class="lk-instruction">Answer with a number{unit}; a decimal point or comma.</p>',
            *_field(question, "Your answer", control),
        ]
    if isinstance(question, TextQuestion):
        if question.multiline:
            control = (
                '<textarea id="{id}" rows="4" autocomplete="off" spellcheck="false"></textarea>'
            )
            lead = "Answer on several lines, one per line."
        else:
            control = '<input type="text" id="{id}" autocomplete="off" spellcheck="false">'
            lead = "Answer in a word or a short phrase."
        return [f'<p class="lk-instruction">{lead}</p>', *_field(question, "Your answer", control)]
    if isinstance(question, OrderQuestion):
        items = "".join(
            f'<li data-item="{i}"><span>{_text(question.items[i])}</span></li>'
            for i in _shown(len(question.items), question.id)
        )
        return [
            # Without the script the items cannot move: the page's script says "Put these in
            # order" once they can.
            '<p class="lk-instruction">Decide their order, first to last, then open the '
            "answer.</p>",
            f'<ol class="lk-order" aria-labelledby="lk-{question.id}-prompt">{items}</ol>',
        ]
    rights = _rights(question)
    order = _shown(len(rights), question.id, shuffle=_shuffles(question, bank))
    choices = '<option value="">Choose…</option>' + "".join(
        f'<option value="{i}">{_letter(shown)}) {_text(rights[i])}</option>'
        for shown, i in enumerate(order)
    )
    rows = "".join(
        f'<li><label for="lk-{question.id}-{n}">{_text(pair.left)}</label> '
        f'<select id="lk-{question.id}-{n}" data-pair="{n}">{choices}</select></li>'
        for n, pair in enumerate(question.pairs)
    )
    return [
        '<p class="lk-instruction">Match each item with one of the choices.</p>',
        f'<ol class="lk-pairs">{rows}</ol>',
    ]


def _answer(question: Question, bank: Bank, answer: str | None = None) -> list[str]:
    """The right answer, shown inside the collapsed block (``answer``: the number as shown)."""
    if isinstance(question, ChoiceQuestion):
        order = _shown(len(question.options), question.id, shuffle=_shuffles(question, bank))
        letter = {index: _letter(shown) for shown, index in enumerate(order)}
        right = [
            f"{letter[i]}) {safe_html(question.options[i].text, inline=True)}"
            for i in order
            if question.options[i].correct
        ]
        if isinstance(question, MultipleQuestion):
            items = "".join(f"<li>{text}</li>" for text in right)
            lines = [f"<p><strong>Answer:</strong></p><ul>{items}</ul>"]
        else:
            lines = [f"<p><strong>Answer:</strong> {right[0]}</p>"]
        feedback = [
            f'<li data-option="{i}">{letter[i]}) {safe_html(feedback, inline=True)}</li>'
            for i in order
            if (feedback := question.options[i].feedback)
        ]
        if feedback:
            lines.append(f'<p>About the options:</p><ul class="lk-about">{"".join(feedback)}</ul>')
        return lines
    if isinstance(question, TrueFalseQuestion):
        return [f"<p><strong>Answer:</strong> {'True' if question.answer else 'False'}</p>"]
    if isinstance(question, NumericQuestion):
        unit = f" {_text(question.unit)}" if question.unit else ""
        margin = ""
        if question.tolerance:
            margin = f" (± {_number(question.tolerance)}{unit})"
        elif question.relative_tolerance:
            margin = f" (± {_number(question.relative_tolerance * 100)} %)"
        shown = _number(question.value()) if answer is None else answer
        return [f"<p><strong>Answer:</strong> {shown}{unit}{margin}</p>"]
    if isinstance(question, TextQuestion):
        if not question.accept:
            return []  # only patterns: a regular expression is no answer to show a reader
        accepted = ", ".join(f"<q>{_text(a)}</q>" for a in question.accept)
        return [f"<p><strong>Accepted answers:</strong> {accepted}</p>"]
    if isinstance(question, OrderQuestion):
        items = "".join(f"<li>{_text(item)}</li>" for item in question.items)
        return [f"<p><strong>Answer:</strong></p><ol>{items}</ol>"]
    rights = _rights(question)
    order = _shown(len(rights), question.id, shuffle=_shuffles(question, bank))
    rows = "".join(
        f"<li>{_text(pair.left)} → {_letter(order.index(n))}) {_text(pair.right)}</li>"
        for n, pair in enumerate(question.pairs)
    )
    return [f"<p><strong>Answer:</strong></p><ol>{rows}</ol>"]


def _attribute(value: object) -> str:
    """JSON for an attribute in single quotes (its double quotes stay as they are)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return html.escape(text, quote=False).replace("'", "&#x27;")


def _question(
    number: int,
    question: Question,
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
    lines = [
        f'<li class="lk-question" id="lk-{question.id}" data-key=\'{key}\'{more}>',
        f'<p class="lk-number">Question {number}</p>',
        f'<div class="lk-prompt" id="lk-{question.id}-prompt">{safe_html(question.prompt)}</div>',
        *_inputs(question, bank),
        # Material styles <details class="info"> as a collapsible admonition; it opens
        # without JavaScript. Not "success": its tick would claim a right answer unasked.
        '<details class="lk-answer info" data-search-exclude>',
        f"<summary>Show the answer to question {number}</summary>",
        *_answer(question, bank, answer),
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
        if getattr(question, "params", None)
        else _question(number, question, bank, sections)
        for number, question in enumerate(questions, start=first)
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


def _shown_answer(question: Question) -> str:
    """A computed answer to the precision its tolerance needs: typed as shown, it is right."""
    assert isinstance(question, NumericQuestion)
    places = numerals.places_for(question.allowed_error())
    return numerals.written(question.value(), decimals=places, separators=False)


def _parameterised(number: int, question: Question, bank: Bank, sections: Mapping[str, str]) -> str:
    """A question with parameters: the first draw in place, every draw's numbers in
    ``data-variants`` for the script, each number in a ``lk-n`` slot it can refill."""
    data = question.model_dump(mode="json")
    draws = variants.sample(data, VARIANTS, f"site/{question.id}")
    if not draws:
        return ""  # nothing to show: `lessonkit validate` has reported why
    slots: dict[str, int] = {}
    table: list[list[str]] = []
    answers: list[float] = []
    first: Question | None = None
    for drawn in draws:
        texts: dict[str, str] = {}

        def slot(name: str, text: str, texts: dict[str, str] = texts) -> str:
            texts[name] = text
            return f"LKSLOT{slots.setdefault(name, len(slots))}Z"

        plain = question_adapter().validate_python(variants.render(data, drawn, slot=slot))
        if isinstance(plain, NumericQuestion):
            texts["answer"] = _shown_answer(instantiate(question, drawn))
            answers.append(plain.value())
            slots.setdefault("answer", len(slots))
        table.append([texts.get(name, "") for name in sorted(slots, key=slots.__getitem__)])
        first = first or plain
    table = [row + [""] * (len(slots) - len(row)) for row in table]
    payload = {"slots": table, **({"answers": answers} if answers else {})}
    attribute = _attribute(payload)
    assert first is not None
    answer = f"LKSLOT{slots['answer']}Z" if isinstance(first, NumericQuestion) else None
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
