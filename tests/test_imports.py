"""Import: third-party files, the round trip through our own exports, hostile files, the command."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from conftest import MakeCourse
from lessonkit.cli import main
from lessonkit.errors import ContentError
from lessonkit.export import convert
from lessonkit.export.common import Source, fixed_variants, plain_text
from lessonkit.imports import read
from lessonkit.questiontypes.base import RuntimeQuestion as Question
from lessonkit.questiontypes.match import Match as MatchQuestion
from lessonkit.questiontypes.numeric import Numeric as NumericQuestion
from lessonkit.questiontypes.text import Text as TextQuestion
from test_export_common import every_type, real_bank

FIXTURES = Path(__file__).parent / "fixtures" / "imports"


def _ids(path: str, fmt: str) -> list[str]:
    return [d.fields["id"] for d in read(FIXTURES / path, fmt).drafts]


def _lost(path: str, fmt: str) -> list[str]:
    return [f"{loss.question}: {loss.what}" for loss in read(FIXTURES / path, fmt).losses]


# --- files nobody here wrote -------------------------------------------------------


def test_moodles_gift_fixture() -> None:
    imported = read(FIXTURES / "moodle/questions.gift.txt", "gift")
    kinds = {d.fields["id"]: d.fields["type"] for d in imported.drafts}
    assert kinds == {"moodle-activities": "match", "q2": "single", "colours": "multiple",
                     "q5": "numeric", "shortanswer": "text", "q1": "true_false",
                     "2-08-tsl": "true_false", "2-08-tsl-105ae0": "true_false"}  # fmt: skip
    q5 = next(d.fields for d in imported.drafts if d.fields["id"] == "q5")
    assert (q5["answer"], q5["tolerance"]) == (3.0, 2.0)
    assert "Q8: essay: graded by a person, not by lessonkit" in _lost(
        "moodle/questions.gift.txt", "gift"
    )
    assert _ids("moodle/questions.gift.txt", "gift") == list(kinds)  # the same ids every time


def test_moodle_xml_fixtures() -> None:
    assert _ids("moodle/nested_categories_with_questions.xml", "moodle") == [
        "iota-question", "kappa-question", "lambda-question", "mu-question"]  # fmt: skip
    assert _lost("moodle/nested_categories_with_questions.xml", "moodle") == [
        "Kappa Essay Question: essay: graded by a person, not by lessonkit"]  # fmt: skip
    assert _lost("moodle/sample_questions_with_old_image_tag.xml", "moodle")[-1] == (
        "mcq with image: image: the bank format holds no images; left out")  # fmt: skip
    short = read(FIXTURES / "moodle/shortanswer_testquestion.moodle.xml", "moodle").drafts[0]
    assert short.fields["accept"] == ["frog"]
    assert "shortanswer-001: partial credit (80%) for `toad`: lessonkit's text answers are right or wrong" in _lost(
        "moodle/shortanswer_testquestion.moodle.xml", "moodle")  # fmt: skip
    order = read(FIXTURES / "moodle/ordering_testimport.moodle.xml", "moodle").drafts[0]
    assert order.fields["id"] == "myid"
    assert order.fields["items"] == [
        "Modular",
        "Object",
        "Oriented",
        "Dynamic",
        "Learning",
        "Environment",
    ]
    assert _lost("moodle/match_testquestion.moodle.xml", "moodle")[-1] == (
        "matching-001: several left-hand items share the answer `amphibian`: lessonkit matches "
        "each to a different right-hand item")  # fmt: skip


def test_a_canvas_export() -> None:
    imported = read(FIXTURES / "canvas/categorization_matching_fitb.xml", "qti")
    order, match, *_clozes = (d.fields for d in imported.drafts)
    assert order["items"][:2] == [
        "Ordering Answer #1 w/ Formatting",
        "Ordering Answer #2 w/ Formatting",
    ]
    assert order["scoring"] == "all_or_nothing"
    assert [p["right"] for p in match["pairs"]] == [
        f"Answer {n} (plaintext only)" for n in (1, 2, 3, 4)
    ]
    assert match["distractors"] == ["Matching distractor 1 (plaintext only)"]
    lost = _lost("canvas/categorization_matching_fitb.xml", "qti")
    assert (
        "Categorization Question Title: categorisation: lessonkit has no sorting-into-groups question"
        in lost
    )
    assert [d.fields["type"] for d in imported.drafts].count("cloze") == 3


def test_text2qti_output(tmp_path: Path) -> None:
    """text2qti (a dev dependency) writes a QTI zip from its own documented Markdown."""
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    text = ("Quiz title: Sample\n\n1.  What is 2+3?\na)  6\n*b) 5\nc)  4\n\n"
            "2.  Which are primes?\n[*] 2\n[ ] 4\n[*] 3\n\n"
            "3.  What is 1+1?\n=   2 +- 0.5\n\n"
            "4.  Name a frog-like animal.\n*   toad\n*   frog\n")  # fmt: skip
    quiz = Quiz(text, config=Config(), source_name="<sample>")
    (tmp_path / "quiz.zip").write_bytes(QTI(quiz).zip_bytes())
    fields = [d.fields for d in read(tmp_path / "quiz.zip", "qti").drafts]
    assert [f["type"] for f in fields] == ["single", "multiple", "numeric", "text"]
    assert [o.get("correct", False) for o in fields[0]["options"]] == [False, True, False]
    assert [o.get("correct", False) for o in fields[1]["options"]] == [True, False, True]
    assert (fields[2]["answer"], fields[2]["tolerance"]) == (2.0, 0.5)
    assert fields[3]["accept"] == ["toad", "frog"]


def test_mkdocs_quiz_documented_examples() -> None:
    examples = read(FIXTURES / "mkdocs-quiz/examples.md", "mkdocs-quiz")
    assert len(examples.drafts) == 12  # every "Example" tab; the "Syntax" tabs are code
    even = next(d.fields for d in examples.drafts if "even" in d.fields["prompt"])
    assert (even["type"], even["scoring"]) == ("multiple", "all_or_nothing")
    blanks = read(FIXTURES / "mkdocs-quiz/fill-in-blank.md", "mkdocs-quiz")
    assert [d.fields["type"] for d in blanks.drafts] == ["text", "cloze", "text", "cloze", "text"]
    assert not blanks.losses


# --- the round trip ------------------------------------------------------------------


def _prose(text: str | None) -> str:
    return plain_text(text) if text else ""


def _same(original: Question, back: dict[str, object]) -> None:
    assert back["type"] == original.type
    if isinstance(original, NumericQuestion):
        assert back["answer"] == original.answer
        assert back.get("tolerance", 0) == pytest.approx(original.allowed_error())
        return
    if isinstance(original, TextQuestion):
        assert back.get("accept") == list(original.accept)
        return
    if isinstance(original, MatchQuestion):
        assert back["pairs"] == [{"left": p.left, "right": p.right} for p in original.pairs]
        return
    for key in ("options", "items", "answer"):
        mine = getattr(original, key, None)
        if key == "options" and mine is not None:
            assert [(_prose(o["text"]), o.get("correct", False), _prose(o.get("feedback")))
                    for o in back[key]] == [(_prose(o.text), o.correct, _prose(o.feedback)) for o in mine]  # type: ignore[attr-defined]  # fmt: skip
        elif mine is not None:
            assert back[key] == (list(mine) if isinstance(mine, tuple) else mine)


@pytest.mark.parametrize("to", ["moodle", "gift", "qti"])
@pytest.mark.parametrize("bank", ["every-type", "gpu-vs-tpu"])
def test_exported_banks_come_back_as_the_same_questions(tmp_path: Path, to: str, bank: str) -> None:
    source: Source = every_type() if bank == "every-type" else real_bank()
    export = convert(source, to)
    suffix = {"moodle": ".xml", "gift": ".txt", "qti": ".zip"}[to]
    path = tmp_path / f"bank{suffix}"
    path.write_bytes(export.data)
    imported = read(path, to)
    back = {d.fields["id"]: d.fields for d in imported.drafts}
    omitted = {loss.question for loss in export.losses if loss.omitted}
    # What the export carried: a question that draws numbers went as fixed variants, or
    # (Moodle) as a calculated question, which the importer names as a loss.
    carried: dict[str, tuple[str, Question]] = {}
    for question in source.questions:
        if question.id in omitted:
            continue
        if not getattr(question, "params", None):
            carried[question.id] = (question.id, question)
        elif any(x.question == question.id and "fixed variants" in x.what for x in export.losses):
            carried |= {v.id: (question.id, v) for v in fixed_variants(question)}
        else:
            assert any(question.id in str(x) and "calculated" in str(x) for x in imported.losses)
    assert set(back) == set(carried)
    for qid, (original_id, question) in carried.items():
        _same(question, back[qid])
        assert _prose(back[qid]["prompt"]).startswith(_prose(question.prompt)[:40].rstrip())
        lost_hint = any(
            x.question in (qid, original_id) and "hint" in x.what for x in export.losses
        )
        assert ("hint" in back[qid]) == (question.hint is not None and not lost_hint)


def test_mkdocs_quiz_round_trip() -> None:
    """mkdocs-quiz has no exporter here; its examples import, and import again identically."""
    first = read(FIXTURES / "mkdocs-quiz/examples.md", "mkdocs-quiz")
    again = read(FIXTURES / "mkdocs-quiz/examples.md", "mkdocs-quiz")
    assert [d.fields for d in first.drafts] == [d.fields for d in again.drafts]


# --- hostile files -------------------------------------------------------------------


def _refused(path: Path, fmt: str) -> str:
    with pytest.raises(ContentError) as caught:
        read(path, fmt)
    return str(caught.value)


def test_entity_expansion_and_external_entities_are_refused(tmp_path: Path) -> None:
    laughs = tmp_path / "laughs.xml"
    laughs.write_text('<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa">'
                      + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcdefgh", "bcdefghi", strict=True))
                      + "]><quiz>&i;</quiz>")  # fmt: skip
    assert "declares a DTD or entities" in _refused(laughs, "moodle")
    external = tmp_path / "external.xml"
    external.write_text(
        '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz>&x;</quiz>'
    )
    assert "declares a DTD or entities" in _refused(external, "moodle")


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.xml"
    deep.write_text("<quiz>" + "<a>" * 100_000 + "</a>" * 100_000 + "</quiz>")
    assert "nests deeper than 100 levels" in _refused(deep, "moodle")


def test_a_zip_bomb_is_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "quiz.xml", b"<questestinterop>" + b" " * 9_000_000 + b"</questestinterop>"
        )
    bomb.write_bytes(buffer.getvalue())
    assert "zip bomb" in _refused(bomb, "qti")


def test_a_50_mb_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.xml"
    with big.open("wb") as file:
        file.truncate(50 * 1024 * 1024)
    assert "the file is 50.0 MiB; imports stop at 10 MiB" in _refused(big, "moodle")


def test_broken_xml_names_line_and_column(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("<quiz>\n  <question>\n</quiz>\n")
    assert ":3:3: not well-formed XML: mismatched tag" in _refused(broken, "moodle")


@pytest.mark.parametrize(("name", "fmt"), [("latin1.gift", "gift"), ("latin1.md", "mkdocs-quiz")])
def test_text_that_is_not_utf8_names_line_and_column(tmp_path: Path, name: str, fmt: str) -> None:
    exported = tmp_path / name
    # Windows-1252 "café" on the second line, after a UTF-8 byte order mark
    exported.write_bytes(b"\xef\xbb\xbf// one\nQ caf\xe9 {T}\n")
    assert f"{name}:2:6: not UTF-8 text (byte 15: 0xe9)" in _refused(exported, fmt)


# --- the command ---------------------------------------------------------------------


def test_import_writes_a_bank_and_lesson_that_validate_and_quiz(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    source = FIXTURES / "moodle/nested_categories_with_questions.xml"
    assert main(["import", str(source), "--from", "moodle", "--slug", "animals", "--strict"]) == 1
    assert not (root / "quizzes/animals.yml").exists()
    capsys.readouterr()
    assert main(["import", str(source), "--from", "moodle", "--slug", "animals"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[:2] == [
        "created quizzes/animals.yml",
        "created content/test-plan/animals.md",
    ]
    assert err == ("nested_categories_with_questions.xml: Kappa Essay Question: essay: graded by a "
                   "person, not by lessonkit\n4 questions imported; 1 with losses or left out\n")  # fmt: skip
    bank = (root / "quizzes/animals.yml").read_text()
    assert bank.startswith("# yaml-language-server: $schema=../schemas/quiz-bank.schema.json\n")
    assert main(["validate", "quizzes/animals.yml"]) == 1  # only the explanations left to write
    problems = capsys.readouterr().out
    # Only the explanations are left to write: one line for the file's placeholders.
    first, last = problems.splitlines()
    assert (
        first.startswith("quizzes/animals.yml:")
        and "4 placeholders left from the template" in first
    )
    assert last == "4 placeholders in 1 file"
    assert "animals.yml" in problems and "section" not in problems
    answers = root / "answers.yml"
    answers.write_text("iota-question: 'true'\n")
    main(["quiz", "animals", "--answers", str(answers), "--json"])
    assert '"id": "iota-question"' in capsys.readouterr().out
    again = main(["import", str(source), "--from", "moodle", "--slug", "animals", "--replace"])
    assert again == 0 and (root / "quizzes/animals.yml").read_text() == bank  # same ids, same file
