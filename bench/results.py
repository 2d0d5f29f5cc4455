"""Class results at scale: `lessonkit results` on 1,000,000 answer rows, against a floor.

A class is simulated on the real gpu-vs-tpu bank (tests/classroom.py: 500 learners, graded
by the real grader, written by the real exporter), then copied under fresh pseudonyms
(each copy with its own checksum) until the files hold a million answer rows, one file per
learner, as an LMS download gives them. Two figures run in fresh processes:

- `lessonkit results FOLDER --bank gpu-vs-tpu`, the whole command, start-up included;
- the floor: the same files read line by line and each line parsed with `json.loads`,
  with no checks and no statistics: the least any reader of these files must do.

Peak memory is each child's maximum resident set. Reading every file twice (the same
attempts exported twice, so twice the files and the same learners) shows that memory
follows the learners, not the number of files.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = int(os.environ.get("LESSONKIT_BENCH_ROWS", 1_000_000))  # smaller for a quick look
TARGET = 10.0  # seconds, from issue 26
SIMULATED = 500

# Runs a command and prints its CPU seconds and peak memory: only this child's, whatever
# ran before. CPU time is printed beside wall time because a machine shared with other
# work stretches the wall clock; on an idle machine the two agree.
PEAK = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], "
    "stdout=subprocess.DEVNULL); use = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(use.ru_utime + use.ru_stime, use.ru_maxrss); sys.exit(done.returncode)"
)
FLOOR = (
    "import json, pathlib, sys\n"
    "count = 0\n"
    "for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.jsonl')):\n"
    "    with path.open('rb') as lines:\n"
    "        for line in lines:\n"
    "            json.loads(line)\n"
    "            count += 1\n"
)


def write_class(folder: Path) -> tuple[int, int]:
    """Files holding at least ROWS answer rows; returns (files, answer rows)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from classroom import DEMO_FAULTS, simulate
    from lessonkit.bank.loader import load_bank

    bank = load_bank(ROOT / "quizzes" / "gpu-vs-tpu.yml")
    learners = simulate(bank, SIMULATED, seed=26, behaviours=DEMO_FAULTS, slug="gpu-vs-tpu",
                        varied=True)  # fmt: skip
    texts = [(learner.pseudonym, learner.text()) for learner in learners]
    folder.mkdir(parents=True)
    files = rows = 0
    while rows < ROWS:
        pseudonym, text = texts[files % len(texts)]
        fresh = f"l-{files:016x}"
        (folder / f"{fresh}.jsonl").write_text(_renamed(text, pseudonym, fresh), encoding="utf-8")
        rows += text.count('"record":"answer"')
        files += 1
    return files, rows


def _renamed(text: str, old: str, new: str) -> str:
    """The same attempts under another pseudonym, with the end line's checksum redone."""
    lines = text.replace(old, new).splitlines()
    end = json.loads(lines[-1])
    end["sha256"] = hashlib.sha256("".join(f"{line}\n" for line in lines[:-1]).encode()).hexdigest()
    return (
        "".join(f"{line}\n" for line in lines[:-1]) + json.dumps(end, separators=(",", ":")) + "\n"
    )


def _timed(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident MiB of one fresh process."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *command], cwd=cwd, capture_output=True,
                          text=True)  # fmt: skip
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    cpu, peak = done.stdout.split()[-2:]
    return elapsed, float(cpu), int(peak) / 1024


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        files, rows = write_class(folder)
        results = [sys.executable, "-m", "lessonkit", "results", "--bank", "gpu-vs-tpu"]
        floor = _timed([sys.executable, "-c", FLOOR, str(folder)], ROOT)
        took = _timed([*results, str(folder)], ROOT)
        twice = _timed([*results, str(folder), str(folder)], ROOT)
    verdict = "met" if took[0] <= TARGET else "NOT met"
    busy = "" if took[0] <= TARGET or took[1] > TARGET else f" (on CPU time, {took[1]:.1f} s: met)"
    if took[0] > TARGET:  # say how much of the budget the bare parse already takes here
        busy += f"; json.loads alone took {floor[0]:.1f} s wall, {floor[1]:.1f} s CPU on this run"
    return [
        f"results: {rows:,} answer rows in {files:,} files (one per learner), gpu-vs-tpu",
        "                                         wall      CPU   peak memory",
        f"  floor: read + json.loads each line  {_row(floor)}",
        f"  lessonkit results (whole run)       {_row(took)}   {rows / took[0]:,.0f} rows/s",
        f"  ratio results / floor               {took[0] / floor[0]:7.2f}   "
        f"{took[1] / floor[1]:7.2f}",
        f"  target <= {TARGET:.0f} s for {ROWS:,} rows: {verdict}{busy}",
        f"  the same files twice ({2 * files:,})    {_row(twice)}   (memory follows learners,"
        " not files)",
    ]


def _row(figures: tuple[float, float, float]) -> str:
    wall, cpu, peak = figures
    return f"{wall:7.2f} s {cpu:7.2f} s {peak:7.0f} MiB"


if __name__ == "__main__":
    print("\n".join(run()))
