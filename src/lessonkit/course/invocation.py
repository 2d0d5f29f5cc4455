"""How this learner runs lessonkit: the command name the quiz puts in what it says to type.

`make quiz` runs `.venv-quiz/bin/lessonkit`, and a venv made by hand may not be on PATH
either; "run `lessonkit quiz gpu-vs-tpu` to resume" would then fail with "command not
found". Commands told to the learner start with whatever runs this same lessonkit:
`./lessonkit` when it was started so, `python -m lessonkit` (with the Python as typed)
unless this install's own `lessonkit` is on PATH.
"""

from __future__ import annotations

import functools
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

NAME = "lessonkit"


@functools.cache
def program() -> str:
    """`lessonkit` when that name on PATH runs this install, else what does: the script's
    path, or `python -m lessonkit` with the Python as it was typed."""
    return program_for(sys.argv[0], shutil.which(NAME), Path.cwd(), Path.home(),
                       started=sys.orig_argv, python=sys.executable)  # fmt: skip


def program_for(
    argv0: str,
    on_path: str | None,
    cwd: Path,
    home: Path,
    *,
    started: Sequence[str] = (),
    python: str = "",
) -> str:
    """``program`` for a given script path, PATH lookup, working folder and home folder;
    ``started`` is the command line as typed (``sys.orig_argv``), ``python`` the
    interpreter running (``sys.executable``)."""
    script = Path(argv0)
    if script.name == "__main__.py" and script.parent.name == NAME:  # `python -m lessonkit`
        if on_path is not None and python and Path(on_path).parent == Path(python).parent:
            return NAME  # the same install's own command is on PATH
        typed = started[0] if started else python or "python3"
        return f"{shlex.quote(typed)} -m {NAME}"
    absolute = cwd / script  # as typed, links not followed: what the learner knows
    if script.name != NAME or not absolute.is_file():  # tests, embedding
        return NAME
    if on_path is not None and Path(on_path).resolve() == absolute.resolve():
        return NAME
    if shlex.quote(str(absolute)) != str(absolute):  # a space in a folder name: quote it all
        return shlex.quote(str(absolute))
    if absolute.is_relative_to(cwd):
        # `.venv-quiz/bin/lessonkit`; `./lessonkit` in its own folder, as a shell needs it
        here = str(absolute.relative_to(cwd))
        return here if "/" in here else f"./{here}"
    if absolute.is_relative_to(home):
        return "~/" + str(absolute.relative_to(home))
    return str(absolute)
