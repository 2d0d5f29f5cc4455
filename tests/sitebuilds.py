"""Building the site in tests, with either engine, as `make site` and `make site-zensical` do.

The fixtures in conftest.py build the real course and a small stand-in course once per
session with each engine; tests that need a build of their own call ``build`` or
``build_zensical`` on a stand-in made by ``make_stand_in``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZENSICAL = Path(sys.executable).with_name("zensical")

# The stand-in's own home page and nav: the real ones list every real plan and lesson,
# and a strict build fails on a nav entry or link whose page the stand-in lacks.
STAND_IN_HOME = """\
# lessonkit

[AI hardware fundamentals](ai-hardware-fundamentals/index.md)
"""

STAND_IN_NAV = """\
nav:
  - Home: index.md
  - AI hardware fundamentals:
      - ai-hardware-fundamentals/index.md
      - ai-hardware-fundamentals/gpu-vs-tpu.md
"""

STAND_IN_PLAN = """\
---
title: AI hardware fundamentals
summary: What accelerators are and how to choose one.
audience: Programmers new to hardware.
lessons:
  - gpu-vs-tpu
---

# AI hardware fundamentals

Read the lessons in order.

<!-- lessonkit:lessons ai-hardware-fundamentals -->
"""

STAND_IN_LESSON = """\
---
title: GPU vs TPU
plan: ai-hardware-fundamentals
summary: How the two accelerators differ.
minutes: 7
objectives:
  - Explain why GPUs won
insights:
  - Why GPUs won
  - Where TPUs win
  - How to choose
key_points:
  - Software matters.
quiz: gpu-vs-tpu
sources:
  - title: CUDA guide
    url: https://docs.nvidia.com/cuda/
    accessed: 2026-01-01
last_reviewed: 2026-02-03
---

Intro text.

## 1. Why GPUs won

CUDA made them programmable.[^cuda]

<!-- lessonkit:check gpu-vs-tpu 1 -->

## 2. Where TPUs win

Systolic arrays.

<!-- lessonkit:check gpu-vs-tpu 2 -->

## 3. How to choose

Measure cost per unit of useful work.

<!-- lessonkit:quiz gpu-vs-tpu -->

[^cuda]: NVIDIA, CUDA guide. <https://docs.nvidia.com/cuda/>
"""

STAND_IN_BANK = """\
lesson: gpu-vs-tpu
title: GPU vs TPU
pass_mark: 0.7
questions:
  - id: why-gpus
    type: single
    prompt: What made GPUs the default?
    insight: 1
    section: 1-why-gpus-won
    explanation: The software ecosystem.
    options:
      - text: CUDA and its libraries
        correct: true
      - text: Their colour
  - id: tpu-core
    type: true_false
    prompt: A TPU's core is a systolic array.
    insight: 2
    section: 2-where-tpus-win
    explanation: The MXU is one.
    answer: true
"""


# The stand-in lesson with a figure in two schemes and a table wider than a phone.
WIDE_ROW = "| " + " | ".join(f"Column {n} with long words" for n in range(6)) + " |"
FIXTURE_LESSON_TEXT = STAND_IN_LESSON.replace(
    "Systolic arrays.\n",
    "Systolic arrays.\n\n"
    "![A square](img/square.svg#only-light)\n![A square](img/square-dark.svg#only-dark)\n\n"
    f"{WIDE_ROW}\n|{'---|' * 6}\n{WIDE_ROW}\n",
)
SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>'
FIXTURE_FILES = {
    "content/ai-hardware-fundamentals/img/square.svg": SQUARE,
    "content/ai-hardware-fundamentals/img/square-dark.svg": SQUARE,
}

EVERY_TYPE_BANK = """\
lesson: gpu-vs-tpu
title: GPU vs TPU
pass_mark: 0.7
questions:
  - id: pick-one
    type: single
    prompt: Which chip is the workshop?
    insight: 1
    section: 1-why-gpus-won
    explanation: The GPU is the flexible workshop.
    options:
      - text: GPU
        correct: true
        feedback: Yes, the flexible one.
      - text: TPU
        feedback: No, that is the factory line.
      - text: Abacus
  - id: pick-many
    type: multiple
    prompt: Which of these are memory?
    insight: 1
    section: 1-why-gpus-won
    explanation: HBM and SRAM hold data.
    options:
      - text: HBM
        correct: true
        feedback: Stacked DRAM.
      - text: SRAM
        correct: true
      - text: MXU
        feedback: The MXU multiplies.
  - id: true-or-not
    type: true_false
    prompt: A TPU's core is a systolic array.
    insight: 1
    section: 1-why-gpus-won
    explanation: The MXU is one.
    answer: true
  - id: how-fast
    type: numeric
    prompt: H100 memory bandwidth?
    insight: 1
    section: 1-why-gpus-won
    explanation: 3.35 TB/s.
    answer: 3.35
    tolerance: 0.05
    unit: TB/s
  - id: name-it
    type: text
    prompt: What is the MXU?
    insight: 1
    section: 1-why-gpus-won
    explanation: A systolic array.
    accept: [systolic array]
  - id: in-order
    type: order
    prompt: Put the steps in order.
    insight: 2
    section: 2-where-tpus-win
    explanation: Code, compile, run.
    items: [Write code, Compile with XLA, Run on the TPU]
  - id: pairs
    type: match
    prompt: Match the chip to its picture.
    insight: 2
    section: 2-where-tpus-win
    explanation: The lesson's analogy.
    pairs:
      - {left: GPU, right: workshop}
      - {left: TPU, right: factory line}
    distractors: [garden]
"""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def missing(what: str) -> None:
    """Skip locally, but fail in CI, where a missing tool means a broken setup."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: the browser tests must run)")
    pytest.skip(f"{what}; install it to run the browser tests")


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        missing("no chromium on PATH (Debian: apt-get install chromium)")
    assert found is not None
    return found


def make_stand_in(
    project: Path,
    bank: str = STAND_IN_BANK,
    lesson: str = STAND_IN_LESSON,
    extra: dict[str, str] | None = None,
) -> None:
    """A copy of the site's configuration around a tiny course written from the strings above."""
    project.mkdir(parents=True)
    config, nav, _ = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").partition("\nnav:\n")
    assert nav, "mkdocs.yml has no top-level `nav:` to replace"
    # Everything after `nav:` is the page tree: the section order puts it last.
    (project / "mkdocs.yml").write_text(f"{config}\n{STAND_IN_NAV}", encoding="utf-8")
    copy_site_files(project)
    files = {
        "content/index.md": STAND_IN_HOME,
        "content/ai-hardware-fundamentals/index.md": STAND_IN_PLAN,
        "content/ai-hardware-fundamentals/gpu-vs-tpu.md": lesson,
        "quizzes/gpu-vs-tpu.yml": bank,
    } | (extra or {})
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")


def copy_site_files(project: Path) -> None:
    """The theme overrides and the hook, which mkdocs.yml names by relative path."""
    for folder in ("site_overrides", "hooks"):
        shutil.copytree(
            ROOT / folder, project / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    (project / "src" / "lessonkit").mkdir(parents=True, exist_ok=True)  # `watch:` needs it
    (project / "facts").mkdir(exist_ok=True)  # `watch:` names it too


def copy_course(project: Path) -> None:
    """The real course and its site files, for an engine that builds in place."""
    for folder in ("content", "quizzes", "facts"):
        shutil.copytree(ROOT / folder, project / folder)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    copy_site_files(project)


def build(
    project: Path,
    out: Path,
    *,
    strict: bool = True,
    options: tuple[str, ...] = (),
    python: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` as `make site` runs it (or not strict), in a fresh process.

    `options` go to `mkdocs build`; `python` to the interpreter, e.g. ("-X", "importtime").
    """
    flags = [*(["--strict"] * strict), *options, "--site-dir", str(out)]
    return subprocess.run(
        [sys.executable, *python, "-m", "mkdocs", "build", *flags],
        cwd=project,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"} | (env or {}),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def make_target(project: Path, target: str = "site") -> subprocess.CompletedProcess[str]:
    """The recipe of a Makefile target (`make site`) run in ``project``, line by line as
    make runs it, with this interpreter's tools for ``$(VENV)/bin``; stops at the first
    line that fails. The stand-in has no Makefile or `.venv` of its own."""
    recipe = re.search(
        rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)+)",
        (ROOT / "Makefile").read_text(encoding="utf-8"),
        re.M,
    )
    assert recipe, f"the Makefile has no `{target}:` recipe"
    bin_dir = str(Path(sys.executable).parent)
    stdout = stderr = ""
    returncode = 0
    for line in recipe.group(1).splitlines():
        command = line.strip().replace("$(VENV)/bin", bin_dir).replace("$(PY)", sys.executable)
        ran = subprocess.run(
            command, shell=True, cwd=project, capture_output=True, text=True, check=False,
            env=os.environ | {"NO_MKDOCS_2_WARNING": "1"}, timeout=300,
        )  # fmt: skip
        stdout, stderr, returncode = stdout + ran.stdout, stderr + ran.stderr, ran.returncode
        if returncode:
            break
    return subprocess.CompletedProcess(target, returncode, stdout, stderr)


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def build_zensical(
    project: Path, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`zensical build --clean --strict` in ``project``, as `make site-zensical` runs it,
    minified after. The site is ``project/site``; output comes without colour codes, which
    Zensical writes even into a pipe."""
    result = subprocess.run(
        [str(ZENSICAL), "build", "--clean", "--strict"],
        cwd=project,
        env=os.environ | (env or {}),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if result.returncode == 0:
        from lessonkit.site import assets

        assets.shrink(project / "site")
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        _COLOUR.sub("", result.stdout),
        _COLOUR.sub("", result.stderr),
    )


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves the built site without logging every request to stderr."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """A built site served on 127.0.0.1 on a free port."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
