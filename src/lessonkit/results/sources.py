"""Which files a class's paths name: each to read, or skipped with why.

Paths may be files, folders or zip archives, as an LMS's "download all submissions" gives
them. A file named on the command line is read whatever its name. In a folder or an
archive, a file is read when its name says it is one (`.jsonl` or `.jsonl.txt`, in any
case, a browser's ` (1)` copies too) or when it starts like one; every other file is
named as skipped, with why, so no learner drops out of a class without a word.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

from lessonkit.errors import UsageError

__all__ = ["Skipped", "Source", "is_attempts_name", "release", "sources"]


@dataclass(frozen=True)
class Source:
    """One file to read: a name to report and a way to open it."""

    name: str
    open: Callable[[], IO[bytes]]
    size: int


@dataclass(frozen=True)
class Skipped:
    """A file in a folder or archive that is not read, and why."""

    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.name}: {self.reason}"


# `attempts.jsonl`, `attempts (1).JSONL`, `attempts.jsonl.txt`, `attempts.jsonl (2)`: the
# names browsers, operating systems and LMS downloads give a learner's file.
_NAMED = re.compile(r".*\.jsonl(?:\.txt)?(?: ?\(\d+\))?\Z", re.IGNORECASE | re.DOTALL)
# How every attempts file starts, whatever it is called: its header line.
_HEAD = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{[^\n]{0,200}"lessonkit-attempts"')
_PEEK = 512
_NOT_ONE = (
    "not an attempts file (its name does not end in .jsonl and it does not start with an "
    "attempts file's header line)"
)


def is_attempts_name(name: str) -> bool:
    """Whether a file's name says it is an attempts file, as a browser or LMS may write it."""
    return _NAMED.match(name) is not None


def sources(paths: Sequence[Path]) -> Iterator[Source | Skipped]:
    """Every file the paths name: a named file as it is, each file under a folder and each
    member of a zip archive, either to read or skipped with the reason.

    Raises UsageError before reading anything when a path does not exist.
    """
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
    for path in paths:
        if path.is_dir():
            # Sorted as paths sort (part by part), but on keys: comparing 25,000 Path
            # objects pairwise took a second.
            for found in sorted(path.rglob("*"), key=_parts):
                status = _status(found)
                if status is None:
                    yield Skipped(str(found), "a link to a file that is not there")
                elif stat.S_ISREG(status.st_mode):
                    source = _file(found, status.st_size)
                    yield _chosen(source, found.name, partial(_peek_file, found))
        elif zipfile.is_zipfile(path):
            yield from _members(path)
        else:
            yield _file(path, path.stat().st_size)


def _chosen(source: Source, name: str, peek: Callable[[], bytes]) -> Source | Skipped:
    """A file found in a folder or an archive: read when its name or its start says it is
    an attempts file."""
    shown = source.name
    if name.startswith("._") or "__MACOSX/" in shown or name in (".DS_Store", "Thumbs.db"):
        return Skipped(shown, "not a learner's file: what macOS or Windows adds to folders")
    if is_attempts_name(name):
        return source
    try:
        start = peek()
    except (OSError, zipfile.BadZipFile) as error:
        return Skipped(shown, f"cannot be read: {getattr(error, 'strerror', None) or error}")
    return source if _HEAD.match(start) else Skipped(shown, _NOT_ONE)


def _peek_file(path: Path) -> bytes:
    with path.open("rb") as stream:
        return stream.read(_PEEK)


def _peek_member(path: Path, member: str) -> bytes:
    with _archive(path).open(member) as stream:  # inflates only what it reads
        return stream.read(_PEEK)


def _parts(path: Path) -> tuple[str, ...]:
    return path.parts


def _status(path: Path) -> os.stat_result | None:
    """What ``stat`` says of a path found in a folder; None for a broken link, as
    ``is_file`` would skip it."""
    try:
        return path.stat()
    except OSError:
        return None


def _file(path: Path, size: int) -> Source:
    return Source(str(path), partial(_open_file, path), size)


def _open_file(path: Path) -> IO[bytes]:
    return path.open("rb")


def _members(path: Path) -> Iterator[Source | Skipped]:
    try:
        with zipfile.ZipFile(path) as archive:
            infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        raise UsageError(f"{path}: cannot read this zip archive: {error}") from None
    for info in sorted(infos, key=lambda i: i.filename):
        opener = partial(_open_member, path, info.filename)
        source = Source(f"{path}/{info.filename}", opener, info.file_size)
        name = info.filename.rsplit("/", 1)[-1]
        yield _chosen(source, name, partial(_peek_member, path, info.filename))


def _open_member(path: Path, member: str) -> IO[bytes]:
    # zipfile stops at the member's declared size (checked against the limit first),
    # so a member that inflates beyond it cannot fill memory.
    return io.BytesIO(_archive(path).read(member))


# The archive members are being read from, kept open from one member to the next: opening
# reads the archive's whole directory, and once per member an LMS download of 25,000 files
# took hours. Keyed by modification time and size, so a rewritten archive opens afresh.
_OPEN: dict[tuple[Path, int, int], zipfile.ZipFile] = {}


def _archive(path: Path) -> zipfile.ZipFile:
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    archive = _OPEN.get(key)
    if archive is None:
        release()
        archive = _OPEN[key] = zipfile.ZipFile(path)
    return archive


def release() -> None:
    """Close the archive kept open for reading its members: call when done with a class."""
    for archive in _OPEN.values():
        archive.close()
    _OPEN.clear()
