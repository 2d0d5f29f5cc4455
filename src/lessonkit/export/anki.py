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

from lessonkit.export.common import (
    Export,
    HtmlWriting,
    Loss,
    Source,
    deterministic_zip,
    html_text,
    plain_questions,
    stable_int,
)
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

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
    questions = plain_questions(source.questions, losses, "Anki")
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


def _ids(questions: Iterable[RuntimeQuestion]) -> Iterator[int]:
    # genanki asks for an id per note, then one per card of that note (one card here).
    for question in questions:
        yield stable_int("lessonkit", "note", question.id, **_ID_RANGE)
        yield stable_int("lessonkit", "card", question.id, **_ID_RANGE)


def _tags(source: Source, question: RuntimeQuestion) -> list[str]:
    tags = [f"lessonkit::lesson::{source.bank.lesson}", f"lessonkit::insight::{question.insight}"]
    if source.plan:
        tags.append(f"lessonkit::plan::{source.plan}")
    tags += [f"lessonkit::objective::{objective}" for objective in question.objectives]
    # Anki splits tags at spaces.
    tags += ["_".join(tag.split()) for tag in question.tags]
    return sorted(set(tags))


def _fields(source: Source, question: RuntimeQuestion) -> list[str]:
    url = source.section_url(question)
    title = html.escape(source.section_title(question))
    lesson = f'Re-read: <a href="{html.escape(url, quote=True)}">{title}</a>' if url else ""
    card = registry.of(question).anki(question, _Kit())
    return [
        html_text(question.prompt),
        card.options,
        card.answer,
        html_text(question.explanation),
        html_text(question.hint) if question.hint else "",
        lesson,
        html.escape(question.id),
    ]


class _Kit(HtmlWriting):
    """What Anki lends a question type (``questiontypes.HtmlKit``)."""
