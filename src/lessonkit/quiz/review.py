"""`lessonkit review [SLUG]`: ask again what was missed or is due, bank by bank, and tally it.

Scheduling is ``lessonkit.grading.schedule`` (FSRS); asking is the quiz's own loop and
UI (``runner``), so review answers are saved, undone and refused exactly as quiz answers are.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from lessonkit.course import catalog
from lessonkit.course.invocation import program
from lessonkit.history.tables import open_store, shown_time
from lessonkit.quiz.recorder import Clock

if TYPE_CHECKING:
    from lessonkit.grading.credit import Grade, Response
    from lessonkit.grading.schedule import CardKey, ReviewCard
    from lessonkit.history.store import Store
    from lessonkit.quiz.plainui import PlainUi
    from lessonkit.quiz.session import Attempt, Numbers


def _utcnow() -> datetime:
    return datetime.now(UTC)


def load_cards(store: Store) -> dict[CardKey, ReviewCard]:
    """Every card, brought up to date with the answers recorded since the last look."""
    from lessonkit.grading import schedule

    texts = store.sync_cards(schedule.apply_answers)
    return {key: card for key, text in texts.items() if (card := schedule.parse(text)) is not None}


def review_command(
    slug: str | None,
    *,
    data_dir: Path | None = None,
    no_color: bool = False,
    seed: int | None = None,
    pause: bool = True,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    clock: Clock = _utcnow,
    zone: tzinfo | None = None,
) -> int:
    """`lessonkit review [SLUG]`: ask again what was missed or is due, bank by bank."""
    from lessonkit.quiz.terminal import make_ui

    ui = make_ui(stdin or sys.stdin, stdout or sys.stdout, no_color=no_color, pause=pause)
    store = open_store(data_dir, ui.say)
    try:
        cache = data_dir / "cache" if data_dir else None  # as `lessonkit quiz` does
        return _review(ui, store, slug, seed=seed, clock=clock, zone=zone, cache=cache)
    except KeyboardInterrupt:
        ui.say()
        ui.say("Stopped. Every answer you gave is kept.")
        return 130
    finally:
        store.close()


@dataclass
class _Due:
    compiled: catalog.Compiled
    keys: dict[str, str]  # question id -> hash of its current answer key
    due: list[str]
    cards: dict[str, ReviewCard]


def _review(
    ui: PlainUi, store: Store, slug: str | None, *, seed: int | None, clock: Clock,
    zone: tzinfo | None, cache: Path | None,
) -> int:  # fmt: skip

    now = clock()
    if slug is not None:
        slugs = [catalog.find(slug, cache_dir=cache).slug]  # unknown: UsageError, "did you mean"
    else:
        taken = {a.bank for a in store.attempts()}
        slugs = [s for s in catalog.slugs() if s in taken]
    cards = load_cards(store)
    banks = [_due(ui, store, catalog.find(s, cache_dir=cache), cards, now) for s in slugs]
    total = sum(len(b.due) for b in banks)
    if total == 0:
        ui.say(_nothing_due(banks, zone))
        return 0
    ui.say(f"{total} question{'s' if total != 1 else ''} to review: missed ones first, then due.")
    chosen = seed if seed is not None else _new_seed()
    answered = right = 0
    for bank in banks:
        if not bank.due:
            continue
        outcome, attempt = _ask(ui, store, bank, chosen, clock)
        answered += len(attempt.marks)
        right += sum(mark.correct for mark in attempt.marks.values())
        if outcome == "unsaved":  # the recorder has said where the answers were written
            return 1
        if outcome == "quit":
            ui.say(f"Stopped. Your answers so far are kept; `{program()} review` goes on later.")
            return 0
    after = load_cards(store)
    ui.say()
    later = _next_review([_due(ui, store, b.compiled, after, clock()) for b in banks], zone)
    ui.say(f"Review done: {answered} answered, {right} right. {later}")
    return 0


def _due(ui: PlainUi, store: Store, compiled: catalog.Compiled,
         cards: Mapping[CardKey, ReviewCard], now: datetime) -> _Due:  # fmt: skip
    from lessonkit.grading import schedule

    slug = compiled.slug
    ids = list(compiled.bank.ids)
    keys = dict(compiled.keys)
    for notice in store.take_key_change_notices(slug, keys, shown=now):
        ui.notice(notice)
    mine = schedule.bank_cards(cards, slug, keys)
    return _Due(compiled, keys, schedule.due_questions(mine, ids, now), mine)


def _ask(
    ui: PlainUi, store: Store, bank: _Due, seed: int, clock: Clock
) -> tuple[Literal["done", "quit", "unsaved"], Attempt]:
    """Ask one bank's due questions, saving each answer as it is given."""
    from lessonkit.questiontypes import registry
    from lessonkit.quiz.loop import ask_questions
    from lessonkit.quiz.recorder import Pending, Recorder, TakeBack

    slug, count = bank.compiled.slug, len(bank.due)
    ui.say()
    ui.say(f"Review: {bank.compiled.bank['title']}, {count} question{'s' if count != 1 else ''}")
    started = clock()

    def begin() -> int:
        return store.begin_attempt(
            bank=slug, seed=seed, order=bank.due, started=started, kind="review"
        )

    # The quiz's recorder: a refused save is retried, then kept in a recovery file.
    recorder = Recorder(store, ui, slug, begin, None, resume=f"{program()} review {slug}")

    attempt = review_attempt(bank.compiled, bank.due, seed=seed, now=started,
                             avoid=seen_numbers(store, bank.compiled))  # fmt: skip

    def commit(question_id: str, response: Response, grade: Grade) -> None:
        recorder.add(
            Pending(
                question_id, bank.keys[question_id],
                registry.to_json(attempt.question(question_id), response),
                grade.score, grade.max_score, grade.correct, clock(),
                attempt.plan.numbers.get(question_id),
            )
        )  # fmt: skip

    try:
        ask_questions(
            bank.compiled, attempt, on_answer=commit, ui=ui,
            on_undo=lambda question_id: recorder.add(TakeBack(question_id, clock())),
        )  # fmt: skip
    finally:
        saved = recorder.settle(clock)
    if not saved:
        return "unsaved", attempt
    if recorder.attempt_id is not None and attempt.finished:
        store.finish_attempt(recorder.attempt_id, finished=clock())
    return ("done" if attempt.finished else "quit"), attempt


def seen_numbers(store: Store, compiled: catalog.Compiled) -> dict[str, list[dict[str, Any]]]:
    """The numbers each parameterised question was answered with before, latest last.

    An answer given before the question drew numbers counts as its `numbers_before`.
    """
    bank = compiled.bank
    drawn = set(bank.drawn)  # each question read only if it was answered
    seen: dict[str, list[dict[str, Any]]] = {}
    for question_id, row in store.drawn_answers(compiled.slug):
        if question_id not in drawn:
            continue
        numbers = row.params
        if numbers is None:
            numbers = getattr(bank.question(question_id), "numbers_before", None)
        if numbers:
            seen.setdefault(question_id, []).append(dict(numbers))
    return seen


def review_attempt(
    compiled: catalog.Compiled,
    question_ids: Sequence[str],
    *,
    seed: int,
    now: datetime,
    avoid: Mapping[str, Sequence[Numbers]] | None = None,
) -> Attempt:
    """An attempt asking some of a bank's questions in the given order (`lessonkit review`).

    Options are shuffled by ``seed``; parameterised questions draw numbers unlike those in
    ``avoid`` when they can, so that a review never repeats numbers a learner remembers.
    """
    from lessonkit.quiz import session

    planned = session.plan(compiled.bank, seed, question_ids, avoid=avoid)
    asked = set(question_ids)  # once, not per question of the bank
    wanted = tuple(q for q in planned.order if q in asked)
    plan = session.Plan(seed, wanted, planned.displays, planned.numbers)
    return session.Attempt(compiled.slug, compiled.bank, plan, now)


def _nothing_due(banks: Sequence[_Due], zone: tzinfo | None) -> str:
    if not any(b.cards for b in banks):
        return f"Nothing to review yet: answer a quiz first (`{program()} quiz SLUG`)."
    return "Nothing to review now. " + _next_review(banks, zone)


def _next_review(banks: Sequence[_Due], zone: tzinfo | None) -> str:
    from lessonkit.grading import schedule

    soonest = [(when, b.compiled.slug) for b in banks if (when := schedule.next_due(b.cards))]
    if not soonest:
        return "Nothing is scheduled."
    when, slug = min(soonest)
    return f"Next review due {shown_time(when, zone)} ({slug})."


def _new_seed() -> int:
    import random

    return random.SystemRandom().randrange(100_000, 1_000_000)
