"""Validation speed: `lessonkit validate` on a 10,000-question bank, against a naive YAML load.

Figures, each the median of interleaved runs so a busy machine slows every side alike:

- the floor: libyaml's event parse alone, in C, building no Python object
  (``CParser.raw_parse``, which PyYAML's C extension exposes);
- PyYAML's Python event objects alone, the least any Python reader of libyaml pays;
- ``yamldoc.parse``, lessonkit's positioned reader, in process;
- a naive ``yaml.load(text, Loader=CSafeLoader)`` as a whole process (start-up, import,
  read, load), and ``lessonkit validate --full`` as a whole process on the same bank (full:
  every run reads the bank, rather than the cache of the run before): the ratio of these
  two is the target (<= 0.5). Both pay start-up, so the ratio is like for like;
- ``lessonkit validate`` on the same bank with seven problems planted: it must report
  exactly those, at their lines and columns, so the speed is not bought with findings;
- a process that only loads the bank as validate must (``load_bank``: parse with positions
  and model validation, no checks): the like-for-like floor proposed for this target, as
  the naive load builds no positions and checks nothing.
"""

from __future__ import annotations

import gc
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

QUESTIONS = 10_000
RUNS = 3
TARGET = 0.5
ROOT = Path(__file__).resolve().parents[1]
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
<!-- lessonkit:check bench 1 -->
## 2. Second
<!-- lessonkit:check bench 2 -->
## 3. Third
<!-- lessonkit:check bench 3 -->

<!-- lessonkit:quiz bench -->
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


def bank_text() -> str:
    rng = random.Random(7)
    body = "".join(_question(i, rng) for i in range(QUESTIONS))
    return "lesson: bench\ntitle: Bench\npass_mark: 0.7\nquestions:\n" + body


def write_course(root: Path, text: str | None = None) -> Path:
    (root / "content" / "bench-plan").mkdir(parents=True)
    (root / "quizzes").mkdir()
    (root / "content" / "bench-plan" / "index.md").write_text(PLAN)
    (root / "content" / "bench-plan" / "bench.md").write_text(LESSON)
    bank = root / "quizzes" / "bench.yml"
    bank.write_text(bank_text() if text is None else text)
    return bank


# Each planted problem: (the text to find, what replaces it, the marker whose position
# the problem is reported at, and the start of its message).
PLANTED = (
    ("    insight: 2\n    section: 2-second\n", "    insight: 2\n    insight: 3\n"
     "    section: 2-second\n", "insight: 3", "duplicate key `insight`"),
    ("  - id: q-5000\n", "  - id: q-5000\n    tagz: [a]\n", "tagz", "questions[5000].tagz: unknown "
     "field `tagz`"),
    ("  - id: q-7500\n", "  - id: q-7500\n    points: lots\n", "lots", "questions[7500].points:"),
    ("kept fed (9001).", "kept fed, issue #42 (9001).", "#42", "` #` starts a YAML comment"),
    ("  - id: q-9999\n", "  - id: 'q-1'\n", "'q-1'", "questions[9999].id: `q-1` is already used"),
    ("    prompt: >-\n      Question 1234:", "    prompt: >-\n      Steps:\n      - one\n"
     "      - two\n      Question 1234:", ">-\n      Steps", "`>-` folds this text's lines"),
    ("  - id: q-4321\n", "  - id: q-4321\n    difficulty: 7\n", "7\n", "questions[4321]."
     "difficulty:"),
)  # fmt: skip


def planted_bank() -> tuple[str, set[tuple[int, int, str]]]:
    """The benchmark bank with problems planted, and where each must be reported."""
    text = bank_text()
    for old, new, _, _ in PLANTED:
        assert text.count(old) >= 1, old
        text = (
            text.replace(old, new, 1) if old.startswith("  - id") else _replace_once(text, old, new)
        )
    expected = set()
    for _, new, marker, message in PLANTED:
        unique = new if text.count(new) == 1 else new[new.index("\n") + 1 :]
        at = text.index(unique) + unique.index(marker) if marker in unique else text.index(new)
        line = text.count("\n", 0, at) + 1
        column = at - text.rfind("\n", 0, at)
        expected.add((line, column, message))
    return text, expected


def _replace_once(text: str, old: str, new: str) -> str:
    # Plant the first two in the middle of the bank, not in its first questions.
    start = text.index(old, len(text) // 4) if old.startswith("    insight") else text.index(old)
    return text[:start] + new + text[start + len(old) :]


_REPORTED = re.compile(r"^quizzes/bench\.yml:(\d+):(\d+): (.*)$", re.M)


def _found(output: str, expected: set[tuple[int, int, str]]) -> tuple[int, list[str]]:
    """How many expected problems were reported where planted, and what else was reported."""
    reported = [(int(a), int(b), text) for a, b, text in _REPORTED.findall(output)]
    matched = {e for e in expected for r in reported if r[:2] == e[:2] and r[2].startswith(e[2])}
    others = [
        f"{r[0]}:{r[1]}: {r[2]}"
        for r in reported
        if not any(r[:2] == e[:2] and r[2].startswith(e[2]) for e in expected)
    ]
    return len(matched), others


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process(command: list[str], cwd: Path) -> tuple[float, str, int, float]:
    """Wall seconds, output, exit code and CPU seconds of a whole process."""
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    return elapsed, result.stdout + result.stderr, result.returncode, _children_cpu() - cpu


def _in_process(action: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


_SWEEP = """
import gc, sys, time
from pathlib import Path
from lessonkit.authoring import sweep
from lessonkit.course import course as reading, selftest
gc.disable()
course = reading.read_course(Path(sys.argv[1]))
started = time.process_time()
found = sweep.check_course(course)
swept = time.process_time() - started
started = time.process_time()
failed = [p for parts in course.bank_parts for index, question in parts.questions
          for p in selftest.self_test(parts.document, index, question)]
print(swept, len(found), time.process_time() - started, len(failed))
"""


def _check_seconds(root: Path) -> tuple[float, float]:
    """The parameters sweep and the answer-key self-test alone, each on the course already
    read (as validate runs them)."""
    result = subprocess.run(
        [sys.executable, "-c", _SWEEP, str(root)], capture_output=True, text=True, check=True
    )
    swept, problems, tested, failed = result.stdout.split()
    assert problems == "0", "the benchmark bank's drawn questions should sweep clean"
    assert failed == "0", "the benchmark bank's answer keys should pass their self-test"
    return float(swept), float(tested)


def run() -> list[str]:
    import yaml
    from yaml._yaml import CParser

    from lessonkit.bank import yamldoc
    from lessonkit.bank.fields import PROSE_FIELDS

    naive_code = (
        "import sys, yaml; "
        "yaml.load(open(sys.argv[1], encoding='utf-8').read(), Loader=yaml.CSafeLoader)"
    )
    load_code = (
        "import gc, sys, pathlib; from lessonkit import load_bank; gc.disable(); "
        "load_bank(pathlib.Path(sys.argv[1]))"
    )  # the collector off, as validate runs
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        clean, broken = Path(folder, "clean"), Path(folder, "broken")
        bank = write_course(clean)
        text = bank.read_text(encoding="utf-8")
        planted, expected = planted_bank()
        write_course(broken, planted)
        found, others, code = 0, [], 0
        cpu: dict[str, list[float]] = {}

        def events() -> None:
            parser = yaml.CSafeLoader(text)
            while parser.get_event() is not None:
                pass

        for _ in range(RUNS):
            for name, action in (
                ("floor", lambda: CParser(text).raw_parse()),
                ("events", events),
                ("yamldoc", lambda: yamldoc.parse(text, "b.yml", watch=PROSE_FIELDS)),
            ):
                times.setdefault(name, []).append(_in_process(action))
            seconds, _, _, used = _process([sys.executable, "-c", naive_code, str(bank)], clean)
            times.setdefault("naive", []).append(seconds)
            cpu.setdefault("naive", []).append(used)
            seconds, _, _, used = _process([sys.executable, "-c", load_code, str(bank)], clean)
            times.setdefault("load", []).append(seconds)
            seconds, output, code, used = _process(
                [sys.executable, "-m", "lessonkit", "validate", "--full"], clean
            )
            if code:
                raise SystemExit(f"the benchmark bank did not validate:\n{output}")
            times.setdefault("validate", []).append(seconds)
            cpu.setdefault("validate", []).append(used)
            seconds, output, code, _ = _process(
                [sys.executable, "-m", "lessonkit", "validate", "--full"], broken
            )
            times.setdefault("planted", []).append(seconds)
            found, others = _found(output, expected)
        swept, tested = _check_seconds(clean)
    middle = {name: statistics.median(found_times) for name, found_times in times.items()}
    ratio = middle["validate"] / middle["naive"]
    verdict = "within" if ratio <= TARGET else "OVER"
    floor = middle["floor"]
    size = len(text.encode("utf-8"))
    naive_cpu, checked_cpu = statistics.median(cpu["naive"]), statistics.median(cpu["validate"])
    drawn = int(QUESTIONS * PARAMETERISED)
    return [
        f"validate: {QUESTIONS:,} questions ({drawn:,} draw their numbers), "
        f"{size / 2**20:.1f} MiB of YAML (medians of {RUNS} interleaved runs)",
        f"  floor: libyaml's event parse alone, no Python objects {floor:6.2f} s",
        f"  PyYAML's Python event objects alone                  {middle['events']:6.2f} s"
        f"   {middle['events'] / floor:5.1f}x floor",
        f"  yamldoc.parse (values, positions, checks), in process {middle['yamldoc']:6.2f} s"
        f"   {middle['yamldoc'] / floor:5.1f}x floor",
        f"  naive yaml.load(CSafeLoader), whole process          {middle['naive']:6.2f} s",
        f"  lessonkit validate --full, whole process             {middle['validate']:6.2f} s"
        f"   {middle['validate'] / floor:5.1f}x floor, {QUESTIONS / middle['validate']:,.0f} "
        "questions/s",
        f"  ratio validate / naive load                          {ratio:6.2f}"
        f"   ({verdict} the {TARGET:.2f} target)",
        f"  CPU seconds (steadier when others share the machine): naive {naive_cpu:.2f} s, "
        f"validate {checked_cpu:.2f} s, ratio {checked_cpu / naive_cpu:.2f}",
        f"  a process that only loads the bank (load_bank)       {middle['load']:6.2f} s"
        f"   validate is {middle['validate'] / middle['load']:.2f}x it (proposed like-for-like "
        "target: <= 2x)",
        f"  of which the parameters sweep                        {swept:6.2f} s CPU "
        f"({swept / checked_cpu:.0%} of validate; {swept / drawn * 1e6:,.0f} µs per drawn "
        "question, every draw tried)",
        f"  of which the answer-key self-test                    {tested:6.2f} s CPU "
        f"({tested / checked_cpu:.0%} of validate; two draws of each drawn question)",
        f"  with {len(PLANTED)} problems planted                           "
        f"{middle['planted']:6.2f} s   {middle['planted'] / middle['naive']:5.2f}x naive; "
        f"found {found} of {len(expected)} at their line and column"
        + (f", and {len(others)} others: {others[:3]}" if others else ", nothing else")
        + ("" if code == 1 else f" (exit {code}, expected 1)"),
    ]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print("\n".join(run()))
