"""The terminal quiz loop: ask, grade, save each answer, sum up; ``plainui`` and ``richui`` draw it.

The first question is shown from plain JSON (see ``catalog``); pydantic, the grader
and rich are imported only after that, while the learner reads. Every answer is
committed to the history database the moment it is graded, before its feedback
(``recorder`` keeps any the database refuses).
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lessonkit.course import catalog
from lessonkit.course.invocation import program
from lessonkit.errors import UsageError
from lessonkit.grading import responses
from lessonkit.quiz import session
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
    *,
    last: str | None = None,
) -> bool:
    """Ask every remaining question of ``attempt``; False when the learner quit first.

    ``on_answer(question_id, response, grade)`` runs for every graded answer before
    its feedback is shown: that is where the caller commits it. Before answering the
    next question the learner may type `u` to take the last answer back and give it
    again; both answers reach ``on_answer`` (history keeps both, the later counts), and
    ``on_undo(question_id)`` records the taking back at once, so that a learner who quits
    before answering again is asked that question again on resuming. ``last`` is the
    question answered last before this call (a resumed attempt's), which `u` takes back.
    On a terminal the feedback stays on screen until the learner presses Enter.
    """
    total = len(attempt.plan.order)
    while rest := attempt.remaining():
        question_id = rest[0]
        question = attempt.question(question_id)
        display = attempt.plan.displays[question_id]
        ui.question(attempt.number(question_id), total, len(attempt.marks), question, display)
        ui.fresh()  # a paste ahead of this question must not answer it
        got = _read_response(ui, question, display, undo=last is not None)
        if got is None:
            return False
        if got is not Command.UNDO:
            response, typed = got
            _answer(ui, attempt, lesson, grading, on_answer, question_id, response, typed)
            last = question_id
            if not ui.pauses:
                continue
            step = _pause(ui, attempt)
            if step is None:
                return False
            if step is not Command.UNDO:
                continue
        assert last is not None  # `u` is offered only after an answer
        if on_undo is not None:
            on_undo(last)
        del attempt.marks[last]
        ui.undone(attempt.number(last))
        last = None
    return True


def _answer(
    ui: PlainUi,
    attempt: session.Attempt,
    lesson: Mapping[str, Any] | None,
    grading: session.Grading,
    on_answer: OnAnswer,
    question_id: str,
    response: Response,
    typed: str,
) -> None:
    """Grade one answer, hand it to ``on_answer`` (which commits it), then show the feedback."""
    question = attempt.question(question_id)
    display = attempt.plan.displays[question_id]
    grade = grading.grade(question_id, response)
    on_answer(question_id, response, grade)
    mark = session.Mark(responses.to_json(response), grade.score, grade.max_score, grade.correct)
    attempt.record(question_id, mark)
    key = grading.key(question_id)
    given = responses.described(question, response, display)
    if question["type"] == "true_false" and typed.strip().casefold() in ("true", "false"):
        given = [typed.strip()]  # `TRUE` echoed as typed; `t` or `yes` spelled out as `true`
    ui.feedback(
        question,
        grade,
        given,
        None if key is None else responses.described(question, key, display),
        responses.chosen_feedback(question, response, display),
        session.section(attempt.bank, lesson, str(question["section"])),
        responses.part_marks(question, response),
    )


def _pause(ui: PlainUi, attempt: session.Attempt) -> Command | bool | None:
    """Keep the feedback on screen until Enter: True to go on, UNDO, or None to quit."""
    rest = attempt.remaining()
    coming = (
        f"question {attempt.number(rest[0])} of {len(attempt.plan.order)}"
        if rest
        else "your summary"
    )
    ui.fresh()  # Enter pressed twice by habit must not skip the next question's feedback
    text = ui.read(f"Press Enter for {coming} (u undo, q save and quit): ")
    command = None if text is None else text.strip().casefold()
    if command is None or command in ("q", "quit"):
        return None
    return Command.UNDO if command in ("u", "undo") else True


def answer_prompt(question: QuestionData, *, undo: bool) -> str:
    """`Answer (? hint, u undo, q save and quit): `, offering only what this question has."""
    offers = [*(["? hint"] if question.get("hint") else []), *(["u undo"] if undo else []),
              "q save and quit"]  # fmt: skip
    return f"Answer ({', '.join(offers)}): "


def _read_response(
    ui: PlainUi, question: QuestionData, display: Sequence[int], *, undo: bool
) -> tuple[Response, str] | Command | None:
    """The parsed response and the text typed for it, a command, or None to quit."""
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
        elif command in ("q", "quit"):
            return None
        elif command in ("u", "undo") and undo:
            return Command.UNDO
        elif question.get("multiline") and text.strip():
            lines = ui.more_lines(text, MAX_LINE)
            if lines is None:
                return None
            try:
                return responses.parse(question, lines, display), lines
            except responses.ResponseError as error:
                ui.invalid(str(error))
        elif "\n" in text.strip():
            ui.invalid("that was several lines; type one answer on one line.")
        else:
            try:
                return responses.parse(question, text, display), text
            except responses.ResponseError as error:
                ui.invalid(str(error))


def ask_questions(
    compiled: catalog.Compiled,
    question_ids: Sequence[str],
    *,
    seed: int,
    on_answer: OnAnswer,
    ui: PlainUi,
    now: datetime,
    on_undo: OnUndo | None = None,
) -> session.Attempt:
    """Ask some of a bank's questions in the given order (for `lessonkit review`).

    Options are shuffled by ``seed``; ``on_answer`` commits each answer as it is given.
    ``attempt.finished`` is False on the returned attempt when the learner quit early.
    """
    attempt = session.resume(
        compiled.slug, compiled.bank, seed=seed, order=question_ids, started=now, marks={}
    )
    wanted = [q for q in attempt.plan.order if q in set(question_ids)]
    attempt.plan = session.Plan(seed, tuple(wanted), attempt.plan.displays)
    grading = session.Grading(compiled.bank, compiled.keys)
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
        return _grade_file(compiled, answers, as_json=as_json, stdout=stdout)
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
            pass_mark=float(compiled.bank["pass_mark"]),
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
    grading = session.Grading(compiled.bank, compiled.keys)
    _tell_key_changes(ui, store, compiled.slug, compiled.keys, clock)

    def commit(question_id: str, response: Response, grade: Grade) -> None:
        json_form, key_hash = responses.to_json(response), grading.key_hash(question_id)
        recorder.add(Pending(question_id, key_hash, json_form, grade.score, grade.max_score,
                             grade.correct, clock()))  # fmt: skip

    def take_back(question_id: str) -> None:
        recorder.add(TakeBack(question_id, clock()))

    last = next(reversed(attempt.marks), None)  # resumed: `u` takes back the last answer
    if not ask(ui, attempt, compiled.lesson, grading, commit, take_back, last=last):
        if not recorder.settle(clock):
            return EXIT_UNSAVED
        ui.saved(compiled.slug, interrupted=False, answered=recorder.attempt_id is not None)
        return 0
    result = session.summarise(attempt, compiled.lesson)
    # Saved before the summary, so a failure's notice never pushes the score off the end.
    code = _finish(ui, store, compiled.slug, recorder, result.passed, clock)
    ui.summary(compiled, attempt, result, _shown_by(store, compiled.slug, recorder.attempt_id))
    return code


def _shown_by(store: Store, slug: str, attempt_id: int | None) -> str:
    """The command that shows this attempt question by question: `lessonkit history SLUG N`."""
    from lessonkit.history.store import StoreError
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
        # One question, where `n` means what it says: the answers are kept either way.
        ui.say(
            f"You have an unfinished attempt ({answered} of {len(unfinished.order)} answered). "
            f"Your {_count(answered, 'answer')} {'stays' if answered == 1 else 'stay'} in your "
            "history either way."
        )
        resume = ui.confirm("Resume it (y), or start afresh (n)?")
        if resume is None:
            return None
    if unfinished is not None and resume:
        marks = {
            q: session.Mark(row.response, row.score, row.max_score, row.correct)
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


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _new_seed() -> int:
    import random

    return random.SystemRandom().randrange(100_000, 1_000_000)  # short enough to retype


def _grade_file(compiled: catalog.Compiled, path: Path, *, as_json: bool, stdout: IO[str]) -> int:
    from lessonkit.quiz.answers import read_answers

    given = read_answers(path, compiled.bank["questions"])
    attempt = session.grade_all(compiled.slug, compiled.bank, {k: r for k, (r, _) in given.items()})
    result = session.summarise(attempt, compiled.lesson)
    if as_json:
        stdout.write(json.dumps(session.report(attempt, result), indent=2, ensure_ascii=False))
        stdout.write("\n")
        return 0
    PlainUi(sys.stdin, stdout, echo=False).graded(compiled, attempt, result)
    return 0
