"""Tests for the JSON cache files: sound ones are read, anything else costs only time."""

from __future__ import annotations

from collections.abc import Callable
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


ITEMS = [{"id": "a", "text": "Grüße"}, [1, 2.5], "line\nbreak", None, {"nested": {"x": []}}]


def test_a_listed_file_reads_each_item_alone_and_is_plain_json(tmp_path: Path) -> None:
    path = tmp_path / "listed.json"
    cachefile.write_listed(path, {"title": "Bank"}, ITEMS)
    listed = cachefile.read_listed(path)
    assert listed is not None and listed.head["title"] == "Bank"
    assert [listed.item(i) for i in reversed(range(len(listed)))] == ITEMS[::-1]
    assert listed.items() == ITEMS
    whole = cachefile.read(path)
    assert whole["items"] == ITEMS and whole["title"] == "Bank"
    cachefile.write_listed(path, {}, [])
    empty = cachefile.read_listed(path)
    assert empty is not None and len(empty) == 0 and empty.items() == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1],
        lambda data: data + b" ",
        lambda data: data[: data.index(b"\n")],
        lambda data: data.replace(b"\n", b" ", 1),
        lambda data: b"[" + data[1:],
        lambda data: b'{"spans": "x",\n' + data[data.index(b"\n") + 1 :],
    ],
    ids=["one byte short", "one byte more", "head only", "no head line", "not an object",
         "spans not a list"],
)  # fmt: skip
def test_a_damaged_listed_file_reads_as_none(
    tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    path = tmp_path / "listed.json"
    cachefile.write_listed(path, {"title": "Bank"}, ITEMS)
    path.write_bytes(damage(path.read_bytes()))
    assert cachefile.read_listed(path) is None


def test_an_item_of_a_file_replaced_or_garbled_since_its_head_was_read_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "listed.json"
    cachefile.write_listed(path, {}, ITEMS)
    listed = cachefile.read_listed(path)
    assert listed is not None
    cachefile.write_listed(path, {}, ITEMS[::-1])  # another file, the same size
    with pytest.raises(ValueError, match="changed since its head was read"):
        listed.item(0)
    with pytest.raises(ValueError):
        listed.items()
    data = path.read_bytes()
    path.write_bytes(data[:-9] + b"\x00" * 7 + data[-2:])  # the last item's bytes, same size
    garbled = cachefile.read_listed(path)
    assert garbled is not None and garbled.item(0) == ITEMS[-1]
    with pytest.raises(ValueError):
        garbled.item(len(ITEMS) - 1)
    path.unlink()
    with pytest.raises(ValueError, match="unreadable"):
        garbled.item(0)
