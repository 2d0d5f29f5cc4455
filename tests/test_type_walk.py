"""Every registered question type, walked where people meet it: an author's `validate`, a
learner's quiz in a real terminal, the page's self-check in Chromium, every export format,
and a teacher's class results.

The questions are each type's own `example` (what `lessonkit new lesson` writes), with
the template's markers filled in, so a newly registered type is walked with no edit here.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import WAIT
from lessonkit.bank.loader import load_bank
from lessonkit.export import FORMATS, convert
from lessonkit.export.sources import gather
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

SECTIONS = {1: "1-why-gpus-won", 2: "2-where-tpus-win"}  # the stand-in lesson's (sitebuilds)


def _block(number: int, name: str) -> str:
    insight = number % 2 + 1
    filled = (
        registry.named(name)
        .example.replace("{{id}}", f"walk-{name.replace('_', '-')}")
        .replace("objectives: [{{insight}}]", "objectives: [1]")  # the lesson has one
        .replace("{{insight}}", str(insight))
        .replace("{{section}}", SECTIONS[insight])
        .replace("{{tags}}", "")
        .replace("TODO(lessonkit): ", "")
    )
    assert "{{" not in filled, f"{name}'s example has a marker this walk does not fill"
    return filled


BANK = "lesson: gpu-vs-tpu\ntitle: Every type\npass_mark: 0.5\n"
BANK += "shuffle: {questions: false, options: false}\nquestions:\n"
BANK += "".join(_block(n, name) for n, name in enumerate(registry.names()))
# The stand-in lesson's third insight asks for questions too; the walk asks these last.
BANK += "".join(
    f"""\
  - id: walk-insight-three-{n}
    type: true_false
    prompt: Statement {n} about choosing.
    insight: 3
    section: 3-how-to-choose
    explanation: Because it is so.
    answer: true
"""
    for n in (1, 2)
)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sitebuilds import STAND_IN_LESSON, make_stand_in

    lesson = STAND_IN_LESSON.replace(
        "Measure cost per unit of useful work.\n",
        "Measure cost per unit of useful work.\n\n<!-- lessonkit:check gpu-vs-tpu 3 -->\n",
    )
    project = tmp_path_factory.mktemp("walk") / "course"
    make_stand_in(project, bank=BANK, lesson=lesson)
    return project


def _questions(course: Path) -> list[RuntimeQuestion]:
    bank = load_bank(course / "quizzes/gpu-vs-tpu.yml")
    return [registry.runtime(model) for model in bank.questions]


def _flat(text: str) -> str:
    return " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).split())


def _typed(question: RuntimeQuestion, screen: str) -> str:
    """The answer key as the learner types it for the order the screen shows."""
    kind, key = registry.of(question), registry.answer_key(question)
    assert key is not None, f"{question.type}'s example has no literal answer key"
    for display in itertools.permutations(range(kind.choices(question))):
        if all(_flat(line) in screen for line in kind.listing(question, display)):
            return str(kind.shown(question, key, display))
    raise AssertionError(f"{question.id}: no order of its choices matches the screen")


def _run(course: Path, *args: str) -> Any:
    import subprocess

    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "lessonkit", *args], cwd=course, env=env,
        capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip


@pytest.mark.pty
def test_every_type_validates_is_answered_in_a_terminal_exported_and_in_class_results(
    course: Path, tmp_path: Path
) -> None:
    pexpect = pytest.importorskip("pexpect")
    checked = _run(course, "validate", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr

    questions = _questions(course)
    assert {q.type for q in questions} == set(registry.names())
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home"), "NO_COLOR": "1",
           "TERM": "xterm", "LESSONKIT_NO_PAUSE": "1"}  # fmt: skip
    child = pexpect.spawn(
        sys.executable, ["-m", "lessonkit", "quiz", "gpu-vs-tpu"], cwd=str(course), env=env,
        encoding="utf-8", timeout=WAIT, dimensions=(40, 120),
    )  # fmt: skip
    child.logfile_read = io.StringIO()
    for question in questions:  # in bank order: the bank does not shuffle them
        child.expect(r"Answer \(")
        child.send(_typed(question, _flat(child.before)) + "\r")
        if registry.of(question).multiline(question):
            child.send("\r")
        assert child.expect(["Re-read:", "Not counted:"]) == 0, _flat(child.before)
        assert "✓" in child.before or "Right" in child.before, _flat(child.before)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, _flat(child.logfile_read.getvalue())[-800:]

    shared = tmp_path / "attempts.jsonl"
    assert _run(course, "history", "--export", str(shared)).returncode == 0
    report = _run(course, "results", "--json", str(shared))
    assert report.returncode == 0, report.stderr
    found = json.dumps(json.loads(report.stdout))
    for question in questions:
        assert question.id in found, f"{question.id} is missing from the class results"

    (source,) = gather("gpu-vs-tpu", cwd=course)  # as `lessonkit export` finds it
    for to in FORMATS:
        export = convert(source, to)
        left_out = {loss.question for loss in export.losses if loss.omitted}
        for question in questions:
            # A format either carries the question or names it among its losses.
            assert (
                question.id in left_out
                or question.id.encode() in export.data
                or (
                    to in ("anki", "qti")  # zipped: checked by their own tests
                )
            ), (to, question.id)


@pytest.mark.browser
@pytest.mark.build
def test_every_types_widget_takes_its_key_back_and_says_it_is_right(
    course: Path, tmp_path: Path, browser: Any
) -> None:
    from sitebuilds import build, serve

    out = tmp_path / "site"
    built = build(course, out)
    assert built.returncode == 0, built.stdout + built.stderr
    questions = _questions(course)
    kept = {f"lk-{q.id}": registry.to_json(q, registry.answer_key(q)) for q in questions}
    path = "/ai-hardware-fundamentals/gpu-vs-tpu/"
    with serve(out) as url:
        page = browser.new_page()
        # Answers as the page keeps them between visits: it puts each back into its widget
        # (the type's `write`), reads it (`read`) and grades it on load.
        page.add_init_script(
            f"localStorage.setItem('lessonkit:{path}', {json.dumps(json.dumps(kept))});"
        )
        page.goto(url + path)
        for question in questions:
            result = page.locator(f"#lk-{question.id} .lk-result")
            result.wait_for(state="attached")  # a block shows a few questions at a time
            said = result.text_content() or ""
            assert said.startswith("✓"), (question.id, said)
        page.close()
