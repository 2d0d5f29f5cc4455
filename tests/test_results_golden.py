"""`lessonkit results` on a seeded class, against its report kept in tests/golden.

The class exercises every path the statistics take: each question type (partial credit
from order and match questions, a question that draws numbers), retakes, an attempt left
unfinished, the same files exported twice, a zip download, a bank version from before a
key changed, a second quiz with no bank here, and a refused file. Any change to how
files are read or tallied must give this report to the last digit: floats are compared
as the JSON writes them. Regenerate with LESSONKIT_GOLDEN=1 only when a change means to
alter the statistics, and say why in the commit.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from classroom import Behaviour, Learner, simulate
from conftest import MakeCourse
from lessonkit.bank.loader import load_bank
from lessonkit.history.rows import SharedAttempt
from lessonkit.results.collection import collect
from lessonkit.results.summary import render_text, to_json

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("LESSONKIT_GOLDEN") == "1"

QUESTIONS = """\
  - id: q-pick
    type: single
    prompt: Pick the right one.
    insight: 1
    section: 1-first-idea
    explanation: Because.
    options:
      - text: wrong a
      - text: right b
        correct: {pick_b}
      - text: wrong c
        correct: {pick_c}
      - text: never chosen d
  - id: q-many
    type: multiple
    prompt: Pick every right one.
    insight: 1
    section: 1-first-idea
    explanation: Because.
    options:
      - text: yes one
        correct: true
      - text: no two
      - text: yes three
        correct: true
      - text: no four
  - id: q-tf
    type: true_false
    prompt: True?
    insight: 1
    section: 1-first-idea
    explanation: It is.
    answer: true
  - id: q-name
    type: text
    prompt: Which compiler?
    insight: 2
    section: a-detail
    explanation: XLA.
    hint: Three letters.
    accept: [XLA]
  - id: q-memory
    type: numeric
    prompt: How many GB?
    insight: 2
    section: a-detail
    explanation: Twelve.
    hint: Count them.
    answer: 12
    unit: GB
  - id: q-drawn
    type: numeric
    prompt: What is {{n}} times 3?
    insight: 2
    section: a-detail
    explanation: Three times {{n}}.
    params:
      n: {{values: [2, 4, 8, 16]}}
    answer: n * 3
  - id: q-order
    type: order
    prompt: Order them.
    insight: 2
    section: a-detail
    explanation: Alphabetical.
    items: [a, b, c, d]
"""
MATCH = """\
  - id: q-match
    type: match
    prompt: Match them.
    insight: 1
    section: 1-first-idea
    explanation: Like with like.
    pairs:
      - {left: one, right: "1"}
      - {left: two, right: "2"}
      - {left: three, right: "3"}
"""
HEAD = "lesson: lesson-one\ntitle: Golden class\npass_mark: 0.5\nquestions:\n"
# The bank as it is now, and as it was a week before: q-pick's key was option 3 then, and
# q-match was added since.
NOW = HEAD + QUESTIONS.format(pick_b="true", pick_c="false") + MATCH
BEFORE = HEAD + QUESTIONS.format(pick_b="false", pick_c="true")
OTHER = HEAD.replace("Golden class", "Another quiz") + QUESTIONS.format(
    pick_b="true", pick_c="false"
)
FAULTS = {
    "q-pick": Behaviour(weights={3: 0.0}),
    "q-name": Behaviour(missing="the XLA compiler", missing_share=0.4),
    "q-tf": Behaviour(difficulty=-4.5),
}


def _shifted(attempt: SharedAttempt, by: timedelta) -> SharedAttempt:
    """The same attempt taken ``by`` later."""
    answers = [replace(a, answered=a.answered + by) for a in attempt.answers]
    finished = attempt.finished and attempt.finished + by
    return replace(attempt, started=attempt.started + by, finished=finished, answers=answers)


def _files(folder: Path, learners: list[Learner], prefix: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, learner in enumerate(learners):
        paths.append(folder / f"{prefix}-{n:03d}.jsonl")
        paths[-1].write_text(learner.text(), encoding="utf-8")
    return paths


def golden_class(root: Path) -> list[Path]:
    """The class's files under ``root``; returns the paths to give `lessonkit results`."""
    (root / "quizzes" / "lesson-one.yml").write_text(NOW, encoding="utf-8")
    now = load_bank(root / "quizzes" / "lesson-one.yml")
    (root / "before.yml").write_text(BEFORE, encoding="utf-8")
    (root / "other.yml").write_text(OTHER, encoding="utf-8")
    before, other = load_bank(root / "before.yml"), load_bank(root / "other.yml")
    learners = simulate(now, 90, seed=2601, behaviours=FAULTS, retakes=0.3)
    earlier = simulate(before, 30, seed=2602, behaviours=FAULTS)
    for learner in earlier:  # a week before the class above
        learner.attempts = [_shifted(a, timedelta(days=-7)) for a in learner.attempts]
    # Some learners also took another quiz, whose bank is not in this course.
    for learner, also in zip(learners[:25], simulate(other, 25, seed=2603, slug="other-quiz"),
                             strict=True):  # fmt: skip
        learner.attempts.append(_shifted(also.attempts[0], timedelta(days=3)))
    # One learner gave up on a first attempt, then finished a second.
    quitter = learners[40]
    quitter.attempts[0] = replace(quitter.attempts[0], finished=None)
    _files(root / "class", learners, "learner")
    _files(root / "class" / "earlier", earlier, "early")
    # Ten learners exported again later; their files arrive a second time in a zip.
    with zipfile.ZipFile(root / "again.zip", "w") as archive:
        for n, learner in enumerate(learners[:10]):
            archive.writestr(f"Student {n}/attempts.jsonl", learner.text())
    (root / "class" / "edited.jsonl").write_text(
        learners[1].text().replace('"hints":0', '"hints":1', 1), encoding="utf-8"
    )
    return [root / "class", root / "again.zip"]


@pytest.fixture
def golden_course(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n"})
    monkeypatch.chdir(root)
    return golden_class(root)


def _check(name: str, produced: str) -> None:
    golden = GOLDEN / name
    if REGENERATE:
        golden.write_text(produced, encoding="utf-8")
    assert produced == golden.read_text(encoding="utf-8")


def test_the_report_of_a_seeded_class_is_unchanged(golden_course: list[Path]) -> None:
    found = collect(golden_course)
    report: dict[str, Any] = to_json(
        found.banks, files=found.files, refused=[str(r) for r in found.refused]
    )
    text = json.dumps(report, indent=1, sort_keys=True).replace(str(Path.cwd()), "ROOT")
    # The class is what the docstring says, so the golden file tests what it claims to.
    assert [b["slug"] for b in report["banks"]] == ["lesson-one", "other-quiz"]
    assert len(report["banks"][0]["versions"]) == 2
    (refused,) = report["refused"]
    assert "edited.jsonl:28: the file was changed after it was exported" in refused
    assert report["files"] == 90 + 30 + 10 + 1
    _check("results-class.json", text + "\n")


def test_the_text_report_of_a_seeded_class_is_unchanged(golden_course: list[Path]) -> None:
    found = collect(golden_course, bank="lesson-one")
    _check("results-class.txt", render_text(found.banks, files=found.files))
