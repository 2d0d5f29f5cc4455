"""The terminal quiz loop: ask, grade, save each answer, sum up; ``plainui`` and ``richui`` draw it.

The first question is shown from plain JSON (see ``catalog``); pydantic, the grader
and rich are imported only after that, while the learner reads. Every answer is
committed to the history database the moment it is graded, before its feedback
(``recorder`` keeps any the database refuses).
"""

from __future__ import annotations

import enum
import functools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lessonkit.course import catalog
from lessonkit.course.bankversion import bank_version
from lessonkit.errors import UsageError
from lessonkit.grading import responses
from lessonkit.quiz import session
from lessonkit.quiz.effort import Effort
from lessonkit.quiz.plainui import PlainUi, QuestionData
from lessonkit.quiz.recorder import EXIT_UNSAVED, Clock, Pending, Recorder, TakeBack
from lessonkit.quiz.terminal import make_ui

if TYPE_CHECKING:
    from lessonkit.grading.grader import Grade, Response
    from lessonkit.history.store import Store

OnAnswer = Callable[[str, "Response", "Grade"], None]
OnUndo = Callable[[str], None]


def _utcnow() -> datetime:
    return datetime.now(UTC)


# --- asking ------------------------------------------------------------------


MAX_LINE = 500  # characters: longer than any answer; a stray paste is refused, not echoed


class Command(enum.Enum):
    """What a learner typed that is not an answer."""

    UNDO = "undo"  # take back the last answer and give it again


def ask(
    ui: PlainUi,
    attempt: session.Attempt,
    lesson: Mapping[str, Any] | None,
    grading: session.Grading,
    on_answer: OnAnswer,
    on_undo: OnUndo | None = None,
    effort: Effort | None = None,
) -> bool:
    """Ask every remaining question of ``attempt``; False when the learner quit first.

    ``on_answer(question_id, response, grade)`` runs for every graded answer before
    its feedback is shown: that is where the caller commits it. Before answering the
    next question the learner may type `u` to take the last answer back and give it
    again; both answers reach ``on_answer`` (history keeps both, the later counts), and
    ``on_undo(question_id)`` records the taking back at once, so that a learner who quits
    before answering again is asked that question again on resuming. ``effort``, when
    given, is told when each question is shown and when its hint is asked for.
    """
    total = len(attempt.plan.order)
    last: str | None = None
    while rest := attempt.remaining():
        question_id = rest[0]
        question = attempt.question(question_id)
        display = attempt.plan.displays[question_id]
        ui.question(attempt.number(question_id), total, len(attempt.marks), question, display)
        ui.fresh()  # a paste ahead of this question must not answer it
        if effort is not None:
            effort.shown(question_id)
        hinted = None if effort is None else functools.partial(effort.hinted, question_id)
        response = _read_response(ui, question, display, undo=last is not None, on_hint=hinted)
        if response is None:
            return False
        if response is Command.UNDO:
            assert last is not None  # only offered after an answer
            if on_undo is not None:
                on_undo(last)
            del attempt.marks[last]
            ui.undone(attempt.number(last))
            last = None
            continue
        grade = grading.grade(question_id, response)
        on_answer(question_id, response, grade)
        mark = session.Mark(
            responses.to_json(response), grade.score, grade.max_score, grade.correct,
            attempt.plan.numbers.get(question_id),
        )  # fmt: skip
        attempt.record(question_id, mark)
        last = question_id
        key = grading.key(question_id)
        if isinstance(key, float) and question_id in attempt.plan.numbers:
            key = _shown_answer(grading, question_id, key)
        ui.feedback(
            question,
            grade,
            responses.described(question, response, display),
            None if key is None else responses.described(question, key, display),
            responses.chosen_feedback(question, response, display),
            session.section(attempt.bank, lesson, str(question["section"])),
        )
    return True


def _shown_answer(grading: session.Grading, question_id: str, key: float) -> float:
    """A computed answer as precise as its tolerance needs (0.61, not 0.608273)."""
    from lessonkit.bank.models import NumericQuestion
    from lessonkit.bank.numbers import places_for

    question = grading.question(question_id)
    if not isinstance(question, NumericQuestion):
        return key
    places = places_for(question.allowed_error())
    return key if places is None else round(key, places)


def answer_prompt(question: QuestionData, *, undo: bool) -> str:
    """`Answer (? hint, u undo, q save and quit): `, offering only what this question has."""
    offers = [*(["? hint"] if question.get("hint") else []), *(["u undo"] if undo else []),
              "q save and quit"]  # fmt: skip
    return f"Answer ({', '.join(offers)}): "


def _read_response(
    ui: PlainUi,
    question: QuestionData,
    display: Sequence[int],
    *,
    undo: bool,
    on_hint: Callable[[], None] | None = None,
) -> Response | Command | None:
    prompt = answer_prompt(question, undo=undo)
    while True:
        text = ui.read(prompt)
        if text is None:
            return None
        length = len(text.rstrip("\n"))
        if length > MAX_LINE:
            ui.invalid(f"that line is {length:,} characters long; an answer is at most "
                       f"{MAX_LINE}. Type it again, shorter.")  # fmt: skip
            continue
        command = text.strip().casefold()
        if command == "?":
            ui.hint(question.get("hint"))
            if on_hint is not None and question.get("hint"):
                on_hint()
        elif command in ("q", "quit"):
            return None
        elif command in ("u", "undo") and undo:
            return Command.UNDO
        elif question.get("multiline") and text.strip():
            lines = ui.more_lines(text, MAX_LINE)
            if lines is None:
                return None
            try:
                return responses.parse(question, lines, display)
            except responses.ResponseError as error:
                ui.invalid(str(error))
        elif "\n" in text.strip():
            ui.invalid("that was several lines; type one answer on one line.")
        else:
            try:
                return responses.parse(question, text, display)
            except responses.ResponseError as error:
                ui.invalid(str(error))


def ask_questions(
    compiled: catalog.Compiled,
    attempt: session.Attempt,
    *,
    on_answer: OnAnswer,
    ui: PlainUi,
    on_undo: OnUndo | None = None,
) -> session.Attempt:
    """Ask the questions of ``attempt`` (from ``review_attempt``), in its order.

    ``on_answer`` commits each answer as it is given. ``attempt.finished`` is False on
    the returned attempt when the learner quit early.
    """
    grading = session.Grading(attempt.bank, compiled.keys, lookup=attempt.question)
    ask(ui, attempt, compiled.lesson, grading, on_answer, on_undo)
    return attempt


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
    ui = make_ui(stdin, stdout, no_color=no_color)
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
        ui.saved(compiled.slug, interrupted=True)
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
        json_form, key_hash = responses.to_json(response), grading.key_hash(question_id)
        drawn = attempt.plan.numbers.get(question_id)
        seconds, hints = effort.spent(question_id)
        recorder.add(Pending(question_id, key_hash, json_form, grade.score, grade.max_score,
                             grade.correct, clock(), drawn, seconds, hints))  # fmt: skip

    def take_back(question_id: str) -> None:
        recorder.add(TakeBack(question_id, clock()))

    if not ask(ui, attempt, compiled.lesson, grading, commit, take_back, effort):
        if not recorder.settle(clock):
            return EXIT_UNSAVED
        ui.saved(compiled.slug, interrupted=False)
        return 0
    result = session.summarise(attempt, compiled.lesson)
    # Saved before the summary, so a failure's notice never pushes the score off the end.
    code = _finish(ui, store, compiled.slug, recorder, result.passed, clock)
    ui.summary(compiled, attempt, result)
    return code


def _finish(
    ui: PlainUi, store: Store, slug: str, recorder: Recorder, passed: bool | None, clock: Clock
) -> int:
    """Save what is left and mark the attempt finished; EXIT_UNSAVED (said) if not."""
    if not recorder.settle(clock):
        return EXIT_UNSAVED  # left unfinished: resuming asks again what is not saved
    assert recorder.attempt_id is not None  # every question answered and saved
    from lessonkit.history.store import StoreError

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
    from lessonkit.history.store import StoreError

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
        resume = ui.confirm(
            f"You have an unfinished attempt ({answered} of "
            f"{len(unfinished.order)} answered). Resume it?"
        )
        if resume is False and answered:  # `n` by mistake must not set answers aside unasked
            resume = ui.confirm(
                f"Start afresh? Your {answered} answer"
                f"{' stays' if answered == 1 else 's stay'} in your history but will not count "
                "for the new attempt. (n resumes)"
            )
            resume = None if resume is None else not resume
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

    given = read_answers(path, compiled.bank["questions"])  # parsed alike, whatever the numbers
    responses_by_id = {k: r for k, (r, _) in given.items()}
    attempt = session.grade_all(compiled.slug, compiled.bank, responses_by_id, seed)
    result = session.summarise(attempt, compiled.lesson)
    if as_json:
        stdout.write(json.dumps(session.report(attempt, result), indent=2, ensure_ascii=False))
        stdout.write("\n")
        return 0
    PlainUi(sys.stdin, stdout, echo=False).graded(compiled, attempt, result)
    return 0
