"""Render question banks as sanitised HTML for the lesson site; no I/O, no MkDocs."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping, Sequence
from string import ascii_lowercase

import markdown
import nh3

from lessonkit.models import (
    Bank,
    ChoiceQuestion,
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    TextQuestion,
    TrueFalseQuestion,
)

__all__ = [
    "quiz_call",
    "safe_html",
    "self_check",
]

# Bank text is written by contributors and arrives through pull requests: only
# formatting survives, never scripts, styles, images (they would load from other
# hosts), forms or event handlers.
_ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "em", "i", "kbd", "li",
    "ol", "p", "pre", "s", "strong", "sub", "sup", "ul",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}}
_URL_SCHEMES = {"http", "https", "mailto"}


@functools.cache
def _markdown() -> markdown.Markdown:
    # One converter, reset between texts: building a new one per text cost ~0.5 ms,
    # a third of the hook's build time on a 22-question bank.
    return markdown.Markdown(extensions=["fenced_code"], output_format="html")


# Text with none of Markdown's or HTML's special characters, on one line, and not
# opening a list, quote or code block: its HTML is the text itself in a paragraph.
_PLAIN = re.compile(r"(?![ \t]*(?:[-+>]|\d+[.)])(?:\s|$))[^\n`*_\[\]<>&\\#!|~=:]*")


def safe_html(text: str, *, inline: bool = False) -> str:
    """Markdown from a bank as HTML that cannot run script; `inline` drops a lone `<p>` wrapper."""
    stripped = text.rstrip("\n")
    if stripped == stripped.strip() and _PLAIN.fullmatch(stripped):
        # Most options and feedback are plain sentences; converting and sanitising
        # each one was most of the hook's rendering time.
        return stripped if inline else f"<p>{stripped}</p>"
    rendered = _markdown().reset().convert(text)
    clean = nh3.clean(
        rendered,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel="noopener noreferrer",
    )
    # A paragraph that held only a stripped tag would show as an empty gap.
    clean = clean.replace("<p></p>", "").strip()
    # Options and list items sit inside <li>/<label>; a paragraph there adds a gap.
    if inline and clean.startswith("<p>") and clean.endswith("</p>") and clean.count("<p>") == 1:
        return clean[3:-4]
    return clean


def _text(value: str) -> str:
    # Plain fields (items, pairs, units) are shown as typed, never as markup.
    return html.escape(value, quote=True)


def _number(value: float) -> str:
    return f"{value:g}"


def _letter(index: int) -> str:
    return ascii_lowercase[index]


def _choices(question_id: str, kind: str, options: Sequence[tuple[str, bool]]) -> list[str]:
    """Options as real inputs: a reader can commit to an answer before opening it."""
    lines = [f'<fieldset class="lk-options" aria-labelledby="lk-{question_id}-prompt">']
    for index, (label, correct) in enumerate(options):
        lines.append(
            f'<label class="lk-option"><input type="{kind}" name="lk-{question_id}"'
            f' value="{_letter(index)}" data-correct="{str(correct).lower()}"> '
            f"<span>{label}</span></label>"
        )
    lines.append("</fieldset>")
    return lines


def _shown_order(items: Sequence[str], answer: Sequence[str]) -> list[str]:
    # The site has no seed to shuffle with, and items as written would give the
    # answer away: show them alphabetically instead, rotated by one when the
    # alphabet happens to line up with the answer.
    shown = sorted(items, key=str.casefold)
    if len(shown) > 1 and shown[: len(answer)] == list(answer):
        shown = shown[1:] + shown[:1]
    return shown


def _body(question: Question) -> list[str]:
    """What the reader sees before opening the answer."""
    if isinstance(question, MultipleQuestion):
        return ['<p class="lk-instruction">Choose every correct option.</p>']
    if isinstance(question, ChoiceQuestion):
        return ['<p class="lk-instruction">Choose one option.</p>']
    if isinstance(question, TrueFalseQuestion):
        return ['<p class="lk-instruction">True or false?</p>']
    if isinstance(question, NumericQuestion):
        unit = f" in {_text(question.unit)}" if question.unit else ""
        return [f'<p class="lk-instruction">Answer with a number{unit}.</p>']
    if isinstance(question, TextQuestion):
        return ['<p class="lk-instruction">Answer in a word or a short phrase.</p>']
    if isinstance(question, OrderQuestion):
        items = "".join(
            f"<li>{_text(item)}</li>" for item in _shown_order(question.items, question.items)
        )
        return ['<p class="lk-instruction">Put these in order:</p>', f"<ul>{items}</ul>"]
    lefts = "".join(f"<li>{_text(pair.left)}</li>" for pair in question.pairs)
    rights = "".join(
        f"<li>{_letter(i)}) {_text(right)}</li>" for i, right in enumerate(_match_rights(question))
    )
    return [
        '<p class="lk-instruction">Match each numbered item to a lettered one.</p>',
        f'<div class="lk-match"><ol>{lefts}</ol><ul class="lk-lettered">{rights}</ul></div>',
    ]


def _match_rights(question: MatchQuestion) -> list[str]:
    rights = [pair.right for pair in question.pairs]
    return _shown_order(rights + question.distractors, rights)


def _answer(question: Question) -> list[str]:
    """The right answer, shown inside the collapsed block."""
    if isinstance(question, ChoiceQuestion):
        right = [
            f"{_letter(i)}) {safe_html(o.text, inline=True)}"
            for i, o in enumerate(question.options)
            if o.correct
        ]
        if isinstance(question, MultipleQuestion):
            items = "".join(f"<li>{text}</li>" for text in right)
            lines = [f"<p><strong>Answer:</strong></p><ul>{items}</ul>"]
        else:
            lines = [f"<p><strong>Answer:</strong> {right[0]}</p>"]
        feedback = [
            f"<li>{_letter(i)}) {safe_html(o.feedback, inline=True)}</li>"
            for i, o in enumerate(question.options)
            if o.feedback
        ]
        if feedback:
            lines.append(f"<p>About the options:</p><ul>{''.join(feedback)}</ul>")
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
        return [f"<p><strong>Answer:</strong> {_number(question.answer)}{unit}{margin}</p>"]
    if isinstance(question, TextQuestion):
        if not question.accept:
            return []  # only patterns: a regular expression is no answer to show a reader
        accepted = ", ".join(f"<q>{_text(a)}</q>" for a in question.accept)
        return [f"<p><strong>Accepted answers:</strong> {accepted}</p>"]
    if isinstance(question, OrderQuestion):
        items = "".join(f"<li>{_text(item)}</li>" for item in question.items)
        return [f"<p><strong>Answer:</strong></p><ol>{items}</ol>"]
    rights = _match_rights(question)
    rows = "".join(
        f"<li>{_text(pair.left)} → {_letter(rights.index(pair.right))}) {_text(pair.right)}</li>"
        for pair in question.pairs
    )
    return [f"<p><strong>Answer:</strong></p><ol>{rows}</ol>"]


def _question(number: int, question: Question, sections: Mapping[str, str]) -> str:
    heading = sections.get(question.section, question.section)
    lines = [
        f'<li class="lk-question" id="lk-{question.id}" data-type="{question.type}">',
        f'<div class="lk-prompt" id="lk-{question.id}-prompt">{safe_html(question.prompt)}</div>',
    ]
    lines += _body(question)
    if isinstance(question, ChoiceQuestion):
        kind = "checkbox" if isinstance(question, MultipleQuestion) else "radio"
        labels = [
            (f"{_letter(i)}) {safe_html(o.text, inline=True)}", o.correct)
            for i, o in enumerate(question.options)
        ]
        lines += _choices(question.id, kind, labels)
    elif isinstance(question, TrueFalseQuestion):
        truth = [("True", question.answer), ("False", not question.answer)]
        lines += _choices(question.id, "radio", truth)
    lines += [
        # Material styles <details class="success"> as a collapsible admonition;
        # <details> opens without JavaScript.
        '<details class="lk-answer success">',
        f"<summary>Show the answer to question {number}</summary>",
        *_answer(question),
        f'<div class="lk-explanation">{safe_html(question.explanation)}</div>',
        f'<p class="lk-section">Re-read: <a href="#{_text(question.section)}">'
        f"{_text(heading)}</a></p>",
        "</details>",
        "</li>",
    ]
    return "\n".join(lines)


def quiz_call(slug: str) -> str:
    """The call to action that sends a reader to the terminal quiz."""
    return (
        '<div class="admonition tip lk-quiz-call">\n'
        '<p class="admonition-title">Quiz</p>\n'
        f"<p>Take this quiz in your terminal: <code>lessonkit quiz {_text(slug)}</code></p>\n"
        "</div>"
    )


def self_check(bank: Bank, slug: str, sections: Mapping[str, str]) -> str:
    """The body of a lesson's "Check yourself" section, as HTML.

    `slug` is the bank's file name (what `lessonkit quiz` takes); `sections` maps
    each heading anchor of the lesson to its text, so answers link back to it.
    """
    questions = "\n".join(
        _question(number, question, sections)
        for number, question in enumerate(bank.questions, start=1)
    )
    count = len(bank.questions)
    noun = "question" if count == 1 else "questions"
    return (
        f'<div class="lk-self-check" data-quiz="{_text(slug)}">\n'
        f'<p class="lk-intro">{count} {noun} from <em>{_text(bank.title)}</em>. '
        "Answer in your head or pick an option, then open the answer.</p>\n"
        f"{quiz_call(slug)}\n"
        f'<ol class="lk-questions">\n{questions}\n</ol>\n'
        "</div>\n"
    )
