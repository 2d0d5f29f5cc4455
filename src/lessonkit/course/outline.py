"""A course's outline for `lessonkit list`: its plans, their lessons, and each bank's size.

Reading it from the files means reading the whole course, every bank through YAML and
pydantic: seconds for a course of hundreds of lessons, on every call. So each file's
part of the outline (a plan's title and lessons, a lesson's title and quiz, a bank's
number of questions; ``None`` when the file does not load) is kept in one JSON file in
the user cache folder, beside the compiled banks.

What an entry is keyed on, and why it cannot be stale: the file's path, size, inode,
modification time and change time, all in nanoseconds, and lessonkit's version. An
edit changes the modification time; restoring that time by hand (``touch -r``) still
changes the change time, which no user can set. One case escapes every stat: a second
write within the same clock tick as the read, with the same size. So an entry is only
trusted when the file was last modified more than two seconds before it was read
(git's rule for "racily clean" files); otherwise the file is read again next time. A
file added or removed shows in the folder listings, which are read on every call.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lessonkit import __version__
from lessonkit.course import cachefile
from lessonkit.errors import ContentError

FORMAT = 1
_SETTLED_NS = 2_000_000_000  # a file older than this when read cannot change unseen
_BANK_SUFFIXES = (".yml", ".yaml")


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    quiz: str


@dataclass(frozen=True)
class Plan:
    title: str
    lessons: tuple[Lesson, ...]  # in reading order; lessons that do not load are left out


@dataclass(frozen=True)
class Outline:
    """What `lessonkit list` shows: plans in folder order, and question counts by bank."""

    plans: tuple[Plan, ...]
    questions: dict[str, int]  # bank slug -> questions, for banks that load


def read(root: Path, cache: Path) -> Outline:
    """The outline of the course at ``root``; ``cache`` is the cache folder."""
    store = cache / "outlines" / f"{hashlib.sha256(str(root).encode()).hexdigest()[:24]}.json"
    found = cachefile.read(store)
    old: dict[str, Any] = (
        found["files"]
        if isinstance(found, dict)
        and found.get("format") == FORMAT
        and found.get("lessonkit") == __version__
        else {}
    )
    new: dict[str, Any] = {}
    plans: list[tuple[dict[str, Any] | None, list[tuple[str, dict[str, Any] | None]]]] = []
    # Directory entries, not pathlib: at 1,000 lessons pathlib costs more than the cache saves.
    for folder in sorted((e for e in _listing(root / "content") if e.is_dir()), key=_name):
        pages = sorted((e for e in _listing(folder.path) if e.name.endswith(".md")), key=_name)
        index = next((e for e in pages if e.name == "index.md" and e.is_file()), None)
        plan = _entry(index, old, new, _plan) if index else None
        lessons = [
            (e.name[:-3], _entry(e, old, new, _lesson)) for e in pages if e.name != "index.md"
        ]
        plans.append((plan, lessons))
    questions = {}
    banks = (e for e in _listing(root / "quizzes") if e.name.endswith(_BANK_SUFFIXES))
    for bank in sorted(banks, key=_name):
        count = _entry(bank, old, new, _bank)
        if count is not None:
            questions[bank.name.rsplit(".", 1)[0]] = count["questions"]
    changed = new.keys() != old.keys() or any(new[k] is not old.get(k) for k in new)
    if changed:
        cachefile.write(store, {"format": FORMAT, "lessonkit": __version__, "files": new})
    return Outline(_plans(plans), questions)


def _plans(
    found: list[tuple[dict[str, Any] | None, list[tuple[str, dict[str, Any] | None]]]],
) -> tuple[Plan, ...]:
    # As `read_course` does: a lesson is known by its slug, the last one read wins.
    lessons = {
        slug: Lesson(slug, entry["title"], entry["quiz"])
        for _, pages in found
        for slug, entry in pages
        if entry
    }
    return tuple(
        Plan(plan["title"], tuple(lessons[s] for s in plan["lessons"] if s in lessons))
        for plan, _ in found
        if plan is not None
    )


def _listing(folder: str | Path) -> list[os.DirEntry[str]]:
    """The entries of ``folder``; none if it cannot be listed."""
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _entry(
    file: os.DirEntry[str],
    old: dict[str, Any],
    new: dict[str, Any],
    reader: Callable[[Path], dict[str, Any]],
) -> Any:
    """The file's outline entry: the cached one if the file is unchanged, else read now."""
    path = file.path
    try:
        info = file.stat()
    except OSError:
        return None  # gone since the folder was listed
    key = [info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns]
    cached = old.get(path)
    if cached is not None and cached["stat"] == key and cached["settled"]:
        new[path] = cached
        return cached["value"]
    settled = time.time_ns() - info.st_mtime_ns > _SETTLED_NS
    try:
        value = reader(Path(path))
    except ContentError:
        value = None
    new[path] = {"stat": key, "settled": settled, "value": value}
    return value


def _plan(path: Path) -> dict[str, Any]:
    from lessonkit.course.lessons import read_plan

    plan = read_plan(path)
    return {"title": plan.meta.title, "lessons": list(plan.meta.lessons)}


def _lesson(path: Path) -> dict[str, Any]:
    from lessonkit.course.lessons import read_lesson

    lesson = read_lesson(path)
    return {"title": lesson.meta.title, "quiz": lesson.meta.quiz}


def _bank(path: Path) -> dict[str, Any]:
    from lessonkit.bank.loader import load_bank

    return {"questions": len(load_bank(path).questions)}
