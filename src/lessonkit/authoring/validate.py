"""What `lessonkit validate` checks: which files, and the report it prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lessonkit.authoring.rulebook import check_course
from lessonkit.course.course import BANK_SUFFIXES, Course
from lessonkit.course.folder import find_root
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


def validate_paths(paths: Sequence[Path], *, cwd: Path | None = None) -> Report:
    """Check the course the paths belong to; report problems in those paths only.

    With no paths, the whole course around ``cwd`` is checked. Bank files outside the
    course are loaded too, so `lessonkit validate some/where/bank.yml` works anywhere.
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
    course = check_course(root, extra_banks=extra)
    wanted = [p.resolve() for p in paths] or [root / "content", root / "quizzes"]
    problems = tuple(p for p in course.problems if _within(p.path, wanted))
    where = " ".join(str(p) for p in paths) or display_path(root) or "."
    return Report(problems, *_sizes(course, wanted), where=where)


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


def _sizes(course: Course, wanted: list[Path]) -> tuple[int, int, int]:
    banks = [
        bank
        for slug, bank in course.banks.items()
        if _within(course.bank_documents[slug].path, wanted)
    ]
    lessons = [lesson for lesson in course.lessons.values() if _within(lesson.path, wanted)]
    return len(banks), sum(len(b.questions) for b in banks), len(lessons)
