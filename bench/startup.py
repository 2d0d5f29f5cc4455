"""Time to first question of `lessonkit quiz gpu-vs-tpu` (stdin a pipe), against a floor.

The floor is `python -c "import yaml, pydantic"`; the target is at most 1.3 times it.
Runs are interleaved so that a busy machine slows both sides alike, and the median of
each is reported. The cache of compiled banks is warmed first (a learner's second
quiz onwards); the cold first run, which validates the bank, is reported too.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15
TARGET = 1.3
PEER = 0.38  # mkdocs-quiz 1.7's terminal runner, measured on these machines (field notes)


def _command() -> list[str]:
    script = Path(sys.executable).with_name("lessonkit")
    if script.is_file():
        return [str(script), "quiz", "gpu-vs-tpu"]
    return [sys.executable, "-m", "lessonkit", "quiz", "gpu-vs-tpu"]


def _first_question(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    with subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("Question 1 of"):
                break
        else:
            raise RuntimeError("the quiz ended without showing a question")
        elapsed = time.perf_counter() - started
        child.kill()
    return elapsed


def _floor() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import yaml, pydantic"], check=True)
    return time.perf_counter() - started


def run() -> list[str]:
    """Measure and describe; the lead's `bench/run.py` prints the lines."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "LESSONKIT_HOME": home, "NO_COLOR": "1"}
        command = _command()
        cold = _first_question(command, env)
        floors, firsts = [], []
        for _ in range(RUNS):
            floors.append(_floor())
            firsts.append(_first_question(command, env))
    floor, first = statistics.median(floors), statistics.median(firsts)
    ratio = first / floor
    verdict = "within" if ratio <= TARGET else "OVER"
    return [
        "quiz start-up: time to first question (stdin a pipe, medians of "
        f"{RUNS} interleaved runs)",
        f"  floor `python -c 'import yaml, pydantic'`  {floor * 1000:6.0f} ms",
        f"  lessonkit quiz gpu-vs-tpu (cached bank)   {first * 1000:6.0f} ms",
        f"  ratio {ratio:.2f} ({verdict} the {TARGET} target)",
        f"  first run ever (validates the bank)       {cold * 1000:6.0f} ms",
        f"  peer: mkdocs-quiz terminal runner          {PEER * 1000:6.0f} ms "
        f"({PEER / first:.1f}x slower)",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
