"""What `lessonkit validate` checks: which files, and the report it prints."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lessonkit.authoring import checkcache
from lessonkit.course.facts import BankFacts, Facts, LessonFacts
from lessonkit.course.folder import BANK_SUFFIXES, find_root
from lessonkit.errors import Problem, UsageError, display_path, summary


@dataclass(frozen=True)
class Report:
    """The problems found in the files asked about, and what was checked."""

    problems: tuple[Problem, ...]
    banks: int
    questions: int
    lessons: int
    where: str = "."  # what was asked about, as the author typed it

    @property
    def empty(self) -> bool:
        """Nothing was found to check: "no problems" would claim what was never looked at."""
        return not (self.problems or self.banks or self.lessons)

    @property
    def failed(self) -> bool:
        return bool(self.problems) or self.empty

    def summary_line(self) -> str:
        if self.problems:
            return summary(self.problems)
        if self.empty:
            return f"nothing to check in {self.where}: no bank (.yml) and no lesson (.md) found"
        return (
            f"checked {_count(self.banks, 'bank')} ({_count(self.questions, 'question')}) "
            f"and {_count(self.lessons, 'lesson')}: no problems found"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def validate_paths(paths: Sequence[Path], *, cwd: Path | None = None, full: bool = False) -> Report:
    """Check the course the paths belong to; report problems in those paths only.

    With no paths, the whole course around ``cwd`` is checked. Bank files outside the
    course are loaded too, so `lessonkit validate some/where/bank.yml` works anywhere.
    Files unchanged since the last check are not read again (``checkcache``), unless
    ``full`` is set; either way the same problems are reported.
    """
    here = cwd or Path.cwd()
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
    root = find_root(paths[0] if paths else here) or find_root(here)
    if root is None:
        if not paths:
            raise UsageError(
                "no course here: run inside a folder with content/ and quizzes/, "
                "or name the files to check"
            )
        root = here
    for path in paths:
        _check_kind(path, root)
    extra = [
        p
        for p in paths
        if p.is_file() and p.suffix in BANK_SUFFIXES and not _within(p, [root / "quizzes"])
    ]
    checked = checkcache.check(root, extra, full=full)
    wanted = [p.resolve() for p in paths] or [root / "content", root / "quizzes"]
    problems = tuple(p for p in checked.problems if _within(p.path, wanted))
    where = " ".join(str(p) for p in paths) or display_path(root) or "."
    return Report(problems, *_sizes(checked.facts, wanted), where=where)


def _check_kind(path: Path, root: Path) -> None:
    """Refuse paths validate would silently skip, so "no problems" never means "not looked at"."""
    if path.is_dir() or path.suffix in BANK_SUFFIXES:
        return
    if path.suffix != ".md":
        raise UsageError(f"{path}: not a bank (.yml), a lesson (.md) or a folder")
    if not _within(path, [root / "content"]):
        raise UsageError(f"{path}: lessons are checked inside a course's content/ folder")


def _within(path: Path | str, wanted: list[Path]) -> bool:
    """Whether a file is one of the wanted paths or inside one of the wanted folders."""
    where = Path(path).resolve()
    return any(where.is_relative_to(w.resolve()) for w in wanted)


def _sizes(facts: Mapping[Path, Facts], wanted: list[Path]) -> tuple[int, int, int]:
    """Banks and lessons that load, and questions, among the wanted files; a slug read
    twice counts once, as the last file read under it."""
    folders = [str(w.resolve()) for w in wanted]

    def within(path: Path) -> bool:  # facts name files by absolute paths under the course
        text = str(path)
        return any(text == f or text.startswith(f + os.sep) for f in folders)

    banks = {f.slug: (path, f) for path, f in facts.items() if isinstance(f, BankFacts) and f.valid}
    lessons = {
        f.slug: path
        for path, f in facts.items()
        if isinstance(f, LessonFacts) and f.quiz is not None
    }
    counted = [f for path, f in banks.values() if within(path)]
    return (
        len(counted),
        sum(f.questions for f in counted),
        sum(1 for path in lessons.values() if within(path)),
    )
