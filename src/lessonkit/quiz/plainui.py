"""The quiz's plain UI: line-based prompts, questions and feedback, and the base of ``richui``.

Plain line-based output (stdin or stdout not a terminal, or TERM=dumb) is meant for
screen readers and scripts: no colour, no cursor movement, the answer echoed when it
came from a pipe. ``RichUi`` (``richui``) overrides the drawing for a real terminal;
``terminal.make_ui`` chooses between them.
"""

from __future__ import annotations

import contextlib
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from lessonkit.course import catalog
from lessonkit.course.invocation import program
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion
from lessonkit.quiz import keyboard, markup, session, summary

if TYPE_CHECKING:
    from lessonkit.grading.credit import Grade

ANSWER_PROMPT = "Answer: "
TICK, CROSS, HALF = summary.TICK, summary.CROSS, "\u25d0"  # ◐: partly right


def _verdict(grade: Grade) -> tuple[str, str]:
    if grade.correct:
        return TICK, "Correct"
    return (HALF, "Partly correct") if grade.score > 0 else (CROSS, "Incorrect")


class PlainUi:
    """Line-based prompts and results: what a screen reader or a script reads."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, echo: bool) -> None:
        self.stdin, self.stdout, self.echo = stdin, stdout, echo
        self.pauses = False  # wait for Enter after feedback (`terminal.make_ui` decides)

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def stress(self, text: str, style: str) -> None:
        """A line that a terminal shows in ``style``; plain output has only the words."""
        self.say(text)

    def notice(self, text: str) -> None:
        self.say(f"Note: {text}")

    def read(self, prompt: str = ANSWER_PROMPT) -> str | None:
        if self._line_editing():
            return self._edit_line(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if self.echo:  # a piped answer is not echoed by a terminal; show it in the transcript
            self.say(line.rstrip("\n"))
        return line

    def fresh(self) -> None:
        """A new question is on screen: drop anything typed or pasted ahead of it.

        Only a terminal is flushed; piped answers are a script and are all meant.
        """
        if self._line_editing():
            import termios

            # Not flushable after all? The answer is still parsed one question at a time.
            with contextlib.suppress(OSError, termios.error, ValueError):
                termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)

    def _line_editing(self) -> bool:
        """input() with readline: arrow keys, Home/End, word deletion, Up for earlier lines.

        Only when this UI talks to the process's own terminal, as input() reads sys.stdin.
        """
        return (
            self.stdin is sys.stdin
            and self.stdout is sys.stdout
            and isatty(self.stdin)
            and isatty(self.stdout)
        )

    def _edit_line(self, prompt: str, typed: str = "") -> str | None:
        while True:
            try:
                return keyboard.read_line(self._prompt(prompt), typed)
            except keyboard.Redraw as redraw:  # stopped and continued, or resized
                typed = redraw.typed
                self.redraw(resized=redraw.resized)
            except EOFError:
                self.say()
                return None

    def redraw(self, *, resized: bool) -> None:
        """Before a prompt is drawn again, what was typed still in it: after Ctrl-Z and
        `fg` the shell has written below it, so it starts on a line of its own."""
        if not resized:
            self.stdout.write("\n")

    def _prompt(self, prompt: str) -> str:
        return prompt

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
            f"{summary.percent(float(bank['pass_mark']))}. Seed {attempt.plan.seed} "
            "(--seed repeats this order)."
        )
        if attempt.marks:
            self.say(f"Resuming: {len(attempt.marks)} answered, {len(attempt.remaining())} to go.")
        self.say(
            "Type q to save and quit, u to take back your last answer; answers are saved as you go."
        )

    def question(
        self,
        number: int,
        total: int,
        done: int,
        question: RuntimeQuestion,
        display: Sequence[int],
    ) -> None:
        kind = registry.of(question)
        self.say()
        self.say(f"Question {number} of {total}  {text_bar(done, total)}  {done} answered")
        self.say(markup.plain(question.prompt))
        for line in kind.listing(question, display):
            self.say(_item(line, "  "))
        self.say(markup.plain(kind.expected_form(question)))
        self.stdout.flush()

    def recalled(
        self, number: int, total: int, question: RuntimeQuestion, display: Sequence[int]
    ) -> None:
        """A past question (`lessonkit history SLUG N`): the prompt and choices as shown."""
        self.say()
        self.stress(f"Question {number} of {total}", "bold")
        self.say(markup.plain(question.prompt))
        for line in registry.of(question).listing(question, display):
            self.say(_item(line, "  "))

    def unanswered(self, where: summary.Section) -> None:
        """A question of an unfinished attempt not answered yet (its answer stays unsaid:
        the learner may still resume, or meet it in the next attempt)."""
        self.stress("Not answered.", "bold")
        self.reread(where)

    def hint(self, text: str | None) -> None:
        self.say(f"Hint: {markup.plain(text)}" if text else "There is no hint for this question.")

    def undone(self, number: int) -> None:
        self.say(f"Taken back: your answer to question {number}. Answer it again.")

    def more_lines(self, first: str, longest: int) -> str | None:
        """The rest of a several-line answer, up to an empty line; None when input ends."""
        lines = [first.rstrip("\n")]
        while True:
            line = self.read("... ")
            if line is None:
                return None
            line = line.rstrip("\n")
            if len(line) > longest:
                self.invalid(f"that line is {len(line):,} characters long; a line is at most "
                             f"{longest}. Type it again, shorter.")  # fmt: skip
                continue
            if not line.strip():
                return "\n".join(lines)
            lines.append(line)

    def invalid(self, message: str) -> None:
        self.say(f"Not counted: {message}")

    def feedback(
        self,
        question: RuntimeQuestion,
        grade: Grade,
        given: Sequence[str],
        answer: Sequence[str] | None,
        chosen: Sequence[tuple[str, str]],
        where: summary.Section,
        marks: Sequence[bool] | None = None,
    ) -> None:
        """What was answered, whether it was right, the right answer, then why: all in words.

        ``marks`` says, line by line of ``given``, which pairs or placings were right.
        """
        symbol, words = _verdict(grade)
        # Options, items and pairs are the author's Markdown; a typed answer is shown as typed.
        kind = registry.of(question)
        authored = kind.authored
        label = "You answered:"
        if marks is not None and kind.marks_meaning:
            label = f"You answered ({TICK} {kind.marks_meaning}):"
        self.said(label, given, markdown=authored, marks=marks)
        style = "green" if grade.correct else "yellow" if grade.score else "red"
        earned = summary.points(grade.score, grade.max_score)
        self.stress(f"{symbol} {words}: {earned}.", f"bold {style}")
        if answer is not None and not grade.correct:
            if marks is not None and kind.wrong_parts and any(marks):
                # The parts marked ✓ are right as given: only the others are worth reading.
                wrong = [line for line, right in zip(answer, marks, strict=True) if not right]
                self.said(f"The right answer for the {CROSS} {kind.wrong_parts}:", wrong,
                          markdown=authored)  # fmt: skip
            else:
                self.said("The right answer:", answer, markdown=authored)
        for label, text in chosen:
            self.said(f"Feedback on your choice ({label}):", [text])
        if not authored:  # choices show the grader's feedback above, as the author's
            for note in grade.feedback:
                self.said("Note:", [note], markdown=False)
        self.said("Why:", [question.explanation])
        self.reread(where)

    def said(
        self,
        label: str,
        lines: Sequence[str],
        *,
        markdown: bool = True,
        marks: Sequence[bool] | None = None,
    ) -> None:
        """A label and Markdown text: on one line when it is short, else indented below it.

        ``marks`` puts ✓ or ✗ before each line.
        """
        ticks = [f"{TICK if right else CROSS} " for right in marks] if marks else [""] * len(lines)
        texts = [
            _item(line, tick) if markdown else tick + line
            for line, tick in zip(lines, ticks, strict=True)
        ]
        if len(texts) == 1 and "\n" not in texts[0] and not marks:
            self.say(f"{label} {texts[0]}")
            return
        self.say(label)
        for text in texts:
            self.say(textwrap.indent(text, "  ", lambda _: True))

    def reread(self, where: summary.Section) -> None:
        self.say(f"Re-read: {where}")
        self.say(f"  {summary.link(where)}")

    def saved(self, slug: str, *, interrupted: bool, answered: bool = True) -> None:
        """Said on quitting; ``answered`` is False when nothing was saved to resume."""
        why = "Stopped." if interrupted else "Saved."
        if not answered:
            self.say(f"{'Stopped' if interrupted else 'Quit'} before any answer, so there is "
                     f"nothing to resume; `{program()} quiz {slug}` starts again.")  # fmt: skip
            return
        self.say(f"{why} Your answers so far are kept; run `{program()} quiz {slug}` to resume.")

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
            f"Saved now: the {counted(count, 'earlier answer')} that could not be saved before."
        )

    def rescued(
        self, resume: str, error: str, path: Path, lines: Sequence[str], failure: str | None
    ) -> None:
        """Answers the database would not take, written to ``path`` (or, failing that, here).

        ``resume`` is the command that carries on, e.g. `lessonkit quiz gpu-vs-tpu`.
        """
        self.stress(
            f"Could not save {counted(len(lines), 'answer')} to your history: {error}.", "bold red"
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
            f"other lessonkit window using it), run `{resume}` to carry on; "
            "questions whose answers were not saved are asked again."
        )

    def unfinished(self, slug: str, error: str) -> None:
        self.stress(f"Could not mark the attempt finished: {error}.", "bold red")
        self.say(
            f"Every answer is saved. Run `{program()} quiz {slug} --resume` later to finish it."
        )

    def graded(
        self, compiled: catalog.Compiled, attempt: session.Attempt, result: summary.Summary
    ) -> None:
        """An answers file's result: a line per question in bank order, then the summary."""
        for question_id in attempt.plan.order:
            mark = attempt.marks.get(question_id)
            said = summary.points(mark.score, mark.max_score) if mark else "not answered"
            self.say(f"{TICK if mark and mark.correct else CROSS} {question_id}: {said}")
        self.summary(compiled, attempt, result)

    def summary(
        self,
        compiled: catalog.Compiled,
        attempt: session.Attempt,
        result: summary.Summary,
        every: str | None = None,
    ) -> None:
        """The summary; ``every`` is the command that shows every question of the attempt."""
        self.say()
        for _, line in summary.summary_lines(
            compiled.bank["title"], compiled.slug, result, every=every
        ):
            self.say(line)


def split_marker(line: str) -> tuple[str, str]:
    """`  2. TPU` as (`2.`, `TPU`): the number kept out of Markdown, which would renumber it."""
    number, space, text = line.strip().partition(" ")
    if space and re.fullmatch(r"\d+\.|[a-z]\.", number):
        return number, text.strip()
    return "", line.strip()


def _item(line: str, indent: str) -> str:
    """A numbered line of Markdown as plain text, its later lines under the text (hanging)."""
    marker, text = split_marker(line)
    body = textwrap.dedent(markup.plain(text))
    lead = f"{indent}{marker} " if marker else indent
    first, *rest = body.split("\n")
    return "\n".join([lead + first, *(" " * len(lead) + r if r else "" for r in rest)])


def counted(number: int, noun: str) -> str:
    """`1 answer`, `2 answers`."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def text_bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
