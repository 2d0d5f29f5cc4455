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
    kept_note,
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
        self._on_screen: str | None = None  # the feedback being read, to draw again

    def _fit(self) -> None:
        """Take the terminal's width now: the window may have been resized since."""
        self.console.width = min(terminal_size(self.stdout).columns, markup.MEASURE)

    def say(self, text: str = "") -> None:
        if "`" not in text:
            self.console.print(text, markup=False)
            return
        # A command to copy (`lessonkit quiz SLUG`) is folded around, never broken inside:
        # a copy of half of it would run something else.
        from lessonkit.history.tables import fold

        lines = []
        for line in text.split("\n"):
            indent = line[: len(line) - len(line.lstrip())]
            width = max(self.console.width - len(indent), 1)
            lines += [indent + part for part in fold(line.strip(), width)] if line.strip() else [""]
        self.console.print("\n".join(lines), markup=False, soft_wrap=True)

    def stress(self, text: str, style: str) -> None:
        self.console.print(text, style=style, markup=False)

    def _prompt(self, prompt: str) -> str:
        if self.console.no_color or not self.console.is_terminal:
            return prompt
        # \001 and \002 tell readline the escapes take no room, so editing keeps its place.
        return f"\001\x1b[1m\002{prompt}\001\x1b[0m\002"

    def read(self, prompt: str = ANSWER_PROMPT, typed: str = "") -> str | None:
        if self._line_editing():
            if typed and self._pick is not None:  # said under the choices, in the picker
                self._pick_note = kept_note(typed)
                self._pick.text, self._pick.cursor = typed, len(typed)
            elif typed:
                self.say(kept_note(typed))
            return self._edit_line(prompt, typed)
        if typed:
            self.say(f"Not used: `{typed}`, typed before this question was shown.")
        from rich.text import Text

        try:  # Text, not markup: `[y/n]` in a prompt is not a style tag
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.say()
            self.ended = True
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
        self._choices(lines, inline=True)
        self.console.print(markup.rich(form), style="italic")

    def _height(self) -> int:
        return terminal_size(self.stdout).lines

    def _pick_block(self, state: keyboard.Pick, prompt: str) -> str:
        """The choices (one highlighted, some ticked), what to type, a note, the prompt."""
        from rich.text import Text

        with self.console.capture() as captured:
            pointer = -1 if state.highlight is None else state.highlight
            self._choices(self._pick_lines, pointer=pointer, inline=True,
                          ticked=state.ticked if state.several else None)  # fmt: skip
            self.console.print(markup.rich(self._pick_form), style="italic")
            if self._pick_note:
                self.console.print(self._pick_note, markup=False)
        line = Text(prompt, style="bold")
        line.append(state.text)
        with self.console.capture() as typed:
            self.console.print(line, end="", soft_wrap=True)
        return captured.get() + typed.get()

    def _edit_line(self, prompt: str, typed: str = "") -> str | None:
        """A line, or a choice picked with the arrow keys, read until Enter; after Ctrl-Z
        and `fg`, Ctrl-L or a resize the whole question is drawn again, what was typed
        (and ticked) still in it."""
        while True:
            try:
                if self._pick is not None:
                    return self._read_pick(prompt, self._pick)
                return keyboard.read_line(self._prompt(prompt), typed)
            except keyboard.Redraw as redraw:
                kept, typed = self._pick, redraw.typed
                note = self._pick_note
                self.redraw(resized=redraw.resized)
                if self._pick is not None and kept is not None:
                    self._pick, self._pick_note = kept, note  # the highlight and ticks stay
                elif self._pick is not None:  # wide enough again to pick from
                    self._pick.text, self._pick.cursor = typed, len(typed)
                elif kept is not None:  # too small to pick from: what was ticked, as numbers
                    kept.text = typed
                    typed = kept.answer()
            except EOFError:
                self.say()
                self.ended = True
                return None

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

        text = keyboard.pick(self.stdin.fileno(), state, draw)
        out.write("\n")
        self._pick_up += 1
        state.text, state.cursor = "", 0
        if text is None:  # Ctrl-D on an empty line
            self._pick, self.ended = None, True
        return text

    def redraw(self, *, resized: bool) -> None:
        """The screen cleared and drawn again: the question, or else the feedback the
        learner was reading (a resize leaves feedback to the terminal to rewrap)."""
        if resized:
            import time

            time.sleep(0.2)  # a window dragged wider sends many: draw once, at the end
            keyboard.settle()
        if self._shown is None and (resized or self._on_screen is None):
            super().redraw(resized=resized)
            self._pick_up = 0
            return
        out = self.console.file
        out.write("\x1b[H\x1b[2J")  # the old drawing is wrapped wrongly, or written over
        if self._shown is not None:
            self.question(*self._shown)
        elif self._on_screen is not None:
            out.write(self._on_screen)
        out.flush()
        self._pick_up = 0  # the choices are drawn afresh below

    def recalled(
        self, number: int, total: int, question: RuntimeQuestion, display: Sequence[int]
    ) -> None:
        self.console.rule()
        self.console.print(f"Question {number} of {total}", style="bold", markup=False)
        self.console.print(markup.rich(question.prompt))
        self._choices(registry.of(question).listing(question, display), inline=True)

    def _choices(
        self,
        lines: Sequence[str],
        indent: int = 2,
        marks: Sequence[bool] | None = None,
        *,
        pointer: int | None = None,
        ticked: set[int] | None = None,
        inline: bool = False,
    ) -> None:
        """Numbered lines with Markdown text, wrapped under the text, not under the number.

        ``inline``: each line is an option, item or pair, never a block. ``marks`` puts a ✓
        or ✗ before each number; ``pointer`` points at the line the arrow keys have reached,
        and ``ticked`` ticks the lines chosen with Space.
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
            body = markup.rich(text, inline=inline)
            grid.add_row(lead, body, style="reverse" if n == pointer else None)
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
        self._on_screen = None
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
            self._on_screen = "".join(lines[start:end])
            out.write(self._on_screen)
            out.flush()
            start = end
            if self._edit_line(MORE) is None:
                break
        self._on_screen = "".join(lines[start:])
        out.write(self._on_screen)
        out.flush()

    def undone(self, number: int) -> None:
        self._pick, self._shown, self._on_screen = None, None, None
        super().undone(number)

    def said(
        self,
        label: str,
        lines: Sequence[str],
        *,
        markdown: bool = True,
        inline: bool = False,
        marks: Sequence[bool] | None = None,
    ) -> None:
        from rich.table import Table
        from rich.text import Text

        narrow = len(label) * 5 > self.console.width * 2  # a wide label would squeeze the text
        if marks is not None:  # a line per pair or item, each marked
            self.console.print(label, markup=False)
            self._choices(lines, indent=3, marks=marks, inline=inline)
            return
        if len(lines) == 1 and "\n" not in lines[0].strip() and not narrow:
            marker, text = split_marker(lines[0])
            grid = Table.grid(padding=(0, 1))
            for _ in range(3 if marker else 2):
                grid.add_column(no_wrap=True)
            grid.columns[-1].no_wrap = False
            body = markup.rich(text, inline=inline) if markdown else Text(text)
            grid.add_row(label, *([marker] if marker else []), body)
            self.console.print(grid)
            return
        self.console.print(label, markup=False)
        if markdown:
            self._choices(lines, indent=3, inline=inline)
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


def terminal_size(stream: IO[str]) -> os.terminal_size:
    """The terminal's columns and lines, never 0: a terminal that reports no size (a
    pseudo-terminal of 0 x 0 in CI runners, `docker exec`, editors' shells) or none at
    all falls back to COLUMNS and LINES, then to 80 x 24. rich would take 0 as it is,
    and draw nothing."""
    try:
        columns, lines = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):  # not a terminal after all
        columns = lines = 0
    return os.terminal_size(
        (columns or _setting("COLUMNS") or 80, lines or _setting("LINES") or 24)
    )


def _setting(name: str) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() else 0
