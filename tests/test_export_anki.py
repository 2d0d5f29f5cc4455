"""Anki export, checked by the real Anki's own library importing the deck into a fresh
collection, with the import options of Anki's own dialog."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

from lessonkit.export import anki
from lessonkit.export.common import Source
from test_export_common import MODIFIED, every_type, exported, hostile, make_source, real_bank


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[Collection]:
    col = Collection(str(tmp_path / "collection.anki2"))
    yield col
    col.close()


def import_deck(col: Collection, source: Source, folder: Path) -> object:
    path = folder / f"deck-{source.modified}-{len(list(folder.iterdir()))}.apkg"
    path.write_bytes(anki.convert(source).data)
    request = ImportAnkiPackageRequest(package_path=str(path), options=ImportAnkiPackageOptions())
    return col.import_anki_package(request).log


def notes(col: Collection) -> dict[str, dict[str, object]]:
    """Every note by its Id field: fields, tags and modification time."""
    found = {}
    for note_id in col.find_notes(""):
        note = col.get_note(note_id)
        found[html.unescape(note["Id"])] = {
            "fields": dict(note.items()), "tags": sorted(note.tags), "mod": note.mod,
            "guid": note.guid,
        }  # fmt: skip
    return found


def test_one_note_and_one_card_per_question(collection: Collection, tmp_path: Path) -> None:
    source = every_type()
    log = import_deck(collection, source, tmp_path)
    assert len(log.new) == len(exported(source))  # type: ignore[attr-defined]
    assert collection.note_count() == 7
    assert collection.card_count() == 7
    imported = notes(collection)
    assert sorted(imported) == sorted(q.id for q in exported(source))
    single = imported["ex-single"]
    assert single["fields"] == {
        "Prompt": "<p>Which one is <strong>right</strong>?</p>",
        "Options": "<ul><li>a) a</li><li>b) b</li></ul>",
        "Answer": "<b>Answer:</b> b) b<p>About the options:</p>"
        "<ul><li>a) No, a is a distractor.</li></ul>",
        "Explanation": "<p>Because b.</p>",
        "Hint": "<p>Not a.</p>",
        "Lesson": 'Re-read: <a href="https://courses.test/test-plan/lesson-one/#1-first-idea">'
        "First idea</a>",
        "Id": "ex-single",
    }
    assert single["tags"] == [
        "basics", "lessonkit::insight::1", "lessonkit::lesson::lesson-one",
        "lessonkit::objective::1", "lessonkit::plan::test-plan", "two_words",
    ]  # fmt: skip
    assert single["mod"] == MODIFIED
    assert collection.decks.by_name("lessonkit::Every type") is not None


def test_every_type_says_its_answer_in_words(collection: Collection, tmp_path: Path) -> None:
    import_deck(collection, every_type(), tmp_path)
    answers = {key: note["fields"]["Answer"] for key, note in notes(collection).items()}  # type: ignore[index]
    assert answers["ex-true-false"] == "<b>Answer:</b> True"
    assert answers["ex-numeric"] == "<b>Answer:</b> 8 bits (± 25 %)"
    assert answers["ex-text"] == (
        "<b>Accepted answers:</b> <q>XLA</q>, <q>a*b</q><br>"
        "<b>Or any answer matching:</b> <code>X\\.?L\\.?A</code>"
    )
    assert answers["ex-order"] == "<b>Answer:</b><ol><li>alpha</li><li>beta</li><li>gamma</li></ol>"
    assert answers["ex-match"] == (
        "<b>Answer:</b><ol><li>GPU → workshop</li><li>TPU → factory line</li></ol>"
    )


def test_a_newer_export_updates_the_same_notes(collection: Collection, tmp_path: Path) -> None:
    import_deck(collection, every_type(), tmp_path)
    before = notes(collection)
    from test_export_common import EVERY_TYPE

    changed = make_source(EVERY_TYPE.replace("Which one is **right**?", "Which is right now?"),
                          modified=MODIFIED + 3600)  # fmt: skip
    log = import_deck(collection, changed, tmp_path)
    assert len(log.updated) == 7  # type: ignore[attr-defined]
    assert len(log.new) == 0  # type: ignore[attr-defined]
    after = notes(collection)
    assert collection.note_count() == 7
    assert after["ex-single"]["fields"]["Prompt"] == "<p>Which is right now?</p>"  # type: ignore[index]
    assert {k: v["guid"] for k, v in after.items()} == {k: v["guid"] for k, v in before.items()}
    assert collection.card_count() == 7


def test_an_unchanged_export_changes_nothing(collection: Collection, tmp_path: Path) -> None:
    import_deck(collection, every_type(), tmp_path)
    before = notes(collection)
    log = import_deck(collection, every_type(), tmp_path)
    assert len(log.new) == 0  # type: ignore[attr-defined]
    assert len(log.updated) == 0  # type: ignore[attr-defined]
    assert len(log.duplicate) == 7  # type: ignore[attr-defined]
    assert notes(collection) == before


def test_a_changed_prompt_with_the_same_time_is_not_taken(
    collection: Collection, tmp_path: Path
) -> None:
    # Why the bank's time matters: Anki keeps what it has unless the incoming note is newer.
    import_deck(collection, every_type(), tmp_path)
    from test_export_common import EVERY_TYPE

    same_time = make_source(EVERY_TYPE.replace("**right**", "left"))
    import_deck(collection, same_time, tmp_path)
    assert notes(collection)["ex-single"]["fields"]["Prompt"] == (  # type: ignore[index]
        "<p>Which one is <strong>right</strong>?</p>"
    )


def test_the_hostile_bank_imports_without_script(collection: Collection, tmp_path: Path) -> None:
    source = hostile()
    import_deck(collection, source, tmp_path)
    imported = notes(collection)
    assert sorted(imported) == sorted(q.id for q in exported(source))
    everything = " ".join(str(n["fields"]) for n in imported.values())
    assert "<script" not in everything
    assert "onerror" not in everything and "onclick" not in everything
    single = imported["hostile-single"]["fields"]
    assert "<pre><code" in single["Prompt"]  # type: ignore[index]
    assert "日本語" in single["Explanation"] and "🚀" in single["Explanation"]  # type: ignore[index]
    assert len(imported["hostile-text"]["fields"]["Explanation"]) > 9000  # type: ignore[index,arg-type]


def test_anki_renders_the_cards_with_the_shipped_note_type(
    collection: Collection, tmp_path: Path
) -> None:
    import_deck(collection, hostile(), tmp_path)
    (card_id,) = collection.find_cards('"Id:hostile-single"')
    card = collection.get_card(card_id)
    front, back = card.question(), card.answer()
    assert "<pre><code>if a &lt; b and c &gt; d:" in front
    assert "Answer:" not in front and "Hint" not in front  # no hint: the block is left out
    assert back.startswith(front.split("</style>")[0])  # the note type's own CSS
    assert '<hr id="answer">' in back and "<b>Answer:</b> a) =equals" in back
    assert "Re-read:" in back


def test_the_note_type_renders_code_offline() -> None:
    assert "pre {" in anki.CSS and "overflow-x: auto" in anki.CSS
    for text in (anki.CSS, anki.FRONT, anki.BACK):
        assert "http" not in text and "<script" not in text and "@import" not in text


def test_the_real_bank_round_trips(collection: Collection, tmp_path: Path) -> None:
    source = real_bank()
    import_deck(collection, source, tmp_path)
    imported = notes(collection)
    assert collection.note_count() == len(exported(source))
    assert collection.card_count() == len(exported(source))
    for question in exported(source):
        note = imported[question.id]
        assert note["fields"]["Explanation"]  # type: ignore[index]
        assert f"lessonkit::insight::{question.insight}" in note["tags"]  # type: ignore[operator]
        assert "lessonkit::plan::ai-hardware-fundamentals" in note["tags"]  # type: ignore[operator]
