"""Attempts as values: reproducible shuffles from a seed, resuming, grading, the summary."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from lessonkit.quiz import session, summary
from lessonkit.quiz.session import Mark

NOW = datetime(2026, 11, 22, 9, 30, tzinfo=UTC)
BASE = {"prompt": "P?", "explanation": "E.", "points": 1.0}


def q(qid: str, kind: str, insight: int, section: str, **fields: Any) -> dict[str, Any]:
    return {"id": qid, "type": kind, "insight": insight, "section": section, **BASE, **fields}


OPTIONS = [{"text": t, "correct": t == "a"} for t in "abcde"]
BANK: dict[str, Any] = {
    "lesson": "lesson-one",
    "title": "Quiz",
    "pass_mark": 0.7,
    "shuffle": {"questions": True, "options": True},
    "questions": [
        q("q-single", "single", 1, "one", options=OPTIONS),
        q("q-multi", "multiple", 1, "one", options=OPTIONS, points=2.0),
        q("q-tf", "true_false", 2, "two", answer=True),
        q("q-order", "order", 2, "two", items=["w", "x", "y", "z"]),
        q(
            "q-match",
            "match",
            2,
            "missing-anchor",
            pairs=[{"left": "l1", "right": "r1"}, {"left": "l2", "right": "r2"}],
            distractors=["r3"],
        ),
    ],
}
LESSON = {
    "title": "Lesson one",
    "url": "https://example.org/p/lesson-one/",
    "insights": ["First idea", "Second idea"],
    "sections": {
        "one": {"title": "One", "url": "https://example.org/p/lesson-one/#one"},
        "two": {"title": "Two", "url": "https://example.org/p/lesson-one/#two"},
    },
}


def test_plan_is_a_golden_value_for_a_seed() -> None:
    plan = session.plan(BANK, 42)
    assert plan.seed == 42
    assert plan.order == ("q-order", "q-multi", "q-tf", "q-match", "q-single")
    assert dict(plan.displays) == {
        "q-single": (4, 1, 3, 0, 2),
        "q-multi": (0, 3, 1, 2, 4),
        "q-tf": (),
        "q-order": (2, 3, 1, 0),
        "q-match": (2, 1, 0),
    }


def test_same_seed_same_plan_other_seed_other_plan() -> None:
    assert session.plan(BANK, 7) == session.plan(BANK, 7)
    assert session.plan(BANK, 7).order != session.plan(BANK, 8).order


def test_order_items_are_never_shown_in_their_correct_order() -> None:
    two = {**BANK, "questions": [q("o", "order", 1, "one", items=["a", "b"])]}
    for seed in range(50):
        assert session.plan(two, seed).displays["o"] == (1, 0)


def test_match_answers_are_never_shown_in_their_written_order() -> None:
    # Seed 3 showed a learner the right-hand items as written, so `1a 2b 3c` was right.
    pairs = [{"left": f"l{n}", "right": f"r{n}"} for n in range(3)]
    bare = q("m", "match", 1, "one", pairs=pairs[:2], distractors=[])
    three = q("m3", "match", 1, "one", pairs=pairs, distractors=["x"])
    bank = {**BANK, "questions": [bare, three]}
    for seed in range(200):
        plan = session.plan(bank, seed)
        assert plan.displays["m"] == (1, 0)
        assert plan.displays["m3"][:3] != (0, 1, 2)
        assert sorted(plan.displays["m3"]) == [0, 1, 2, 3]
        assert session.plan(bank, seed) == plan  # still reproducible from the seed
    pinned = {**bank, "questions": [{**bare, "shuffle": False}, {**three, "shuffle": False}]}
    assert session.plan(pinned, 3).displays == {"m": (0, 1), "m3": (0, 1, 2, 3)}


def test_shuffle_can_be_switched_off_but_order_items_still_move() -> None:
    still = {**BANK, "shuffle": {"questions": False, "options": False}}
    plan = session.plan(still, 42)
    assert plan.order == tuple(x["id"] for x in BANK["questions"])
    assert plan.displays["q-single"] == (0, 1, 2, 3, 4)
    assert plan.displays["q-match"] == (0, 1, 2)
    assert plan.displays["q-order"] != (0, 1, 2, 3)


def test_resume_keeps_recorded_order_and_displays() -> None:
    first = session.start("lesson-one", BANK, 42, NOW)
    marks = {"q-multi": Mark([0], 2.0, 2.0, True), "gone": Mark(1, 1.0, 1.0, True)}
    again = session.resume(
        "lesson-one", BANK, seed=42, order=["q-tf", "gone", "q-multi"], started=NOW, marks=marks
    )
    # Recorded order first (ids no longer in the bank dropped), new questions after.
    assert again.plan.order == ("q-tf", "q-multi", "q-single", "q-order", "q-match")
    assert again.plan.displays == first.plan.displays
    assert again.marks == {"q-multi": marks["q-multi"]}
    assert again.remaining() == ["q-tf", "q-single", "q-order", "q-match"]
    assert again.number("q-single") == 3


def test_record_refuses_a_question_outside_the_attempt() -> None:
    attempt = session.start("lesson-one", BANK, 1, NOW)
    with pytest.raises(KeyError):
        attempt.record("nope", Mark(0, 0.0, 1.0, False))


def test_summary_scores_insights_and_missed_sections() -> None:
    attempt = session.start("lesson-one", BANK, 42, NOW)
    attempt.record("q-single", Mark(0, 1.0, 1.0, True))
    attempt.record("q-multi", Mark([0, 1], 0.0, 2.0, False))
    attempt.record("q-tf", Mark(True, 1.0, 1.0, True))
    attempt.record("q-order", Mark([0, 1, 3, 2], 1 / 3, 1.0, False))
    # q-match left unanswered: it counts 0 and is missed.
    result = summary.summarise(attempt, LESSON)
    assert (result.score, result.max_score, result.pass_mark, result.passed) == (
        pytest.approx(7 / 3),
        6.0,
        0.7,
        False,
    )
    assert [(i.number, i.text, i.score, i.max_score, i.questions) for i in result.insights] == [
        (1, "First idea", 1.0, 3.0, 2),
        (2, "Second idea", pytest.approx(4 / 3), 3.0, 3),
    ]
    assert [(m.question_id, m.number, str(m.section), m.section.url) for m in result.missed] == [
        ("q-order", 1, "Lesson one \u203a Two", "https://example.org/p/lesson-one/#two"),
        ("q-multi", 2, "Lesson one \u203a One", "https://example.org/p/lesson-one/#one"),
        # An anchor the lesson lacks still points at the lesson page.
        ("q-match", 4, "Lesson one \u203a missing-anchor", "https://example.org/p/lesson-one/"),
    ]


@pytest.mark.parametrize(("earned", "passed"), [(4.2, True), (4.19, False), (6.0, True)])
def test_pass_mark_boundary(earned: float, passed: bool) -> None:
    attempt = session.start("lesson-one", BANK, 42, NOW)
    attempt.record("q-multi", Mark([0], earned, 6.0, earned == 6.0))
    # 0.7 of 6 is 4.2 exactly on paper, 4.199999... in binary: on the mark passes.
    assert summary.summarise(attempt, LESSON).passed is passed


def test_summary_without_a_lesson_names_the_bank() -> None:
    attempt = session.start("lesson-one", BANK, 42, NOW)
    result = summary.summarise(attempt, None)
    assert str(result.missed[0].section) == "Quiz \u203a two"
    assert result.insights[0].text == "Insight 1"


def test_grade_all_uses_bank_order() -> None:
    attempt = session.grade_all("lesson-one", BANK, {"q-order": (0, 1, 2, 3), "q-single": 1})
    assert attempt.plan.order == tuple(x["id"] for x in BANK["questions"])
    assert attempt.marks == {
        "q-order": Mark([0, 1, 2, 3], 1.0, 1.0, True),
        "q-single": Mark(1, 0.0, 1.0, False),
    }


def key_hashes(bank: dict[str, Any]) -> dict[str, str]:
    grading = session.Grading(bank)
    return {str(q["id"]): grading.key_hash(str(q["id"])) for q in bank["questions"]}


def test_key_hashes_differ_by_question_and_follow_only_a_changed_key() -> None:
    hashes = key_hashes(BANK)
    assert len(set(hashes.values())) == len(hashes) == 5
    # Only a changed key changes: history tells the learner about that question alone.
    flipped = {
        **BANK,
        "questions": [
            *BANK["questions"][:2],
            q("q-tf", "true_false", 2, "two", answer=False),
            *BANK["questions"][3:],
        ],
    }
    again = key_hashes(flipped)
    assert [qid for qid in hashes if hashes[qid] != again[qid]] == ["q-tf"]


def test_known_key_hashes_are_used_as_given() -> None:
    """A compiled bank carries its hashes, so a quiz compares them without pydantic."""
    grading = session.Grading(BANK, {"q-tf": "hash-from-the-cache"})
    assert grading.key_hash("q-tf") == "hash-from-the-cache"


def test_a_question_pins_or_shuffles_its_own_options_whatever_the_bank_says() -> None:
    pinned = {
        **BANK,
        "questions": [
            {**BANK["questions"][0], "shuffle": False},
            *BANK["questions"][1:4],
            {**BANK["questions"][4], "shuffle": False},
        ],
    }
    plan = session.plan(pinned, 42)
    assert plan.displays["q-single"] == (0, 1, 2, 3, 4)
    assert plan.displays["q-match"] == (0, 1, 2)
    assert plan.displays["q-multi"] != (0, 1, 2, 3, 4)  # unset follows the bank: shuffled
    still = {
        **BANK,
        "shuffle": {"questions": False, "options": False},
        "questions": [{**BANK["questions"][0], "shuffle": True}, *BANK["questions"][1:]],
    }
    plan = session.plan(still, 42)
    assert plan.displays["q-single"] != (0, 1, 2, 3, 4)
    assert plan.displays["q-multi"] == (0, 1, 2, 3, 4)
