"""The terminal quiz loop: ask, grade, save each answer, sum up; ``terminal`` does the output.

The first question is shown from plain JSON (see ``catalog``); pydantic, the grader
and rich are imported only after that, while the learner reads. Every answer is
committed to the history database the moment it is graded, before its feedback; one
the database refuses is kept and saved later, or written to a recovery file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lessonkit import catalog, responses, session
from lessonkit.errors import UsageError

# Re-exported: `lessonkit review` (history_view) asks through the same UI as the quiz.
from lessonkit.terminal import PlainUi as PlainUi
from lessonkit.terminal import QuestionData
from lessonkit.terminal import RichUi as RichUi
from lessonkit.terminal import make_ui as make_ui

if TYPE_CHECKING:
    from lessonkit.grader import Grade, Response
    from lessonkit.store import Store

Clock = Callable[[], datetime]
OnAnswer = Callable[[str, "Response", "Grade"], None]


def _utcnow() -> datetime:
    return datetime.now(UTC)


# --- asking ------------------------------------------------------------------


def ask(
    ui: PlainUi,
    attempt: session.Attempt,
    lesson: Mapping[str, Any] | None,
    grading: session.Grading,
    on_answer: OnAnswer,
) -> bool:
    """Ask every remaining question of ``attempt``; False when the learner quit first.

    ``on_answer(question_id, response, grade)`` runs for every graded answer before
    its feedback is shown: that is where the caller commits it.
    """
    total = len(attempt.plan.order)
    for question_id in attempt.remaining():
        question = attempt.question(question_id)
        display = attempt.plan.displays[question_id]
        ui.question(attempt.number(question_id), total, len(attempt.marks), question, display)
        response = _read_response(ui, question, display)
        if response is None:
            return False
        grade = grading.grade(question_id, response)
        on_answer(question_id, response, grade)
        mark = session.Mark(
            responses.to_json(response), grade.score, grade.max_score, grade.correct
        )
        attempt.record(question_id, mark)
        key = grading.key(question_id)
        answer = None if key is None else responses.shown(question, key, display)
        if question["type"] == "single" and isinstance(key, int):
            answer = f"{answer}. {question['options'][key]['text']}"
        ui.feedback(
            question, grade, answer, session.section(attempt.bank, lesson, str(question["section"]))
        )
    return True


def _read_response(ui: PlainUi, question: QuestionData, display: Sequence[int]) -> Response | None:
    while True:
        text = ui.read()
        if text is None:
            return None
        command = text.strip().casefold()
        if command == "?":
            ui.hint(question.get("hint"))
        elif command in ("q", "quit"):
            return None
        else:
            try:
                return responses.parse(question, text, display)
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
    ask(ui, attempt, compiled.lesson, session.Grading(compiled.bank, compiled.keys), on_answer)
    return attempt


# --- saving answers ------------------------------------------------------------

# `lessonkit` exits 1 for any lessonkit error; unsaved answers are one, even after a summary.
EXIT_UNSAVED = 1


@dataclass(frozen=True)
class Pending:
    """A graded answer the history database has not taken yet (fields: record_answer's)."""

    question_id: str
    key_hash: str
    response: Any
    score: float
    max_score: float
    correct: bool
    answered: datetime

    def to_json(self, slug: str, attempt_id: int | None) -> dict[str, Any]:
        """One line of the recovery file: enough to put the answer back by hand."""
        answered = self.answered.astimezone(UTC).isoformat()
        return {"quiz": slug, "attempt_id": attempt_id, **vars(self), "answered": answered}


class Recorder:
    """Saves each graded answer at once, and never drops one the database refuses.

    A refused answer stays in memory and is saved with the next answer; ``settle`` tries
    once more at the end and writes whatever is still unsaved to a recovery file beside
    the database. A full disk or a database locked by another window is usually brief.
    """

    def __init__(
        self, store: Store, ui: PlainUi, slug: str, begin: Callable[[], int],
        attempt_id: int | None, *, resume: str | None = None,
    ) -> None:  # fmt: skip
        """``begin`` starts the attempt row; it runs at the first answer saved, so quitting
        before answering leaves no trace in the history. ``resume`` is the command that
        carries on after a failure (default: `lessonkit quiz SLUG`)."""
        self.store, self.ui, self.slug, self.begin = store, ui, slug, begin
        self.resume = resume or f"lessonkit quiz {slug}"
        self.attempt_id = attempt_id
        self.pending: list[Pending] = []

    def add(self, answer: Pending) -> None:
        earlier = len(self.pending)
        self.pending.append(answer)
        error = self._save()
        if error is not None:
            self.ui.unsaved(error, len(self.pending))
        elif earlier:
            self.ui.caught_up(earlier)

    def settle(self, clock: Clock) -> bool:
        """At the end: one more try, then the recovery file. True when nothing is unsaved."""
        if not self.pending:
            return True
        count = len(self.pending)
        try:
            error = self._save()
        except KeyboardInterrupt:  # Ctrl-C while waiting on a locked database: stop waiting
            error = "interrupted while saving"
        if error is None:
            self.ui.caught_up(count)
            return True
        lines = [
            json.dumps(a.to_json(self.slug, self.attempt_id), ensure_ascii=False)
            for a in self.pending
        ]
        path = self.store.path.with_name(
            f"{self.store.path.stem}.unsaved-{clock().astimezone(UTC):%Y%m%dT%H%M%S}.jsonl"
        )
        try:
            # Appending: a file left by an earlier failure in the same second is kept whole.
            with path.open("a", encoding="utf-8") as out:
                out.write("".join(line + "\n" for line in lines))
        except OSError as problem:  # the same full disk, often: the screen is what is left
            self.ui.rescued(self.resume, error, path, lines, problem.strerror or str(problem))
        else:
            self.ui.rescued(self.resume, error, path, lines, None)
        return False

    def _save(self) -> str | None:
        """Save every pending answer in order; the reason when the database refuses."""
        from lessonkit.store import StoreError

        try:
            if self.attempt_id is None:
                self.attempt_id = self.begin()
            while self.pending:
                self.store.record_answer(self.attempt_id, **vars(self.pending[0]))
                self.pending.pop(0)
        except StoreError as error:
            return str(error)
        return None


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
        return _grade_file(compiled, answers, as_json=as_json, stdout=stdout)
    if as_json:
        raise UsageError("--json reports on a graded answers file: add --answers FILE")
    ui = make_ui(stdin, stdout, no_color=no_color)
    from lessonkit.store import Store

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

    if not ask(ui, attempt, compiled.lesson, grading, commit):
        if not recorder.settle(clock):
            return EXIT_UNSAVED
        ui.saved(compiled.slug, interrupted=False)
        return 0
    result = session.summarise(attempt, compiled.lesson)
    ui.summary(compiled, attempt, result)
    if not recorder.settle(clock):
        return EXIT_UNSAVED  # left unfinished: resuming asks again what is not saved
    assert recorder.attempt_id is not None  # every question answered and saved
    from lessonkit.store import StoreError

    try:
        store.finish_attempt(recorder.attempt_id, finished=clock(), passed=result.passed)
    except StoreError as error:
        ui.unfinished(compiled.slug, str(error))
        return EXIT_UNSAVED
    return 0


def _tell_key_changes(
    ui: PlainUi, store: Store, slug: str, keys: Mapping[str, str], clock: Clock
) -> None:
    """Say once per changed answer key that earlier answers to it no longer count for review."""
    from lessonkit.store import StoreError

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
        resume = ui.confirm(
            f"You have an unfinished attempt ({len(unfinished.answered)} of "
            f"{len(unfinished.order)} answered). Resume it?"
        )
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


def _new_seed() -> int:
    import random

    return random.SystemRandom().randrange(100_000, 1_000_000)  # short enough to retype


def _grade_file(compiled: catalog.Compiled, path: Path, *, as_json: bool, stdout: IO[str]) -> int:
    given = responses.read_answers(path, compiled.bank["questions"])
    attempt = session.grade_all(compiled.slug, compiled.bank, {k: r for k, (r, _) in given.items()})
    result = session.summarise(attempt, compiled.lesson)
    if as_json:
        stdout.write(json.dumps(session.report(attempt, result), indent=2, ensure_ascii=False))
        stdout.write("\n")
        return 0
    PlainUi(sys.stdin, stdout, echo=False).graded(compiled, attempt, result)
    return 0
