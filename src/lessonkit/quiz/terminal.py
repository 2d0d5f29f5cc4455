"""Which UI a terminal gets: rich on a real terminal, plain lines for pipes and screen readers.

rich is imported only when a rich UI is made, so piped quizzes never pay for it.
"""

from __future__ import annotations

import os
from typing import IO

from lessonkit.quiz.plainui import PlainUi, isatty
from lessonkit.quiz.richui import RichUi

__all__ = ["make_ui"]


def make_ui(
    stdin: IO[str], stdout: IO[str], *, no_color: bool = False, pause: bool = True
) -> PlainUi:
    """Rich on a real terminal (both ends), plain lines otherwise or with TERM=dumb.

    With ``pause``, feedback waits for Enter when a person types the answers (stdin is
    a terminal), unless LESSONKIT_NO_PAUSE is set; piped answers never wait.
    """
    terminal = isatty(stdin) and isatty(stdout) and os.environ.get("TERM") != "dumb"
    ui: PlainUi
    if terminal:
        ui = RichUi(stdin, stdout, no_color=no_color)
    else:
        ui = PlainUi(stdin, stdout, echo=not isatty(stdin))
    ui.pauses = pause and isatty(stdin) and not os.environ.get("LESSONKIT_NO_PAUSE")
    return ui
