"""The quiz's terminal UI on a real terminal: rich draws Markdown, progress and the summary.

rich itself is imported inside the methods, when a terminal UI is made, so piped
quizzes and screen readers never pay for it (see ``terminal.make_ui``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from lessonkit.course import catalog
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion
from lessonkit.quiz import keyboard, markup, session, summary
from lessonkit.quiz.plainui import (
    ANSWER_PROMPT,
    CROSS,
    TICK,
    PlainUi,
    split_marker,
    text_bar,
)

if TYPE_CHECKING:
    from rich.console import Console

MORE = "More below: press Enter "
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class RichUi(PlainUi):
    """The terminal version: Markdown prompts, a progress bar, tables (NO_COLOR honoured)."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, no_color: bool) -> None:
        super().__init__(stdin, stdout, echo=False)
        from rich.console import Console

        # No emoji: `:warning:` in a bank or an answer is shown as written, as the site shows it.
        self.console: Console = Console(
            file=stdout, no_color=no_color or None, highlight=False, emoji=False
        )
        self._fit()
        # The question on screen, to draw again at a new width; its choices while they can
        # be picked with the arrow keys, and how far above the cursor they start.
        self._shown: tuple[int, int, int, RuntimeQuestion, Sequence[int]] | None = None
        self._pick: keyboard.Pick | None = None
        self._pick_lines: Sequence[str] = ()
        self._pick_form, self._pick_note, self._pick_up = "", "", 0

    def _fit(self) -> None:
        """Take the terminal's width now: the window may have been resized since."""
        try:
            columns = os.get_terminal_size(self.stdout.fileno()).columns
        except (AttributeError, OSError, ValueError):  # not a terminal after all
            columns = self.console.width
        self.console.width = min(columns, markup.MEASURE)

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
        if self._pick is not None and self._line_editing():
            return self._read_pick(prompt, self._pick)
        if self._line_editing():
            return self._edit_line(prompt)
        from rich.text import Text

        try:  # Text, not markup: `[y/n]` in a prompt is not a style tag
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.say()
            return None

    def question(
        self,
        number: int,
        total: int,
        done: int,
        question: RuntimeQuestion,
        display: Sequence[int],
    ) -> None:
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        self._fit()
        self._shown, self._pick = (number, total, done, question, display), None
        self.console.rule()
        head, tail = f"Question {number} of {total}", f"{done} answered"
        room = min(self.console.width - len(head) - len(tail) - 4, 30)  # the bar fits the line
        row = Table.grid(padding=(0, 2))
        if room < 7:  # too narrow for a bar: the counts say it
            row.add_row(head, tail)
        elif self.console.no_color:  # rich's bar is blank without colour: a text bar
            row.add_row(head, Text(text_bar(done, total, min(room - 2, 20))), tail)
        else:
            row.add_row(head, ProgressBar(total, done, room), tail)
        self.console.print(row)
        self.console.print(markup.rich(question.prompt))
        kind = registry.of(question)
        lines, form = kind.listing(question, display), kind.expected_form(question)
        if kind.picking is not None and self._line_editing():
            several = kind.picking == "several"
            self._pick, self._pick_lines = keyboard.Pick(len(lines), several), lines
            self._pick_up, self._pick_note = 0, ""
            how = (
                "\u2191 \u2193 and Space to tick, then Enter"
                if several
                else "\u2191 \u2193 and Enter"
            )
            self._pick_form = f"{form.rstrip('.')}; or choose with {how}."
            if self._pick_block(self._pick, "").count("\n") + 2 < self._height():
                return  # the choices are drawn with the prompt, so they can be redrawn
            self._pick = None  # too tall to redraw in place: numbers only
        self._choices(lines)
        self.console.print(markup.rich(form), style="italic")

    def _height(self) -> int:
        try:
            return os.get_terminal_size(self.stdout.fileno()).lines
        except (AttributeError, OSError, ValueError):
            return 24

    def _pick_block(self, state: keyboard.Pick, prompt: str) -> str:
        """The choices (one highlighted, some ticked), what to type, a note, the prompt."""
        from rich.text import Text

        with self.console.capture() as captured:
            pointer = -1 if state.highlight is None else state.highlight
            self._choices(self._pick_lines, pointer=pointer,
                          ticked=state.ticked if state.several else None)  # fmt: skip
            self.console.print(markup.rich(self._pick_form), style="italic")
            if self._pick_note:
                self.console.print(self._pick_note, markup=False)
        line = Text(prompt, style="bold")
        line.append(state.text)
        with self.console.capture() as typed:
            self.console.print(line, end="", soft_wrap=True)
        return captured.get() + typed.get()

    def _read_pick(self, prompt: str, state: keyboard.Pick) -> str | None:
        """A choice answered by number or with the arrow keys, redrawn in place."""
        out = self.console.file

        def draw(now: keyboard.Pick) -> None:
            block = self._pick_block(now, prompt)
            up = f"\x1b[{self._pick_up}A" if self._pick_up else ""
            # The prompt line is left to the terminal to wrap: count the rows it takes.
            rows = max(len(prompt) + len(now.text) - 1, 0) // max(self.console.width, 1)
            back = len(now.text) - now.cursor if rows == 0 else 0  # cursor keys stay in a row
            out.write(f"\r{up}\x1b[J{block}" + (f"\x1b[{back}D" if back else ""))
            out.flush()
            self._pick_up = block.count("\n") + rows

        while True:
            try:
                text = keyboard.pick(self.stdin.fileno(), state, draw)
            except keyboard.Redraw as redraw:
                self.redraw(resized=redraw.resized)
                if self._pick is None:  # redrawn too tall to pick from: numbers only
                    return self._edit_line(prompt, redraw.typed)
                self._pick = state  # what was typed and ticked stays
                continue
            out.write("\n")
            self._pick_up += 1
            state.text, state.cursor = "", 0
            if text is None:
                self._pick = None
            return text

    def redraw(self, *, resized: bool) -> None:
        if resized and self._shown is not None:
            import time

            time.sleep(0.2)  # a window dragged wider sends many: draw once, at the end
            self.console.file.write("\x1b[H\x1b[2J")  # the old drawing is wrapped wrongly
            self.question(*self._shown)
            return
        super().redraw(resized=resized)
        self._pick_up = 0  # the choices are drawn afresh below

    def recalled(
        self, number: int, total: int, question: RuntimeQuestion, display: Sequence[int]
    ) -> None:
        self.console.rule()
        self.console.print(f"Question {number} of {total}", style="bold", markup=False)
        self.console.print(markup.rich(question.prompt))
        self._choices(registry.of(question).listing(question, display))

    def _choices(
        self,
        lines: Sequence[str],
        indent: int = 2,
        marks: Sequence[bool] | None = None,
        *,
        pointer: int | None = None,
        ticked: set[int] | None = None,
    ) -> None:
        """Numbered lines with Markdown text, wrapped under the text, not under the number.

        ``marks`` puts a ✓ or ✗ before each number; ``pointer`` points at the line the
        arrow keys have reached, and ``ticked`` ticks the lines chosen with Space.
        """
        from rich.table import Table
        from rich.text import Text

        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for n, line in enumerate(lines):
            number, text = split_marker(line)
            lead = Text(" " * (indent - 1))
            if pointer is not None:  # -1: the column is there, the pointer not yet
                lead = Text("\u276f " if n == pointer else "  ", style="bold")
            if ticked is not None:
                lead.append("[x] " if n in ticked else "[ ] ")
            if marks is not None:
                right = marks[n]
                lead.append(f"{TICK if right else CROSS} ", style="green" if right else "red")
            lead.append(number)
            grid.add_row(lead, markup.rich(text), style="reverse" if n == pointer else None)
        self.console.print(grid)

    def hint(self, text: str | None) -> None:
        if self._pick is not None:  # shown under the choices, which stay where they are
            self._pick_note = f"Hint: {markup.plain(text)}" if text else "There is no hint."
            return
        if not text:
            super().hint(text)
            return
        self.said("Hint:", [text])

    def invalid(self, message: str) -> None:
        if self._pick is not None:
            self._pick_note = f"Not counted: {message}"
            return
        super().invalid(message)

    def feedback(self, *args: Any, **kwargs: Any) -> None:
        self._pick, self._shown = None, None  # what follows is no longer the question
        if not (self.pauses and self._line_editing()):
            super().feedback(*args, **kwargs)
            return
        with self.console.capture() as captured:
            super().feedback(*args, **kwargs)
        self._paged(captured.get())

    def _paged(self, text: str) -> None:
        """Feedback a screenful at a time when it is taller than the screen: otherwise its
        start, the learner's own answer marked right or wrong, scrolls away unread (a
        five-pair match with a long explanation at 50 x 24)."""
        from rich.cells import cell_len

        out = self.console.file
        rows = [max(1, -(-cell_len(_ANSI.sub("", line)) // self.console.width))
                for line in text.splitlines()]  # fmt: skip
        lines = text.splitlines(keepends=True)
        start = 0
        while True:
            room = max(self._height() - 2, 3)  # below: this prompt, then the pause's
            taken, end = 0, start
            while end < len(lines) and taken + rows[end] <= room:
                taken += rows[end]
                end += 1
            if sum(rows[start:]) <= room + 1 or end == start:
                break
            out.write("".join(lines[start:end]))
            out.flush()
            start = end
            if self._edit_line(MORE) is None:
                break
        out.write("".join(lines[start:]))
        out.flush()

    def undone(self, number: int) -> None:
        self._pick, self._shown = None, None
        super().undone(number)

    def said(
        self,
        label: str,
        lines: Sequence[str],
        *,
        markdown: bool = True,
        marks: Sequence[bool] | None = None,
    ) -> None:
        from rich.table import Table
        from rich.text import Text

        narrow = len(label) * 5 > self.console.width * 2  # a wide label would squeeze the text
        if marks is not None:  # a line per pair or item, each marked
            self.console.print(label, markup=False)
            self._choices(lines, indent=3, marks=marks)
            return
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

    def reread(self, where: summary.Section) -> None:
        self.console.print(f"Re-read: {where}", markup=False)
        # soft_wrap: a long address is wrapped by the terminal, never broken by a newline.
        self.console.print(f"  {summary.link(where)}", markup=False, soft_wrap=True)

    def summary(
        self,
        compiled: catalog.Compiled,
        attempt: session.Attempt,
        result: summary.Summary,
        every: str | None = None,
    ) -> None:
        """The summary; ``every`` is the command that shows every question of the attempt."""
        self.console.rule()
        styles = {"title": "bold", "score": "bold", "missed": "", "insight": "", "next": "italic"}
        for kind, line in summary.summary_lines(
            compiled.bank["title"], compiled.slug, result, every=every
        ):
            style = styles.get(kind, "bold green" if result.passed else "bold red")
            if kind == "insight":  # one line: an insight too long for the screen is shortened
                self.console.print(line, style=style, markup=False, no_wrap=True,
                                   overflow="ellipsis")  # fmt: skip
            else:  # a command is never cut: the terminal wraps it, copy and paste still work
                if kind == "next":  # a sentence: folded between words, around its commands
                    from lessonkit.history.tables import fold

                    line = "\n".join(fold(line, self.console.width))
                head, _, where = line.rpartition("  ")
                if kind == "missed" and len(line) > self.console.width and head.strip():
                    line = f"{head}\n      {where}"  # the command whole, on a line of its own
                self.console.print(line, style=style, markup=False, soft_wrap=True)
