"""`lessonkit history SLUG N`: one past attempt, question by question, as the quiz showed it.

Each question comes back with the options as they were shuffled (the attempt's seed
redraws them), the answer that counted, whether it was right, the right answer, the
explanation and where to re-read; then the attempt's summary, score and verdict last.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from datetime import tzinfo
from pathlib import Path
from typing import IO

from lessonkit.course import catalog
from lessonkit.course.invocation import program
from lessonkit.errors import UsageError
from lessonkit.history.rows import AttemptSummary, Unfinished
from lessonkit.history.tables import attempt_numbers, read_store, shown_time
from lessonkit.questiontypes import registry
from lessonkit.quiz import session
from lessonkit.quiz.plainui import PlainUi
from lessonkit.quiz.summary import section, summarise
from lessonkit.quiz.terminal import make_ui


def attempt_command(
    slug: str,
    which: str,
    *,
    data_dir: Path | None = None,
    no_color: bool = False,
    stdout: IO[str] | None = None,
    zone: tzinfo | None = None,
) -> int:
    """Show attempt ``which`` (its number in `lessonkit history SLUG`, or `last`) of a quiz."""
    out = stdout or sys.stdout
    compiled = catalog.find(slug, cache_dir=data_dir / "cache" if data_dir else None)
    store = read_store(data_dir, lambda text: out.write(text + "\n"))  # only reads
    try:
        attempts = store.attempts(compiled.slug) if store is not None else []
        summary = _choose(compiled.slug, attempts, which)  # none yet: UsageError
        recorded = store.recorded_attempt(summary.attempt_id) if store is not None else None
    finally:
        if store is not None:
            store.close()
    assert recorded is not None  # one of the attempts just read
    number = attempt_numbers(attempts)[summary.attempt_id]
    ui = make_ui(sys.stdin, out, no_color=no_color, pause=False)
    _paged(ui, lambda: _show(ui, compiled, recorded, summary, number, zone))
    return 0


def _choose(slug: str, attempts: Sequence[AttemptSummary], which: str) -> AttemptSummary:
    """The attempt numbered ``which`` among a quiz's attempts, or the latest for `last`."""
    if not attempts:
        raise UsageError(f"no attempts at {slug} yet: take the quiz with `{program()} quiz {slug}`")
    numbers = attempt_numbers(attempts)
    by_number = {numbers[a.attempt_id]: a for a in attempts}
    if which.strip().casefold() == "last":
        return by_number[max(by_number)]
    if not which.strip().isdigit() or int(which) not in by_number:
        raise UsageError(
            f"no attempt `{which}` at {slug}: give a number from 1 to {max(by_number)} "
            f"(the # column of `{program()} history {slug}`), or `last`"
        )
    return by_number[int(which)]


def _show(
    ui: PlainUi,
    compiled: catalog.Compiled,
    recorded: Unfinished,
    summary: AttemptSummary,
    number: int,
    zone: tzinfo | None,
) -> None:
    from lessonkit.grading.credit import Grade

    marks = {
        q: session.Mark(row.response, row.score, row.max_score, row.correct, row.params)
        for q, row in recorded.answered.items()
    }
    attempt = session.resume(
        compiled.slug, compiled.bank, seed=recorded.seed, order=recorded.order,
        started=summary.started, marks=marks,
    )  # fmt: skip
    recorded_ids = set(recorded.order)  # once: per question it cost 6 s at 10,000 questions
    asked = [q for q in attempt.plan.order if q in recorded_ids]
    kind = "Review" if summary.kind == "review" else "Attempt"
    ui.stress(f"{kind} {number} at {compiled.slug}: {compiled.bank['title']}", "bold")
    ui.say(f"Started {shown_time(summary.started, zone)}; {_state(summary, zone)}.")
    for at, question_id in enumerate(asked, 1):
        question = attempt.question(question_id)
        display = attempt.plan.displays[question_id]
        ui.recalled(at, len(asked), question, display)
        where = section(attempt.bank, compiled.lesson, question.section)
        mark = attempt.marks.get(question_id)
        if mark is None:
            ui.unanswered(where)
            continue
        qtype = registry.of(question)
        key = qtype.shown_key(question, drawn=question_id in attempt.plan.numbers)
        answer = None if key is None else qtype.described(question, key, display)
        response = qtype.from_json(question, mark.response)
        ui.feedback(
            question,
            Grade(mark.score, mark.max_score, mark.correct),
            qtype.described(question, response, display),
            answer,
            qtype.chosen_feedback(question, response, display),
            where,
            qtype.part_marks(question, response),
        )
    if summary.kind == "review":
        return
    if summary.finished is None:
        ui.say()
        resume = f"`{program()} quiz {compiled.slug}` resumes it" if not summary.abandoned else (
            "it was set aside for a new attempt"
        )  # fmt: skip
        ui.say(f"{len(attempt.marks)} of {len(asked)} answered; {resume}.")
        return
    ui.summary(compiled, attempt, summarise(attempt, compiled.lesson))


def _state(summary: AttemptSummary, zone: tzinfo | None) -> str:
    if summary.kind == "review":
        return f"{summary.answered} asked"
    if summary.finished is None:
        return "set aside, unfinished" if summary.abandoned else "unfinished"
    return f"finished {shown_time(summary.finished, zone)}"


def _paged(ui: PlainUi, show: Callable[[], None]) -> None:
    """On a terminal, a view longer than the screen goes through the pager, as `read` does."""
    console = getattr(ui, "console", None)
    if console is None or not console.is_terminal:
        show()
        return
    import os

    with console.capture() as captured:
        show()
    text = captured.get()
    if text.count("\n") < shutil.get_terminal_size((80, 24)).lines - 1:
        console.file.write(text)
        return
    os.environ.setdefault("LESS", "-FRX")  # less shows the colours and quits at the end
    with console.pager(styles=True):
        show()
