"""Shared fixtures: tiny courses written from inline strings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# This repository's policy: fixture courses keep its house style unless a test says not,
# except the schema line: fixture banks are inline strings whose line numbers tests name.
# The facts rules' levels are this course's, set for its own facts; fixture courses take
# lessonkit's defaults for them, which the facts tests assert.
HOUSE_POLICY = (
    (ROOT / "lessonkit.yml")
    .read_text(encoding="utf-8")
    .replace("schema-line: {level: error}", "schema-line: {level: off}")
    .partition("  # Facts (facts/*.yml)")[0]
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

<!-- lessonkit:check lesson-one 1 -->

## 2. Second idea

Text.

<!-- lessonkit:check lesson-one 2 -->

<!-- lessonkit:quiz lesson-one -->
"""


def quizzing(lesson: str, bank: str) -> str:
    """``lesson`` (by default lesson one's page) taking its quiz and self-checks from ``bank``."""
    return (
        lesson.replace("quiz: lesson-one", f"quiz: {bank}")
        .replace("<!-- lessonkit:check lesson-one ", f"<!-- lessonkit:check {bank} ")
        .replace("<!-- lessonkit:quiz lesson-one ", f"<!-- lessonkit:quiz {bank} ")
    )


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


# A course's facts (facts/chips.yml): two specs on one basis and a price.
FACTS = """\
# yaml-language-server: $schema=../schemas/facts.schema.json
facts:
  - id: h100-sxm.hbm
    label: H100 SXM memory
    value: 80
    unit: GB
    as_of: 2023-03-21
    checked: 2026-11-20
    kind: spec
    source:
      url: https://www.nvidia.com/en-us/data-center/h100/
      title: NVIDIA H100 Tensor Core GPU
      publisher: NVIDIA
      primary: true
  - id: h200.hbm
    label: H200 memory
    value: 141
    unit: GB
    as_of: 2024-11-18
    checked: 2026-11-20
    kind: spec
    source:
      url: https://www.nvidia.com/en-us/data-center/h200/
      title: NVIDIA H200 Tensor Core GPU
      publisher: NVIDIA
      primary: true
  - id: tpu-v6e.price
    label: TPU v6e, on demand
    value: 2.7
    unit: USD/chip-hour
    qualifiers: {region: us-east1, commitment: on-demand}
    as_of: 2026-10-01
    checked: 2026-11-20
    kind: price
    source:
      url: https://cloud.google.com/tpu/pricing
      title: TPU pricing
      publisher: Google Cloud
      primary: true
"""


# BANK with four more questions per insight: five each, as `lessonkit validate` requires.
FULL_BANK = BANK + _padding(1, "1-first-idea") + _padding(2, "a-detail")

# Seconds a pseudo-terminal test waits for the output it expects. Tests wait on output, never
# on time, so this is only a ceiling: generous, for a machine shared by many test runs.
WAIT = 180

MakeCourse = Callable[..., Path]
LearnerCourse = Callable[[str, str], Path]

# Learner tests pin the clock here; each reading of `ticking` is ten seconds later.
START = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
# The day the rule book checks review dates against, in this process and every command a
# test runs: SOURCE_DATE_EPOCH, as reproducible builds pin a build's date.
os.environ["SOURCE_DATE_EPOCH"] = str(int(START.timestamp()))
# This install's `lessonkit` on PATH, as the README's install leaves it: the commands the
# quiz tells a learner to type are then plain `lessonkit …` in every command a test runs
# with `python -m lessonkit` (`course.invocation`).
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


@pytest.fixture
def real_calendar(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today's date instead of the pinned one, for a test that checks this course itself:
    its facts were checked after the day the other tests pin, and would read as checked in
    the future."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


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
def course_root(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small course, with the working directory in it as a site build has it, and the
    site's in-process memo of rendered banks forgotten."""
    from lessonkit.site import blocks

    folder = make_course()
    monkeypatch.chdir(folder)
    blocks._MEMO.clear()
    return folder


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


# --- sites built once per session, with each engine (tests/sitebuilds.py) ----------------
# Building is the slow part of the site tests: every test that reads a built site shares
# these. A test that changes what is built makes its own stand-in instead.

# The address the publishing workflow passes; the call to action installs from it.
PUBLISHED_REPO = "https://github.com/lessonkit-project/lessonkit"


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real course built with mkdocs-material, as `make site` builds it."""
    from sitebuilds import ROOT, build

    out = tmp_path_factory.mktemp("real") / "site"
    result = build(ROOT, out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="session")
def base_url(real_site: Path) -> Iterator[str]:
    """The real course's mkdocs-material build, served on 127.0.0.1 on a free port."""
    from sitebuilds import serve

    with serve(real_site) as url:
        yield url


def _every_type_site(tmp_path_factory: pytest.TempPathFactory, engine: str) -> Path:
    """A tiny course whose lesson has one question of every type, a figure in two schemes
    and a table wider than a phone, built by ``engine`` as it is published."""
    from sitebuilds import (
        EVERY_TYPE_BANK,
        FIXTURE_FILES,
        FIXTURE_LESSON_TEXT,
        build,
        build_zensical,
        make_stand_in,
    )

    project = tmp_path_factory.mktemp(f"every-type-{engine}") / "project"
    make_stand_in(project, bank=EVERY_TYPE_BANK, lesson=FIXTURE_LESSON_TEXT, extra=FIXTURE_FILES)
    published = {"REPO_URL": PUBLISHED_REPO}
    if engine == "zensical":
        result = build_zensical(project, env=published)
        out = project / "site"
    else:
        out = project.parent / "site"
        result = build(project, out, env=published)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="session")
def fixture_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The every-type course built with mkdocs-material, served on 127.0.0.1."""
    from sitebuilds import serve

    with serve(_every_type_site(tmp_path_factory, "mkdocs")) as url:
        yield url


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real course built with Zensical, as `make site-zensical` builds it."""
    from sitebuilds import build_zensical, copy_course

    project = tmp_path_factory.mktemp("zensical") / "project"
    copy_course(project)
    result = build_zensical(project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


@pytest.fixture(scope="session")
def zensical_fixture_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The every-type course built with Zensical, served on 127.0.0.1."""
    from sitebuilds import serve

    with serve(_every_type_site(tmp_path_factory, "zensical")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright (which never downloads a browser)."""
    from sitebuilds import CHROMIUM_ARGS, chromium_path

    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that records every request it makes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.requests = []
    opened.on("request", lambda request: opened.requests.append(request.url))
    yield opened
    context.close()


# --- tiers: `make check` runs what needs no browser, pseudo-terminal, wheel or site build --
# Marked here from what a test uses, so a new test lands in the right tier without anyone
# remembering to mark it: the fixtures below build a wheel or a site or start Chromium, and
# a module that imports pexpect drives a real terminal.
_HEAVY_FIXTURES = {
    "wheel": "slow", "installed": "slow", "real_site": "build", "base_url": "build",
    "fixture_url": "build", "zensical_site": "build", "zensical_fixture_url": "build",
    "browser": "browser", "page": "browser",
}  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in _HEAVY_FIXTURES.items():
            if fixture in names:
                item.add_marker(marker)
        module = getattr(item, "module", None)
        if module is not None and "pexpect" in vars(module):
            item.add_marker("pty")
