"""How this learner runs lessonkit: the command name the quiz puts in what it says to type.

`make quiz` runs `.venv-quiz/bin/lessonkit`, and a venv made by hand may not be on PATH
either; "run `lessonkit quiz gpu-vs-tpu` to resume" would then fail with "command not
found". Commands told to the learner start with whatever runs this same lessonkit.
"""

from __future__ import annotations

import functools
import shlex
import shutil
import sys
from pathlib import Path

NAME = "lessonkit"


@functools.cache
def program() -> str:
    """`lessonkit` when that name on PATH runs this install, else the path that does."""
    return program_for(sys.argv[0], shutil.which(NAME), Path.cwd(), Path.home())


def program_for(argv0: str, on_path: str | None, cwd: Path, home: Path) -> str:
    """``program`` for a given script path, PATH lookup, working folder and home folder."""
    script = Path(argv0)
    absolute = cwd / script  # as typed, links not followed: what the learner knows
    if script.name != NAME or not absolute.is_file():  # `python -m lessonkit`, tests, embedding
        return NAME
    if on_path is not None and Path(on_path).resolve() == absolute.resolve():
        return NAME
    if shlex.quote(str(absolute)) != str(absolute):  # a space in a folder name: quote it all
        return shlex.quote(str(absolute))
    if absolute.is_relative_to(cwd):
        return str(absolute.relative_to(cwd))  # `.venv-quiz/bin/lessonkit`: has a slash
    if absolute.is_relative_to(home):
        return "~/" + str(absolute.relative_to(home))
    return str(absolute)
