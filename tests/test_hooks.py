"""The pre-commit hooks and `make test` agree: every hook is a check `make test` runs too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ".venv/bin/"


def _hook_commands() -> dict[str, str]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    found = {}
    for repo in config["repos"]:
        for hook in repo["hooks"]:
            # pre-commit passes file names itself; --force-exclude only makes ruff honour
            # the project's excludes for them, as it does when given `.`.
            words = [w for w in hook["entry"].split() if w != "--force-exclude"]
            found[hook["id"]] = " ".join(words).removeprefix(VENV_BIN)
    return found


def _make_test_commands(target: str = "test") -> list[str]:
    """The commands a target runs, following `$(MAKE) other` into the other's recipe."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe, f"Makefile has no `{target}` target"
    commands = []
    for line in recipe.group(1).splitlines():
        if called := re.fullmatch(r"\$\(MAKE\) ([a-z-]+)", line.strip()):
            commands += _make_test_commands(called.group(1))
            continue
        commands.append(
            line.strip()
            .replace("$(VENV)/bin/", "")
            .replace("$(PY) -m ", "")
            .replace("python -m ", "")
        )
    return commands


def test_every_hook_is_a_check_make_test_runs() -> None:
    commands = _make_test_commands()
    hooks = _hook_commands()
    assert hooks, "no hooks found in .pre-commit-config.yaml"
    # A hook runs on the files it is given; `make test` runs the same command on the tree.
    missing = {
        name: command
        for name, command in hooks.items()
        if not any(line == command or line.startswith(command + " ") for line in commands)
    }
    assert missing == {}, f"hooks that `make test` does not run: {missing}\nmake test: {commands}"


def test_make_test_lints_and_formats_the_whole_tree() -> None:
    commands = _make_test_commands()
    assert "ruff check ." in commands
    assert "ruff format --check ." in commands


def test_the_hooks_pass_on_this_checkout(tmp_path: Path) -> None:
    pre_commit = ROOT / VENV_BIN / "pre-commit"
    if not pre_commit.is_file() or shutil.which("git") is None:
        if os.environ.get("CI"):
            pytest.fail("pre-commit is missing in CI: `make install` installs it (dev extra)")
        pytest.skip("no .venv/bin/pre-commit: run `make install`")
    result = subprocess.run(
        [str(pre_commit), "run", "--all-files", "--color", "never"],
        cwd=ROOT,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert set(re.findall(r"\.(Passed|Failed|Skipped)$", result.stdout, re.M)) <= {
        "Passed",
        "Skipped",
    }
    assert "Passed" in result.stdout
