"""JSON files that only save time: read when sound, written whole, and never a reason to fail."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO


def read(path: Path) -> Any:
    """The JSON value in ``path``, or ``None`` when it is missing or unreadable."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def write(path: Path, value: Any) -> None:
    """Write ``value`` as JSON, replacing the file in one step so no reader sees half of it."""
    _replace(path, json.dumps(value, ensure_ascii=False).encode())


# --- a long list, each item read alone ------------------------------------------
#
# One JSON object, `{…head…, "spans": [...], "items": [item, item, …]}`, written so that
# its first line is the head and the rest is the list: a reader parses the head, then
# each item from the byte span the head records, and never the items it does not need.
# The whole file is still plain JSON, for anything that wants it whole.

_ITEMS = b'"items":['
_END = b"]}"


def write_listed(path: Path, head: Mapping[str, Any], items: Sequence[Any]) -> None:
    """Write ``head`` and ``items`` so that ``read_listed`` reads each item on its own."""
    parts = [json.dumps(item, ensure_ascii=False).encode() for item in items]
    ends = list(itertools.accumulate((len(p) + 1 for p in parts), initial=len(_ITEMS) - 1))[1:]
    first = json.dumps({**head, "spans": ends}, ensure_ascii=False).encode()
    body = _ITEMS + b",".join(parts) + _END
    _replace(path, first[:-1] + b",\n" + body)


class Listed:
    """A file ``write_listed`` wrote: its head at once, each item read when asked for.

    Nothing is held open between reads (a review may hold a thousand banks): each read
    opens the file again and refuses it if it is no longer the file the head came from
    (replaced or rewritten since), as it refuses bytes that are not what was written.
    """

    def __init__(self, path: Path, head: dict[str, Any], body: int, identity: Identity) -> None:
        self.head, self._path, self._body, self._identity = head, path, body, identity
        self._ends: list[int] = head["spans"]

    def __len__(self) -> int:
        return len(self._ends)

    def item(self, index: int) -> Any:
        """The item at ``index``; ValueError when its bytes are not what was written."""
        try:
            start = self._ends[index - 1] + 1 if index else len(_ITEMS)
            return json.loads(self._bytes(start, self._ends[index] - start))
        except TypeError as error:  # spans that are not numbers: a damaged head
            raise ValueError(str(error)) from None

    def items(self) -> list[Any]:
        """Every item, in one parse; ValueError when the file is damaged."""
        start = len(_ITEMS) - 1  # from the list's `[` to its `]`
        found = json.loads(self._bytes(start, self.size() - len(_END) + 1 - start))
        if not isinstance(found, list):
            raise ValueError("not a list")
        return found

    def size(self) -> int:
        """The bytes from the end of the head to the end of the file, as written."""
        return (self._ends[-1] if self._ends else len(_ITEMS)) + len(_END)

    def _bytes(self, start: int, size: int) -> bytes:
        try:
            with self._path.open("rb") as file:
                if _identity(file) != self._identity:
                    raise ValueError(f"{self._path} changed since its head was read")
                file.seek(self._body + start)
                found = file.read(size)
        except OSError as error:
            raise ValueError(f"unreadable: {error}") from None
        if len(found) != size:
            raise ValueError("cut short")
        return found


Identity = tuple[int, int, int, int]


def _identity(file: BinaryIO) -> Identity:
    info = os.fstat(file.fileno())
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def read_listed(path: Path) -> Listed | None:
    """The head of a file ``write_listed`` wrote, or ``None`` when it is missing, unreadable,
    cut short or not in that layout."""
    try:
        with path.open("rb") as file:
            first = file.readline()
            identity = _identity(file)
        head = json.loads(first[:-2] + b"}") if first.endswith(b",\n") else None
        if not isinstance(head, dict) or not isinstance(head.get("spans"), list):
            return None
        listed = Listed(path, head, len(first), identity)
        sound = identity[2] == len(first) + listed.size()
    except (OSError, ValueError, TypeError):
        return None
    return listed if sound else None


def _replace(path: Path, data: bytes) -> None:
    # A read-only folder or a full disk costs the next run some time, nothing more.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(data)
        partial.replace(path)
    except OSError:
        pass
