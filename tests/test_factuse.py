"""One fact changed: every page, table and question that shows it follows, the bank's version
changes, and `lessonkit facts --used-by` listed exactly those places beforehand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import markdown
import pytest

from conftest import FACTS, FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course
from lessonkit.bank import variants
from lessonkit.bank.loader import read_facts
from lessonkit.cli import main
from lessonkit.course import catalog, factpages
from lessonkit.course.bankversion import bank_version
from lessonkit.quiz.reader import lesson_text
from lessonkit.site import blocks
from lessonkit.site.extension import LessonkitExtension

PRICED_LESSON = LESSON.replace(
    "Opening text.",
    "Opening text: a TPU v6e costs ((fact tpu-v6e.price)) on demand, and an H100 holds "
    "((fact h100-sxm.hbm)).[^tpu]\n\n"
    "<!-- lessonkit:facts tpu-v6e.price h100-sxm.hbm -->",
) + (
    # The author's own footnote shows a fact too: its value follows the fact as well.
    "\n[^tpu]: Google Cloud lists ((fact tpu-v6e.price)) for us-east1.\n"
)
PRICED_BANK = (
    FULL_BANK
    + """\
  - id: chip-hours
    type: numeric
    prompt: >-
      A TPU v6e chip costs {price} USD an hour on demand. What do {hours} chip-hours
      cost, in USD?
    insight: 1
    section: 1-first-idea
    explanation: "{hours} times {price} USD; at ((fact tpu-v6e.price)) that is the bill."
    hint: Multiply the hours by the hourly price.
    params:
      price: {values: ['((fact tpu-v6e.price))']}
      hours: {values: [24, 48, 168]}
    answer: hours * price
    relative_tolerance: 0.01
    unit: USD
  - id: memory-only
    type: numeric
    prompt: An H100 holds ((fact h100-sxm.hbm)). How many 20 GB shards fit?
    insight: 1
    section: 1-first-idea
    explanation: 80 / 20 = 4.
    hint: Divide.
    answer: 4
    unit: shards
"""
)
LESSON_FILE = "content/test-plan/lesson-one.md"
BANK_FILE = "quizzes/lesson-one.yml"


def snapshot(root: Path) -> dict[str, Any]:
    """What a learner can see of the course: the site's page, `lessonkit read`, the quiz."""
    body = (root / LESSON_FILE).read_text(encoding="utf-8").split("---\n", 2)[2]
    blocks._MEMO.clear()
    html = markdown.markdown(
        body, extensions=["toc", "footnotes", "tables", "fenced_code", LessonkitExtension()]
    )
    compiled = catalog.compile_bank(root / BANK_FILE)
    questions = {q["id"]: q for q in compiled["bank"]["questions"]}
    drawn = {
        qid: variants.seeded(q, "seed")[1] if variants.is_parameterised(q) else q
        for qid, q in questions.items()
    }
    return {
        "html": html,
        "text": lesson_text(root / LESSON_FILE, None),
        "questions": drawn,
        "version": bank_version(compiled["keys"], compiled["facts"]),
        "keys": compiled["keys"],
    }


@pytest.fixture
def course(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_course(
        {
            "facts/chips.yml": FACTS,
            LESSON_FILE: PRICED_LESSON,
            BANK_FILE: PRICED_BANK,
            "mkdocs.yml": "site_name: Test\ndocs_dir: content\n",
        }
    )
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    return root


def used_by(fact_id: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["facts", "--used-by", fact_id]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_changed_price_changes_every_place_that_shows_it_and_nothing_else(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_course(course).problems == []
    listed = used_by("tpu-v6e.price", capsys)
    assert listed == [
        f"{LESSON_FILE}:18:31: text",
        f"{LESSON_FILE}:20:22: table",
        f"{LESSON_FILE}:38:28: text",
        f"{BANK_FILE}:85:18: question chip-hours",
        f"{BANK_FILE}:88:24: question chip-hours",
    ]
    before = snapshot(course)
    old_facts = read_facts(course).facts

    facts = course / "facts" / "chips.yml"
    facts.write_text(FACTS.replace("value: 2.7", "value: 3.1"), encoding="utf-8")
    after = snapshot(course)
    assert check_course(course).problems == []  # the self-test and the sweep, on 3.1

    # The page on the site: the sentence, the table row, the footnote and the self-check's
    # explanation; `lessonkit read`: the sentence, the row and the footnote (self-checks are
    # the site's).
    for shown, count in (("html", 4), ("text", 3)):
        assert before[shown].count("2.7 USD/chip-hour") == count, shown
        assert after[shown].count("3.1 USD/chip-hour") == count, shown
        assert "2.7 USD" not in after[shown], shown
    # The question: its prompt, its explanation and its key, for the same draw.
    old, new = before["questions"]["chip-hours"], after["questions"]["chip-hours"]
    hours = int(re.search(r"What do (\d+) chip-hours", new["prompt"]).group(1))  # type: ignore[union-attr]
    assert "costs 2.7 USD an hour" in old["prompt"] and "costs 3.1 USD an hour" in new["prompt"]
    assert "at 3.1 USD/chip-hour that is the bill" in new["explanation"]
    assert (old["answer"], new["answer"]) == (
        pytest.approx(hours * 2.7),
        pytest.approx(hours * 3.1),
    )
    # The parameterised question's key changes (history keys each answer on it), and with
    # it the bank's version; a question that only mentions a fact keeps its key.
    changed_keys = {q for q, key in before["keys"].items() if after["keys"][q] != key}
    assert changed_keys == {"chip-hours"}
    assert before["version"] != after["version"]

    # Exactly the places listed changed: each lesson line on its own, each question whole.
    lines = (course / LESSON_FILE).read_text(encoding="utf-8").splitlines()
    new_facts = read_facts(course).facts
    changed_lines = {
        number
        for number, line in enumerate(lines, 1)
        if factpages.expand([line], old_facts).lines != factpages.expand([line], new_facts).lines
    }
    changed_questions = {
        qid for qid in before["questions"] if before["questions"][qid] != after["questions"][qid]
    }
    assert {int(place.split(":")[1]) for place in listed if place.startswith(LESSON_FILE)} == (
        changed_lines
    )
    assert {place.rsplit(" ", 1)[1] for place in listed if place.startswith(BANK_FILE)} == (
        changed_questions
    )


def test_the_list_of_facts_shows_age_source_and_use(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["facts"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ID             KIND   VALUE              AS OF       CHECKED     AGE   SOURCE   HOST              SHOWN",
        "h100-sxm.hbm   spec   80 GB              2023-03-21  2026-11-20  0 mo  primary  nvidia.com        3",
        "h200.hbm       spec   141 GB             2024-11-18  2026-11-20  0 mo  primary  nvidia.com        0",
        "tpu-v6e.price  price  2.7 USD/chip-hour  2026-10-01  2026-11-20  0 mo  primary  cloud.google.com  5",
    ]
    assert main(["facts", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(f["id"], f["age_months"], f["shown"]) for f in listed] == [
        ("h100-sxm.hbm", 0, 3),
        ("h200.hbm", 0, 0),
        ("tpu-v6e.price", 0, 5),
    ]
    assert listed[2]["source"]["url"] == "https://cloud.google.com/tpu/pricing"
    assert main(["facts", "--used-by", "h200.hbm"]) == 0
    assert capsys.readouterr().out == "fact `h200.hbm` is shown nowhere\n"


def test_an_unknown_fact_is_a_usage_error_with_a_suggestion(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["facts", "--used-by", "tpu-v6e.prize"]) == 2
    assert capsys.readouterr().err == (
        "lessonkit: no fact `tpu-v6e.prize` in facts/ (did you mean `tpu-v6e.price`?)\n"
    )


def test_a_course_without_facts_says_how_to_start(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(make_course())
    assert main(["facts"]) == 0
    assert capsys.readouterr().out == (
        "no facts: add files of `facts:` records under facts/ (see CONTRIBUTING.md)\n"
    )


def test_a_fact_shown_only_in_words_still_changes_the_banks_version(course: Path) -> None:
    before = snapshot(course)
    facts = course / "facts" / "chips.yml"
    facts.write_text(FACTS.replace("value: 80", "value: 94"), encoding="utf-8")
    after = snapshot(course)
    assert "An H100 holds 94 GB." in after["questions"]["memory-only"]["prompt"]
    assert before["keys"] == after["keys"]  # no answer key reads it
    assert before["version"] != after["version"]  # but learners saw other numbers
