"""The question loop: show a question, read what is typed, grade, save, show why, pause.

``ask`` is shared by `lessonkit quiz` (``runner``) and `lessonkit review`; the caller
commits each answer in ``on_answer`` before its feedback is shown. Text that is not
an answer (`?` hint, `u` undo, `q` quit) is read here too, and refused answers are
asked again with the form expected.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lessonkit.course import catalog
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError, RuntimeQuestion
from lessonkit.quiz import session, summary
from lessonkit.quiz.effort import Effort
from lessonkit.quiz.plainui import PlainUi

if TYPE_CHECKING:
    from lessonkit.grading.credit import Grade, Response

OnAnswer = Callable[[str, "Response", "Grade"], None]
OnUndo = Callable[[str], None]


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
    ``effort``, when given, is told when each question is shown and when its hint is
    asked for. On a terminal the feedback stays on screen until the learner presses Enter.
    """
    total = len(attempt.plan.order)
    while rest := attempt.remaining():
        question_id = rest[0]
        question = attempt.question(question_id)
        display = attempt.plan.displays[question_id]
        ui.question(attempt.number(question_id), total, len(attempt.marks), question, display)
        ui.fresh()  # a paste ahead of this question must not answer it
        if effort is not None:
            effort.shown(question_id)
        hinted = None if effort is None else functools.partial(effort.hinted, question_id)
        got = _read_response(ui, question, display, undo=last is not None, on_hint=hinted)
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
    mark = session.Mark(
        registry.to_json(question, response), grade.score, grade.max_score, grade.correct,
        attempt.plan.numbers.get(question_id),
    )  # fmt: skip
    attempt.record(question_id, mark)
    kind = registry.of(question)
    key = kind.shown_key(question, drawn=question_id in attempt.plan.numbers)
    ui.feedback(
        question,
        grade,
        kind.echoed(question, typed, response, display),
        None if key is None else kind.described(question, key, display),
        kind.chosen_feedback(question, response, display),
        summary.section(attempt.bank, lesson, question.section),
        kind.part_marks(question, response),
    )


def _pause(ui: PlainUi, attempt: session.Attempt) -> Command | bool | None:
    """Keep the feedback on screen until Enter: True to go on, UNDO, or None to quit."""
    rest = attempt.remaining()
    coming = f"question {attempt.number(rest[0])}" if rest else "your summary"
    ui.fresh()  # Enter pressed twice by habit must not skip the next question's feedback
    # Short enough for a 50-column terminal: a prompt is not wrapped between words.
    text = ui.read(f"Press Enter for {coming} (u undo, q quit): ")
    command = None if text is None else text.strip().casefold()
    if command is None or command in ("q", "quit"):
        return None
    return Command.UNDO if command in ("u", "undo") else True


def answer_prompt(question: RuntimeQuestion, *, undo: bool) -> str:
    """`Answer (? hint, u undo, q save and quit): `, offering only what this question has."""
    offers = [*(["? hint"] if question.hint else []), *(["u undo"] if undo else []),
              "q save and quit"]  # fmt: skip
    return f"Answer ({', '.join(offers)}): "


def _read_response(
    ui: PlainUi,
    question: RuntimeQuestion,
    display: Sequence[int],
    *,
    undo: bool,
    on_hint: Callable[[], None] | None = None,
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
            ui.hint(question.hint)
            if on_hint is not None and question.hint:
                on_hint()
        elif command in ("q", "quit"):
            return None
        elif command in ("u", "undo") and undo:
            return Command.UNDO
        elif registry.of(question).multiline(question) and text.strip():
            lines = ui.more_lines(text, MAX_LINE)
            if lines is None:
                return None
            try:
                return registry.parse(question, lines, display), lines
            except ResponseError as error:
                ui.invalid(str(error))
        elif "\n" in text.strip():
            ui.invalid("that was several lines; type one answer on one line.")
        else:
            try:
                return registry.parse(question, text, display), text
            except ResponseError as error:
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
