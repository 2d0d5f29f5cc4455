"""Find the banks to export (a slug, a file or a plan) and when each last changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from lessonkit.bank.models import Bank
from lessonkit.course import catalog
from lessonkit.errors import UsageError
from lessonkit.export.common import Source
from lessonkit.questiontypes import registry


def gather(target: str, *, cwd: Path | None = None) -> list[Source]:
    """The bank named by ``target``, or every bank of the plan of that name, in plan order."""
    here = (cwd or Path.cwd()).resolve()
    plan = _plan_lessons(target, here)
    if plan is None:
        return [_source(target, here)]
    return [_source(slug, here) for slug in plan]


def is_plan(target: str, *, cwd: Path | None = None) -> bool:
    """Whether ``target`` names a learning plan (whose banks are exported into a folder)."""
    return _plan_lessons(target, (cwd or Path.cwd()).resolve()) is not None


def _plan_lessons(target: str, cwd: Path) -> list[str] | None:
    if "/" in target or target.endswith((".yml", ".yaml")):
        return None
    from lessonkit.course.lessons import read_lesson, read_plan

    # The courses `quiz` looks in, in its order: the checkout here, the installed package's
    # course, the checkout the package runs from.
    for root in catalog.roots(cwd):
        if (root / "quizzes" / f"{target}.yml").is_file():
            return None  # a bank of that name wins over a plan of that name
        index = root / catalog.docs_dir(root) / target / "index.md"
        if index.is_file():
            break
    else:
        return None
    plan = read_plan(index)
    quizzes = []
    for lesson in plan.meta.lessons:
        page = index.parent / f"{lesson}.md"
        if not page.is_file():
            raise UsageError(f"plan `{target}` lists `{lesson}`, but {page} does not exist")
        quizzes.append(read_lesson(page).meta.quiz)
    return quizzes


def _source(target: str, cwd: Path) -> Source:
    compiled = catalog.find(target, cwd=cwd)
    path = _bank_file(target, compiled.source, cwd)
    questions = tuple(compiled.bank.questions())  # every question, at once
    settings = {k: v for k, v in compiled.bank.items() if k != "questions"}
    # The bank's model for its settings (the title, the shuffling); every format reads the
    # questions in their run-time form.
    bank = Bank.model_validate({**settings, "questions": [registry.as_json(q) for q in questions]})
    # Without a published address the lesson links would point at `make serve` on the
    # exporting machine, which no learner can open: leave them out (the CLI says so).
    links = compiled.site == "published"
    return Source(compiled.slug, bank, compiled.lesson, modified_time(path), links, questions)


def _bank_file(target: str, shown: str, cwd: Path) -> Path:
    """The bank's file: where the catalog says, or (for a bank compiled into the installed
    package, whose recorded path is the build's) where a slug is found."""
    path = Path(shown) if Path(shown).is_absolute() else cwd / shown
    if path.is_file():
        return path
    for root in catalog.roots(cwd):
        candidate = root / "quizzes" / f"{Path(target).stem}.yml"
        if candidate.is_file():
            return candidate
    return path


def modified_time(path: Path) -> int:
    """When the bank last changed, in seconds since the epoch.

    The time of the last commit that touched the file when git knows it and it has
    no uncommitted changes: the same on every clone, so an unchanged bank exports the
    same bytes anywhere. Otherwise (no git, not committed, or edited since) the
    file's own modification time, which is later than any commit it changed after.
    """
    folder = path.parent
    try:
        dirty = _git(folder, "status", "--porcelain", "--", path.name)
        stamp = _git(folder, "log", "-1", "--format=%ct", "--", path.name)
    except (OSError, subprocess.SubprocessError):
        dirty, stamp = "", ""
    if not dirty and stamp.isdigit():
        return int(stamp)
    return int(path.stat().st_mtime)


def _git(folder: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args], cwd=folder, capture_output=True, text=True, check=True, timeout=10
    )
    return result.stdout.strip()
