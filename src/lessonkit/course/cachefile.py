"""JSON files that only save time: read when sound, written whole, and never a reason to fail."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def read(path: Path) -> Any:
    """The JSON value in ``path``, or ``None`` when it is missing or unreadable."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def write(path: Path, value: Any) -> None:
    """Write ``value`` as JSON, replacing the file in one step so no reader sees half of it."""
    # A read-only folder or a full disk costs the next run some time, nothing more.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass
