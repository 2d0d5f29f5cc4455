"""Problems found in content, and the one exception family lessonkit raises."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one place in one file, and how to fix it.

    ``line`` and ``column`` are 1-based, as editors show them; 0 means "the
    whole file" (e.g. a file that cannot be read at all).
    """

    path: str
    line: int
    column: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        return f"{where}: {self.message}" + (f" ({self.hint})" if self.hint else "")

    def github(self, level: Literal["error", "warning"] = "error") -> str:
        """The problem as a GitHub Actions annotation for pull requests."""
        text = self.message + (f" ({self.hint})" if self.hint else "")
        # Annotations end at a newline and treat % specially; escape both.
        text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        place = f"file={self.path}"
        if self.line:
            place += f",line={self.line},col={self.column}"
        return f"::{level} {place}::{text}"


class LessonkitError(Exception):
    """Base of every error lessonkit raises on purpose; callers catch this one."""


class UsageError(LessonkitError):
    """The command was called wrongly (a missing file, an unknown slug, a bad flag)."""


class ContentError(LessonkitError):
    """Content failed to load or validate; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(sorted(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


def summary(problems: Iterable[Problem]) -> str:
    """`3 problems in 2 files`: the line that closes a validation report."""
    found = list(problems)
    files = len({p.path for p in found})
    if not found:
        return "no problems found"
    noun = "problem" if len(found) == 1 else "problems"
    file_noun = "file" if files == 1 else "files"
    return f"{len(found)} {noun} in {files} {file_noun}"


def display_path(path: Path | str) -> str:
    """A path as an author would type it: relative to the working directory when inside it."""
    text = str(path)
    if not Path(text).is_absolute():
        return text
    try:
        relative = os.path.relpath(text)
    except ValueError:  # another drive on Windows
        return text
    return text if relative.startswith("..") else relative
