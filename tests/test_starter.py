"""`lessonkit new course`: a course of one's own that builds, checks and quizzes at once."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from lessonkit.authoring.origin import origin_from
from lessonkit.authoring.rulebook import RULES, read_policy
from lessonkit.authoring.starter import course_files, new_course
from lessonkit.authoring.validate import validate_paths
from test_scaffold import fill_placeholders
from test_workflows import _lint

ROOT = Path(__file__).resolve().parents[1]
TODAY = dt.date(2026, 11, 22)  # the day conftest pins
INDEX = origin_from(None, "0.1.0")  # installed from a package index


class _AnyTag(yaml.SafeLoader):
    """mkdocs.yml's `!ENV` tags, read as the list they wrap."""


_AnyTag.add_multi_constructor(
    "", lambda loader, suffix, node: loader.construct_sequence(node)
)  # fmt: skip


def _settings(text: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load(text, Loader=_AnyTag)  # a SafeLoader subclass
    return data


def test_the_template_mkdocs_yml_follows_the_repositorys() -> None:
    """The one file to update when the repository's site configuration changes."""
    made = course_files("Bird songs", TODAY, INDEX)["mkdocs.yml"].decode()
    ours, theirs = _settings((ROOT / "mkdocs.yml").read_text()), _settings(made)
    project = ("site_name", "watch", "nav")
    assert {k: v for k, v in theirs.items() if k not in project} == {
        k: v for k, v in ours.items() if k not in project
    }, "update src/lessonkit/authoring/templates/course/mkdocs.yml to follow mkdocs.yml"
    assert theirs["site_name"] == "Bird songs"
    assert "#|" not in made, "template notes stay out of the course"


def test_the_new_policy_file_lists_every_rule_at_its_default(tmp_path: Path) -> None:
    new_course(tmp_path / "course", "Bird songs", TODAY, INDEX)
    policy, problems = read_policy(tmp_path / "course")
    assert problems == []
    settable = [rule for rule in RULES if not rule.fixed]
    assert sorted(policy.chosen) == sorted(rule.id for rule in settable)
    for rule in settable:
        assert policy.settings(rule) == rule.settings(level=rule.default), rule.id


def test_a_folder_with_files_is_refused_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "new", "course", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"lessonkit: {tmp_path} is not an empty folder: choose a new one\n"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_new_lesson_in_a_new_course_passes_once_filled_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, INDEX)
    monkeypatch.chdir(course)
    made = subprocess.run(
        [sys.executable, "-m", "lessonkit", "new", "lesson", "owls", "--plan", "getting-started",
         "--title", "Owls"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    for name in ("content/getting-started/owls.md", "quizzes/owls.yml"):
        path = course / name
        path.write_text(fill_placeholders(path.read_text()))
    report = validate_paths([], cwd=course, strict=True)
    assert (report.problems, report.warnings) == ((), ())


# --- end to end, from the installed wheel ---------------------------------------------------


def _shims(folder: Path, installed: Path) -> dict[str, str]:
    """`lessonkit` and `mkdocs` on PATH, running the installed wheel, as CI's install gives."""
    folder.mkdir()
    for name, module in (("lessonkit", "lessonkit"), ("mkdocs", "mkdocs")):
        shim = folder / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n')
        shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "VIRTUAL_ENV")}
    return env | {
        "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(installed),
        "NO_MKDOCS_2_WARNING": "1",
    }


@pytest.mark.slow
def test_a_new_course_builds_checks_and_quizzes_from_the_installed_wheel(
    installed: Path, tmp_path: Path
) -> None:
    env = _shims(tmp_path / "bin", installed)
    made = subprocess.run(
        ["lessonkit", "new", "course", "birds", "--title", "Bird songs"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    course = tmp_path / "birds"

    # CI's own commands, read from the workflow it wrote (the install step is the wheel's).
    workflow = yaml.safe_load((course / ".github/workflows/site.yml").read_text())
    steps = workflow["jobs"]["site"]["steps"]
    commands = [step["run"] for step in steps if "run" in step and step.get("id") != "install"]
    assert commands == ["lessonkit validate --strict", "mkdocs build --strict"]
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=course, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    upload = next(step for step in steps if "upload-artifact" in step.get("uses", ""))
    assert upload["with"]["path"] == "site"
    lesson = (course / "site/getting-started/how-lessons-work/index.html").read_text()
    assert '<h3 id="check-yourself-1">Check yourself: section 1' in lesson
    assert "lessonkit quiz how-lessons-work" in lesson

    # A learner in the course's folder takes its quiz, from the installed lessonkit.
    (course / "answers.yml").write_text(
        "hlw-insight-wording: false\nhlw-anchor: 3-prices-go-stale\n"
    )
    quiz = subprocess.run(
        ["lessonkit", "quiz", "how-lessons-work", "--answers", "answers.yml", "--json"],
        cwd=course, env=env | {"LESSONKIT_HOME": str(tmp_path / "home")},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert quiz.returncode == 0, quiz.stderr
    answered = {q["id"]: q for q in json.loads(quiz.stdout)["questions"]}
    assert answered["hlw-insight-wording"]["correct"] is True
    assert answered["hlw-anchor"]["correct"] is True
    probe = subprocess.run(
        [sys.executable, "-c", "import lessonkit; print(lessonkit.__file__)"],
        cwd=course, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert probe.stdout.startswith(str(installed)), "the test must exercise the installed wheel"


@pytest.mark.slow
def test_the_new_course_pre_commit_hook_runs(installed: Path, tmp_path: Path) -> None:
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, INDEX)
    env = _shims(tmp_path / "bin", installed) | {"PRE_COMMIT_HOME": str(tmp_path / "cache")}
    shutil.copytree(tmp_path / "bin", course / ".venv/bin")  # the hook runs .venv/bin/lessonkit
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run([*git, "init", "--quiet"], cwd=course, check=True)
    subprocess.run([*git, "add", "."], cwd=course, check=True)
    hooks = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=course, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert hooks.returncode == 0, hooks.stdout + hooks.stderr
    assert "lessonkit validate" in hooks.stdout and "Passed" in hooks.stdout


# --- installing lessonkit from where the author got it --------------------------------------


def _ci_steps(course: Path) -> dict[str, str]:
    workflow = yaml.safe_load((course / ".github/workflows/site.yml").read_text())
    return {
        step["name"]: step["run"] for step in workflow["jobs"]["site"]["steps"] if "run" in step
    }


def _readme_install(course: Path) -> str:
    block = (course / "README.md").read_text().split("## Set up", 1)[1].split("```sh\n", 1)[1]
    return block.split("```", 1)[0].splitlines()[1]


def test_a_course_made_from_a_folder_says_what_ci_must_install(tmp_path: Path) -> None:
    """Installed from a folder on the author's machine, which CI cannot reach: the step
    says what to write, as it fails, and the README says it before the first push."""
    origin = origin_from('{"url": "file:///home/ana/lessonkit", "dir_info": {"editable": true}}',
                         "0.1.0")  # fmt: skip
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, origin)
    assert _readme_install(course) == '.venv/bin/pip install -e "/home/ana/lessonkit[site]"'
    readme = " ".join((course / "README.md").read_text().split())
    assert origin.about in readme
    step = _ci_steps(course)["Install lessonkit"]
    done = subprocess.run(["bash", "-e", "-c", step], cwd=course, capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert done.returncode == 1
    assert done.stdout == (
        "::error title=Install lessonkit::lessonkit was installed from /home/ana/lessonkit, a "
        "folder on this machine, which CI cannot reach: in .github/workflows/site.yml, replace "
        'the lines of the "Install lessonkit" step with an install CI can run, such as '
        '`"lessonkit[site] @ git+https://github.com/OWNER/lessonkit@COMMIT"` for the repository '
        "you got lessonkit from, or a wheel you commit under wheels/.\n"
    )


@pytest.mark.slow
def test_a_course_made_from_an_installed_wheel_installs_it_as_its_ci_says(
    wheel: Path, tmp_path: Path
) -> None:
    """The author installed lessonkit's wheel into a venv of their own and made a course;
    CI, on a machine with nothing installed, runs the course's own install, check and
    build steps."""
    author = tmp_path / "author"
    subprocess.run([sys.executable, "-m", "venv", str(author)], check=True, timeout=120)
    # Cheap: the wheel alone, as pip installs it (its direct_url.json names the file),
    # with its dependencies seen from this venv rather than installed a second time.
    (next(author.glob("lib/python*/site-packages")) / "deps.pth").write_text(
        next(p for p in sys.path if p.endswith("site-packages")) + "\n"
    )
    subprocess.run([str(author / "bin/python"), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True, timeout=300)  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    made = subprocess.run(
        [str(author / "bin/lessonkit"), "new", "course", "birds", "--title", "Bird songs"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "to do:" not in made.stdout
    course = tmp_path / "birds"
    assert (course / "wheels" / wheel.name).read_bytes() == wheel.read_bytes()
    assert _readme_install(course) == f'.venv/bin/pip install "./wheels/{wheel.name}[site]"'

    ci = tmp_path / "ci"  # the runner's Python: nothing installed yet
    subprocess.run([sys.executable, "-m", "venv", str(ci)], check=True, timeout=120)
    runner = env | {"PATH": f"{ci / 'bin'}{os.pathsep}{env['PATH']}", "NO_MKDOCS_2_WARNING": "1"}
    steps = _ci_steps(course)
    assert list(steps) == [
        "Install lessonkit",
        "Check lessons and banks",
        "Build the site (strict)",
    ]
    for name, command in steps.items():
        done = subprocess.run(["bash", "-e", "-c", command], cwd=course, env=runner,
                              capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
        assert done.returncode == 0, f"{name}:\n{done.stdout}{done.stderr}"
    probe = subprocess.run([str(ci / "bin/python"), "-c", "import lessonkit; print(lessonkit.__file__)"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert probe.stdout.startswith(str(ci)), "CI's lessonkit is the wheel it installed"
    assert (course / "site/getting-started/how-lessons-work/index.html").is_file()


@pytest.mark.parametrize(
    "direct_url",
    [None, '{"url": "https://github.com/ana/lessonkit.git", "vcs_info": {"vcs": "git", '
     '"commit_id": "0123456789abcdef0123456789abcdef01234567"}}',
     '{"url": "file:///home/ana/lessonkit", "dir_info": {"editable": true}}'],
    ids=["index", "git", "folder"],
)  # fmt: skip
def test_each_origins_workflow_passes_actionlint(tmp_path: Path, direct_url: str | None) -> None:
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, origin_from(direct_url, "0.1.0"))
    assert _lint(course / ".github/workflows/site.yml") == []
