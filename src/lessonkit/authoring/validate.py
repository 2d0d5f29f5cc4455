"""What `lessonkit validate` checks: which files, and the report it prints.

Errors come first, then warnings (`--strict` fails on them), then one line per file for
the template placeholders a draft still has, with their count.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lessonkit.authoring import checkcache
from lessonkit.bank.factbook import FOLDER as FACTS_FOLDER
from lessonkit.course.facts import BankFacts, Facts, LessonFacts
from lessonkit.course.folder import BANK_SUFFIXES, POLICY_FILE, find_root
from lessonkit.errors import Problem, UsageError, display_path


@dataclass(frozen=True)
class Report:
    """The problems found in the files asked about, and what was checked."""

    problems: tuple[Problem, ...]
    banks: int
    questions: int
    lessons: int
    where: str = "."  # what was asked about, as the author typed it
    warnings: tuple[Problem, ...] = ()
    strict: bool = False  # warnings fail too
    overdue: int = 0  # lessons past their review date, among the warnings

    @property
    def empty(self) -> bool:
        """Nothing was found to check: "no problems" would claim what was never looked at."""
        return not (self.problems or self.warnings or self.banks or self.lessons)

    @property
    def failed(self) -> bool:
        return bool(self.problems) or self.empty or (self.strict and bool(self.warnings))

    def lines(self) -> list[tuple[Literal["error", "warning"], Problem]]:
        """What to print, in order: real problems, warnings, then placeholders by file."""
        real, drafts = _grouped(self.problems)
        return [
            *(("error", p) for p in real),
            *(("warning", p) for p in self.warnings),
            *(("error", p) for p in drafts),
        ]

    def summary_line(self) -> str:
        warned = _count(len(self.warnings), "warning")
        # Named, so a strict build stopped by the calendar says so, not "problems found".
        due = f"; {_count(self.overdue, 'lesson')} overdue for review" if self.overdue else ""
        if self.problems:
            from lessonkit.authoring.placeholders import is_placeholder

            placeholders = sum(map(is_placeholder, self.problems))
            parts = (
                [_count(len(self.problems) - placeholders, "problem")]
                if (len(self.problems) > placeholders)
                else []
            )
            if placeholders:
                parts.append(_count(placeholders, "placeholder"))
            files = len({p.path for p in self.problems})
            line = f"{' and '.join(parts)} in {_count(files, 'file')}"
            return f"{line}; {warned}{due}" if self.warnings else line
        if self.empty:
            return f"nothing to check in {self.where}: no bank (.yml) and no lesson (.md) found"
        checked = (
            f"checked {_count(self.banks, 'bank')} ({_count(self.questions, 'question')}) "
            f"and {_count(self.lessons, 'lesson')}: no problems found"
        )
        if not self.warnings:
            return checked
        verdict = "which fail with --strict" if self.strict else "run with --strict to fail on them"
        return f"{checked}, but {warned} ({verdict}){due}"


def _grouped(problems: tuple[Problem, ...]) -> tuple[list[Problem], list[Problem]]:
    if not problems:
        return [], []
    # The rule book's modules import pydantic: a clean run from the cache never needs them.
    from lessonkit.authoring.placeholders import grouped

    return grouped(problems)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def validate_paths(
    paths: Sequence[Path], *, cwd: Path | None = None, strict: bool = False, full: bool = False
) -> Report:
    """Check the course the paths belong to; report problems in those paths only.

    With no paths, the whole course around ``cwd`` is checked, with its policy file and
    its `mkdocs.yml`. Bank files outside the course are loaded too, so
    `lessonkit validate some/where/bank.yml` works anywhere. With ``strict``, warnings
    fail the check too. Files unchanged since the last check are not read again
    (``checkcache``), unless ``full`` is set; either way the same problems are reported.
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
    whole = [root / "content", root / "quizzes", root / POLICY_FILE, root / "mkdocs.yml"]
    whole.append(root / FACTS_FOLDER)
    wanted = [p.resolve() for p in paths] or whole
    problems = tuple(p for p in checked.problems if _within(p.path, wanted))
    warnings = tuple(p for p in checked.warnings if _within(p.path, wanted))
    where = " ".join(str(p) for p in paths) or display_path(root) or "."
    return Report(
        problems, *_sizes(checked.facts, wanted), where=where, warnings=warnings, strict=strict,
        overdue=_overdue(checked, wanted) if warnings else 0,
    )  # fmt: skip


def _overdue(checked: checkcache.Checked, wanted: list[Path]) -> int:
    """How many of the wanted lessons are overdue for review, by the `review` rule's warnings."""
    from lessonkit.authoring.freshness import REVIEW  # pydantic: only when there is a warning

    return len({w.path for w in checked.found_by(REVIEW.id) if _within(w.path, wanted)})


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
