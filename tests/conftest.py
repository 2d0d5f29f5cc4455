"""Shared fixtures: tiny courses written from inline strings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# This repository's policy: fixture courses keep its house style unless a test says not,
# except the schema line: fixture banks are inline strings whose line numbers tests name.
HOUSE_POLICY = (
    (ROOT / "lessonkit.yml")
    .read_text(encoding="utf-8")
    .replace("schema-line: {level: error}", "schema-line: {level: off}")
)

PLAN = """\
---
title: Test plan
summary: A plan for tests.
audience: Test writers.
lessons: [lesson-one]
---
Body.
"""

LESSON = """\
---
title: Lesson one
plan: test-plan
summary: A lesson for tests.
minutes: 5
objectives: [Explain things]
insights:
  - First idea
  - Second idea
key_points: [Things matter]
quiz: lesson-one
sources:
  - title: A source
    url: https://www.python.org/
    accessed: 2026-11-01
last_reviewed: 2026-11-20
---
Opening text.

## 1. First idea

Text.

### A detail

## 2. Second idea

Text.
"""

BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.5
questions:
  - id: q-single
    type: single
    prompt: Pick b.
    insight: 1
    section: 1-first-idea
    explanation: Because b.
    options:
      - text: a
      - text: b
        correct: true
  - id: q-order
    type: order
    prompt: Order them.
    insight: 2
    section: a-detail
    explanation: Alphabetical.
    items: [a, b, c]
"""


def _padding(insight: int, section: str) -> str:
    return "".join(
        f"""\
  - id: pad-{insight}-{n}
    type: true_false
    prompt: Statement {n} about idea {insight}.
    insight: {insight}
    section: {section}
    explanation: Because it is so.
    answer: true
"""
        for n in range(1, 5)
    )


# BANK with four more questions per insight: five each, as `lessonkit validate` requires.
FULL_BANK = BANK + _padding(1, "1-first-idea") + _padding(2, "a-detail")

MakeCourse = Callable[..., Path]
LearnerCourse = Callable[[str, str], Path]

# Learner tests pin the clock here; each reading of `ticking` is ten seconds later.
START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
# The day the rule book checks review dates against, in this process and every command a
# test runs: SOURCE_DATE_EPOCH, as reproducible builds pin a build's date.
os.environ["SOURCE_DATE_EPOCH"] = str(int(START.timestamp()))


def ticking(start: datetime = START) -> Iterator[datetime]:
    moment = start
    while True:
        yield moment
        moment += timedelta(seconds=10)


@pytest.fixture
def make_course(tmp_path: Path) -> MakeCourse:
    """Write a small valid course into tmp_path; keyword arguments replace or add files.

    Pass ``{"quizzes/lesson-one.yml": "..."}``-style paths; ``None`` deletes a file
    (``{"lessonkit.yml": None}``: the course follows lessonkit's default policy rather
    than this repository's).
    """

    def make(files: dict[str, str | None] | None = None) -> Path:
        layout: dict[str, str | None] = {
            "lessonkit.yml": HOUSE_POLICY,
            "content/test-plan/index.md": PLAN,
            "content/test-plan/lesson-one.md": LESSON,
            "quizzes/lesson-one.yml": BANK,
        }
        layout.update(files or {})
        for name, text in layout.items():
            path = tmp_path / name
            if text is None:
                path.unlink(missing_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        return tmp_path

    return make


@pytest.fixture
def learner_course(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> LearnerCourse:
    """A course with the given bank and mkdocs.yml, entered as a learner would: the working
    directory is the course and the history lives in its `home/` folder."""

    def make(bank: str, mkdocs: str) -> Path:
        root = make_course({"mkdocs.yml": mkdocs, "quizzes/lesson-one.yml": bank})
        monkeypatch.chdir(root)
        monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
        monkeypatch.delenv("NO_COLOR", raising=False)
        return root

    return make


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """lessonkit's wheel, built once for every test that installs it."""
    out = tmp_path_factory.mktemp("dist")
    # No build isolation: hatchling comes from the dev extra, so the build needs no network.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (built,) = out.glob("lessonkit-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed into a folder of its own: run it with PYTHONPATH set to it."""
    target = tmp_path_factory.mktemp("site-packages")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return target
