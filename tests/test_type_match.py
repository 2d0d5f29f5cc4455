"""`match`, with answers shared by several items: reading, grading, words, the format,
exports and Moodle's own matching fixture."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any, cast

import pytest
import yaml
from pydantic import ValidationError

from conftest import LearnerCourse, MakeCourse, ticking
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import MatchQuestion
from lessonkit.cli import main
from lessonkit.export import convert
from lessonkit.export.common import Source
from lessonkit.imports import read
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import HtmlKit, ResponseError
from lessonkit.questiontypes.match import Match, rights
from lessonkit.quiz.runner import quiz_command

FIXTURE = Path(__file__).parent / "fixtures/imports/moodle/match_testquestion.moodle.xml"
BASE = {"id": "animals", "type": "match", "prompt": "Classify the animals.", "insight": 1,
        "section": "s", "explanation": "Frogs and newts are amphibians."}  # fmt: skip
# Moodle's own example (question/type/match/tests/fixtures/testquestion.moodle.xml).
SHARED = BASE | {
    "pairs": [{"left": "frog", "right": "amphibian"}, {"left": "cat", "right": "mammal"},
              {"left": "newt", "right": "amphibian"}],
    "distractors": ["insect"],
}  # fmt: skip
ONE_EACH = BASE | {
    "id": "m", "pairs": [{"left": "GPU", "right": "workshop"},
                         {"left": "TPU", "right": "factory line"}],
    "distractors": ["garden"],
}  # fmt: skip


def question(data: dict[str, Any] = SHARED, **changes: object) -> Match:
    model = MatchQuestion.model_validate(data | changes)
    return Match.from_json(model.model_dump(mode="json"))


def test_a_shared_answer_is_one_choice() -> None:
    q = question()
    assert rights(q) == ["amphibian", "mammal", "insect"]
    assert registry.of(q).answer_key(q) == (0, 1, 0)
    assert registry.of(q).choices(q) == 3


@pytest.mark.parametrize(
    ("response", "score"),
    [((0, 1, 0), 1.0), ((0, 0, 0), 2 / 3), ((2, 1, 2), 1 / 3), ((1, 0, 1), 0.0)],
)
def test_grading_gives_credit_per_item(response: tuple[int, ...], score: float) -> None:
    grade = registry.grade(question(), response)
    assert grade.score == pytest.approx(score)
    assert grade.correct is (score == 1.0)


def test_wrong_responses_are_wrong_for_every_item() -> None:
    for q in (question(), question(ONE_EACH)):
        (wrong,) = registry.of(q).wrong_responses(q)
        assert registry.grade(q, wrong).score == 0.0


def test_a_letter_may_go_with_several_numbers_only_when_answers_are_shared() -> None:
    q = question()
    assert registry.parse(q, "1a 2b 3a", range(3)) == (0, 1, 0)
    assert registry.of(q).expected_form(q) == (
        "Match each of 1 to 3 with a letter from a to c, e.g. `1b 2c 3a`. "
        "A letter may go with more than one number."
    )
    one_each = question(ONE_EACH)
    with pytest.raises(ResponseError, match=r"^a is used twice\. Give each letter to one"):
        registry.parse(one_each, "1a 2a", range(3))
    assert registry.of(one_each).expected_form(one_each).endswith("e.g. `1b 2a`.")


def test_words_and_marks_follow_each_items_own_answer() -> None:
    q, kind = question(), registry.of(question())
    display = (2, 0, 1)  # shown as a. insect, b. amphibian, c. mammal
    assert kind.described(q, (0, 0, 0), display) == [
        "1. frog \u2192 b. amphibian",
        "2. cat \u2192 b. amphibian",
        "3. newt \u2192 b. amphibian",
    ]
    assert kind.shown(q, (0, 1, 0), display) == "1b 2c 3b"
    assert kind.part_marks(q, (0, 0, 0)) == [True, False, True]
    assert kind.key_described(q) == [
        "1. frog \u2192 a. amphibian", "2. cat \u2192 b. mammal", "3. newt \u2192 a. amphibian"]  # fmt: skip


def test_without_a_shared_answer_nothing_a_learner_kept_changes() -> None:
    q = question(ONE_EACH)
    # Golden values from before answers could be shared: the hash history keys on, the
    # key, and the page's key.
    assert registry.key_hash(q) == "07ccaf3034bd"
    assert registry.of(q).answer_key(q) == (0, 1)
    assert registry.of(q).widget_key(q) == {"count": 2}
    assert registry.of(question()).widget_key(question()) == {"count": 3, "answers": [0, 1, 0]}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pairs": [{"left": "frog", "right": "amphibian"}, {"left": "newt", "right": "Amphibian"}]},
         "right-hand item 'Amphibian' is written 'amphibian' in another pair; write an answer "
         "several items share the same way each time"),
        ({"distractors": ["amphibian"]},
         "distractor 'amphibian' is also a pair's right-hand item; a distractor matches no "
         "item, so leave it out of `distractors`"),
        ({"pairs": [{"left": "frog", "right": "amphibian"}, {"left": "newt", "right": "amphibian"}],
          "distractors": []},
         "every item has the answer 'amphibian', so there is nothing to choose; give an item "
         "another answer, or add a distractor"),
        ({"pairs": [{"left": "frog", "right": "amphibian"}, {"left": "frog", "right": "mammal"}]},
         "left-hand item 'frog' appears twice; make every left-hand item different"),
    ],
)  # fmt: skip
def test_the_format_still_refuses_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        MatchQuestion.model_validate(SHARED | changes)
    assert [error["msg"] for error in caught.value.errors()] == [f"Value error, {message}"]


def test_validate_points_at_an_item_with_no_answer(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    assert main(["import", str(FIXTURE), "--from", "moodle", "--slug", "animals"]) == 0
    capsys.readouterr()
    bank = root / "quizzes/animals.yml"
    text = bank.read_text()
    assert "right: amphibian" in text
    lines = text.splitlines()
    at = next(n for n, line in enumerate(lines) if line.strip() == "right: mammal")
    del lines[at]  # cat now has no answer
    bank.write_text("\n".join(lines) + "\n")
    assert main(["validate", "quizzes/animals.yml"]) == 1
    # At the pair, `- left: cat` (line 14, where `at` counted from 0 is the next line).
    assert capsys.readouterr().out == (
        f"quizzes/animals.yml:{at}:9: questions[0].pairs[1]: missing required field `right` "
        "(add `right: …`)\n1 problem in 1 file\n"
    )


def test_moodles_fixture_imports_validates_and_can_be_answered(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    imported = read(FIXTURE, "moodle")
    (draft,) = imported.drafts
    assert draft.fields["pairs"] == SHARED["pairs"]
    assert draft.fields["distractors"] == ["insect"]
    assert not any("share" in loss.what for loss in imported.losses)
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    assert main(["import", str(FIXTURE), "--from", "moodle", "--slug", "animals"]) == 0
    capsys.readouterr()
    (root / "answers.yml").write_text("matching-001: 1a 2b 3a\n")
    main(["quiz", "animals", "--answers", "answers.yml", "--json", "--seed", "1"])
    (asked,) = json.loads(capsys.readouterr().out)["questions"]
    assert (asked["id"], asked["response"], asked["score"]) == ("matching-001", [0, 1, 0], 1.0)


def _source() -> Source:
    bank = Bank.model_validate(
        {"lesson": "animals", "title": "Animals", "pass_mark": 0.5, "questions": [SHARED]}
    )
    return Source("animals", bank, None, 0.0)


def test_moodle_xml_carries_it_as_moodle_writes_it() -> None:
    exported = convert(_source(), "moodle")
    element = ET.fromstring(exported.data).find("question[@type='matching']")
    assert element is not None
    pairs = [(s.findtext("text"), s.findtext("answer/text")) for s in element.iter("subquestion")]
    assert pairs == [("frog", "amphibian"), ("cat", "mammal"), ("newt", "amphibian"),
                     ("", "insect")]  # fmt: skip
    assert exported.losses == []


def test_gift_carries_it_and_reports_only_the_distractor() -> None:
    exported = convert(_source(), "gift")
    text = exported.data.decode()
    assert "=frog -> amphibian" in text and "=newt -> amphibian" in text
    assert [loss.what for loss in exported.losses] == ["distractors: GIFT matching has none"]


def test_qti_gives_both_items_the_one_shared_label() -> None:
    exported = convert(_source(), "qti")
    assert exported.losses == []
    with zipfile.ZipFile(BytesIO(exported.data)) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".xml") and "manifest" not in n
                    and "meta" not in n)  # fmt: skip
        item = ET.fromstring(archive.read(name))
    ns = {"q": item.tag.split("}")[0].strip("{")} if item.tag.startswith("{") else {}
    prefix = "q:" if ns else ""
    lids = item.findall(f".//{prefix}response_lid", ns)
    labels = [lbl.get("ident") for lbl in lids[0].findall(f".//{prefix}response_label", ns)]
    assert len(labels) == 3  # amphibian, mammal, insect: each once
    right = {v.get("respident"): v.text for v in item.findall(f".//{prefix}varequal", ns)}
    frog, cat, newt = (right[lid.get("ident")] for lid in lids)
    assert frog == newt != cat


def test_anki_lists_the_shared_answer_once() -> None:
    exported = convert(_source(), "anki")
    assert exported.losses == []
    card = registry.of(question()).anki(question(), cast(HtmlKit, _Plain()))
    assert card.options.count("amphibian") == 1
    assert "a lettered one may go with several" in card.options
    assert card.answer.count("amphibian") == 2


class _Plain:
    """The one part of an HTML kit the match card uses (items as inline text), with nothing
    to escape or render."""

    def inline(self, text: str) -> str:
        return text


def test_the_draft_yaml_is_as_an_author_would_write_it() -> None:
    imported = read(FIXTURE, "moodle")
    assert yaml.safe_load(yaml.safe_dump(imported.drafts[0].fields))["pairs"][2] == {
        "left": "newt", "right": "amphibian"}  # fmt: skip


def test_validate_points_at_a_shared_answer_written_two_ways(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    assert main(["import", str(FIXTURE), "--from", "moodle", "--slug", "animals"]) == 0
    capsys.readouterr()
    bank = root / "quizzes/animals.yml"
    text = bank.read_text()
    bank.write_text(
        text.replace("newt\n        right: amphibian", "newt\n        right: Amphibian")
    )
    assert main(["validate", "quizzes/animals.yml"]) == 1
    # At the pairs, which the two spellings are parts of (their list starts on line 12).
    assert capsys.readouterr().out == (
        "quizzes/animals.yml:12:7: questions[0].pairs: right-hand item 'Amphibian' is written "
        "'amphibian' in another pair; write an answer several items share the same way each "
        "time\n1 problem in 1 file\n"
    )


@pytest.mark.parametrize(
    ("to", "name"), [("moodle", "a.xml"), ("gift", "a.gift.txt"), ("qti", "a.zip")]
)
def test_each_format_reads_back_what_it_carried(tmp_path: Path, to: str, name: str) -> None:
    exported = tmp_path / name
    exported.write_bytes(convert(_source(), to).data)
    (draft,) = read(exported, to).drafts
    assert draft.fields["pairs"] == SHARED["pairs"]
    # GIFT's matching has no distractors (its export reports it): only the pairs return.
    assert draft.fields.get("distractors", []) == ([] if to == "gift" else ["insect"])


TERMINAL_BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
questions:
  - id: animals
    type: match
    prompt: Classify the animals.
    insight: 1
    section: 1-first-idea
    explanation: Frogs and newts are amphibians.
    shuffle: false
    pairs:
      - {left: frog, right: amphibian}
      - {left: cat, right: mammal}
      - {left: newt, right: amphibian}
    distractors: [insect]
"""


def test_the_terminal_asks_takes_a_letter_twice_and_marks_each_item(
    learner_course: LearnerCourse,
) -> None:
    learner_course(TERMINAL_BANK, "site_name: Test\ndocs_dir: content\n")
    out = io.StringIO()
    clock = ticking()
    quiz_command("lesson-one", stdin=io.StringIO("1a 2a 3a\n\n"), stdout=out,
                 clock=lambda: next(clock))  # type: ignore[arg-type]  # fmt: skip
    assert (
        "Match each of 1 to 3 with a letter from a to c, e.g. 1b 2c 3a. A letter may go with "
        "more than one number.\n"
        "Answer (q save and quit): 1a 2a 3a\n"
        "You answered:\n"
        "  \u2713 1. frog \u2192 a. amphibian\n"
        "  \u2717 2. cat \u2192 a. amphibian\n"
        "  \u2713 3. newt \u2192 a. amphibian\n"
        "\u25d0 Partly correct: 0.67 of 1 point.\n"
        "The right answer for the \u2717 pairs: 2. cat \u2192 b. mammal\n"
    ) in out.getvalue()
