"""Peak memory of a child process, measured so that the benchmark's own size stays out.

Linux carries a process's peak resident size across fork and exec: a child's
``ru_maxrss`` is at least what the benchmark itself held when it started the child (a
benchmark holding 300 MB makes `python -c pass` read 300 MB). So a child that runs to
its end is started under GNU time, whose own child starts afresh, and one stopped early
is read from /proc before it is stopped (``VmHWM`` counts the process's memory since
its exec). Where neither is available, ``ru_maxrss`` is what is left.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TIME = Path("/usr/bin/time")


class Peak:
    """Wraps one command; ``kib`` gives its peak RSS in KiB once it has ended."""

    def __init__(self, command: list[str]) -> None:
        self._out: Path | None = None
        self.command = command
        if TIME.exists():
            handle, name = tempfile.mkstemp(prefix="lessonkit-rss-")
            os.close(handle)
            self._out = Path(name)
            self.command = [str(TIME), "-f", "%M", "-o", name, *command]

    def kib(self, usage: os.struct_rusage | None = None) -> int:
        try:
            if self._out is not None:
                return int(self._out.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
        finally:
            if self._out is not None:
                self._out.unlink(missing_ok=True)
        return usage.ru_maxrss if usage is not None else 0


def running_kib(pid: int) -> int | None:
    """The peak RSS so far of a running process, in KiB, or None where /proc has none."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None
