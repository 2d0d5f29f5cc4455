"""The terminal quiz: the only module that prompts and prints.

The first question is shown from plain JSON (see ``catalog``); pydantic, the grader
and rich are imported only after that, while the learner reads. Every answer is
committed to the history database the moment it is graded, before its feedback.
Plain line-based output (stdin or stdout not a terminal) is meant for screen readers
and scripts: no colour, no cursor movement, the answer echoed when it came from a pipe.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lessonkit import catalog, responses, session
from lessonkit.errors import UsageError

if TYPE_CHECKING:
    from rich.console import Console

    from lessonkit.grader import Grade, Response
    from lessonkit.store import Store

Clock = Callable[[], datetime]
OnAnswer = Callable[[str, "Response", "Grade"], None]
QuestionData = Mapping[str, Any]
TICK, CROSS, HALF = session.TICK, session.CROSS, "\u25d0"  # ◐: partly right


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _verdict(grade: Grade) -> tuple[str, str]:
    if grade.correct:
        return TICK, "Correct"
    return (HALF, "Partly correct") if grade.score > 0 else (CROSS, "Incorrect")


# --- output ------------------------------------------------------------------


class PlainUi:
    """Line-based prompts and results: what a screen reader or a script reads."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, echo: bool) -> None:
        self.stdin, self.stdout, self.echo = stdin, stdout, echo

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def stress(self, text: str, style: str) -> None:
        """A line that a terminal shows in ``style``; plain output has only the words."""
        self.say(text)

    def notice(self, text: str) -> None:
        self.say(f"Note: {text}")

    def read(self, prompt: str = "Answer (? hint, q save and quit): ") -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if self.echo:  # a piped answer is not echoed by a terminal; show it in the transcript
            self.say(line.rstrip("\n"))
        return line

    def confirm(self, question: str) -> bool | None:
        while True:
            line = self.read(f"{question} [y/n]: ")
            if line is None:
                return None
            answer = line.strip().casefold()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.say("Type y or n.")

    def header(self, compiled: catalog.Compiled, attempt: session.Attempt) -> None:
        bank, count = compiled.bank, len(attempt.plan.order)
        self.stress(f"Quiz: {bank['title']}", "bold")
        if compiled.lesson and compiled.lesson["title"] != bank["title"]:
            self.say(f"Lesson: {compiled.lesson['title']}")
        self.say(
            f"{count} question{'s' if count != 1 else ''}, pass mark "
            f"{session.percent(float(bank['pass_mark']))}. Seed {attempt.plan.seed} "
            "(--seed repeats this order)."
        )
        if attempt.marks:
            self.say(f"Resuming: {len(attempt.marks)} answered, {len(attempt.remaining())} to go.")
        self.say("Type ? for a hint, q to save and quit; answers are saved as you go.")

    def question(
        self, number: int, total: int, done: int, question: QuestionData, display: Sequence[int]
    ) -> None:
        self.say()
        self.say(f"Question {number} of {total}  {_bar(done, total)}  {done} answered")
        self.say(str(question["prompt"]).strip())
        for line in responses.listing(question, display):
            self.say(line)
        self.say(responses.expected_form(question))
        self.stdout.flush()

    def hint(self, text: str | None) -> None:
        self.say(f"Hint: {text}" if text else "There is no hint for this question.")

    def invalid(self, message: str) -> None:
        self.say(f"Not counted: {message}")

    def feedback(
        self, question: QuestionData, grade: Grade, answer: str | None, where: session.Section
    ) -> None:
        symbol, words = _verdict(grade)
        style = "green" if grade.correct else "yellow" if grade.score else "red"
        earned = session.points(grade.score, grade.max_score)
        self.stress(f"{symbol} {words}: {earned}.", f"bold {style}")
        if answer is not None and not grade.correct:
            self.say(f"The answer: {answer}")
        for text in grade.feedback:
            self.say(f"- {text}")
        self.say(f"Why: {str(question['explanation']).strip()}")
        self.say(f"Re-read: {where}")
        if where.url:
            self.say(f"  {session.link(where)}")

    def saved(self, slug: str, *, interrupted: bool) -> None:
        why = "Stopped." if interrupted else "Saved."
        self.say(f"{why} Your answers so far are kept; run `lessonkit quiz {slug}` to resume.")

    def unsaved(self, error: str, waiting: int) -> None:
        """A save failed; the answer (and any before it) is kept and tried again."""
        self.stress(f"Warning: {error}.", "bold yellow")
        if waiting == 1:
            self.say(
                "Your answer still counts: it is kept here and saved with your next "
                "answer or at the end."
            )
        else:
            self.say(
                f"Your {waiting} unsaved answers still count: they are kept here and saved "
                "with your next answer or at the end."
            )

    def caught_up(self, count: int) -> None:
        self.say(
            f"Saved now: the {_count(count, 'earlier answer')} that could not be saved before."
        )

    def rescued(
        self, slug: str, error: str, path: Path, lines: Sequence[str], failure: str | None
    ) -> None:
        """Answers the database would not take, written to ``path`` (or, failing that, here)."""
        self.stress(
            f"Could not save {_count(len(lines), 'answer')} to your history: {error}.", "bold red"
        )
        if failure is None:
            self.say(
                f"Nothing you typed is lost: {path} holds "
                f"{'it' if len(lines) == 1 else 'them'}, one answer per line (JSON)."
            )
        else:
            self.say(
                f"Writing {path} failed too ({failure}), so here "
                f"{'it is' if len(lines) == 1 else 'they are'}: copy this somewhere safe."
            )
            for line in lines:
                self.say(line)
        self.say(
            "When the history can be written again (free some disk space, or close the "
            f"other lessonkit window using it), run `lessonkit quiz {slug}` to resume; "
            "questions whose answers were not saved are asked again."
        )

    def unfinished(self, slug: str, error: str) -> None:
        self.stress(f"Could not mark the attempt finished: {error}.", "bold red")
        self.say(f"Every answer is saved. Run `lessonkit quiz {slug} --resume` later to finish it.")

    def summary(
        self, compiled: catalog.Compiled, attempt: session.Attempt, result: session.Summary
    ) -> None:
        self.say()
        self.say(f"Summary: {compiled.bank['title']}")
        for label, value in session.summary_rows(result):
            self.say(f"{label}: {value}")
        self.say(session.next_step(compiled.slug))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return "[" + "#" * filled + "-" * (width - filled) + "]"


class RichUi(PlainUi):
    """The terminal version: Markdown prompts, a progress bar, tables (NO_COLOR honoured)."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, no_color: bool) -> None:
        super().__init__(stdin, stdout, echo=False)
        from rich.console import Console

        self.console: Console = Console(file=stdout, no_color=no_color or None, highlight=False)

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def stress(self, text: str, style: str) -> None:
        self.console.print(text, style=style, markup=False)

    def read(self, prompt: str = "Answer (? hint, q save and quit): ") -> str | None:
        from rich.text import Text

        try:  # Text, not markup: `[y/n]` in a prompt is not a style tag
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.say()
            return None

    def question(
        self, number: int, total: int, done: int, question: QuestionData, display: Sequence[int]
    ) -> None:
        from rich.markdown import Markdown
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        self.console.rule()
        row = Table.grid(padding=(0, 2))
        row.add_row(
            f"Question {number} of {total}", ProgressBar(total, done, width=30), f"{done} answered"
        )
        self.console.print(row)
        self.console.print(Markdown(str(question["prompt"])))
        for line in responses.listing(question, display):
            self.say(line)
        self.console.print(responses.expected_form(question), style="italic", markup=False)

    def summary(
        self, compiled: catalog.Compiled, attempt: session.Attempt, result: session.Summary
    ) -> None:
        from rich.table import Table

        table = Table(title=f"Summary: {compiled.bank['title']}", show_header=False)
        for label, value in session.summary_rows(result):
            table.add_row(label, value)
        self.console.print(table)
        self.say(session.next_step(compiled.slug))


def make_ui(stdin: IO[str], stdout: IO[str], *, no_color: bool = False) -> PlainUi:
    """Rich on a real terminal (both ends), plain lines otherwise or with TERM=dumb."""
    terminal = _isatty(stdin) and _isatty(stdout) and os.environ.get("TERM") != "dumb"
    if terminal:
        return RichUi(stdin, stdout, no_color=no_color)
    return PlainUi(stdin, stdout, echo=not _isatty(stdin))


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --- asking ------------------------------------------------------------------


def ask(
    ui: PlainUi,
    attempt: session.Attempt,
    lesson: Mapping[str, Any] | None,
    grading: session.Grading,
    on_answer: OnAnswer,
    after_feedback: Callable[[], None] | None = None,
) -> bool:
    """Ask every remaining question of ``attempt``; False when the learner quit first.

    ``on_answer(question_id, response, grade)`` runs for every graded answer before
    its feedback is shown: that is where the caller commits it. ``after_feedback()``
    runs once that feedback has been shown.
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
        if after_feedback is not None:
            after_feedback()
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
    ask(ui, attempt, compiled.lesson, session.Grading(compiled.bank), on_answer)
    return attempt


# --- saving answers ------------------------------------------------------------

# `lessonkit` exits 1 for any lessonkit error; unsaved answers are one, even after a summary.
EXIT_UNSAVED = 1


@dataclass(frozen=True)
class Pending:
    """A graded answer the history database has not taken yet."""

    question_id: str
    key_hash: str
    response: Any
    score: float
    max_score: float
    correct: bool
    answered: datetime

    def to_json(self, slug: str, attempt_id: int | None) -> dict[str, Any]:
        """One line of the recovery file: enough to put the answer back by hand."""
        return {
            "quiz": slug,
            "attempt_id": attempt_id,
            "question_id": self.question_id,
            "key_hash": self.key_hash,
            "response": self.response,
            "score": self.score,
            "max_score": self.max_score,
            "correct": self.correct,
            "answered": self.answered.astimezone(UTC).isoformat(),
        }


class Recorder:
    """Saves each graded answer at once, and never drops one the database refuses.

    A refused answer stays in memory and is saved with the next answer; ``settle`` tries
    once more at the end and writes whatever is still unsaved to a recovery file beside
    the database. A full disk or a database locked by another window is usually brief.
    """

    def __init__(
        self, store: Store, ui: PlainUi, slug: str, begin: Callable[[], int], attempt_id: int | None
    ) -> None:
        self.store, self.ui, self.slug = store, ui, slug
        self.attempt_id = attempt_id
        self.pending: list[Pending] = []
        self._begin = begin

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
            self.ui.rescued(self.slug, error, path, lines, problem.strerror or str(problem))
        else:
            self.ui.rescued(self.slug, error, path, lines, None)
        return False

    def _save(self) -> str | None:
        """Save every pending answer in order; the reason when the database refuses."""
        from lessonkit.store import StoreError

        try:
            # Begun at the first answer: quitting at once leaves no trace.
            if self.attempt_id is None:
                self.attempt_id = self._begin()
            while self.pending:
                a = self.pending[0]
                self.store.record_answer(
                    self.attempt_id,
                    question_id=a.question_id,
                    key_hash=a.key_hash,
                    response=a.response,
                    score=a.score,
                    max_score=a.max_score,
                    correct=a.correct,
                    answered=a.answered,
                )
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
        recorder = _recorder(ui, store, compiled, *started, clock)
        return _take(ui, store, compiled, started[0], recorder, clock)
    except KeyboardInterrupt:
        ui.say()
        if recorder is not None and not recorder.settle(clock):
            return 130
        ui.saved(compiled.slug, interrupted=True)
        return 130
    finally:
        store.close()


def _recorder(
    ui: PlainUi,
    store: Store,
    compiled: catalog.Compiled,
    attempt: session.Attempt,
    attempt_id: int | None,
    clock: Clock,
) -> Recorder:
    def begin() -> int:
        return store.begin_attempt(
            bank=compiled.slug,
            seed=attempt.plan.seed,
            order=attempt.plan.order,
            started=attempt.started,
            pass_mark=float(compiled.bank["pass_mark"]),
        )

    return Recorder(store, ui, compiled.slug, begin, attempt_id)


def _take(
    ui: PlainUi,
    store: Store,
    compiled: catalog.Compiled,
    attempt: session.Attempt,
    recorder: Recorder,
    clock: Clock,
) -> int:
    ui.header(compiled, attempt)
    grading = session.Grading(compiled.bank)

    def commit(question_id: str, response: Response, grade: Grade) -> None:
        recorder.add(
            Pending(
                question_id,
                grading.key_hash(question_id),
                responses.to_json(response),
                grade.score,
                grade.max_score,
                grade.correct,
                clock(),
            )
        )

    told = False

    def tell_key_changes() -> None:
        # After the first feedback, not before the first question: the key hashes need the
        # grader's pydantic models, which the first question is shown without (start-up).
        nonlocal told
        if not told:
            told = True
            _tell_key_changes(ui, store, compiled.slug, grading, clock)

    if not ask(ui, attempt, compiled.lesson, grading, commit, tell_key_changes):
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
    ui: PlainUi, store: Store, slug: str, grading: session.Grading, clock: Clock
) -> None:
    """Say once per changed answer key that earlier answers to it no longer count for review."""
    from lessonkit.store import StoreError

    keys = grading.key_hashes()
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
    ui = PlainUi(sys.stdin, stdout, echo=False)
    for question_id in attempt.plan.order:
        mark = attempt.marks.get(question_id)
        said = session.points(mark.score, mark.max_score) if mark else "not answered"
        ui.say(f"{TICK if mark and mark.correct else CROSS} {question_id}: {said}")
    ui.summary(compiled, attempt, result)
    return 0
