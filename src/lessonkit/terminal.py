"""The terminal UI of `lessonkit quiz` and `lessonkit review`: prompts, questions, feedback.

Plain line-based output (stdin or stdout not a terminal, or TERM=dumb) is meant for
screen readers and scripts: no colour, no cursor movement, the answer echoed when it
came from a pipe. On a terminal, rich draws Markdown prompts, a progress bar and tables;
it is imported only when a terminal UI is made, so piped quizzes never pay for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lessonkit import catalog, responses, session

if TYPE_CHECKING:
    from rich.console import Console

    from lessonkit.grader import Grade

QuestionData = Mapping[str, Any]
TICK, CROSS, HALF = session.TICK, session.CROSS, "\u25d0"  # ◐: partly right


def _verdict(grade: Grade) -> tuple[str, str]:
    if grade.correct:
        return TICK, "Correct"
    return (HALF, "Partly correct") if grade.score > 0 else (CROSS, "Incorrect")


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
        self, resume: str, error: str, path: Path, lines: Sequence[str], failure: str | None
    ) -> None:
        """Answers the database would not take, written to ``path`` (or, failing that, here).

        ``resume`` is the command that carries on, e.g. `lessonkit quiz gpu-vs-tpu`.
        """
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
            f"other lessonkit window using it), run `{resume}` to carry on; "
            "questions whose answers were not saved are asked again."
        )

    def unfinished(self, slug: str, error: str) -> None:
        self.stress(f"Could not mark the attempt finished: {error}.", "bold red")
        self.say(f"Every answer is saved. Run `lessonkit quiz {slug} --resume` later to finish it.")

    def graded(
        self, compiled: catalog.Compiled, attempt: session.Attempt, result: session.Summary
    ) -> None:
        """An answers file's result: a line per question in bank order, then the summary."""
        for question_id in attempt.plan.order:
            mark = attempt.marks.get(question_id)
            said = session.points(mark.score, mark.max_score) if mark else "not answered"
            self.say(f"{TICK if mark and mark.correct else CROSS} {question_id}: {said}")
        self.summary(compiled, attempt, result)

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
