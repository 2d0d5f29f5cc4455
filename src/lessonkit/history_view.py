"""The `history`, `list` and `review` commands: the learner's record, shown and reviewed.

Tables are plain aligned text when stdout is not a terminal or NO_COLOR is set
(screen readers, scripts, tests), and rich tables otherwise. A result is always
said in words and a symbol, never by colour alone. Questions are asked through
the quiz runner; this module only chooses what to ask and records the answers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal

from lessonkit import catalog
from lessonkit.errors import UsageError
from lessonkit.recorder import Clock
from lessonkit.store import AttemptSummary, Store

if TYPE_CHECKING:
    from lessonkit.course import Course
    from lessonkit.grader import Grade, Response
    from lessonkit.review import ReviewCard
    from lessonkit.runner import PlainUi
    from lessonkit.store import CardKey

TICK, CROSS = "\u2713", "\u2717"


@dataclass(frozen=True)
class Table:
    """What to show: a title, column headers and rows of text."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]


# --- formatting ------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:g}"


def _score(score: float, max_score: float) -> str:
    share = f" ({score / max_score:.0%})" if max_score > 0 else ""
    return f"{_num(score)}/{_num(max_score)}{share}"


def _duration(span: timedelta | None) -> str:
    if span is None:
        return "-"
    seconds = max(0, round(span.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h {rest // 60:02d}m" if hours else f"{rest // 60}m {rest % 60:02d}s"


def _when(moment: datetime, zone: tzinfo | None) -> str:
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def _result(attempt: AttemptSummary) -> str:
    if attempt.kind == "review":
        return f"review, {attempt.answered} asked"
    if attempt.finished is None:
        state = "set aside" if attempt.abandoned else "unfinished"
        return f"{state}, {attempt.answered} of {attempt.questions} answered"
    if attempt.passed is None:
        return "finished"
    return f"{TICK} passed" if attempt.passed else f"{CROSS} not passed"


# --- tables ----------------------------------------------------------------------


def history_table(attempts: Sequence[AttemptSummary], zone: tzinfo | None = None) -> Table:
    """`lessonkit history`: one row per attempt, oldest first, times in the local zone."""
    rows = [
        (
            _when(a.started, zone),
            a.bank,
            _score(a.score, a.max_score),
            _result(a),
            _duration(a.duration),
        )
        for a in attempts
    ]
    return Table("History", ("Started", "Quiz", "Score", "Result", "Duration"), rows)


def list_table(course: Course, best: Mapping[str, AttemptSummary]) -> Table:
    """`lessonkit list`: each plan's lessons in reading order, with the learner's best score."""
    rows: list[tuple[str, ...]] = []
    for plan in course.plans.values():
        shown = plan.meta.title
        for slug in plan.meta.lessons:
            page = course.lessons.get(slug)
            if page is None:
                continue
            quiz = page.meta.quiz
            bank = course.banks.get(quiz)
            count = str(len(bank.questions)) if bank else "-"
            top = best.get(quiz)
            rows.append((shown, page.meta.title, quiz, count, _best(top)))
            shown = ""  # the plan's name once, above its lessons
    return Table("Lessons", ("Plan", "Lesson", "Quiz", "Questions", "Best score"), rows)


def _best(top: AttemptSummary | None) -> str:
    if top is None:
        return "not taken yet"
    mark = "" if top.passed is None else f" {TICK} passed" if top.passed else f" {CROSS}"
    return _score(top.score, top.max_score) + mark


def render(table: Table, out: IO[str], *, color: bool) -> None:
    """Print a table: rich on a colour terminal, aligned plain text otherwise."""
    if color:
        from rich import box
        from rich.console import Console
        from rich.table import Table as RichTable

        shown = RichTable(*table.headers, title=table.title, box=box.SIMPLE_HEAD)
        for row in table.rows:
            shown.add_row(*row)
        Console(file=out, highlight=False).print(shown)
        return
    widths = [
        max(len(c) for c in column) for column in zip(table.headers, *table.rows, strict=True)
    ]
    out.write(table.title + "\n")
    for row in (table.headers, *table.rows):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")


def use_color(out: IO[str], no_color: bool) -> bool:
    """Rich output only on a terminal, and never with --no-color or NO_COLOR."""
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


# --- commands --------------------------------------------------------------------


def _open(data_dir: Path | None, say: Callable[[str], object]) -> Store:
    store, notices = Store.open(data_dir)
    for notice in notices:
        say(f"Note: {notice}")
    return store


def history_command(
    slug: str | None,
    *,
    data_dir: Path | None = None,
    no_color: bool = False,
    stdout: IO[str] | None = None,
    zone: tzinfo | None = None,
) -> int:
    """`lessonkit history [SLUG]`: attempts with date, score, pass or fail, duration."""
    out = stdout or sys.stdout
    store = _open(data_dir, lambda text: out.write(text + "\n"))
    try:
        attempts = store.attempts(slug)
    finally:
        store.close()
    if not attempts:
        if slug is not None:
            cache = data_dir / "cache" if data_dir else None
            catalog.find(slug, cache_dir=cache)  # an unknown slug: UsageError, "did you mean"
        what = f"at {slug} " if slug else ""
        out.write(f"No attempts {what}yet. Take a quiz with `lessonkit quiz {slug or 'SLUG'}`.\n")
        return 0
    render(history_table(attempts, zone), out, color=use_color(out, no_color))
    return 0


def list_command(
    *, data_dir: Path | None = None, no_color: bool = False, stdout: IO[str] | None = None
) -> int:
    """`lessonkit list`: learning plans, lessons, question counts and best scores."""
    from lessonkit.course import read_course

    out = stdout or sys.stdout
    root = next((r for r in catalog.roots(Path.cwd().resolve()) if (r / "content").is_dir()), None)
    if root is None:
        raise UsageError("no course found: run this inside a course folder, or install one")
    course = read_course(root)  # list what loads; `lessonkit validate` reports the rest
    store = _open(data_dir, lambda text: out.write(text + "\n"))
    try:
        best = store.best_scores()
    finally:
        store.close()
    render(list_table(course, best), out, color=use_color(out, no_color))
    return 0


def _utcnow() -> datetime:
    return datetime.now(UTC)


def review_command(
    slug: str | None,
    *,
    data_dir: Path | None = None,
    no_color: bool = False,
    seed: int | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    clock: Clock = _utcnow,
    zone: tzinfo | None = None,
) -> int:
    """`lessonkit review [SLUG]`: ask again what was missed or is due, bank by bank."""
    from lessonkit.runner import make_ui

    ui = make_ui(stdin or sys.stdin, stdout or sys.stdout, no_color=no_color)
    store = _open(data_dir, ui.say)
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
    from lessonkit import review

    now = clock()
    if slug is not None:
        slugs = [catalog.find(slug, cache_dir=cache).slug]  # unknown: UsageError, "did you mean"
    else:
        taken = {a.bank for a in store.attempts()}
        slugs = [s for s in catalog.slugs() if s in taken]
    cards = review.load_cards(store)
    banks = [_due(ui, store, catalog.find(s, cache_dir=cache), cards, now) for s in slugs]
    total = sum(len(b.due) for b in banks)
    if total == 0:
        ui.say(_nothing_due(banks, zone))
        return 0
    ui.say(f"{total} question{'s' if total != 1 else ''} to review: missed ones first, then due.")
    chosen = seed if seed is not None else _new_seed()
    for bank in banks:
        if not bank.due:
            continue
        outcome = _ask(ui, store, bank, chosen, clock)
        if outcome == "unsaved":  # the recorder has said where the answers were written
            return 1
        if outcome == "quit":
            ui.say("Stopped. Your answers so far are kept; `lessonkit review` goes on later.")
            return 0
    after = review.load_cards(store)
    ui.say()
    ui.say("Review done. " + _next_review([_due(ui, store, b.compiled, after, clock())
                                             for b in banks], zone))  # fmt: skip
    return 0


def _due(ui: PlainUi, store: Store, compiled: catalog.Compiled,
         cards: Mapping[CardKey, ReviewCard], now: datetime) -> _Due:  # fmt: skip
    from lessonkit import review

    slug = compiled.slug
    ids = [str(q["id"]) for q in compiled.bank["questions"]]
    keys = dict(compiled.keys)
    for notice in store.take_key_change_notices(slug, keys, shown=now):
        ui.notice(notice)
    mine = review.bank_cards(cards, slug, keys)
    return _Due(compiled, keys, review.due_questions(mine, ids, now), mine)


def _ask(
    ui: PlainUi, store: Store, bank: _Due, seed: int, clock: Clock
) -> Literal["done", "quit", "unsaved"]:
    """Ask one bank's due questions, saving each answer as it is given."""
    from lessonkit import responses
    from lessonkit.recorder import Pending, Recorder
    from lessonkit.runner import ask_questions

    slug, count = bank.compiled.slug, len(bank.due)
    ui.say()
    ui.say(f"Review: {bank.compiled.bank['title']}, {count} question{'s' if count != 1 else ''}")
    started = clock()

    def begin() -> int:
        return store.begin_attempt(
            bank=slug, seed=seed, order=bank.due, started=started, kind="review"
        )

    # The quiz's recorder: a refused save is retried, then kept in a recovery file.
    recorder = Recorder(store, ui, slug, begin, None, resume=f"lessonkit review {slug}")

    def commit(question_id: str, response: Response, grade: Grade) -> None:
        recorder.add(
            Pending(
                question_id, bank.keys[question_id], responses.to_json(response),
                grade.score, grade.max_score, grade.correct, clock(),
            )
        )  # fmt: skip

    try:
        attempt = ask_questions(
            bank.compiled, bank.due, seed=seed, on_answer=commit, ui=ui, now=started
        )
    finally:
        saved = recorder.settle(clock)
    if not saved:
        return "unsaved"
    if recorder.attempt_id is not None and attempt.finished:
        store.finish_attempt(recorder.attempt_id, finished=clock())
    return "done" if attempt.finished else "quit"


def _nothing_due(banks: Sequence[_Due], zone: tzinfo | None) -> str:
    if not any(b.cards for b in banks):
        return "Nothing to review yet: answer a quiz first (`lessonkit quiz SLUG`)."
    return "Nothing to review now. " + _next_review(banks, zone)


def _next_review(banks: Sequence[_Due], zone: tzinfo | None) -> str:
    from lessonkit import review

    soonest = [(when, b.compiled.slug) for b in banks if (when := review.next_due(b.cards))]
    if not soonest:
        return "Nothing is scheduled."
    when, slug = min(soonest)
    return f"Next review due {_when(when, zone)} ({slug})."


def _new_seed() -> int:
    import random

    return random.SystemRandom().randrange(100_000, 1_000_000)
