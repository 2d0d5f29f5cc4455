"""Tests for the JSON cache files: sound ones are read, anything else costs only time."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.course import cachefile


def test_written_value_reads_back_and_leaves_no_partial_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "cache.json"
    cachefile.write(path, {"text": "Grüße", "numbers": [1, 2.5]})
    assert cachefile.read(path) == {"text": "Grüße", "numbers": [1, 2.5]}
    cachefile.write(path, ["replaced"])
    assert cachefile.read(path) == ["replaced"]
    assert [p.name for p in path.parent.iterdir()] == ["cache.json"]


@pytest.mark.parametrize("content", [None, b"", b"{half", b"\xff\xfe\x00"])
def test_missing_or_damaged_file_reads_as_none(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "cache.json"
    if content is not None:
        path.write_bytes(content)
    assert cachefile.read(path) is None


def test_a_folder_that_cannot_be_made_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder would go")
    cachefile.write(blocker / "cache.json", {"a": 1})
    assert blocker.read_text() == "a file where a folder would go"
    assert cachefile.read(blocker / "cache.json") is None
