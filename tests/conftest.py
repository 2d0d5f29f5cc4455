"""Shared fixtures: tiny courses written from inline strings."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

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

# Seconds a pseudo-terminal test waits for the output it expects. Tests wait on output, never
# on time, so this is only a ceiling: generous, for a machine shared by many test runs.
WAIT = 180

MakeCourse = Callable[..., Path]
LearnerCourse = Callable[[str, str], Path]

# Learner tests pin the clock here; each reading of `ticking` is ten seconds later.
START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def ticking(start: datetime = START) -> Iterator[datetime]:
    moment = start
    while True:
        yield moment
        moment += timedelta(seconds=10)


@pytest.fixture
def make_course(tmp_path: Path) -> MakeCourse:
    """Write a small valid course into tmp_path; keyword arguments replace or add files.

    Pass ``{"quizzes/lesson-one.yml": "..."}``-style paths; ``None`` deletes a file.
    """

    def make(files: dict[str, str | None] | None = None) -> Path:
        layout: dict[str, str | None] = {
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
