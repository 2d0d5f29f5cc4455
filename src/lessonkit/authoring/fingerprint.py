"""What `validate`'s kept check is keyed on: lessonkit's code and the course's files as they stand.

- lessonkit's version and the size and times of each of its source files, and those of
  the libraries that decide what is valid (pydantic, PyYAML, Markdown), and Python's
  version: a changed rule or parser changes the key, and the next run is a full one;
- every file directly in the course folder (``mkdocs.yml``, the policy ``lessonkit.yml``
  that sets each rule's level and numbers…), by content, and the working directory, since
  messages name other files relative to it;
- the course's facts (``facts/*.yml``) by content, and the day when it has any: a changed
  fact changes every page and question that shows it, and a fact falls due as days pass,
  so either makes the next run a full one;
- the list of files under ``content/`` and ``quizzes/``, each with its size, inode,
  modification and change times: a file added, removed or renamed makes the run a full
  one, because existence is what many checks look at (links, figures, a lesson's bank).

``checkcache`` hashes each of those files, and says why a run that reads only some of
them reports what a full run would.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lessonkit import __version__
from lessonkit.bank import factbook

_FOLDERS = ("content", "quizzes")
_LIBRARIES = ("lessonkit", "pydantic", "pydantic_core", "yaml", "markdown")

Stat = tuple[int, int, int, int]  # size, inode, modification and change times in ns


def key(root: Path, day: dt.date | None = None) -> dict[str, Any]:
    """lessonkit and the libraries that decide what is valid, Python, the working
    directory, the files directly in the course folder, and its facts with ``day``."""
    code: list[Any] = []
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        folder = Path(spec.origin).parent if spec and spec.origin else None
        if folder is None:
            continue
        pattern = "**/*.py" if name == "lessonkit" else "*.py"
        for path in sorted(folder.glob(pattern)):
            code.append([str(path), *_stat(path)])
    here = []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.is_file():
            here.append([entry.name, hashlib.sha256(Path(entry.path).read_bytes()).hexdigest()])
    facts = [[p.name, hashlib.sha256(p.read_bytes()).hexdigest()] for p in factbook.files(root)]
    return {
        **({"facts": facts, "day": str(day)} if facts else {}),
        "lessonkit": __version__,
        "python": sys.version,
        # Messages name other files relative to the working directory, as an author types them.
        "cwd": str(Path.cwd()),
        "code": hashlib.sha256(repr(code).encode()).hexdigest(),
        "course": here,
    }


def scan(root: Path) -> dict[str, Stat]:
    """Every file under content/ and quizzes/, by path relative to ``root``, with its stat."""
    found: dict[str, Stat] = {}
    # Directory entries and strings: pathlib would cost more than the whole check of an
    # unchanged course of a thousand lessons. Linked folders are followed, as the course
    # reader follows them, each once.
    todo = [(str(root / folder), folder) for folder in _FOLDERS]
    seen: set[tuple[int, int]] = set()
    while todo:
        where, rel = todo.pop()
        try:
            info = Path(where).stat()
            if (info.st_dev, info.st_ino) in seen:
                continue
            seen.add((info.st_dev, info.st_ino))
            entries = list(os.scandir(where))
        except OSError:
            continue
        for entry in entries:
            name = f"{rel}/{entry.name}"
            try:
                if entry.is_dir():
                    todo.append((entry.path, name))
                elif entry.is_file():
                    info = entry.stat()
                    found[name] = (info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)
            except OSError:
                continue
    return dict(sorted(found.items()))


def _stat(path: Path) -> Stat:
    info = path.stat()
    return (info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)


def unchanged(root: Path, stats: dict[str, Stat], names: Iterable[str]) -> bool:
    """Whether these files are as ``scan`` found them; stat only them, not the course."""
    try:
        return all(_stat(root / name) == stats.get(name) for name in names)
    except OSError:
        return False
