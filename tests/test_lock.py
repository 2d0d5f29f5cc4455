"""The test environment is the lock: what pyproject.toml asks for, at the versions CI ran."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements/dev.txt"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)(?:\s*;\s*(.+?))?\s*\\?$")


def _locked() -> dict[str, list[tuple[str, str | None]]]:
    """Each locked name with its versions and their markers (uv splits by Python version)."""
    pins: dict[str, list[tuple[str, str | None]]] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if found := PIN.match(line):
            name, version, marker = found.groups()
            pins.setdefault(canonicalize_name(name), []).append((version, marker))
    return pins


def _asked_for() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = ["dev", "site", "export", "import", "zensical"]
    lines = project["dependencies"] + [
        r for e in extras for r in project["optional-dependencies"][e]
    ]
    return [Requirement(line) for line in lines]


def _copy_with_range(tmp_path: Path, old: str, new: str) -> Path:
    for name in ["pyproject.toml", "Makefile"]:
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    pyproject = tmp_path / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert old in text
    pyproject.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path


def test_the_lock_is_the_lock_of_pyproject() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "requirements/lockcheck.py")], capture_output=True, text=True
    )
    assert (result.returncode, result.stderr) == (0, "")


def test_every_requirement_is_locked_at_a_version_its_range_admits() -> None:
    pins = _locked()
    for requirement in _asked_for():
        versions = pins.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement.name} is not in requirements/dev.txt: run `make lock`"
        for version, _marker in versions:
            assert requirement.specifier.contains(version, prereleases=True), (requirement, version)


def test_every_locked_file_is_pinned_with_hashes() -> None:
    text = LOCK.read_text(encoding="utf-8")
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    assert entries and all("--hash=sha256:" in entry for entry in entries if "==" in entry)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"rich>=13.5",', '"rich>=13.4",'),  # widened: the lock still fits, but nobody chose it
        ('"pytest>=8",', '"pytest>=8",\n    "hypothesis>=6",'),  # a new dependency
        ('"defusedxml>=0.7",         # the', "# the"),  # one removed
    ],
    ids=["range-widened", "dependency-added", "dependency-removed"],
)
def test_an_edit_without_relocking_stops_make_test_with_the_command(
    tmp_path: Path, old: str, new: str
) -> None:
    course = _copy_with_range(tmp_path, old, new)
    result = subprocess.run(
        ["make", "--no-print-directory", "test"], cwd=course, capture_output=True, text=True,
        env={**os.environ, "MAKEFLAGS": ""}, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert result.stderr.splitlines()[:2] == [
        "pyproject.toml: its dependencies changed since requirements/dev.txt was locked, so "
        "the tests would not run on the versions the lock records.",
        "Re-lock, then commit both files:  make lock",
    ]
    assert not (course / ".venv").exists()  # stopped before installing anything


@pytest.mark.skipif(not os.environ.get("CI"), reason="a contributor's venv may hold extra tools")
def test_ci_runs_on_exactly_the_locked_versions() -> None:
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    pins = _locked()
    off = []
    for line in frozen:
        name, _, version = line.partition("==")
        locked = [v for v, _marker in pins.get(canonicalize_name(name), [])]
        if version not in locked:
            off.append(f"{line} (locked: {locked or 'not at all'})")
    assert off == []
