"""The learner's keyboard at a prompt: line editing, arrow-key picking, Ctrl-Z, Ctrl-L, resizes.

A line is read with ``input()`` and the standard library's readline (arrow keys,
Home/End, word deletion, Up for earlier answers). A choice question can also be
answered with the arrow keys: ``pick`` reads keys one by one in cbreak mode (typing
numbers still works) and lets the UI redraw the choices with the highlighted one.

A prompt survives being stopped and continued (Ctrl-Z, then `fg`), Ctrl-L and a
resized window: ``SIGCONT``, ``SIGWINCH`` and the key interrupt the wait with
``Redraw``, carrying what was typed so far, and the UI draws the whole question again
with that text still in the prompt. A signal that lands while no prompt waits (the
question is being drawn) is kept, and the next prompt starts with it.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

# Keys as the terminal sends them (xterm and its descendants, tmux, the Linux console).
UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"
HOME, END, DELETE = ("\x1b[H", "\x1b[1~", "\x1bOH"), ("\x1b[F", "\x1b[4~", "\x1bOF"), "\x1b[3~"
ARROWS = {"\x1bOA": UP, "\x1bOB": DOWN, "\x1bOC": RIGHT, "\x1bOD": LEFT}  # application mode


CTRL_L = "\x0c"


class Redraw(Exception):  # a signal to draw again, not an error: no "Error" in its name
    """The prompt was interrupted by Ctrl-Z and `fg`, Ctrl-L or a resize; ``typed`` is kept."""

    def __init__(self, typed: str, *, resized: bool) -> None:
        super().__init__("redraw")
        self.typed, self.resized = typed, resized


_waiting: list[Callable[[], str]] = []  # while a prompt waits: what has been typed so far
_missed: set[int] = set()  # signals that came while no prompt waited
_installed = False


def install() -> None:
    """Turn SIGCONT and SIGWINCH into ``Redraw`` while a prompt waits (once per process).

    Installed before readline is imported, so readline's own resize handler, which
    calls whatever handler was there before it, still learns the new width.
    """
    global _installed
    if _installed or not hasattr(signal, "SIGWINCH"):
        return
    for number in (signal.SIGCONT, signal.SIGWINCH):
        signal.signal(number, _interrupt)
    _installed = True


def _interrupt(number: int, _frame: object) -> None:
    if _waiting:
        raise Redraw(_waiting[-1](), resized=number == signal.SIGWINCH)
    # While a question is drawn: at a width that has just changed, or under what the
    # shell wrote after `fg`. The next prompt draws it again.
    _missed.add(number)


@contextlib.contextmanager
def waiting(typed: Callable[[], str], start: str = "") -> Iterator[None]:
    """While inside, a stop and continue or a resize raises ``Redraw`` with ``typed()``;
    one that came since the last prompt raises it at once, with ``start``."""
    if _missed:
        resized = hasattr(signal, "SIGWINCH") and signal.SIGWINCH in _missed
        _missed.clear()
        raise Redraw(start, resized=resized)
    _waiting.append(typed)
    try:
        yield
    finally:
        _waiting.pop()


_ctrl_l: list[bool] = []  # Ctrl-L's macro ran the completer during this line
_bound: list[bool] = []  # once per process


def _bind_ctrl_l(readline: Any) -> None:
    """Ctrl-L ends the line as if with Enter, after noting in ``_ctrl_l`` that it was Ctrl-L.

    Python's readline runs no Python code for a key, except the completer. So Ctrl-L
    is bound to a macro: a key sequence no terminal sends, bound to
    `insert-completions` (which calls the completer, here with completion type `*`,
    never the Tab that answers type in), then Enter. Not under libedit (macOS's
    Python), whose bindings differ: Ctrl-L keeps its own meaning there.
    """
    _bound.append(True)
    if "libedit" in (readline.__doc__ or ""):
        return

    def completer(_text: str, _state: int) -> None:
        if readline.get_completion_type() == ord("*"):
            _ctrl_l.append(True)

    readline.set_completer(completer)
    readline.parse_and_bind('"\\e[7429~": insert-completions')
    readline.parse_and_bind('"\\C-l": "\\e[7429~\\n"')


def read_line(prompt: str, typed: str = "") -> str:
    """``input(prompt)`` with readline, ``typed`` already in the line (after a Redraw)."""
    install()
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it: plain input() still works
        return input(prompt)
    if not _bound:
        _bind_ctrl_l(readline)
    # Only after a Redraw: readline swallows any exception raised in a hook, so a Ctrl-C
    # landing in one would be lost.
    readline.set_startup_hook((lambda: readline.insert_text(typed)) if typed else None)
    _ctrl_l.clear()
    try:
        with waiting(readline.get_line_buffer, typed):
            line = input(prompt)
    finally:
        readline.set_startup_hook(None)
    if _ctrl_l:  # Ctrl-L, not Enter: the line is not an answer, nor a memory
        count = readline.get_current_history_length()
        if line and count and readline.get_history_item(count) == line:
            readline.remove_history_item(count - 1)
        raise Redraw(line, resized=False)
    return line


class _Settled(Exception):
    """The throwaway line of ``settle`` has done its work."""


def settle() -> None:
    """Let readline take in a new window size now, on a cleared screen, before a prompt.

    Python's readline learns of a resize only inside ``input()``, before its first key:
    after the prompt is drawn at the old width, it draws it again at the new one, and
    clears the rows it thinks the first drawing took (a question's last line, or a
    second copy of the prompt left above). So a throwaway ``input("")`` takes the resize
    in, interrupted by a timer; the prompt that follows is drawn once, at the right width.
    A key pressed in those few milliseconds is lost with it.
    """
    readline = sys.modules.get("readline")
    if readline is None or not hasattr(signal, "setitimer"):
        return  # no readline yet, so no resize waiting in it

    def done(_number: int, _frame: object) -> None:
        raise _Settled

    before = signal.signal(signal.SIGALRM, done)
    signal.setitimer(signal.ITIMER_REAL, 0.03, 0.03)  # again and again, should one land early
    try:
        input("")
    except (_Settled, EOFError):
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


# --- picking a choice with the arrow keys --------------------------------------------


@dataclass
class Pick:
    """A choice prompt's state: the typed text, the cursor in it, the highlighted choice
    (None until an arrow is pressed) and, for several answers, the choices ticked."""

    count: int
    several: bool
    text: str = ""
    cursor: int = 0
    highlight: int | None = None
    ticked: set[int] = field(default_factory=set)

    def answer(self) -> str:
        """What Enter submits: the typed text, else the ticked or highlighted choices."""
        if self.text.strip() or self.highlight is None:
            return self.text
        chosen = sorted(self.ticked) if self.several and self.ticked else [self.highlight]
        return " ".join(str(n + 1) for n in chosen)


def pick(
    fd: int, state: Pick, draw: Callable[[Pick], None], *, keys: Iterator[str] | None = None
) -> str | None:
    """Read keys until Enter; the submitted text (None at Ctrl-D on an empty line).

    Up and Down move the highlight; Space ticks the highlighted choice when several
    may be chosen; Enter submits what was typed, or else the highlighted (or ticked)
    choices, as if their numbers had been typed. ``draw(state)`` redraws after each key.
    """
    install()
    with _cbreak(fd), waiting(lambda: state.text, state.text):
        draw(state)
        for key in keys if keys is not None else _keys(fd):
            done = _press(state, key)
            if done is not None:
                if done:
                    state.text = state.answer()
                    state.cursor = len(state.text)
                    state.highlight = None
                draw(state)
                return state.text if done else None
            draw(state)
    return None


def _press(state: Pick, key: str) -> bool | None:
    """Apply one key: True on Enter, False on Ctrl-D with nothing typed, else None."""
    text, at = state.text, state.cursor
    if key in ("\r", "\n"):
        return True
    if key == "\x04" and not text:
        return False
    if key == CTRL_L:
        raise Redraw(text, resized=False)
    if key in (UP, DOWN):
        step = -1 if key == UP else 1
        start = state.count if state.highlight is None and step < 0 else -1
        state.highlight = ((state.highlight if state.highlight is not None else start) + step) % (
            state.count
        )
    elif key == " " and state.several and state.highlight is not None and not text.strip():
        state.ticked ^= {state.highlight}
    elif key in ("\x7f", "\x08"):
        state.text, state.cursor = text[: max(at - 1, 0)] + text[at:], max(at - 1, 0)
    elif key == DELETE:
        state.text = text[:at] + text[at + 1 :]
    elif key == LEFT:
        state.cursor = max(at - 1, 0)
    elif key == RIGHT:
        state.cursor = min(at + 1, len(text))
    elif key in HOME or key == "\x01":
        state.cursor = 0
    elif key in END or key == "\x05":
        state.cursor = len(text)
    elif key == "\x15":  # Ctrl-U: delete to the start
        state.text, state.cursor = text[at:], 0
    elif key == "\x17":  # Ctrl-W: delete the word before the cursor
        start = len(text[:at].rstrip()) - len(text[:at].rstrip().split(" ")[-1])
        state.text, state.cursor = text[:start] + text[at:], start
    elif key.isprintable() and not key.startswith("\x1b"):
        state.text, state.cursor = text[:at] + key + text[at:], at + len(key)
    return None


def _keys(fd: int) -> Iterator[str]:
    """Keys from the terminal: characters, and escape sequences whole."""
    decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
    while True:
        data = os.read(fd, 1)
        if not data:
            return
        char = decode.decode(data)
        if not char:
            continue  # the middle of a multi-byte character
        if char != "\x1b":
            yield char
            continue
        sequence = char
        while _ready(fd) and len(sequence) < 8:
            sequence += os.read(fd, 1).decode("ascii", "replace")
            if len(sequence) > 2 and (sequence[-1].isalpha() or sequence[-1] == "~"):
                break
        yield ARROWS.get(sequence, sequence)


def _ready(fd: int) -> bool:
    """More of an escape sequence is on its way (it arrives in one burst)."""
    return bool(select.select([fd], [], [], 0.05)[0])


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """Keys one by one, unechoed; Ctrl-C and Ctrl-Z still send their signals."""
    import termios
    import tty

    saved: list[Any] = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
