"""The built wheel carries the course: install it elsewhere and take the quiz from any folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_contains_banks_and_lessons(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for bank in ROOT.glob("quizzes/*.yml"):
        assert f"lessonkit/_course/quizzes/{bank.name}" in names
    for page in ROOT.glob("content/*/*.md"):
        assert f"lessonkit/_course/content/{page.parent.name}/{page.name}" in names
    assert "lessonkit/_course/mkdocs.yml" in names
    assert "lessonkit/py.typed" in names


# One fixed question of each lesson, answered right: every lesson's quiz must work from the wheel.
QUIZZES = [
    ("gpu-vs-tpu", "gvt-node-vs-chip-price", "4.18"),
    ("rooflines-and-serving", "rs-intensity-fp32-multiply", "0.0833"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "question", "answer"), QUIZZES, ids=[q[0] for q in QUIZZES])
def test_installed_wheel_runs_the_quiz_outside_a_checkout(
    installed: Path, tmp_path: Path, slug: str, question: str, answer: str
) -> None:
    target = installed
    anywhere = tmp_path / "anywhere"
    anywhere.mkdir()
    (anywhere / "answers.yml").write_text(f'{question}: "{answer}"\n')
    env = {**os.environ, "PYTHONPATH": str(target), "LESSONKIT_HOME": str(tmp_path / "home")}
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "quiz", slug, "--answers", "answers.yml", "--json"],
        cwd=anywhere, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    answered = {q["id"]: q for q in report["questions"]}
    assert answered[question]["correct"] is True
    assert report["score"] == 1.0
    assert len(answered) >= 18
    probe = subprocess.run(
        [sys.executable, "-c", "import lessonkit; print(lessonkit.__file__)"],
        cwd=anywhere, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert probe.stdout.startswith(str(target)), "the test must exercise the installed wheel"


@pytest.mark.slow
def test_wheel_carries_each_bank_compiled(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for bank in ROOT.glob("quizzes/*.yml"):
        assert f"lessonkit/_course/compiled/{bank.stem}.json" in names


@pytest.fixture(scope="module")
def learner_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only `pip install lessonkit` (the core dependencies, from the index)."""
    venv = tmp_path_factory.mktemp("learner") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", str(wheel)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return venv


@pytest.mark.slow
def test_a_learner_install_has_no_mkdocs_and_reads_a_section(
    learner_venv: Path, tmp_path: Path
) -> None:
    from lessonkit.course.lessons import read_lesson

    python = str(learner_venv / "bin" / "python")
    for heavy in ("mkdocs", "material", "nh3"):
        probe = subprocess.run([python, "-c", f"import {heavy}"], capture_output=True)
        assert probe.returncode != 0, f"{heavy} is installed by `pip install lessonkit`"
    lesson = next(ROOT.glob("content/*/gpu-vs-tpu.md"))
    section = next(h for h in read_lesson(lesson).headings if h.level == 2)
    env = {**os.environ, "LESSONKIT_HOME": str(tmp_path / "home"), "TERM": "dumb"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(learner_venv / "bin" / "lessonkit"), "read", "gpu-vs-tpu", section.anchor],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(section.text + "\n")
    quiz = subprocess.run(
        [str(learner_venv / "bin" / "lessonkit"), "quiz", "gpu-vs-tpu", "--seed", "1"],
        cwd=tmp_path, env=env, input="q\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert quiz.returncode == 0, quiz.stderr
    assert "Question 1 of" in quiz.stdout
    # The packaged bank came compiled in the wheel: nothing was compiled into the cache.
    assert not list((tmp_path / "home" / "cache").glob("banks/*.json"))


@pytest.fixture(scope="module")
def export_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with `pip install "lessonkit[export]"` from the wheel, as the README says."""
    venv = tmp_path_factory.mktemp("exporter") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", f"{wheel}[export]"],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return venv


@pytest.mark.slow
@pytest.mark.parametrize("to", ["anki", "moodle"])
def test_an_installed_lessonkit_exports_from_any_folder(
    export_venv: Path, tmp_path: Path, to: str
) -> None:
    env = {**os.environ, "LESSONKIT_HOME": str(tmp_path / "home")}
    env.pop("PYTHONPATH", None)
    env.pop("SITE_URL", None)
    lessonkit = str(export_venv / "bin" / "lessonkit")
    done = subprocess.run([lessonkit, "export", "gpu-vs-tpu", "--to", to],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith(f"wrote gpu-vs-tpu.{'apkg' if to == 'anki' else 'moodle.xml'}")
    plan = subprocess.run([lessonkit, "export", "ai-hardware-fundamentals", "--to", to, "--out", "decks"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert plan.returncode == 0, plan.stderr
    assert sorted(p.name for p in (tmp_path / "decks").iterdir()) == sorted(
        f"{slug}.{'apkg' if to == 'anki' else 'moodle.xml'}"
        for slug in ("gpu-vs-tpu", "rooflines-and-serving")
    )


@pytest.mark.slow
def test_installed_wheel_reads_class_results_outside_a_checkout(
    installed: Path, tmp_path: Path
) -> None:
    from classroom import DEMO_FAULTS, question_lines, simulate, write_class
    from lessonkit.bank.loader import load_bank

    bank = load_bank(ROOT / "quizzes" / "gpu-vs-tpu.yml")
    write_class(tmp_path / "class", simulate(bank, 30, behaviours=DEMO_FAULTS, slug="gpu-vs-tpu"))
    env = {**os.environ, "PYTHONPATH": str(installed), "LESSONKIT_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "results", "class", "--bank", "gpu-vs-tpu"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("gpu-vs-tpu: GPU vs TPU")
    # Lines come from the wheel's own copy of the bank, the same as the checkout's.
    line = question_lines(ROOT / "quizzes" / "gpu-vs-tpu.yml")
    assert f"  gvt-cuda-general-purpose (line {line['gvt-cuda-general-purpose']})\n" in done.stdout
    where = f"quizzes/gpu-vs-tpu.yml:{line['gvt-nvlink-domain-fit']}: gvt-nvlink-domain-fit"
    assert f"{where}: option 2" in done.stdout
