"""Tests for review scheduling: golden FSRS values at pinned times, and card upkeep in the store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Rating, State

from lessonkit.grading.schedule import (
    ReviewCard,
    advance,
    apply_answers,
    bank_cards,
    due_questions,
    next_due,
    rating_for,
)
from lessonkit.history.store import Store
from lessonkit.quiz.review import load_cards

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
KEY = ("gpu", "q1", "abc123")


@pytest.mark.parametrize(
    ("score", "max_score", "correct", "rating"),
    [
        (0.0, 1.0, False, Rating.Again),
        (0.5, 1.0, False, Rating.Hard),
        (1.0, 1.0, True, Rating.Good),
        (2.0, 2.0, False, Rating.Good),  # full points is right, whatever the flag says
        (0.0, 0.0, True, Rating.Good),
    ],
)
def test_grades_map_to_ratings(
    score: float, max_score: float, correct: bool, rating: Rating
) -> None:
    assert rating_for(score=score, max_score=max_score, correct=correct) == rating


def replay(*ratings: Rating) -> list[tuple[str, str, float, float, bool]]:
    """Answer each time the card falls due; what the card looks like after each answer."""
    card: ReviewCard | None = None
    when = T0
    seen = []
    for rating in ratings:
        card = advance(card, KEY, rating=rating, at=when)
        c = card.card
        assert c.stability is not None and c.difficulty is not None
        seen.append(
            (
                c.state.name,
                c.due.isoformat(),
                round(c.stability, 4),
                round(c.difficulty, 4),
                card.missed,
            )
        )
        when = c.due
    return seen


def test_right_every_time_spreads_out_over_weeks() -> None:
    assert replay(Rating.Good, Rating.Good, Rating.Good) == [
        ("Review", "2026-03-03T09:00:00+00:00", 2.3065, 2.1181, False),
        ("Review", "2026-03-14T09:00:00+00:00", 10.9643, 2.1112, False),
        ("Review", "2026-04-29T09:00:00+00:00", 46.2802, 2.1043, False),
    ]


def test_a_miss_is_flagged_and_comes_back_sooner() -> None:
    assert replay(Rating.Good, Rating.Again, Rating.Good) == [
        ("Review", "2026-03-03T09:00:00+00:00", 2.3065, 2.1181, False),
        ("Review", "2026-03-04T09:00:00+00:00", 0.6076, 7.3945, True),
        ("Review", "2026-03-06T09:00:00+00:00", 2.4004, 7.3823, False),
    ]


def test_partly_right_is_hard() -> None:
    assert replay(Rating.Hard, Rating.Good) == [
        ("Review", "2026-03-02T09:00:00+00:00", 1.2931, 5.1122, True),
        ("Review", "2026-03-07T09:00:00+00:00", 4.546, 5.1023, False),
    ]


def test_cards_are_deterministic_and_round_trip_through_json() -> None:
    one = advance(None, KEY, rating=Rating.Good, at=T0)
    two = advance(None, KEY, rating=Rating.Good, at=T0)
    assert one.to_json() == two.to_json()
    assert ReviewCard.from_json(one.to_json()).to_json() == one.to_json()
    assert one.card.card_id == advance(None, KEY, rating=Rating.Again, at=T0).card.card_id


def test_an_answer_timed_before_the_last_review_does_not_go_backwards() -> None:
    card = advance(None, KEY, rating=Rating.Good, at=T0)
    later = advance(card, KEY, rating=Rating.Good, at=T0 - timedelta(hours=1))
    assert later.card.last_review == T0


def test_times_in_other_zones_are_taken_as_utc() -> None:
    local = T0.astimezone(__import__("datetime").timezone(timedelta(hours=-5)))
    assert advance(None, KEY, rating=Rating.Good, at=local).card.last_review == T0


# -- choosing what to review ---------------------------------------------------


def card(rating: Rating, at: datetime = T0) -> ReviewCard:
    return advance(None, KEY, rating=rating, at=at)


def test_missed_first_then_due_each_in_bank_order() -> None:
    cards = {
        "q1": card(Rating.Good),  # due 3 March
        "q2": card(Rating.Again),  # missed
        "q3": card(Rating.Good, T0 + timedelta(days=5)),  # not due yet
        "q4": card(Rating.Good, T0 - timedelta(days=1)),  # due 2 March
        "q5": card(Rating.Hard),  # partly right: missed too
    }
    order = ["q5", "q4", "q3", "q2", "q1", "q6"]  # q6 was never answered
    assert due_questions(cards, order, T0 + timedelta(days=3)) == ["q5", "q2", "q4", "q1"]
    assert due_questions(cards, order, T0 + timedelta(hours=23)) == ["q5", "q2"]
    assert due_questions(cards, order, T0 + timedelta(days=1)) == ["q5", "q2", "q4"]
    assert due_questions(cards, [], T0 + timedelta(days=3)) == []
    assert next_due({k: cards[k] for k in ("q1", "q3")}) == datetime(2026, 3, 3, 9, tzinfo=UTC)
    assert next_due({}) is None


# -- cards kept in the store ---------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened, _ = Store.open(tmp_path, now=T0)
    yield opened
    opened.close()


def take(store: Store, answers: list[tuple[str, str, bool]], at: datetime) -> None:
    attempt = store.begin_attempt(bank="gpu", seed=1, order=[a[0] for a in answers], started=at)
    for qid, key_hash, right in answers:
        store.record_answer(
            attempt,
            question_id=qid,
            key_hash=key_hash,
            response=1,
            score=float(right),
            max_score=1.0,
            correct=right,
            answered=at,
        )
    store.finish_attempt(attempt, finished=at)


def test_answers_become_cards_in_the_store(store: Store) -> None:
    take(store, [("q1", "h1", True), ("q2", "h2", False)], T0)
    cards = bank_cards(load_cards(store), "gpu", {"q1": "h1", "q2": "h2", "q3": "h3"})
    assert due_questions(cards, ["q1", "q2", "q3"], T0 + timedelta(days=3)) == ["q2", "q1"]
    assert cards["q1"].card.state == State.Review
    assert store._read("SELECT value FROM meta WHERE name = 'cards_through'")[0][0] == "2"


def test_each_answer_is_folded_in_once(store: Store) -> None:
    take(store, [("q1", "h1", True)], T0)
    first = load_cards(store)
    assert load_cards(store) == first  # nothing new: nothing changes
    take(store, [("q1", "h1", True)], T0 + timedelta(days=2))
    stepwise = load_cards(store)[("gpu", "q1", "h1")]

    key = ("gpu", "q1", "h1")
    by_hand = advance(None, key, rating=Rating.Good, at=T0)
    by_hand = advance(by_hand, key, rating=Rating.Good, at=T0 + timedelta(days=2))
    assert stepwise.to_json() == by_hand.to_json()
    assert stepwise.card.due == datetime(2026, 3, 14, 9, tzinfo=UTC)
    assert apply_answers({key: "kept as is"}, []) == {key: "kept as is"}


def test_a_changed_answer_key_starts_the_question_afresh(store: Store) -> None:
    take(store, [("q1", "old", False)], T0)
    cards = load_cards(store)
    assert due_questions(bank_cards(cards, "gpu", {"q1": "old"}), ["q1"], T0) == ["q1"]
    assert bank_cards(cards, "gpu", {"q1": "new"}) == {}


def test_an_unreadable_saved_card_is_rebuilt_from_later_answers(store: Store) -> None:
    take(store, [("q1", "h1", False)], T0)
    load_cards(store)
    store._con.execute("UPDATE cards SET state = 'not json'")
    take(store, [("q1", "h1", True)], T0 + timedelta(days=1))
    rebuilt = load_cards(store)[("gpu", "q1", "h1")]
    fresh = advance(None, ("gpu", "q1", "h1"), rating=Rating.Good, at=T0 + timedelta(days=1))
    assert rebuilt.to_json() == fresh.to_json()
