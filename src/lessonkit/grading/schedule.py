"""Spaced-repetition review: which questions are missed or due, scheduled with FSRS.

Each answer is turned into an FSRS rating and folded into that question's card:

- wrong (no points) → ``Again``: see it again within minutes;
- partly right (some points, not all) → ``Hard``;
- right → ``Good``.

``Easy`` is never given: a quiz answer cannot tell "knew it cold" from "got it".
Anything not fully right is also flagged *missed* and comes back at the very next
review, whatever its due date; FSRS spaces the rest out over days.
Cards are keyed by bank, question id and the hash of the answer key, so when an
author changes a key the old card stops counting and the question starts afresh.
Time is always an argument; nothing here reads the clock or draws random numbers.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from fsrs import Card, Rating, Scheduler

CardKey = tuple[str, str, str]  # bank, question id, key hash


class Answer(Protocol):
    """What scheduling needs of a recorded answer (the history's ``AnswerEvent`` has it)."""

    @property
    def bank(self) -> str: ...
    @property
    def question_id(self) -> str: ...
    @property
    def key_hash(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def max_score(self) -> float: ...
    @property
    def correct(self) -> bool: ...
    @property
    def answered(self) -> datetime: ...


# No learning steps: those are minute-long flashcard drills, which here would re-ask a
# whole quiz ten minutes after the learner passed it. A miss is re-asked at once through
# `ReviewCard.missed` instead, and FSRS spaces everything else over days.
# No fuzz: it draws from `random`; without it the same answers give the same due dates.
SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


@dataclass(frozen=True)
class ReviewCard:
    """A question's FSRS card, and whether the latest answer to it was not fully right."""

    card: Card
    missed: bool

    def to_json(self) -> str:
        return json.dumps({"card": self.card.to_dict(), "missed": self.missed}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ReviewCard:
        data = json.loads(text)
        return cls(card=Card.from_dict(data["card"]), missed=bool(data["missed"]))


def rating_for(*, score: float, max_score: float, correct: bool) -> Rating:
    """The FSRS rating for one graded answer (see the module docstring)."""
    if correct or (max_score > 0 and score >= max_score):
        return Rating.Good
    if score > 0:
        return Rating.Hard
    return Rating.Again


def new_card(key: CardKey, first_seen: datetime) -> Card:
    """A card never reviewed, with an id derived from its key (not from the clock)."""
    return Card(card_id=zlib.crc32("\0".join(key).encode()), due=_utc(first_seen))


def advance(held: ReviewCard | None, key: CardKey, *, rating: Rating, at: datetime) -> ReviewCard:
    """The card after one more answer rated `rating` at time `at`."""
    card = held.card if held else new_card(key, at)
    when = _utc(at)
    if card.last_review is not None and when < card.last_review:
        when = card.last_review  # another terminal's clock ran behind: never go backwards
    card, _log = SCHEDULER.review_card(card, rating, review_datetime=when)
    # Partly right counts as missed, as the quiz summary lists it under "Missed".
    return ReviewCard(card=card, missed=rating != Rating.Good)


def apply_answers(cards: dict[CardKey, str], events: Sequence[Answer]) -> dict[CardKey, str]:
    """Fold answers, in the order given, into saved cards (JSON text in, JSON text out)."""
    held = {key: card for key, text in cards.items() if (card := parse(text)) is not None}
    for event in events:
        key = (event.bank, event.question_id, event.key_hash)
        rating = rating_for(score=event.score, max_score=event.max_score, correct=event.correct)
        held[key] = advance(held.get(key), key, rating=rating, at=event.answered)
    updated = dict(cards)
    updated.update({key: card.to_json() for key, card in held.items()})
    return updated


def bank_cards(
    cards: Mapping[CardKey, ReviewCard], bank: str, keys: Mapping[str, str]
) -> dict[str, ReviewCard]:
    """The cards of one bank that match its current answer keys, by question id."""
    return {
        qid: cards[(bank, qid, key_hash)]
        for qid, key_hash in keys.items()
        if (bank, qid, key_hash) in cards
    }


def due_questions(
    cards: Mapping[str, ReviewCard], bank_question_ids: Sequence[str], now: datetime
) -> list[str]:
    """Questions to review now: missed last time, then due, each group in bank order.

    Questions never answered have no card and are left for the quiz itself.
    """
    moment = _utc(now)
    missed = [q for q in bank_question_ids if q in cards and cards[q].missed]
    due = [
        q
        for q in bank_question_ids
        if q in cards and not cards[q].missed and cards[q].card.due <= moment
    ]
    return missed + due


def next_due(cards: Mapping[str, ReviewCard]) -> datetime | None:
    """When the earliest of these cards falls due, for "nothing to review until …"."""
    return min((c.card.due for c in cards.values()), default=None)


def parse(text: str) -> ReviewCard | None:
    # A card that cannot be read is rebuilt from later answers rather than stopping review.
    try:
        return ReviewCard.from_json(text)
    except (ValueError, KeyError, TypeError):
        return None


def _utc(moment: datetime) -> datetime:
    # fsrs insists on tzinfo being exactly datetime.UTC.
    return moment.astimezone(UTC)
