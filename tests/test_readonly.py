"""`history` and `list` only read: they work on a data folder the learner cannot write.

Run for real as a learner without write access: as `nobody` through `runuser` when the
tests run as root (root ignores file permissions), else as the current user with the
folder made read-only. That learner may not be able to enter the checkout (a clone in a
private folder, such as one from `mktemp -d`), so lessonkit's sources and the packages a
learner's install has are copied to a world-readable folder on its PYTHONPATH.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import pytest

from conftest import MakeCourse
from lessonkit.history.store import Store

SRC = Path(__file__).resolve().parents[1] / "src"
T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
ROOT = os.geteuid() == 0


def _learner_python() -> list[str]:
    """How to run Python as a learner who cannot write the data folder."""
    if not ROOT:
        return [sys.executable]
    if shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: no unprivileged learner to run as")
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for python in (sys.executable, f"/usr/bin/{version}"):
        command = ["runuser", "-u", "nobody", "--", python]
        probe = subprocess.run([*command, "-c", "pass"], capture_output=True, check=False)
        if probe.returncode == 0:
            return command
    pytest.skip(f"no {version} that the user nobody may run")


def _learner_install() -> set[str]:
    """lessonkit and the distributions its core install pulls in, with no extras."""
    found: set[str] = set()
    wanted = ["lessonkit"]
    while wanted:
        name = re.sub(r"[-_.]+", "-", wanted.pop()).lower()
        if name in found:
            continue
        found.add(name)
        for requirement in metadata.requires(name) or []:
            if "extra ==" not in requirement:
                wanted.append(re.split(r"[^A-Za-z0-9._-]", requirement, maxsplit=1)[0])
    return found


@pytest.fixture(scope="module")
def library() -> Iterator[Path]:
    """A world-readable copy of what a learner's `pip install` puts in site-packages."""
    top = Path(tempfile.mkdtemp(prefix="lessonkit-ro-lib-"))
    try:
        shutil.copytree(SRC / "lessonkit", top / "lessonkit",
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        for name in _learner_install() - {"lessonkit"}:
            distribution = metadata.distribution(name)
            for file in distribution.files or []:
                source = Path(str(distribution.locate_file(file)))
                if file.parts[0] != ".." and source.is_file():  # not the venv's bin/
                    (top / file).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, top / file)
        for path in [top, *top.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield top
    finally:
        shutil.rmtree(top)


@pytest.fixture
def shared(make_course: MakeCourse, library: Path) -> Iterator[Path]:
    """A world-readable folder holding the small course and an empty `home/` data folder."""
    top = Path(tempfile.mkdtemp(prefix="lessonkit-ro-"))
    try:
        top.chmod(0o755)
        mkdocs = "site_name: Test\ndocs_dir: content\n"
        shutil.copytree(make_course({"mkdocs.yml": mkdocs}), top / "course")
        (top / "home").mkdir()
        (top / "lib").symlink_to(library)
        for path in [top, *top.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield top
    finally:
        for path in [top, *top.rglob("*")]:
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(top)


def learner(shared: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(shared),
        "LESSONKIT_HOME": str(shared / "home"),
        "PYTHONPATH": str(shared / "lib"),
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    return subprocess.run(
        [*_learner_python(), "-m", "lessonkit", *args],
        cwd=shared / "course",
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def quiz_taken(home: Path) -> None:
    store, _ = Store.open(home, now=T0)
    attempt = store.begin_attempt(
        bank="lesson-one", seed=1, order=["q-one"], started=T0, pass_mark=0.6
    )
    store.record_answer(
        attempt, question_id="q-one", key_hash="h", response=0, score=1.0, max_score=1.0,
        correct=True, answered=T0,
    )  # fmt: skip
    store.finish_attempt(attempt, finished=T0)
    store.close()


def lock(folder: Path) -> dict[str, tuple[int, int]]:
    """Make the folder and its files read-only; what is in it, with sizes and mtimes."""
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)
    return listing(folder)


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}


def told() -> str:
    """The command the learner is told to type: this Python's `-m lessonkit` when the
    learner runs another Python than this install's, whose `lessonkit` is on PATH."""
    python = _learner_python()[-1]
    return "lessonkit" if python == sys.executable else f"{python} -m lessonkit"


def history_shown() -> str:
    return HISTORY.replace("`lessonkit ", f"`{told()} ")


HISTORY = (
    "History\n"
    "#  Started           Quiz        Score       Result    Duration\n"
    f"1  {T0.astimezone():%Y-%m-%d %H:%M}  lesson-one  1/1 (100%)  \u2713 passed  0m 00s\n"
    "`lessonkit history SLUG N` shows attempt N question by question.\n"
)


def test_history_and_list_read_a_folder_the_learner_cannot_write(shared: Path) -> None:
    home = shared / "home"
    quiz_taken(home)
    assert [p.name for p in home.iterdir()] == ["history.db"]  # the writer closed: no -wal left
    before = lock(home)
    done = learner(shared, "history")
    assert (done.returncode, done.stderr, done.stdout) == (0, "", history_shown())
    done = learner(shared, "list")
    assert (done.returncode, done.stderr) == (0, "")
    assert (
        done.stdout.splitlines()[-1]
        == "Test plan  Lesson one  lesson-one  2          1/1 (100%) \u2713 passed"
    )
    assert listing(home) == before  # nothing created, nothing changed
    # Taking a quiz needs to write: it says so, clearly, and changes nothing either.
    done = learner(shared, "quiz", "lesson-one")
    assert done.returncode == 1
    assert done.stderr == (
        f"lessonkit: cannot open the history database {home}/history.db: attempt to write a "
        "readonly database; check that you can write to that folder, or set LESSONKIT_HOME or "
        "--data-dir\n"
    )
    assert listing(home) == before


def test_history_reads_answers_still_in_the_wal_of_an_open_quiz(shared: Path) -> None:
    home = shared / "home"
    quiz_taken(home)
    other_window = sqlite3.connect(home / "history.db", isolation_level=None)
    try:
        other_window.execute("PRAGMA wal_autocheckpoint = 0")  # keep it in the -wal file
        other_window.execute("UPDATE attempts SET bank = 'in-the-wal'")
        before = lock(home)
        assert {"history.db-wal", "history.db-shm"} <= set(before)
        done = learner(shared, "history")
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == history_shown().replace("lesson-one", "in-the-wal")
        assert listing(home) == before
    finally:
        other_window.close()


def test_no_database_in_a_read_only_folder_means_no_attempts_yet(shared: Path) -> None:
    home = shared / "home"
    lock(home)
    done = learner(shared, "history")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"No attempts yet. Take a quiz with `{told()} quiz SLUG`.\n"
    done = learner(shared, "list")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1].endswith("not taken yet")
    assert list(home.iterdir()) == []
    assert stat.S_IMODE(home.stat().st_mode) == 0o555


def test_a_damaged_history_in_a_folder_the_learner_cannot_write_is_shown_as_recovered(
    shared: Path,
) -> None:
    from test_recovery import ATTEMPTS, answers_on, overwrite, pages_holding, write_history

    home = shared / "home"
    write_history(home)
    path = home / "history.db"
    lost = answers_on(path, pages_holding(path, range(50, 51)))
    overwrite(path, pages_holding(path, range(50, 51)))
    before = lock(home)
    done = learner(shared, "history")
    assert (done.returncode, done.stderr) == (0, "")
    note, *rest = done.stdout.splitlines()
    assert note == (
        f"Note: history database {path} is damaged: some of it cannot be read (database disk "
        "image is malformed). It cannot be repaired here (this folder cannot be written), so "
        f"what is shown is what could be read of it. Recovered {ATTEMPTS} attempts "
        f"and {240 - len(lost)} answers (row by row). Lost, as unreadable: at least "
        f"{len(lost)} answers at lesson-one."
    )
    assert len([row for row in rest if "lesson-one" in row]) == ATTEMPTS
    assert listing(home) == before  # nothing created, nothing changed
