"""A bank as an Anki deck (`.apkg`), one note per question, with identities that last.

Each note's GUID comes from the question id, so importing a newer export updates
the learner's notes and keeps their reviews. Anki's import updates a known note
only when the incoming one is newer, so every note carries ``Source.modified``
as its modification time: it grows when the bank changes and stays put otherwise.
Note and card ids, the deck id and the note type id are derived from names, and
the zip has fixed timestamps: the same bank at the same time gives the same bytes.
"""

from __future__ import annotations

import html
import sqlite3
from collections.abc import Iterable, Iterator
from string import ascii_lowercase

from lessonkit.bank.questions import (
    ChoiceQuestion,
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    TextQuestion,
    TrueFalseQuestion,
)
from lessonkit.export.common import (
    Export,
    Loss,
    Source,
    deterministic_zip,
    html_text,
    number,
    plain_questions,
    stable_int,
)

INSTALL_HINT = 'Anki export needs genanki: pip install "lessonkit[export]"'
NOTE_TYPE = "lessonkit question v1"
FIELDS = ["Prompt", "Options", "Answer", "Explanation", "Hint", "Lesson", "Id"]
# Anki's ids are millisecond timestamps; derived ones stay in a range of past times
# (2001 to 2017) so they never collide with ids Anki makes for the learner's own notes.
_ID_RANGE = {"low": 1_000_000_000_000, "high": 1_500_000_000_000}

# Code blocks scroll instead of overflowing the card; everything is local: no fonts,
# scripts or styles from the network, so the cards work offline.
CSS = """\
.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45;
  text-align: left; max-width: 40em; margin: 0 auto; padding: 0 0.5em; }
pre { background: rgba(127,127,127,0.12); padding: 0.6em 0.8em; border-radius: 4px;
  overflow-x: auto; white-space: pre; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 0.9em; }
.lk-options { padding-left: 1.4em; }
.lk-hint, .lk-lesson { font-size: 0.85em; opacity: 0.8; }
"""

FRONT = """\
<div class="lk-prompt">{{Prompt}}</div>
{{#Options}}<div class="lk-options">{{Options}}</div>{{/Options}}
{{#Hint}}<details class="lk-hint"><summary>Hint</summary>{{Hint}}</details>{{/Hint}}
"""

BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="lk-answer">{{Answer}}</div>
<div class="lk-explanation">{{Explanation}}</div>
{{#Lesson}}<p class="lk-lesson">{{Lesson}}</p>{{/Lesson}}
"""


def convert(source: Source) -> Export:
    """The bank as `.apkg` bytes; Anki loses nothing it shows, but it grades nothing either."""
    import genanki  # type: ignore[import-untyped]  # optional: the `export` extra

    model = genanki.Model(
        stable_int("lessonkit", "note-type", NOTE_TYPE, **_ID_RANGE),
        NOTE_TYPE,
        fields=[{"name": name} for name in FIELDS],
        templates=[{"name": "Question", "qfmt": FRONT, "afmt": BACK}],
        css=CSS,
    )
    deck = genanki.Deck(
        stable_int("lessonkit", "deck", source.slug, **_ID_RANGE),
        f"lessonkit::{source.bank.title}",
    )
    losses: list[Loss] = []
    questions = plain_questions(source.bank.questions, losses, "Anki")
    for question in questions:
        deck.add_note(
            genanki.Note(
                model=model,
                fields=_fields(source, question),
                tags=_tags(source, question),
                guid=genanki.guid_for("lessonkit", question.id),
            )
        )
    connection = sqlite3.connect(":memory:")
    try:
        cursor = connection.cursor()
        genanki.Package(deck).write_to_db(cursor, source.modified, _ids(questions))
        connection.commit()
        collection = connection.serialize()
    finally:
        connection.close()
    return Export(deterministic_zip([("collection.anki2", collection), ("media", b"{}")]), losses)


def _ids(questions: Iterable[Question]) -> Iterator[int]:
    # genanki asks for an id per note, then one per card of that note (one card here).
    for question in questions:
        yield stable_int("lessonkit", "note", question.id, **_ID_RANGE)
        yield stable_int("lessonkit", "card", question.id, **_ID_RANGE)


def _tags(source: Source, question: Question) -> list[str]:
    tags = [f"lessonkit::lesson::{source.bank.lesson}", f"lessonkit::insight::{question.insight}"]
    if source.plan:
        tags.append(f"lessonkit::plan::{source.plan}")
    tags += [f"lessonkit::objective::{objective}" for objective in question.objectives]
    # Anki splits tags at spaces.
    tags += ["_".join(tag.split()) for tag in question.tags]
    return sorted(set(tags))


def _fields(source: Source, question: Question) -> list[str]:
    url = source.section_url(question)
    title = html.escape(source.section_title(question))
    lesson = f'Re-read: <a href="{html.escape(url, quote=True)}">{title}</a>' if url else ""
    return [
        html_text(question.prompt),
        _options(question),
        _answer(question),
        html_text(question.explanation),
        html_text(question.hint) if question.hint else "",
        lesson,
        html.escape(question.id),
    ]


def _letter(index: int) -> str:
    return ascii_lowercase[index]


def _list(items: list[str], tag: str = "ul") -> str:
    return f"<{tag}>" + "".join(f"<li>{item}</li>" for item in items) + f"</{tag}>"


def _shown(items: list[str]) -> list[str]:
    # As on the site: alphabetical, so the order written in the bank gives nothing away.
    return sorted(items, key=str.casefold)


def _options(question: Question) -> str:
    if isinstance(question, ChoiceQuestion):
        return _list([f"{_letter(i)}) {html_text(o.text, inline=True)}"
                      for i, o in enumerate(question.options)])  # fmt: skip
    if isinstance(question, TrueFalseQuestion):
        return "True or false?"
    if isinstance(question, NumericQuestion):
        return f"Answer with a number in {html.escape(question.unit)}." if question.unit else ""
    if isinstance(question, OrderQuestion):
        return "Put these in order:" + _list([html.escape(i) for i in _shown(question.items)])
    if isinstance(question, MatchQuestion):
        rights = _shown([p.right for p in question.pairs] + question.distractors)
        lefts = _list([html.escape(p.left) for p in question.pairs], "ol")
        lettered = _list([f"{_letter(i)}) {html.escape(r)}" for i, r in enumerate(rights)])
        return f"Match each numbered item to a lettered one:{lefts}{lettered}"
    return ""


def _answer(question: Question) -> str:
    if isinstance(question, ChoiceQuestion):
        right = [
            f"{_letter(i)}) {html_text(o.text, inline=True)}"
            for i, o in enumerate(question.options)
            if o.correct
        ]
        text = (
            "<b>Answer:</b>" + _list(right)
            if isinstance(question, MultipleQuestion)
            else f"<b>Answer:</b> {right[0]}"
        )
        feedback = [
            f"{_letter(i)}) {html_text(o.feedback, inline=True)}"
            for i, o in enumerate(question.options)
            if o.feedback
        ]
        return text + ("<p>About the options:</p>" + _list(feedback) if feedback else "")
    if isinstance(question, TrueFalseQuestion):
        return f"<b>Answer:</b> {'True' if question.answer else 'False'}"
    if isinstance(question, NumericQuestion):
        return f"<b>Answer:</b> {html.escape(_numeric(question))}"
    if isinstance(question, TextQuestion):
        accepted = [f"<q>{html.escape(a)}</q>" for a in question.accept]
        patterns = [f"<code>{html.escape(p)}</code>" for p in question.patterns]
        parts = []
        if accepted:
            parts.append("<b>Accepted answers:</b> " + ", ".join(accepted))
        if patterns:
            parts.append("<b>Or any answer matching:</b> " + ", ".join(patterns))
        return "<br>".join(parts)
    if isinstance(question, OrderQuestion):
        return "<b>Answer:</b>" + _list([html.escape(i) for i in question.items], "ol")
    rows = [f"{html.escape(p.left)} → {html.escape(p.right)}" for p in question.pairs]
    return "<b>Answer:</b>" + _list(rows, "ol")


def _numeric(question: NumericQuestion) -> str:
    unit = f" {question.unit}" if question.unit else ""
    margin = ""
    if question.tolerance:
        margin = f" (± {number(question.tolerance)}{unit})"
    elif question.relative_tolerance:
        margin = f" (± {number(question.relative_tolerance * 100)} %)"
    return f"{number(question.value())}{unit}{margin}"
