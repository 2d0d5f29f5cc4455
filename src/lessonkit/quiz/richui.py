"""The quiz's terminal UI on a real terminal: rich draws Markdown, progress and the summary.

rich itself is imported inside the methods, when a terminal UI is made, so piped
quizzes and screen readers never pay for it (see ``terminal.make_ui``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, TYPE_CHECKING

from lessonkit.course import catalog
from lessonkit.grading import responses
from lessonkit.quiz import markup, session
from lessonkit.quiz.plainui import ANSWER_PROMPT, PlainUi, QuestionData, split_marker, text_bar

if TYPE_CHECKING:
    from rich.console import Console


class RichUi(PlainUi):
    """The terminal version: Markdown prompts, a progress bar, tables (NO_COLOR honoured)."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, no_color: bool) -> None:
        super().__init__(stdin, stdout, echo=False)
        from rich.console import Console

        self.console: Console = Console(file=stdout, no_color=no_color or None, highlight=False)
        self.console.width = min(self.console.width, markup.MEASURE)

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def stress(self, text: str, style: str) -> None:
        self.console.print(text, style=style, markup=False)

    def _prompt(self, prompt: str) -> str:
        if self.console.no_color or not self.console.is_terminal:
            return prompt
        # \001 and \002 tell readline the escapes take no room, so editing keeps its place.
        return f"\001\x1b[1m\002{prompt}\001\x1b[0m\002"

    def read(self, prompt: str = ANSWER_PROMPT) -> str | None:
        if self._line_editing():
            return self._edit_line(prompt)
        from rich.text import Text

        try:  # Text, not markup: `[y/n]` in a prompt is not a style tag
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.say()
            return None

    def question(
        self, number: int, total: int, done: int, question: QuestionData, display: Sequence[int]
    ) -> None:
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        self.console.rule()
        row = Table.grid(padding=(0, 2))
        # Without colour rich's bar is blank: the text bar then shows the progress.
        bar = Text(text_bar(done, total)) if self.console.no_color else ProgressBar(total, done, 30)
        row.add_row(f"Question {number} of {total}", bar, f"{done} answered")
        self.console.print(row)
        self.console.print(markup.rich(str(question["prompt"])))
        self._choices(responses.listing(question, display))
        self.console.print(markup.rich(responses.expected_form(question)), style="italic")

    def _choices(self, lines: Sequence[str], indent: int = 2) -> None:
        """Numbered lines with Markdown text, wrapped under the text, not under the number."""
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for line in lines:
            number, text = split_marker(line)
            grid.add_row(
                " " * (indent - 1) + number if number else " " * (indent - 1), markup.rich(text)
            )
        self.console.print(grid)

    def hint(self, text: str | None) -> None:
        if not text:
            super().hint(text)
            return
        self.said("Hint:", [text])

    def said(self, label: str, lines: Sequence[str], *, markdown: bool = True) -> None:
        from rich.table import Table
        from rich.text import Text

        narrow = len(label) * 5 > self.console.width * 2  # a wide label would squeeze the text
        if len(lines) == 1 and "\n" not in lines[0].strip() and not narrow:
            marker, text = split_marker(lines[0])
            grid = Table.grid(padding=(0, 1))
            for _ in range(3 if marker else 2):
                grid.add_column(no_wrap=True)
            grid.columns[-1].no_wrap = False
            body = markup.rich(text) if markdown else Text(text)
            grid.add_row(label, *([marker] if marker else []), body)
            self.console.print(grid)
            return
        self.console.print(label, markup=False)
        if markdown:
            self._choices(lines, indent=3)
        else:
            for line in lines:
                self.console.print(Text("   " + line))

    def reread(self, where: session.Section) -> None:
        self.console.print(f"Re-read: {where}", markup=False)
        # soft_wrap: a long address is wrapped by the terminal, never broken by a newline.
        self.console.print(f"  {session.link(where)}", markup=False, soft_wrap=True)

    def summary(
        self, compiled: catalog.Compiled, attempt: session.Attempt, result: session.Summary
    ) -> None:
        self.console.rule()
        styles = {"title": "bold", "score": "bold", "missed": "", "insight": "", "next": "italic"}
        for kind, line in session.summary_lines(compiled.bank["title"], compiled.slug, result):
            style = styles.get(kind, "bold green" if result.passed else "bold red")
            if kind == "insight":  # one line: an insight too long for the screen is shortened
                self.console.print(line, style=style, markup=False, no_wrap=True,
                                   overflow="ellipsis")  # fmt: skip
            else:  # a command is never cut: the terminal wraps it, copy and paste still work
                self.console.print(line, style=style, markup=False, soft_wrap=True)
