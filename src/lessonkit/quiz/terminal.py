"""Which UI a terminal gets: rich on a real terminal, plain lines for pipes and screen readers.

rich is imported only when a rich UI is made, so piped quizzes never pay for it.
"""

from __future__ import annotations

import os
from typing import IO

from lessonkit.quiz.plainui import PlainUi, isatty
from lessonkit.quiz.richui import RichUi

__all__ = ["make_ui"]


def make_ui(stdin: IO[str], stdout: IO[str], *, no_color: bool = False) -> PlainUi:
    """Rich on a real terminal (both ends), plain lines otherwise or with TERM=dumb."""
    terminal = isatty(stdin) and isatty(stdout) and os.environ.get("TERM") != "dumb"
    if terminal:
        return RichUi(stdin, stdout, no_color=no_color)
    return PlainUi(stdin, stdout, echo=not isatty(stdin))
