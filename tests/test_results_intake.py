"""Reading attempts files: hostile, malformed and edited files are refused with file and line.

Each case starts from a real file written by the exporter's line writer and breaks it the
way a careless download, an editor or a hostile hand would. Through the real CLI, a refused
file is named with its line, the others are still analysed, and nothing prints a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from lessonkit.history.rows import SharedAnswer, SharedAttempt
from lessonkit.results.collection import collect
from lessonkit.results.intake import MAX_LINE_BYTES, Refused, read
from lessonkit.results.sharing import file_lines
from lessonkit.results.sources import Source, sources

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
LEARNER = "l-00112233445566aa"


def attempt(started: datetime = T0, *, score: float = 1.0) -> SharedAttempt:
    answers = [
        SharedAnswer("q-one", "0123456789ab", 1, score, 1.0, started + timedelta(seconds=9),
                     8.5, 0, None),
        SharedAnswer("q-two", "0123456789ac", "xla", 0.0, 1.0, started + timedelta(seconds=20),
                     11.0, 1, None),
    ]  # fmt: skip
    return SharedAttempt("lesson-one", "aabbccddeeff", ["q-one", "q-two"], started,
                         started + timedelta(minutes=1), answers)  # fmt: skip


def good() -> list[str]:
    return list(file_lines(LEARNER, [attempt(), attempt(T0 + timedelta(days=1))], exported=T0))


def text(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def changed(number: int, **fields: object) -> Callable[[list[str]], bytes]:
    """Line ``number`` (from 1) with some fields replaced, the checksum left as it was."""

    def edit(lines: list[str]) -> bytes:
        record = json.loads(lines[number - 1])
        record.update(fields)
        lines[number - 1] = json.dumps(record)
        return text(lines)

    return edit


def replaced(number: int, raw: str) -> Callable[[list[str]], bytes]:
    def edit(lines: list[str]) -> bytes:
        lines[number - 1] = raw
        return text(lines)

    return edit


def _with_end_for(lines: list[str]) -> list[str]:
    """A file whose end line is recomputed, as a careful forger would."""
    import hashlib

    digest = hashlib.sha256("".join(line + "\n" for line in lines[:-1]).encode()).hexdigest()
    end = json.loads(lines[-1])
    return [*lines[:-1], json.dumps({**end, "sha256": digest})]


CASES: list[tuple[str, Callable[[list[str]], bytes], int, str]] = [
    ("empty", lambda lines: b"", 0, "is empty"),
    (
        "a picture",
        lambda lines: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        1,
        "not a lessonkit attempts file",
    ),
    ("other JSON", lambda lines: b'{"grades": [1, 2]}\n', 1, "not a lessonkit attempts file"),
    ("a bare list", lambda lines: b"[1, 2, 3]\n", 1, "not a lessonkit attempts file"),
    ("newer format", changed(1, version=2), 1, "newer lessonkit"),
    ("a byte-order mark", lambda lines: b"\xef\xbb\xbf" + text(lines), 1, "byte-order mark"),
    ("score edited", changed(3, score=0.0), 8, "changed after it was exported"),
    ("cut short", lambda lines: text(lines[:-1]), 7, "cut short"),
    ("cut mid-line", lambda lines: text(lines)[:-40], 8, "not valid JSON"),
    ("broken JSON", replaced(3, '{"record": "answer", '), 3, "not valid JSON"),
    (
        "NaN score",
        lambda lines: text(lines).replace(b'"score":1.0', b'"score":NaN', 1),
        3,
        "`score`: input should be a finite number",
    ),
    (
        "a name added",
        changed(3, name="Ada Lovelace"),
        3,
        "answer line: `name`: extra inputs are not permitted",
    ),
    (
        "a negative score",
        changed(3, score=-1),
        3,
        "`score`: input should be greater than or equal to 0",
    ),
    ("score above points", changed(3, score=5.0), 3, "score 5.0 is more than max_score 1.0"),
    ("unknown record", changed(3, record="grade"), 3, "`record` is not one of"),
    ("no record", replaced(3, '{"learner": "x"}'), 3, "a line without `record`"),
    ("not an object", replaced(3, "42"), 3, "not a JSON object"),
    ("a deep bomb", replaced(3, "[" * 100_000 + "]" * 100_000), 3, "longer than"),
    (
        "nested deep",
        replaced(3, '{"record":"answer","response":' + "[" * 5000 + "]" * 5000 + "}"),
        3,
        "not valid JSON",
    ),
    ("an overlong line", replaced(3, "x" * (MAX_LINE_BYTES + 10)), 3, "longer than"),
    ("an empty line", lambda lines: text([*lines[:3], "", *lines[3:]]), 4, "an empty line"),
    (
        "invalid UTF-8",
        lambda lines: text(lines).replace(b"xla", b"x\xff\xfe", 1),
        4,
        "not valid JSON",
    ),
    ("another learner", changed(3, learner="l-ffffffffffffffff"), 3, "is not the header's"),
    (
        "an answer first",
        lambda lines: text([lines[0], *lines[2:]]),
        2,
        "every answer follows its own attempt",
    ),
    ("attempt renumbered", changed(5, attempt=3), 5, "attempt 3 follows attempt 1"),
    (
        "a repeated answer",
        lambda lines: text([*lines[:3], lines[2], *lines[3:]]),
        4,
        "a second answer to `q-one`",
    ),
    (
        "a second header",
        lambda lines: text([*lines[:3], lines[0], *lines[3:]]),
        4,
        "a second header",
    ),
    ("a line after the end", lambda lines: text([*lines, lines[2]]), 9, "a line after the end"),
    (
        "counts edited",
        lambda lines: text(_with_end_for(lines[:4] + lines[-1:])),
        5,
        "lines were added or removed",
    ),
    ("unknown quiz", changed(2, bank="other-quiz"), 2, "not among the header's `banks`"),
    (
        "finished before it started",
        changed(2, finished="2026-11-19T09:00:00+00:00"),
        2,
        "finished before it started",
    ),
    (
        "a bad pseudonym",
        changed(1, learner="Ada Lovelace"),
        1,
        "`learner`: string should match pattern",
    ),
]


@pytest.mark.parametrize(("name", "build", "line", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_file_is_refused_at_its_line(
    tmp_path: Path, name: str, build: Callable[[list[str]], bytes], line: int, message: str
) -> None:
    path = tmp_path / "learner.jsonl"
    path.write_bytes(build(good()))
    with pytest.raises(Refused) as refused:
        read(Source(str(path), lambda: path.open("rb"), path.stat().st_size))
    assert message in refused.value.message, refused.value.message
    assert refused.value.line == line, str(refused.value)
    assert str(refused.value).startswith(f"{path}:{line}: " if line else f"{path}: ")


def test_a_good_file_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "learner.jsonl"
    path.write_bytes(text(good()))
    found = read(Source(str(path), lambda: path.open("rb"), path.stat().st_size))
    assert [a["attempt"] for a in found.attempts] == [1, 2]
    assert [(a["question"], a["response"], a["hints"]) for a in found.answers[:2]] == [
        ("q-one", 1, 0),
        ("q-two", "xla", 1),
    ]


def test_windows_line_endings_from_a_download_are_read(tmp_path: Path) -> None:
    path = tmp_path / "learner.jsonl"
    path.write_bytes(text(good()).replace(b"\n", b"\r\n"))
    assert len(read(Source(str(path), lambda: path.open("rb"), path.stat().st_size)).answers) == 4


def test_folders_and_zip_downloads_are_searched(tmp_path: Path) -> None:
    (tmp_path / "class" / "a").mkdir(parents=True)
    (tmp_path / "class" / "a" / "one.jsonl").write_bytes(text(good()))
    (tmp_path / "class" / "notes.txt").write_text("not an attempts file")
    # Sorted part by part, as paths sort: a/ before a-b/, though "-" sorts before "/".
    (tmp_path / "class" / "a-b").mkdir()
    (tmp_path / "class" / "a-b" / "two.jsonl").write_bytes(text(good()))
    # Neither a link to nothing nor a folder named like a file is read.
    (tmp_path / "class" / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (tmp_path / "class" / "folder.jsonl").mkdir()
    with zipfile.ZipFile(tmp_path / "submissions.zip", "w") as archive:
        archive.writestr("Lovelace Ada/attempts.jsonl", text(good()))
        archive.writestr("readme.txt", "ignored")
    found = [
        s.name if isinstance(s, Source) else f"skipped {s}"
        for s in sources([tmp_path / "class", tmp_path / "submissions.zip"])
    ]
    assert found == [
        str(tmp_path / "class" / "a" / "one.jsonl"),
        str(tmp_path / "class" / "a-b" / "two.jsonl"),
        f"skipped {tmp_path / 'class' / 'gone.jsonl'}: a link to a file that is not there",
        f"skipped {tmp_path / 'class' / 'notes.txt'}: {NOT_ONE}",
        f"{tmp_path / 'submissions.zip'}/Lovelace Ada/attempts.jsonl",
        f"skipped {tmp_path / 'submissions.zip'}/readme.txt: {NOT_ONE}",
    ]


NOT_ONE = (
    "not an attempts file (its name does not end in .jsonl and it does not start with an "
    "attempts file's header line)"
)


def test_every_file_is_read_or_named_with_why(tmp_path: Path) -> None:
    """What browsers and LMS downloads make of a learner's file is read; what is not an
    attempts file is named; a file given twice is counted once, and said so."""
    other = list(file_lines("l-99887766554433bb", [attempt()], exported=T0))
    third = list(file_lines("l-5566778899aabbcc", [attempt()], exported=T0))
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ADA.JSONL").write_bytes(text(good()))
    (folder / "ada (1).jsonl").write_bytes(text(good()))  # the same file, downloaded twice
    (folder / "grace.jsonl.txt").write_bytes(text(other))
    (folder / "renamed by the LMS").write_bytes(text(third))  # no suffix: known by its start
    (folder / "feedback.pdf").write_bytes(b"%PDF-1.7")
    with zipfile.ZipFile(tmp_path / "download.zip", "w") as archive:
        archive.writestr("__MACOSX/._ADA.JSONL", b"\x00\x05\x16\x07")
        archive.writestr("Ada/ADA.JSONL", text(good()))
    found = collect([folder, tmp_path / "download.zip"])
    assert [str(s) for s in found.skipped] == [
        f"{folder / 'ada (1).jsonl'}: the same file as {folder / 'ADA.JSONL'}; counted once",
        f"{folder / 'feedback.pdf'}: {NOT_ONE}",
        f"{tmp_path / 'download.zip'}/Ada/ADA.JSONL: the same file as {folder / 'ADA.JSONL'}; "
        "counted once",
        f"{tmp_path / 'download.zip'}/__MACOSX/._ADA.JSONL: not a learner's file: what macOS or "
        "Windows adds to folders",
    ]
    assert (found.files, found.refused) == (5, ())
    (bank,) = found.banks
    assert (bank.learners, bank.attempts) == (3, 4)
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "results", "--json", str(folder)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["skipped"] == [
        f"{folder / 'ada (1).jsonl'}: the same file as {folder / 'ADA.JSONL'}; counted once",
        f"{folder / 'feedback.pdf'}: {NOT_ONE}",
    ]
    assert f"lessonkit: skipped {folder / 'feedback.pdf'}: not an attempts file" in done.stderr


def test_a_zip_member_inflating_past_its_size_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.jsonl", b"0" * (65 * 1024 * 1024))
    (source,) = sources([tmp_path / "bomb.zip"])
    with pytest.raises(Refused, match="more than an attempts file can be"):
        read(source)


def test_the_cli_refuses_bad_files_and_reads_the_rest_without_a_traceback(
    tmp_path: Path,
) -> None:
    for name, build, _, _ in CASES:
        (tmp_path / f"{name.replace(' ', '-')}.jsonl").write_bytes(build(good()))
    (tmp_path / "good.jsonl").write_bytes(text(good()))
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "results", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    refused = [line for line in done.stderr.splitlines() if line.startswith("lessonkit: refused")]
    assert len(refused) == len(CASES)
    assert (
        f"lessonkit: refused {tmp_path}/score-edited.jsonl:8: the file was changed" in done.stderr
    )
    assert f"{len(CASES)} of {len(CASES) + 1} files refused" in done.stderr
    assert done.stdout.startswith("lesson-one (quizzes/lesson-one.yml (not found here))\n")
    assert "  1 learner, 2 attempts.\n  Statistics come from each learner's first" in done.stdout


def test_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "results", str(tmp_path / "nowhere")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == f"lessonkit: {tmp_path / 'nowhere'}: no such file or folder\n"


def test_a_folder_without_attempts_files_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not an attempts file")
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "results", str(tmp_path)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"lessonkit: no attempts files (*.jsonl) in {tmp_path}; ")


def test_a_zip_download_is_opened_once_for_all_its_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Opening an archive reads its whole directory: once per member, a class of 25,000
    # files took hours. Every member is still read, in order, and the archive closed.
    with zipfile.ZipFile(tmp_path / "submissions.zip", "w") as archive:
        for n in range(30):
            archive.writestr(f"Learner {n:02d}/attempts.jsonl", text(good()))
    opened: list[zipfile.ZipFile] = []

    class Counted(zipfile.ZipFile):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            opened.append(self)

    monkeypatch.setattr(zipfile, "ZipFile", Counted)
    found = collect([tmp_path / "submissions.zip"])
    assert (found.files, found.refused, found.banks[0].attempts) == (30, (), 2)
    assert len(opened) == 2  # once to list the members, once to read them all
    assert all(archive.fp is None for archive in opened)  # closed: the file can be deleted
