"""The `history`, `list` and `review` commands: the learner's record, shown and reviewed.

Tables are plain aligned text when stdout is not a terminal or NO_COLOR is set
(screen readers, scripts, tests), and rich tables otherwise. A result is always
said in words and a symbol, never by colour alone. Questions are asked through
the quiz runner; this module only chooses what to ask and records the answers.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import IO, Any

from lessonkit.course import catalog, outline
from lessonkit.course.invocation import program
from lessonkit.course.outline import Outline
from lessonkit.errors import UsageError
from lessonkit.grading.passmark import percent
from lessonkit.history.rows import AnswerRow, AttemptSummary
from lessonkit.history.store import Store
from lessonkit.questiontypes.base import DrawnQuestion

TICK, CROSS = "\u2713", "\u2717"


@dataclass(frozen=True)
class Table:
    """What to show: a title, column headers and rows of text.

    On a terminal too narrow for every column, the columns in ``optional`` are left out,
    first to last, until the rest fit; the ``whole`` column (a slug the learner types)
    is never wrapped or cut.
    """

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    whole: int | None = None
    optional: tuple[int, ...] = ()
    note: str = ""  # a line under the table


# --- formatting ------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")  # 20.3333 is `20.33`, 20.0 is `20`


def _score(score: float, max_score: float, pass_mark: float | None = None) -> str:
    """`22.27/32 (69.6%)`: the percentage never rounds across the pass mark."""
    share = f" ({percent(score, max_score, pass_mark)})" if max_score > 0 else ""
    return f"{_num(score)}/{_num(max_score)}{share}"


def _attempt_score(attempt: AttemptSummary) -> str:
    """An attempt's score; none for one left unfinished, whose points cover only some questions.

    1 of 1 point answered before setting an attempt aside is not a score of 100%.
    """
    if attempt.kind != "review" and attempt.finished is None:
        return "-"
    return _score(attempt.score, attempt.max_score, attempt.pass_mark)


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


def history_table(
    attempts: Sequence[AttemptSummary],
    zone: tzinfo | None = None,
    *,
    numbers: Mapping[int, int] | None = None,
    slug: str | None = None,
) -> Table:
    """`lessonkit history [SLUG]`: one row per attempt, oldest first, times in the local zone.

    ``numbers`` gives each attempt's number among its quiz's attempts (the `#` column, for
    `lessonkit history SLUG N`); with ``slug`` every row is that quiz's, so its column goes.
    """
    numbers = numbers or attempt_numbers(attempts)
    rows = [
        (
            str(numbers[a.attempt_id]),
            shown_time(a.started, zone),
            *(() if slug else (a.bank,)),
            _attempt_score(a),
            _result(a),
            _duration(a.duration),
        )
        for a in attempts
    ]
    note = f"`{program()} history {slug or 'SLUG'} N` shows attempt N question by question."
    if slug:
        return Table(f"History of {slug}", ("#", "Started", "Score", "Result", "Duration"),
                     rows, optional=(4,), note=note)  # fmt: skip
    headers = ("#", "Started", "Quiz", "Score", "Result", "Duration")
    return Table("History", headers, rows, whole=2, optional=(5, 1), note=note)


def attempt_numbers(attempts: Sequence[AttemptSummary]) -> dict[int, int]:
    """Each attempt's number among the attempts at its own quiz (1 is the first), by id."""
    numbers: dict[int, int] = {}
    counts: dict[str, int] = {}
    for attempt in sorted(attempts, key=lambda a: a.attempt_id):
        counts[attempt.bank] = counts.get(attempt.bank, 0) + 1
        numbers[attempt.attempt_id] = counts[attempt.bank]
    return numbers


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
    headers = ("Plan", "Lesson", "Quiz", "Questions", "Best score")
    return Table("Lessons", headers, rows, whole=2, optional=(0, 3))


def _best(top: AttemptSummary | None) -> str:
    if top is None:
        return "not taken yet"
    mark = "" if top.passed is None else f" {TICK} passed" if top.passed else f" {CROSS}"
    return _score(top.score, top.max_score, top.pass_mark) + mark


def render(table: Table, out: IO[str], *, color: bool, terminal: bool | None = None) -> None:
    """Print a table: rich on a terminal (in colour unless ``color`` is False), aligned plain
    text otherwise (pipes, screen readers, TERM=dumb)."""
    if terminal if terminal is not None else color:
        _render_rich(table, out, color=color)
        return
    widths = [
        max(len(c) for c in column) for column in zip(table.headers, *table.rows, strict=True)
    ]
    out.write(table.title + "\n")
    for row in (table.headers, *table.rows):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")
    if table.note:
        out.write(table.note + "\n")


def _render_rich(table: Table, out: IO[str], *, color: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.measure import Measurement
    from rich.table import Table as RichTable

    console = Console(file=out, highlight=False, no_color=not color or None, emoji=False)
    shown = list(range(len(table.headers)))
    dropped = list(table.optional)

    def made(fold: bool) -> RichTable:
        made = RichTable(title=table.title, box=box.SIMPLE_HEAD)
        for n in shown:
            whole = n == table.whole
            cells = [row[n] for row in (table.headers, *table.rows)]
            word = max(len(w) for cell in cells for w in [*cell.split(), ""])
            made.add_column(
                table.headers[n],
                no_wrap=whole,
                min_width=max(len(c) for c in cells) if whole else min(word, 16),
                overflow="fold" if fold else "ellipsis",
            )
        for row in table.rows:
            made.add_row(*(row[n] for n in shown))
        return made

    # Columns go until every word fits whole; if even then some cannot, `fold` breaks a
    # word across lines rather than hiding its end behind an ellipsis.
    unbounded = console.options.update_width(10_000)  # a measurement is capped at the width
    while dropped and Measurement.get(console, unbounded, made(False)).minimum > console.width:
        shown.remove(dropped.pop(0))
    console.print(made(True))
    if table.note:  # under the table, folded between words: a command in it stays whole
        console.print("\n".join(fold(table.note, console.width)), soft_wrap=True)


def fold(line: str, width: int) -> list[str]:
    """``line`` broken between words to fit ``width``, never inside a `backticked` command;
    a command wider than ``width`` gets a line of its own, for the terminal to wrap."""
    words = re.findall(r"(?:`[^`]*`|[^\s`])+", line)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [line]


def on_terminal(out: IO[str]) -> bool:
    """Whether ``out`` is a terminal that can draw a table (not TERM=dumb)."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def use_color(out: IO[str], no_color: bool) -> bool:
    """Colour only on a terminal, and never with --no-color or NO_COLOR."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return on_terminal(out)


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
        out.write(f"No attempts {what}yet. Take a quiz with `{program()} quiz {slug or 'SLUG'}`.\n")
        return 0
    render(history_table(attempts, zone, slug=slug), out, color=use_color(out, no_color),
           terminal=on_terminal(out))  # fmt: skip
    if slug and drawn:
        cache = data_dir / "cache" if data_dir else None
        bank = catalog.find(slug, cache_dir=cache).bank
        width = shutil.get_terminal_size().columns - 1 if on_terminal(out) else 79
        out.writelines(line + "\n" for line in numbers_lines(bank, drawn, zone, min(width, 79)))
    return 0


NUMBERS_SHOWN = 10  # latest answers to parameterised questions listed under the table


def numbers_lines(
    bank: Mapping[str, Any],
    answers: Sequence[tuple[str, AnswerRow]],
    zone: tzinfo | None = None,
    width: int = 79,
) -> list[str]:
    """The numbers each answer to a parameterised question was given, latest last, in
    lines of at most ``width`` (a number is never broken).

    An answer from before the question drew numbers shows the numbers it had then
    (its `numbers_before`), or says that they were fixed.
    """
    from lessonkit.bank import variants
    from lessonkit.questiontypes.registry import as_json

    questions = {q.id: q for q in bank["questions"] if getattr(q, "params", None)}
    entries: list[list[str]] = []
    for question_id, row in answers:
        question = questions.get(question_id)
        if question is None:
            continue
        drawn = row.params if row.params is not None else question.numbers_before
        numbers = variants.shown_numbers(as_json(question), drawn) if drawn else "its numbers then"
        when = "" if row.params is not None else " (fixed, before it drew new numbers)"
        mark = (
            f"{TICK} right" if row.correct else f"{CROSS} {_num(row.score)}/{_num(row.max_score)}"
        )
        said = f"with {numbers}{when}; you answered {_said(question, drawn, row.response)}"
        wrapped = textwrap.wrap(said, width, initial_indent="    ", subsequent_indent="      ",
                                break_long_words=False, break_on_hyphens=False)  # fmt: skip
        entries.append([f"  {shown_time(row.answered, zone)}  {question_id}  {mark}", *wrapped])
    if not entries:
        return []
    shown = entries[-NUMBERS_SHOWN:]
    title = "Numbers you were given" + (
        f" ({len(shown)} latest of {len(entries)})" if len(entries) > len(shown) else ""
    )
    return ["", title, *(line for entry in shown for line in entry)]


def _said(question: DrawnQuestion, drawn: Mapping[str, Any] | None, response: Any) -> str:
    """A stored response in words: the number typed, or the option chosen as it read."""
    from lessonkit.questiontypes import registry

    kind = registry.of(question)
    try:
        return kind.in_words(question, kind.from_json(question, response), drawn)
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
    render(list_table(course, best), out, color=use_color(out, no_color),
           terminal=on_terminal(out))  # fmt: skip
    return 0
