"""`lessonkit results` on classes with known answers: hand-computed statistics and planted faults.

The six-learner class is the one in test_measures.py, now answered through a real bank and
real files; every figure the report prints is checked against the hand-worked value. The
synthetic class (tests/classroom.py) plants one fault per question and checks that each
is flagged at its line, and that the good question is not.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from classroom import Behaviour, simulate, write_class
from conftest import MakeCourse
from lessonkit.bank.loader import load_bank
from lessonkit.course.bankversion import bank_version
from lessonkit.history.rows import SharedAnswer, SharedAttempt
from lessonkit.results.collection import collect
from lessonkit.results.sharing import file_lines
from lessonkit.results.stats import BankStats
from lessonkit.results.summary import render_text

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

SIX_BANK = """\
lesson: lesson-one
title: Six learners
pass_mark: 0.5
questions:
  - id: q1
    type: single
    prompt: Pick b.
    insight: 1
    section: 1-first-idea
    explanation: Because b.
    options:
      - text: a
      - text: b
        correct: true
      - text: c
      - text: d
  - id: q2
    type: true_false
    prompt: True?
    insight: 1
    section: 1-first-idea
    explanation: It is.
    answer: true
  - id: q3
    type: text
    prompt: Which compiler?
    insight: 2
    section: a-detail
    explanation: XLA.
    hint: Three letters.
    accept: [XLA]
  - id: q4
    type: numeric
    prompt: How much memory?
    insight: 2
    section: a-detail
    explanation: Twelve.
    answer: 12
    unit: GB
"""
# Learner by learner: q1 (option index), q2, q3, q4; right or wrong as in test_measures.
SIX = [
    (1, True, "XLA", 12),
    (1, True, "xla", 12000),
    (1, True, "  Xla Compiler ", 12000),
    (1, False, "XLA", 6),
    (0, True, "xla compiler", 24),
    (1, False, "XLA compiler", 12000),
]
RIGHT = [[1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]


def keys_of(root: Path) -> dict[str, str]:
    from lessonkit.questiontypes import registry

    questions = load_bank(root / "quizzes" / "lesson-one.yml").questions
    return {q.id: registry.key_hash(registry.runtime(q)) for q in questions}


def six_files(
    root: Path, *, version: str | None = None, hashes: dict[str, str] | None = None, first: int = 1
) -> Path:
    """The six learners' files in ``root/class``; ``first`` numbers their pseudonyms, and a
    later ``first`` makes another six learners who took the quiz a week earlier."""
    keys = hashes or keys_of(root)
    folder = root / "class"
    folder.mkdir(exist_ok=True)
    for n, (responses, right) in enumerate(zip(SIX, RIGHT, strict=True), first):
        started = T0 + timedelta(hours=n) - timedelta(days=7 * (first > 1))
        answers = [
            SharedAnswer(q, keys[q], response, float(ok), 1.0, started + timedelta(minutes=i),
                         10.0 * n + i, int(q == "q3" and n > 4), None)
            for i, (q, response, ok) in enumerate(zip(("q1", "q2", "q3", "q4"), responses, right, strict=True))
        ]  # fmt: skip
        attempt = SharedAttempt("lesson-one", version or bank_version(keys), ["q1", "q2", "q3", "q4"],
                                started, started + timedelta(minutes=5), answers)  # fmt: skip
        lines = file_lines(f"l-{n:016x}", [attempt], exported=T0 + timedelta(days=1))
        (folder / f"L{n}-{version or 'now'}.jsonl").write_text(
            "".join(f"{line}\n" for line in lines)
        )
    return folder


@pytest.fixture
def six(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_course(
        {"mkdocs.yml": "site_name: T\ndocs_dir: content\n", "quizzes/lesson-one.yml": SIX_BANK}
    )
    monkeypatch.chdir(root)
    return root


def only_bank(root: Path, *paths: Path) -> BankStats:
    (bank,) = collect(list(paths)).banks
    return bank


def test_six_learners_match_the_hand_computed_statistics(six: Path) -> None:
    bank = only_bank(six, six_files(six))
    assert (bank.learners, bank.attempts, bank.analysed, bank.found) == (6, 6, 6, True)
    (version,) = bank.versions
    assert version.current
    stats = {q.id: q for q in version.questions}
    assert [q.id for q in version.questions] == ["q1", "q2", "q3", "q4"]
    assert [stats[q].difficulty for q in ("q1", "q2", "q3", "q4")] == pytest.approx(
        [5 / 6, 4 / 6, 3 / 6, 1 / 6]
    )
    r = [stats[q].discrimination for q in ("q1", "q2", "q3", "q4")]
    assert r == pytest.approx(
        [1 / (2 * math.sqrt(10)), 0.0, 1 / math.sqrt(5), math.sqrt(0.3)], abs=1e-12
    )
    assert [stats[q].upper_lower for q in ("q1", "q2", "q3", "q4")] == pytest.approx(
        [0.5, 0.5, 1.0, 0.5]
    )
    assert version.reliability.method == "KR-20"
    assert version.reliability.value == pytest.approx(56 / 123)
    assert "fewer than 30" in version.reliability.caveat
    assert version.scores is not None
    assert (version.scores.mean, version.scores.median) == pytest.approx((13 / 24, 0.5))
    assert version.scores.sd == pytest.approx(math.sqrt(41) / 24)
    assert version.scores.histogram == (0, 0, 2, 0, 0, 2, 0, 1, 0, 1)
    # Options: all / top (L1, L2) / bottom (L5, L6).
    assert [(o.text, o.key, o.chosen, o.top, o.bottom) for o in stats["q1"].options] == [
        ("a", False, 1, 0, 1), ("b", True, 5, 2, 1), ("c", False, 0, 0, 0), ("d", False, 0, 0, 0),
    ]  # fmt: skip
    assert [(o.text, o.chosen, o.top, o.bottom) for o in stats["q2"].options] == [
        ("true", 4, 2, 1), ("false", 2, 0, 1),
    ]  # fmt: skip
    # Wrong answers normalised as the grader compares them: three spellings, one answer.
    assert [(w.text, w.count) for w in stats["q3"].wrong] == [("xla compiler", 3)]
    assert [(w.text, w.count, w.factor) for w in stats["q4"].wrong] == [
        ("12000 GB", 3, 1000.0), ("24 GB", 1, None), ("6 GB", 1, None),
    ]  # fmt: skip
    assert stats["q1"].median_seconds == pytest.approx(35.0)  # 10, 20, … 60 seconds
    assert stats["q3"].hints_used == pytest.approx(2 / 6)
    assert stats["q1"].hints_used is None  # q1 has no hint to ask for
    assert version.flags == ()  # six answers are too few to flag anything


def test_the_text_report_of_the_six_learners(six: Path) -> None:
    found = collect([six_files(six)])
    text = render_text(found.banks, files=found.files)
    assert text.startswith(
        "lesson-one: Six learners (quizzes/lesson-one.yml)\n"
        "  6 learners, 6 attempts.\n"
        "  Statistics come from each learner's first finished attempt (6).\n"
    )
    assert "  Reliability: KR-20 0.46 over 4 questions and 6 learners\n" in text
    assert (
        "    (from 6 learners: with fewer than 30 this is a rough guide, not a measure)\n" in text
    )
    assert "  No flags: they need 10 answers or more per question.\n" in text
    table = text.split("  Question")[1].splitlines()
    assert table[1:5] == [
        "  q1           6  0.83  0.83   0.16  0.50   35s     -",
        "  q2           6  0.67  0.67   0.00  0.50   36s     -",
        "  q3           6  0.50  0.50   0.45  1.00   37s   33%",
        "  q4           6  0.17  0.17   0.55  0.50   38s     -",
    ]
    assert "    * 2   83%  100%   50%  b\n" in text
    assert "        2   33%  ...".strip() not in text
    assert "        3   50%  12000 GB (the key times 1000)\n" in text
    assert text.endswith("Flags: none.\n")


def test_an_attempt_exported_twice_counts_once(six: Path) -> None:
    folder = six_files(six)
    copy = six / "again"
    copy.mkdir()
    for path in folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    bank = only_bank(six, folder, copy)
    assert (bank.learners, bank.attempts, bank.analysed) == (6, 6, 6)


def test_a_version_change_mid_collection_splits_the_statistics(six: Path) -> None:
    older = dict(keys_of(six), q1="0123456789ab")  # q1's key was different then
    six_files(six, version="0ff1ce0ff1ce", hashes=older, first=11)  # a week earlier
    bank = only_bank(six, six_files(six))
    now = bank_version(keys_of(six))
    assert [(v.version, v.current, v.learners) for v in bank.versions] == [
        (now, True, 6),
        ("0ff1ce0ff1ce", False, 6),
    ]
    assert [str(f) for f in bank.flags] == [
        "quizzes/lesson-one.yml:5: q1: changed mid-collection: its answer key differs between "
        f"bank versions {now}, 0ff1ce0ff1ce; its statistics are split by version"
    ]
    # The older version's q1 answers were graded against another key: no option texts for it.
    assert {q.id: bool(q.options) for q in bank.versions[1].questions}["q1"] is False
    text = render_text([bank], files=12)
    assert "  The files hold 2 versions of this bank: statistics are split by version.\n" in text
    assert f"  Version {now} (the bank as it is now)\n    6 learners, 6 attempts" in text
    assert "  Version 0ff1ce0ff1ce (an earlier version)\n    6 learners" in text


def test_only_the_first_finished_attempt_is_analysed(six: Path) -> None:
    keys = keys_of(six)
    version = bank_version(keys)

    def sitting(start: datetime, right: bool, finished: bool) -> SharedAttempt:
        answers = [SharedAnswer(q, keys[q], 1 if q == "q1" else True if q == "q2" else "XLA" if q == "q3" else 12,
                                float(right), 1.0, start, 5.0, 0, None) for q in ("q1", "q2", "q3", "q4")]  # fmt: skip
        return SharedAttempt("lesson-one", version, ["q1", "q2", "q3", "q4"], start,
                             start + timedelta(minutes=3) if finished else None, answers)  # fmt: skip

    attempts = [sitting(T0, True, False), sitting(T0 + timedelta(days=1), False, True),
                sitting(T0 + timedelta(days=2), True, True)]  # fmt: skip
    (six / "one.jsonl").write_text(
        "".join(f"{line}\n" for line in file_lines("l-00000000000000aa", attempts, exported=T0))
    )
    bank = only_bank(six, six / "one.jsonl")
    assert (bank.learners, bank.attempts, bank.analysed) == (1, 3, 1)
    assert bank.versions[0].scores is not None and bank.versions[0].scores.mean == 0.0


def test_json_output_for_scripts(six: Path) -> None:
    six_files(six)
    done = subprocess.run([sys.executable, "-m", "lessonkit", "results", "class", "--json"],
                          cwd=six, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    assert (found["format"], found["version"], found["files"], found["refused"]) == (
        "lessonkit-results",
        1,
        6,
        [],
    )
    question = found["banks"][0]["versions"][0]["questions"][2]
    assert question["id"] == "q3" and question["line"] == 24
    assert question["discrimination"] == pytest.approx(1 / math.sqrt(5))
    assert found["banks"][0]["versions"][0]["first"] == "2026-11-02T10:00:00+00:00"


def test_an_unknown_bank_is_a_usage_error(six: Path) -> None:
    six_files(six)
    done = subprocess.run([sys.executable, "-m", "lessonkit", "results", "class", "--bank", "lesson-on"],
                          cwd=six, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "lessonkit: no quiz called `lesson-on` (did you mean `lesson-one`?)\n"


# --- a class of 200 with planted faults ------------------------------------------------

PLANTED_BANK = (
    "lesson: lesson-one\ntitle: Planted\npass_mark: 0.5\nquestions:\n"
    + "".join(
        f"""\
  - id: {qid}
    type: single
    prompt: Question {qid}?
    insight: 1
    section: 1-first-idea
    explanation: Because.
    options:
      - text: right answer of {qid}
        correct: true
      - text: a tempting slip of {qid}
      - text: another slip of {qid}
      - text: an old myth of {qid}
"""
        for qid in ("q-good", "q-bad-key", "q-dead", "q-easy", *(f"q-fill-{n}" for n in range(8)))
    )
    + """\
  - id: q-name
    type: text
    prompt: Which compiler?
    insight: 2
    section: a-detail
    explanation: XLA.
    accept: [XLA]
"""
)
PLANTED = {
    "q-bad-key": Behaviour(preferred=2),  # option 3 is what those who know choose
    "q-dead": Behaviour(weights={3: 0.0}),  # nobody falls for option 4
    "q-easy": Behaviour(difficulty=-5.0),
    "q-name": Behaviour(missing="the XLA compiler", missing_share=0.4),
    **{f"q-fill-{n}": Behaviour(difficulty=-1.2 + 0.3 * n) for n in range(8)},
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BankStats]:
    root = tmp_path_factory.mktemp("planted")
    from conftest import LESSON, PLAN

    for name, text in {"content/test-plan/index.md": PLAN, "content/test-plan/lesson-one.md": LESSON,
                       "quizzes/lesson-one.yml": PLANTED_BANK, "mkdocs.yml": "site_name: T\n"}.items():  # fmt: skip
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    bank = load_bank(root / "quizzes" / "lesson-one.yml")
    write_class(root / "class", simulate(bank, 200, seed=11, behaviours=PLANTED))
    from lessonkit.results.banks import find_bank

    info = find_bank(str(root / "quizzes" / "lesson-one.yml"))
    (stats,) = collect([root / "class"], bank=str(root / "quizzes" / "lesson-one.yml")).banks
    assert stats.path == info.path
    return root, stats


def kinds(stats: BankStats, qid: str) -> set[str]:
    return {f.kind for f in stats.versions[0].flags if f.question == qid}


def test_a_planted_bad_key_is_flagged(planted: tuple[Path, BankStats]) -> None:
    found = kinds(planted[1], "q-bad-key")
    assert {"distractor-beats-key", "negative-discrimination"} <= found
    (flag,) = [f for f in planted[1].versions[0].flags if f.kind == "distractor-beats-key"]
    assert (
        "option 3 (“another slip of q-bad-key”) more often than the key, option 1" in flag.message
    )


def test_a_planted_dead_distractor_is_flagged(planted: tuple[Path, BankStats]) -> None:
    assert kinds(planted[1], "q-dead") == {"dead-distractor"}
    (flag,) = [f for f in planted[1].versions[0].flags if f.question == "q-dead"]
    assert flag.message.startswith("option 4 (“an old myth of q-dead”) was chosen by no one of 200")


def test_a_planted_give_away_is_flagged_too_easy(planted: tuple[Path, BankStats]) -> None:
    assert "too-easy" in kinds(planted[1], "q-easy")


def test_a_missing_accepted_text_answer_is_flagged(planted: tuple[Path, BankStats]) -> None:
    (flag,) = [f for f in planted[1].versions[0].flags if f.question == "q-name"]
    assert flag.kind == "common-wrong-answer"
    assert (
        "answered “the xla compiler”, marked wrong: if it is right, add it to `accept`"
        in flag.message
    )


def test_the_good_question_is_not_flagged(planted: tuple[Path, BankStats]) -> None:
    assert kinds(planted[1], "q-good") == set()
    good = next(q for q in planted[1].versions[0].questions if q.id == "q-good")
    assert good.discrimination is not None and good.discrimination > 0.3


def test_each_flag_names_the_question_s_line(planted: tuple[Path, BankStats]) -> None:
    root, stats = planted
    lines = (root / "quizzes" / "lesson-one.yml").read_text(encoding="utf-8").splitlines()
    for flag in stats.versions[0].flags:
        assert lines[flag.line - 1] == f"  - id: {flag.question}", str(flag)
        assert str(flag).startswith(f"{flag.path}:{flag.line}: {flag.question}: ")


def test_a_class_with_no_finished_attempt_says_so(six: Path) -> None:
    keys = keys_of(six)
    answers = [SharedAnswer("q1", keys["q1"], 1, 1.0, 1.0, T0, 4.0, 0, None)]
    attempt = SharedAttempt(
        "lesson-one", bank_version(keys), ["q1", "q2", "q3", "q4"], T0, None, answers
    )
    (six / "one.jsonl").write_text(
        "".join(f"{line}\n" for line in file_lines("l-00000000000000aa", [attempt], exported=T0))
    )
    found = collect([six / "one.jsonl"])
    text = render_text(found.banks, files=found.files)
    assert "  1 learner, 1 attempt.\n" in text
    assert "  No finished attempt yet: statistics need learners who finished the quiz.\n" in text
    assert text.endswith("Flags: none.\n")
