"""`lessonkit quiz`: start or resume an attempt, ask it (``loop``), save each answer, sum up.

The first question is shown from the compiled bank (see ``catalog``), in its run-time
form; pydantic is never imported unless a bank changed, and rich only after the first
question is on screen, while the learner reads. Every answer is
committed to the history database the moment it is graded, before its feedback
(``recorder`` keeps any the database refuses).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from lessonkit.course import catalog
from lessonkit.course.bankversion import bank_version
from lessonkit.course.invocation import program
from lessonkit.errors import UsageError
from lessonkit.questiontypes import registry
from lessonkit.quiz import session, summary
from lessonkit.quiz.effort import Effort
from lessonkit.quiz.loop import ask
from lessonkit.quiz.plainui import PlainUi, counted
from lessonkit.quiz.recorder import EXIT_UNSAVED, Clock, Pending, Recorder, TakeBack
from lessonkit.quiz.terminal import make_ui

if TYPE_CHECKING:
    from lessonkit.grading.credit import Grade, Response
    from lessonkit.history.store import Store


def _utcnow() -> datetime:
    return datetime.now(UTC)


# --- the command ---------------------------------------------------------------


def quiz_command(
    target: str,
    *,
    seed: int | None = None,
    answers: Path | None = None,
    as_json: bool = False,
    no_color: bool = False,
    data_dir: Path | None = None,
    resume: bool | None = None,
    pause: bool = True,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    clock: Clock = _utcnow,
) -> int:
    """`lessonkit quiz TARGET`: take a quiz, or grade an ``answers`` file without prompting.

    Returns the exit code: 0; 130 after Ctrl-C with the answers kept; EXIT_UNSAVED when
    answers could only be written to a recovery file. Raises UsageError or ContentError
    for the CLI to report.
    """
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    compiled = catalog.find(target, cache_dir=data_dir / "cache" if data_dir else None)
    if answers is not None:
        return _grade_file(compiled, answers, seed=seed or 0, as_json=as_json, stdout=stdout)
    if as_json:
        raise UsageError("--json reports on a graded answers file: add --answers FILE")
    ui = make_ui(stdin, stdout, no_color=no_color, pause=pause)
    from lessonkit.history.store import Store

    store, notices = Store.open(data_dir)
    recorder: Recorder | None = None
    try:
        for notice in notices:
            ui.notice(notice)
        started = _start(ui, store, compiled, seed, resume, clock)
        if started is None:
            return 0
        recorder = Recorder(
            store, ui, compiled.slug, _beginner(store, compiled, started[0]), started[1]
        )
        return _take(ui, store, compiled, started[0], recorder, clock)
    except KeyboardInterrupt:
        ui.say()
        if recorder is not None and not recorder.settle(clock):
            return 130
        answered = recorder is not None and recorder.attempt_id is not None
        ui.saved(compiled.slug, interrupted=True, answered=answered)
        return 130
    finally:
        store.close()


def _beginner(
    store: Store, compiled: catalog.Compiled, attempt: session.Attempt
) -> Callable[[], int]:
    def begin() -> int:
        plan = attempt.plan
        return store.begin_attempt(
            bank=compiled.slug, seed=plan.seed, order=plan.order, started=attempt.started,
            pass_mark=float(compiled.bank["pass_mark"]), version=bank_version(compiled.keys),
        )  # fmt: skip

    return begin


def _take(
    ui: PlainUi,
    store: Store,
    compiled: catalog.Compiled,
    attempt: session.Attempt,
    recorder: Recorder,
    clock: Clock,
) -> int:
    ui.header(compiled, attempt)
    # Each question drawn and built when it is graded: a bank of thousands starts at once.
    grading = session.Grading(attempt.bank, compiled.keys, lookup=attempt.question)
    _tell_key_changes(ui, store, compiled.slug, compiled.keys, clock)
    effort = Effort()

    def commit(question_id: str, response: Response, grade: Grade) -> None:
        json_form = registry.to_json(attempt.question(question_id), response)
        key_hash = grading.key_hash(question_id)
        drawn = attempt.plan.numbers.get(question_id)
        seconds, hints = effort.spent(question_id)
        recorder.add(Pending(question_id, key_hash, json_form, grade.score, grade.max_score,
                             grade.correct, clock(), drawn, seconds, hints))  # fmt: skip

    def take_back(question_id: str) -> None:
        recorder.add(TakeBack(question_id, clock()))

    last = next(reversed(attempt.marks), None)  # resumed: `u` takes back the last answer
    if not ask(ui, attempt, compiled.lesson, grading, commit, take_back, effort, last=last):
        if not recorder.settle(clock):
            return EXIT_UNSAVED
        ui.saved(compiled.slug, interrupted=False, answered=recorder.attempt_id is not None)
        return 0
    result = summary.summarise(attempt, compiled.lesson)
    # Saved before the summary, so a failure's notice never pushes the score off the end.
    code = _finish(ui, store, compiled.slug, recorder, result.passed, clock)
    ui.summary(compiled, attempt, result, _shown_by(store, compiled.slug, recorder.attempt_id))
    return code


def _shown_by(store: Store, slug: str, attempt_id: int | None) -> str:
    """The command that shows this attempt question by question: `lessonkit history SLUG N`."""
    from lessonkit.history.database import StoreError
    from lessonkit.history.tables import attempt_numbers

    try:
        numbers = attempt_numbers(store.attempts(slug))
    except StoreError:
        numbers = {}
    number = numbers.get(attempt_id, "last") if attempt_id is not None else "last"
    return f"{program()} history {slug} {number}"


def _finish(
    ui: PlainUi, store: Store, slug: str, recorder: Recorder, passed: bool | None, clock: Clock
) -> int:
    """Save what is left and mark the attempt finished; EXIT_UNSAVED (said) if not."""
    if not recorder.settle(clock):
        return EXIT_UNSAVED  # left unfinished: resuming asks again what is not saved
    assert recorder.attempt_id is not None  # every question answered and saved
    from lessonkit.history.database import StoreError

    try:
        store.finish_attempt(recorder.attempt_id, finished=clock(), passed=passed)
    except StoreError as error:
        ui.unfinished(slug, str(error))
        return EXIT_UNSAVED
    return 0


def _tell_key_changes(
    ui: PlainUi, store: Store, slug: str, keys: Mapping[str, str], clock: Clock
) -> None:
    """Say once per changed answer key that earlier answers to it no longer count for review."""
    from lessonkit.history.database import StoreError

    try:
        if not store.changed_keys(slug, keys):  # the usual case reads no clock
            return
        notices = store.take_key_change_notices(slug, keys, shown=clock())
    except StoreError:
        return  # not recorded as told, so it is said next time; saving reports the database
    for notice in notices:
        ui.notice(notice)


Started = tuple[session.Attempt, int | None]


def _start(
    ui: PlainUi,
    store: Store,
    compiled: catalog.Compiled,
    seed: int | None,
    resume: bool | None,
    clock: Clock,
) -> Started | None:
    """A new or resumed attempt and its database id (None until the first answer)."""
    unfinished = store.unfinished_attempt(compiled.slug)
    if unfinished is not None and resume is None:
        answered = len(unfinished.answered)
        # One question, where `n` means what it says: the answers are kept either way.
        ui.say(
            f"You have an unfinished attempt ({answered} of {len(unfinished.order)} answered). "
            f"Your {counted(answered, 'answer')} {'stays' if answered == 1 else 'stay'} in your "
            "history either way."
        )
        resume = ui.confirm("Resume it (y), or start afresh (n)?")
        if resume is None:
            return None
    if unfinished is not None and resume:
        marks = {
            q: session.Mark(row.response, row.score, row.max_score, row.correct, row.params)
            for q, row in unfinished.answered.items()
        }
        attempt = session.resume(
            compiled.slug,
            compiled.bank,
            seed=unfinished.seed,
            order=unfinished.order,
            marks=marks,
            started=unfinished.started or clock(),
        )
        return attempt, unfinished.attempt_id
    if unfinished is not None:
        store.abandon_attempt(unfinished.attempt_id, at=clock())
    elif resume:
        ui.notice("there is no unfinished attempt to resume; starting a new one.")
    chosen = seed if seed is not None else _new_seed()
    return session.start(compiled.slug, compiled.bank, chosen, clock()), None


def _new_seed() -> int:
    import random

    return random.SystemRandom().randrange(100_000, 1_000_000)  # short enough to retype


def _grade_file(
    compiled: catalog.Compiled, path: Path, *, seed: int, as_json: bool, stdout: IO[str]
) -> int:
    """Grade an answers file; parameterised questions take the numbers ``seed`` draws."""
    from lessonkit.quiz.answers import read_answers

    given = read_answers(path, compiled.bank.questions())  # parsed alike, whatever the numbers
    responses_by_id = {k: r for k, (r, _) in given.items()}
    attempt = session.grade_all(compiled.slug, compiled.bank, responses_by_id, seed)
    result = summary.summarise(attempt, compiled.lesson)
    if as_json:
        stdout.write(json.dumps(summary.report(attempt, result), indent=2, ensure_ascii=False))
        stdout.write("\n")
        return 0
    PlainUi(sys.stdin, stdout, echo=False).graded(compiled, attempt, result)
    return 0
