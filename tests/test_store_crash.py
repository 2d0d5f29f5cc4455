"""The history survives a killed process, and two processes writing at once lose nothing."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pytest

from lessonkit.history.store import Store

# A learner in a child process: one answer per line read from stdin, acknowledged on stdout
# only after the store has returned, so "acknowledged" means "the learner saw it accepted".
LEARNER = textwrap.dedent(
    """
    import sys
    import time
    from datetime import UTC, datetime, timedelta
    from pathlib import Path
    from lessonkit.history.store import Store

    folder, bank, count, wait = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    order = [f"{bank}-q{i}" for i in range(count)]
    t0 = datetime(2026, 11, 22, 3, 10, tzinfo=UTC)
    store, notices = Store.open(folder, now=t0)
    attempt = store.begin_attempt(bank=bank, seed=7, order=order, started=t0)
    print("ready", flush=True)
    if wait == "burst":  # one "go" line, then every answer as fast as possible
        sys.stdin.readline()
    for i, qid in enumerate(order):
        if wait == "wait" and not sys.stdin.readline():
            break
        store.record_answer(
            attempt, question_id=qid, key_hash="k", response=i, score=i % 2,
            max_score=1, correct=bool(i % 2), answered=t0 + timedelta(seconds=i),
        )
        print("saved", qid, flush=True)
        if wait == "burst":
            time.sleep(0.001)  # let the other process in: a learner never types this fast
    store.finish_attempt(attempt, finished=t0 + timedelta(hours=1))
    store.close()
    print("done", flush=True)
    """
)

T0 = datetime(2026, 11, 22, 3, 10, tzinfo=UTC)
Learner = Callable[[Path, str, int, str], subprocess.Popen[str]]


def read_line(child: subprocess.Popen[str]) -> str:
    """The child's next line; if it died instead, what it said on stderr."""
    assert child.stdout is not None and child.stderr is not None
    line = child.stdout.readline()
    return line or f"(exited {child.wait()}) {child.stderr.read()}"


@pytest.fixture
def learner() -> Iterator[Callable[[Path, str, int, str], subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []

    def start(folder: Path, bank: str, count: int, mode: str) -> subprocess.Popen[str]:
        child = subprocess.Popen(
            [sys.executable, "-c", LEARNER, str(folder), bank, str(count), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(child)
        return child

    yield start
    for child in started:  # a failed test must not leave learners running
        if child.poll() is None:
            child.kill()
        child.communicate()


def test_a_killed_quiz_keeps_every_answer_and_shows_where_to_resume(
    tmp_path: Path, learner: Learner
) -> None:
    child = learner(tmp_path, "gpu", 10, "wait")
    assert child.stdin is not None
    assert read_line(child) == "ready\n"
    for i in range(4):
        child.stdin.write("answer\n")
        child.stdin.flush()
        assert read_line(child) == f"saved gpu-q{i}\n"
    child.send_signal(signal.SIGKILL)  # mid-quiz, waiting for the fifth answer
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    store, notices = Store.open(tmp_path, now=T0)
    unfinished = store.unfinished_attempt("gpu")
    store.close()
    assert notices == []
    assert unfinished is not None
    assert list(unfinished.answered) == ["gpu-q0", "gpu-q1", "gpu-q2", "gpu-q3"]
    assert [a.response for a in unfinished.answered.values()] == [0, 1, 2, 3]
    resume_at = next(q for q in unfinished.order if q not in unfinished.answered)
    assert resume_at == "gpu-q4"


def test_two_quizzes_at_once_both_record_every_answer(tmp_path: Path, learner: Learner) -> None:
    count = 400
    children = [learner(tmp_path, bank, count, "burst") for bank in ("gpu", "tpu")]
    for child in children:  # both open (and migrate) the fresh database at the same time
        assert read_line(child) == "ready\n"
    for child in children:  # then both answer as fast as they can
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = [child.communicate(timeout=300) for child in children]

    for child, (out, err) in zip(children, results, strict=True):
        assert (child.returncode, err) == (0, "")
        assert out.endswith("done\n")
    store, _ = Store.open(tmp_path, now=T0)
    attempts = store.attempts()
    rows = store._read("SELECT attempt_id, question_id FROM answers ORDER BY id")
    store.close()
    assert sorted((a.bank, a.answered, a.finished is not None) for a in attempts) == [
        ("gpu", count, True),
        ("tpu", count, True),
    ]
    assert len(rows) == 2 * count
    # The two really wrote at the same time, not one after the other.
    switches = sum(1 for a, b in pairwise(rows) if a[0] != b[0])
    assert switches > 10
    by_attempt = {a.attempt_id: a.bank for a in attempts}
    for bank in ("gpu", "tpu"):
        answered = [q for attempt_id, q in rows if by_attempt[attempt_id] == bank]
        assert answered == [f"{bank}-q{i}" for i in range(count)]
