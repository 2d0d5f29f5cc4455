"""Import: third-party files, the round trip through our own exports, hostile files, the command."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from conftest import MakeCourse
from lessonkit.bank import variants
from lessonkit.cli import main
from lessonkit.errors import ContentError
from lessonkit.export import convert
from lessonkit.export.calculated import DRAWS
from lessonkit.export.common import Source, fixed_variants, plain_text
from lessonkit.imports import read
from lessonkit.imports.common import markdown_from_plain
from lessonkit.questiontypes import registry
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
        "mcq with image: image `moodle.png` left out: the bank format holds no images")  # fmt: skip
    short = read(FIXTURES / "moodle/shortanswer_testquestion.moodle.xml", "moodle").drafts[0]
    assert short.fields["accept"] == ["frog"]
    assert "shortanswer-001: partial credit (80%) for `toad`: lessonkit's text answers are right or wrong, so it is left out of `accept` and counts as wrong; add it to `accept` to give it full marks" in _lost(
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
    # Frog and newt share `amphibian`: imported whole (tests/test_type_match.py), with
    # only Moodle's per-state feedback lost.
    assert _lost("moodle/match_testquestion.moodle.xml", "moodle") == [
        f"matching-001: {state}feedback: lessonkit shows the explanation after every answer "
        "instead" for state in ("correct", "partiallycorrect", "incorrect")]  # fmt: skip


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


def _drawn(question: dict[str, object], draws: int, seed: str) -> set[tuple[str, str, float]]:
    """Each draw of a parameterised question as the learner sees it: prompt, explanation,
    and the answer the formula gives."""
    found = set()
    for variant in variants.sample(question, draws, seed):
        plain = variants.render(question, variant)
        found.add((plain_text(plain["prompt"]), plain_text(plain.get("explanation") or ""),
                   round(float(plain["answer"]), 9)))  # fmt: skip
    return found


def _same_draws(original: Question, back: dict[str, object]) -> None:
    assert back["type"] == "numeric" and back["params"]
    mine = registry.as_json(original)
    (cases,) = (p["cases"] for p in back["params"].values())  # type: ignore[attr-defined]
    assert _drawn(mine, DRAWS, f"site/{original.id}") == _drawn(back, len(cases), "import")
    for key in ("tolerance", "relative_tolerance", "unit"):
        assert (back.get(key) or None) == (mine.get(key) or None), key


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
    # (Moodle) as a calculated question, which comes back parameterised.
    carried: dict[str, tuple[str, Question]] = {}
    for question in source.questions:
        if question.id in omitted:
            continue
        if not getattr(question, "params", None):
            carried[question.id] = (question.id, question)
        elif any(x.question == question.id and "fixed variants" in x.what for x in export.losses):
            carried |= {v.id: (question.id, v) for v in fixed_variants(question)}
        else:  # Moodle's calculated type: back as a parameterised question, draw for draw
            _same_draws(question, back.pop(question.id))
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
    assert err == ("nested_categories_with_questions.xml: Kappa Essay Question: left out: essay: graded by a "
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


def test_replace_shows_the_edits_it_would_discard_and_asks_for_force(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    source = FIXTURES / "moodle/nested_categories_with_questions.xml"
    assert main(["import", str(source), "--from", "moodle", "--slug", "animals"]) == 0
    bank = root / "quizzes/animals.yml"
    imported = bank.read_text()
    edited = imported.replace(
        "explanation: 'TODO(lessonkit): say why the answer is right (the source had no explanation)'",
        "explanation: Iota is the ninth letter.",
        1,
    )
    assert edited != imported
    bank.write_text(edited)
    capsys.readouterr()
    again = ["import", str(source), "--from", "moodle", "--slug", "animals", "--replace"]
    assert main(again) == 2
    assert capsys.readouterr().err.splitlines()[-3:] == [
        "lessonkit: quizzes/animals.yml differs from what nested_categories_with_questions.xml "
        "gives; importing over it would discard:",
        "  question `iota-question`: your `explanation`",
        "pass --force to discard that, or --slug NEW to import beside it",
    ]
    assert bank.read_text() == edited  # nothing written
    assert main([*again[:-1], "--force"]) == 0
    assert "discarded (--force): question `iota-question`: your `explanation`\n" in (
        capsys.readouterr().err
    )
    assert bank.read_text() == imported


def test_an_import_stub_is_valid_as_written_but_for_its_placeholders(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A course that asks for every marker, as this one does.
    policy = "rules:\n  markers: {level: error}\n"
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n", "lessonkit.yml": policy})
    monkeypatch.chdir(root)
    source = root / "two.gift"
    source.write_text("::Q1:: What is 2 + 2? {=4 ~3 ~5}\n\n::Q2:: The sky is blue. {T}\n")
    assert main(["import", str(source), "--from", "gift", "--slug", "arith"]) == 0
    capsys.readouterr()
    assert main(["validate", "--full"]) == 1
    lines = capsys.readouterr().out.splitlines()
    mine = [line for line in lines if "arith" in line]  # not the fixture course's own
    assert [line.split(": ", 1)[0] for line in mine] == [
        "content/test-plan/arith.md:2:3", "quizzes/arith.yml:16:19"]  # fmt: skip
    assert all("placeholders left from the template" in line for line in mine), mine


def test_an_image_and_a_link_into_the_source_site_in_a_mkdocs_quiz_are_named() -> None:
    # A question is drawn as HTML no site engine rewrites: `index.md` would lead nowhere.
    assert _lost("mkdocs-quiz/advanced-formatting.md", "mkdocs-quiz") == [
        "line 11 (advanced-formatting-what-is-mkdocs): link `index.md` (“cool plugins”) kept "
        "as its words: it led to a page of the site the question came from; link to its https "
        "address",
        "line 269 (advanced-formatting-which-programming-language-has-this-logo): image "
        "`https://cataas.com/cat` (“Random cat photo”) left out: the bank format holds no images",
    ]


@pytest.mark.parametrize(
    ("plain", "markdown"),
    [
        ("customer_id and order_id", "customer_id and order_id"),  # inside words: text
        ("SELECT * FROM t", "SELECT * FROM t"),  # spaces on both sides: text
        ("Two plus _____.", "Two plus _____."),  # one run alone can pair with nothing
        ("x_1 + y_2", "x_1 + y_2"),
        ("**not bold**", "\\*\\*not bold\\*\\*"),  # these would pair: kept
        ("__init__", "\\_\\_init\\_\\_"),
        ("* not a list", "\\* not a list"),  # a list item at the start of a line: kept
        ("_____", "\\_\\_\\_\\_\\_"),  # alone on its line, a rule: kept
    ],
)
def test_imported_text_keeps_only_the_backslashes_that_matter(plain: str, markdown: str) -> None:
    assert markdown_from_plain(plain) == markdown


def test_links_into_the_source_site_keep_their_words() -> None:
    from lessonkit.imports.common import Notes, local_links

    notes = Notes("quiz.md", "q")
    text = (
        "See [the plan](index.md), [docs](https://www.mkdocs.org/), [part](#one),\n"
        "`[code](x.md)` and ![a cat](cat.png).\n```\n[fenced](y.md)\n```"
    )
    assert local_links(text, notes) == (
        "See the plan, [docs](https://www.mkdocs.org/), [part](#one),\n"
        "`[code](x.md)` and ![a cat](cat.png).\n```\n[fenced](y.md)\n```"
    )
    assert [loss.what for loss in notes.losses] == [
        "link `index.md` (“the plan”) kept as its words: it led to a page of the site the "
        "question came from; link to its https address"
    ]
