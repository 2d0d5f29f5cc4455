"""The built wheel carries the course: install it elsewhere and take the quiz from any folder."""

from __future__ import annotations

import json
import os
import shutil
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
    ("scaling-out", "so-allreduce-two-halves", "true"),
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


def readme_install() -> list[str]:
    """The learner's install commands, exactly as README's "For learners" gives them."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## For learners", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def learner_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv made by README's own commands, the wheel in place of the clone's `.`.

    Those commands must work where a plain `pip install .` is refused (Debian's and
    Ubuntu's system Python: externally-managed-environment), so they make a venv.
    """
    home = tmp_path_factory.mktemp("learner")
    commands = readme_install()
    assert commands[0] == "python3 -m venv ~/.lessonkit", commands
    assert commands[1] == "~/.lessonkit/bin/pip install .", commands
    env = {**os.environ, "HOME": str(home)}
    env.pop("VIRTUAL_ENV", None)
    for command in commands[:2]:
        command = command.replace(
            "install .", f"install --quiet --disable-pip-version-check {wheel}"
        )
        done = subprocess.run(["bash", "-c", command], cwd=home, env=env, capture_output=True,
                              text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0, (command, done.stderr)
    return home / ".lessonkit"


def test_readme_install_ends_with_the_quiz_command() -> None:
    assert readme_install()[2] == "~/.lessonkit/bin/lessonkit quiz gpu-vs-tpu"


def site_install(repo_url: str | None = None) -> list[str]:
    """The install commands the site's "Take the quiz in your terminal" block shows."""
    import html

    from lessonkit.site.calls import quiz_call

    code = quiz_call("gpu-vs-tpu", repo_url).split("<code>", 1)[1].split("</code>", 1)[0]
    return html.unescape(code).splitlines()


def test_the_site_installs_with_the_readme_commands_that_work_on_debian() -> None:
    # The same three commands `learner_venv` runs: a venv of its own, never the system pip.
    assert site_install() == readme_install()
    published = site_install("https://github.com/a/b")
    assert published[1] == '~/.lessonkit/bin/pip install "git+https://github.com/a/b"'
    assert published[::2] == readme_install()[::2]


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
    env = {**os.environ, "LESSONKIT_HOME": str(tmp_path / "home"), "TERM": "dumb",
           "HOME": str(learner_venv.parent)}  # fmt: skip
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(learner_venv / "bin" / "lessonkit"), "read", "gpu-vs-tpu", section.anchor],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    title = read_lesson(lesson).meta.title
    assert done.stdout.startswith(f"{title}\n\n{section.text}\n")
    quiz = subprocess.run(
        [str(learner_venv / "bin" / "lessonkit"), "quiz", "gpu-vs-tpu", "--seed", "1"],
        cwd=tmp_path, env=env, input="q\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert quiz.returncode == 0, quiz.stderr
    assert "Question 1 of" in quiz.stdout
    # Not on PATH: the quiz names the command that does run it for this learner.
    assert "`~/.lessonkit/bin/lessonkit quiz gpu-vs-tpu` starts again." in quiz.stdout
    # The packaged bank came compiled in the wheel: nothing was compiled into the cache.
    assert not list((tmp_path / "home" / "cache").glob("banks/*.json"))


def fresh_venv(venv: Path, requirement: str, python: str = sys.executable) -> Path:
    """A new venv at ``venv``, made by ``python``, with ``requirement`` pip-installed."""
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", requirement],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return venv


@pytest.fixture(scope="module")
def export_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with `pip install "lessonkit[export]"` from the wheel, as the README says."""
    return fresh_venv(tmp_path_factory.mktemp("exporter") / "venv", f"{wheel}[export]")


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
        for slug in (
            "gpu-vs-tpu",
            "reading-specs-and-prices",
            "rooflines-and-serving",
            "scaling-out",
        )
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


# --- other Pythons ---------------------------------------------------------------------
# A learner's Python may be any that lessonkit supports (`requires-python = ">=3.11"`):
# Ubuntu 24.04 ships 3.12, Homebrew 3.13. The rest of the suite runs on one of them.


def another_python(minor: int) -> str | None:
    """CPython 3.`minor` on this machine, on PATH or installed by pyenv, if it runs."""
    found = [shutil.which(f"python3.{minor}")]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False)
        versions = Path(root.stdout.strip()) / "versions"
        found += sorted(str(p) for p in versions.glob(f"3.{minor}.*/bin/python3.{minor}"))
    for python in filter(None, found):
        # A pyenv shim is on PATH even for a version that is not selected, and then fails.
        if subprocess.run([python, "-c", "pass"], capture_output=True).returncode == 0:
            return python
    return None


OTHER_MINORS = [m for m in (11, 12, 13, 14) if m != sys.version_info.minor]


@pytest.mark.slow
@pytest.mark.parametrize("minor", OTHER_MINORS, ids=[f"3.{m}" for m in OTHER_MINORS])
def test_the_wheel_installs_and_quizzes_on_each_supported_python(
    wheel: Path, tmp_path: Path, minor: int
) -> None:
    python = another_python(minor)
    if python is None:
        pytest.skip(f"no Python 3.{minor} on this machine")
    venv = fresh_venv(tmp_path / "venv", str(wheel), python)
    slug, question, answer = QUIZZES[0]
    (tmp_path / "answers.yml").write_text(f'{question}: "{answer}"\n')
    env = {**os.environ, "LESSONKIT_HOME": str(tmp_path / "home"), "TERM": "dumb"}
    env.pop("PYTHONPATH", None)
    lessonkit = str(venv / "bin" / "lessonkit")
    quiz = subprocess.run(
        [lessonkit, "quiz", slug, "--answers", "answers.yml", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert quiz.returncode == 0, quiz.stderr
    assert {q["id"]: q["correct"] for q in json.loads(quiz.stdout)["questions"]}[question]
    # -W error: a warning a newer Python raises (a deprecation, an unclosed file) fails here
    # before it reaches a learner's screen. `t` then `1` answers the first question whether
    # it is true/false, a choice or a number (the other is refused and asked again), so the
    # test does not depend on which question the seed puts first.
    typed = subprocess.run(
        [str(venv / "bin" / "python"), "-W", "error", "-m", "lessonkit", "quiz", slug, "--seed", "1"],
        cwd=tmp_path, env=env, input="t\n1\nq\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert typed.returncode == 0, typed.stderr
    assert "Question 2 of" in typed.stdout and "Saved." in typed.stdout
    assert typed.stderr == ""
