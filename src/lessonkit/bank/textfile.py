"""A content file's text, checked before any parsing: size, encoding, NUL bytes."""

from __future__ import annotations

from pathlib import Path

from lessonkit.errors import ContentError, Problem, display_path


def read(path: Path, max_bytes: int) -> str:
    """A file's text, refusing directories, huge or binary files and bad UTF-8, before parsing."""
    shown = display_path(path)
    try:
        if path.is_dir():
            raise ContentError([Problem(shown, 0, 0, "is a directory, not a file", "")])
        size = path.stat().st_size
        if size > max_bytes:
            message = f"is {_size(size)}, over the limit of {_size(max_bytes)}"
            hint = "a lesson or bank is far smaller; is this a paste gone wrong or a binary file?"
            raise ContentError([Problem(shown, 0, 0, message, hint)])
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise ContentError(
            [Problem(shown, 0, 0, f"cannot be read: {reason.lower()}", "")]
        ) from None
    return decode(raw, shown)


def _size(count: int) -> str:
    return f"{count / 2**20:.1f} MiB" if count >= 2**20 else f"{count:,} bytes"


def decode(raw: bytes, path: str) -> str:
    """UTF-8 text without a byte-order mark; NUL bytes and invalid bytes are pointed at."""
    nul = raw.find(b"\0")
    if nul >= 0:
        line, column = _position(raw, nul)
        raise ContentError(
            [
                Problem(
                    path,
                    line,
                    column,
                    "contains a NUL byte",
                    "is this a binary file? save it as UTF-8 text",
                )
            ]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _position(raw, error.start)
        raise ContentError(
            [
                Problem(
                    path,
                    line,
                    column,
                    f"is not valid UTF-8 (byte 0x{raw[error.start]:02x})",
                    "save the file with UTF-8 encoding",
                )
            ]
        ) from None
    return text.removeprefix("\ufeff")


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", "replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column
