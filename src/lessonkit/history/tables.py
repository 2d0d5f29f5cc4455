"""The `history`, `list` and `review` commands: the learner's record, shown and reviewed.

Tables are plain aligned text when stdout is not a terminal or NO_COLOR is set
(screen readers, scripts, tests), and rich tables otherwise. A result is always
said in words and a symbol, never by colour alone. Questions are asked through
the quiz runner; this module only chooses what to ask and records the answers.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import IO, Any

from lessonkit.course import catalog, outline
from lessonkit.course.outline import Outline
from lessonkit.errors import UsageError
from lessonkit.history.store import AnswerRow, AttemptSummary, Store

TICK, CROSS = "\u2713", "\u2717"


@dataclass(frozen=True)
class Table:
    """What to show: a title, column headers and rows of text."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]


# --- formatting ------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")  # 20.3333 is `20.33`, 20.0 is `20`


def _score(score: float, max_score: float) -> str:
    share = f" ({score / max_score:.0%})" if max_score > 0 else ""
    return f"{_num(score)}/{_num(max_score)}{share}"


def _duration(span: timedelta | None) -> str:
    if span is None:
        return "-"
    seconds = max(0, round(span.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h {rest // 60:02d}m" if hours else f"{rest // 60}m {rest % 60:02d}s"


def shown_time(moment: datetime, zone: tzinfo | None) -> str:
    """A moment as the learner's history shows it, in ``zone`` (the local one by default)."""
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
            shown_time(a.started, zone),
            a.bank,
            _score(a.score, a.max_score),
            _result(a),
            _duration(a.duration),
        )
        for a in attempts
    ]
    return Table("History", ("Started", "Quiz", "Score", "Result", "Duration"), rows)


def list_table(outline: Outline, best: Mapping[str, AttemptSummary]) -> Table:
    """`lessonkit list`: each plan's lessons in reading order, with the learner's best score."""
    rows: list[tuple[str, ...]] = []
    for plan in outline.plans:
        shown = plan.title
        for lesson in plan.lessons:
            count = outline.questions.get(lesson.quiz)
            top = best.get(lesson.quiz)
            rows.append(
                (shown, lesson.title, lesson.quiz, "-" if count is None else str(count), _best(top))
            )
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


def read_store(data_dir: Path | None, say: Callable[[str], object]) -> Store | None:
    """The learner's history opened only to read it (None if there is none yet), after
    saying any notice about it."""
    store, notices = Store.read_only(data_dir)
    for notice in notices:
        say(f"Note: {notice}")
    return store


def open_store(data_dir: Path | None, say: Callable[[str], object]) -> Store:
    """The learner's history, after saying any notice about where it is kept."""
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
    attempts: list[AttemptSummary] = []
    drawn: list[tuple[str, AnswerRow]] = []
    store = read_store(data_dir, lambda text: out.write(text + "\n"))  # only reads
    if store is not None:
        try:
            attempts = store.attempts(slug)
            drawn = store.drawn_answers(slug) if slug else []
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
    if slug and drawn:
        cache = data_dir / "cache" if data_dir else None
        bank = catalog.find(slug, cache_dir=cache).bank
        out.writelines(line + "\n" for line in numbers_lines(bank, drawn, zone))
    return 0


NUMBERS_SHOWN = 10  # latest answers to parameterised questions listed under the table


def numbers_lines(
    bank: Mapping[str, Any], answers: Sequence[tuple[str, AnswerRow]], zone: tzinfo | None = None
) -> list[str]:
    """The numbers each answer to a parameterised question was given, latest last.

    An answer from before the question drew numbers shows the numbers it had then
    (its `numbers_before`), or says that they were fixed.
    """
    from lessonkit.bank import variants

    questions = {str(q["id"]): q for q in bank["questions"] if q.get("params")}
    entries: list[list[str]] = []
    for question_id, row in answers:
        question = questions.get(question_id)
        if question is None:
            continue
        drawn = row.params if row.params is not None else question.get("numbers_before")
        numbers = variants.shown_numbers(question, drawn) if drawn else "its numbers then"
        when = "" if row.params is not None else " (fixed, before it drew new numbers)"
        mark = (
            f"{TICK} right" if row.correct else f"{CROSS} {_num(row.score)}/{_num(row.max_score)}"
        )
        said = f"with {numbers}{when}; you answered {_said(question, drawn, row.response)}"
        wrapped = textwrap.wrap(said, 79, initial_indent="    ", subsequent_indent="      ",
                                break_long_words=False, break_on_hyphens=False)  # fmt: skip
        entries.append([f"  {shown_time(row.answered, zone)}  {question_id}  {mark}", *wrapped])
    if not entries:
        return []
    shown = entries[-NUMBERS_SHOWN:]
    title = "Numbers you were given" + (
        f" ({len(shown)} latest of {len(entries)})" if len(entries) > len(shown) else ""
    )
    return ["", title, *(line for entry in shown for line in entry)]


def _said(question: Mapping[str, Any], drawn: Mapping[str, Any] | None, response: Any) -> str:
    """A stored response in words: the number typed, or the option chosen as it read."""
    if question["type"] == "numeric" and isinstance(response, int | float):
        unit = question.get("unit")
        return f"{response:g}" + (f" {unit}" if unit else "")
    from lessonkit.bank import variants

    try:
        plain = variants.render(question, dict(drawn)) if drawn else question
        options = plain["options"]
        chosen = response if isinstance(response, list) else [response]
        return "; ".join(str(options[int(i)]["text"]) for i in chosen)
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError):
        return str(response)  # the bank changed since: what was stored


def list_command(
    *, data_dir: Path | None = None, no_color: bool = False, stdout: IO[str] | None = None
) -> int:
    """`lessonkit list`: learning plans, lessons, question counts and best scores."""
    out = stdout or sys.stdout
    root = next((r for r in catalog.roots(Path.cwd().resolve()) if (r / "content").is_dir()), None)
    if root is None:
        raise UsageError("no course found: run this inside a course folder, or install one")
    # List what loads; `lessonkit validate` reports the rest.
    course = outline.read(root, catalog.cache_folder(data_dir / "cache" if data_dir else None))
    best: dict[str, AttemptSummary] = {}
    store = read_store(data_dir, lambda text: out.write(text + "\n"))  # only reads
    if store is not None:
        try:
            best = store.best_scores()
        finally:
            store.close()
    render(list_table(course, best), out, color=use_color(out, no_color))
    return 0
