"""Validation speed: `lessonkit validate` on a 10,000-question bank against a naive YAML load."""

from __future__ import annotations

import gc
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

QUESTIONS = 10_000
ROUNDS = 3
PARAMETERISED = 0.2  # the share of questions that draw numbers (issue 25)

LESSON = """\
---
title: Bench lesson
plan: bench-plan
summary: A lesson for the benchmark.
minutes: 5
objectives: [Measure]
insights: [First, Second, Third]
key_points: [Speed]
quiz: bench
sources: [{title: Python, url: "https://www.python.org/", accessed: 2026-11-01}]
last_reviewed: 2026-11-20
---
## 1. First
## 2. Second
## 3. Third
"""

PLAN = """\
---
title: Bench plan
summary: Plan.
audience: Machines.
lessons: [bench]
---
"""

SECTIONS = ("1-first", "2-second", "3-third")


def _drawn(index: int, rng: random.Random) -> str:
    """A calculation that draws its numbers, as an author writes one: constants and values
    differ from question to question, so no formula is parsed only once for them all."""
    sizes = sorted(rng.sample(range(2, 200), 4))
    speeds = sorted({round(rng.uniform(0.5, 9.5), 2) for _ in range(3)})
    extra = rng.randint(2, 99)
    head = (
        f"  - id: q-{index}\n"
        f"    prompt: >-\n"
        f"      Question {index}: a step reads {{gb}} GB {{n}} times, plus {extra} GB,\n"
        f"      at {{tb_s}} TB/s. How long does it take at least, in milliseconds?\n"
        f"    insight: {index % 3 + 1}\n    section: {SECTIONS[index % 3]}\n"
        f"    explanation: ({{gb}} times {{n}} + {extra}) / {{tb_s}} is about {{ms}} ms.\n"
        f"    tags: [cost, bandwidth]\n"
        f"    params:\n      gb: {{values: {sizes}}}\n      tb_s: {{values: {speeds}}}\n"
        f"      n: {{min: 1, max: 8, step: 1}}\n"
        f"    derived:\n      ms: {{formula: (gb * n + {extra}) / tb_s, significant: 3}}\n"
        f'    constraints: ["gb * n < {rng.randint(900, 1500)}"]\n'
    )
    if rng.random() < 0.7:
        numeric = "    type: numeric\n    answer: ms\n    relative_tolerance: 0.02\n    unit: ms\n"
        return head + numeric
    options = [
        ("(gb * n + {e}) / tb_s", True),
        ("(gb * n + {e}) / tb_s / 1000", False),
        ("2 * (gb * n + {e}) / tb_s", False),
    ]
    return (
        head
        + "    type: single\n    options:\n"
        + "".join(
            f'      - {{text: "{{value}} ms", value: {v.format(e=extra)}, significant: 3'
            + (", correct: true}\n" if right else ", feedback: A real mistake.}\n")
            for v, right in options
        )
    )


def _question(index: int, rng: random.Random) -> str:
    """One question of a realistic type mix, written as an author would."""
    if index % 5 == 0:  # every fifth: PARAMETERISED of the bank
        return _drawn(index, rng)
    kind = rng.choice(
        ["single"] * 4 + ["multiple"] * 2 + ["true_false", "numeric", "text", "order", "match"]
    )
    head = (
        f"  - id: q-{index}\n    type: {kind}\n"
        f"    prompt: >-\n      Question {index}: which statement about utilisation and the cost\n"
        f"      per unit of useful work holds for this **workload**?\n"
        f"    insight: {index % 3 + 1}\n    section: {SECTIONS[index % 3]}\n"
        f"    explanation: Peak throughput needs a line that is kept fed ({index}).\n"
        f"    tags: [cost, utilisation]\n"
    )
    if kind in ("single", "multiple"):
        correct = {rng.randrange(4)} if kind == "single" else {0, 2}
        options = "".join(
            f"      - text: Option {i} for question {index}\n"
            + ("        correct: true\n        feedback: Right.\n" if i in correct else "")
            for i in range(4)
        )
        return head + "    options:\n" + options
    if kind == "true_false":
        return head + "    answer: true\n"
    if kind == "numeric":
        return head + "    answer: 12.5\n    relative_tolerance: 0.02\n    unit: USD\n"
    if kind == "text":
        return head + "    accept: [XLA, Accelerated Linear Algebra]\n"
    if kind == "order":
        return head + "    items: [Load, Batch, Compute, Write]\n"
    pairs = "      - {left: GPU, right: workshop}\n      - {left: TPU, right: factory line}\n"
    return head + "    pairs:\n" + pairs


def write_course(root: Path) -> Path:
    (root / "content" / "bench-plan").mkdir(parents=True)
    (root / "quizzes").mkdir()
    (root / "content" / "bench-plan" / "index.md").write_text(PLAN)
    (root / "content" / "bench-plan" / "bench.md").write_text(LESSON)
    rng = random.Random(7)
    body = "".join(_question(i, rng) for i in range(QUESTIONS))
    bank = root / "quizzes" / "bench.yml"
    bank.write_text("lesson: bench\ntitle: Bench\npass_mark: 0.7\nquestions:\n" + body)
    return bank


def _naive_load(bank: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one plain load of the bank."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    yaml.load(bank.read_text(encoding="utf-8"), Loader=loader)
    return time.perf_counter() - start, time.process_time() - cpu


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _validate(root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the real command in a fresh process, start-up included."""
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "validate"], cwd=root, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"the benchmark bank did not validate:\n{result.stdout}{result.stderr}")
    return elapsed, _children_cpu() - cpu


_SWEEP = """
import gc, sys, time
from pathlib import Path
from lessonkit.authoring import sweep
from lessonkit.course.course import read_course
gc.disable()
course = read_course(Path(sys.argv[1]))
started = time.process_time()
found = sweep.check_course(course)
print(time.process_time() - started, len(found))
"""


def _sweep_seconds(root: Path) -> float:
    """The parameters sweep alone, on the course already read (as validate runs it)."""
    result = subprocess.run(
        [sys.executable, "-c", _SWEEP, str(root)], capture_output=True, text=True, check=True
    )
    seconds, problems = result.stdout.split()
    assert problems == "0", "the benchmark bank's drawn questions should sweep clean"
    return float(seconds)


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        bank = write_course(root)
        size = bank.stat().st_size
        # Alternating pairs, the median of their ratios: a busy machine slows both alike.
        pairs = [(_naive_load(bank), _validate(root)) for _ in range(ROUNDS)]
        naive = statistics.median(n[0] for n, _ in pairs)
        checked = statistics.median(v[0] for _, v in pairs)
        ratio = statistics.median(v[0] / n[0] for n, v in pairs)
        naive_cpu = statistics.median(n[1] for n, _ in pairs)
        checked_cpu = statistics.median(v[1] for _, v in pairs)
        swept = _sweep_seconds(root)
    drawn = QUESTIONS // 5
    return [
        f"validate: {QUESTIONS:,} questions ({drawn:,} draw their numbers), "
        f"{size / 2**20:.1f} MiB of YAML",
        f"  yaml.load(CSafeLoader), naive    {naive:7.2f} s",
        f"  lessonkit validate (whole run)   {checked:7.2f} s"
        f"   {QUESTIONS / checked:,.0f} questions/s",
        f"  ratio validate / naive load      {ratio:7.2f}   (target <= 1.00; median of "
        f"{ROUNDS} alternating pairs)",
        f"  CPU seconds (steadier when others share the machine): naive {naive_cpu:.2f} s, "
        f"validate {checked_cpu:.2f} s, ratio {checked_cpu / naive_cpu:.2f}",
        f"  of which the parameters sweep    {swept:7.2f} s CPU ({swept / checked_cpu:.0%} of "
        "validate;"
        f" {swept / drawn * 1e6:,.0f} µs per drawn question, every draw tried)",
    ]
