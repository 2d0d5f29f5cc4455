"""The layers of ARCHITECTURE.md hold, and the checks that hold them can fail.

`make test` runs `lint-imports` on the package; these tests run it on a copy with one
import added, to show each contract catches what it exists for: an import that runs up a
layer, an import circle, a new top-level module with no layer. Plus the naming rule no
tool checks: no folder holds two modules whose names differ only by a suffix.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "lessonkit"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(src: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` with this repository's contracts, on the package under ``src``."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", "--config", str(ROOT / "pyproject.toml")],
        cwd=src,
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the package to break on purpose; returns the folder that holds it."""
    shutil.copytree(PACKAGE, tmp_path / "lessonkit", ignore=shutil.ignore_patterns("_course"))
    return tmp_path


def _add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_package_keeps_its_layers_and_has_no_circles(copy: Path) -> None:
    result = _lint(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


def test_an_import_up_a_layer_is_refused(copy: Path) -> None:
    # The bank format reaching up into the quiz: what the layers exist to stop.
    _add_line(copy / "lessonkit" / "bank" / "models.py", "from lessonkit.quiz import runner")
    result = _lint(copy)
    assert result.returncode == 1
    assert "lessonkit.bank is not allowed to import lessonkit.quiz:" in result.stdout
    assert "lessonkit.bank.models -> lessonkit.quiz.runner" in result.stdout


def test_sibling_layers_may_not_import_each_other(copy: Path) -> None:
    _add_line(copy / "lessonkit" / "export" / "common.py", "from lessonkit.site import selfcheck")
    result = _lint(copy)
    assert result.returncode == 1
    assert "lessonkit.export is not allowed to import lessonkit.site:" in result.stdout


def test_an_import_circle_is_refused(copy: Path) -> None:
    # The circle this layout removed: the plain UI importing the rich one that extends it.
    _add_line(copy / "lessonkit" / "quiz" / "plainui.py", "from lessonkit.quiz import richui")
    result = _lint(copy)
    assert result.returncode == 1
    assert "No import circles between the modules of any folder BROKEN" in result.stdout
    assert "- .richui -> .plainui (1 import)" in result.stdout


def test_a_new_top_level_module_must_be_given_a_layer(copy: Path) -> None:
    (copy / "lessonkit" / "utils.py").write_text('"""A grab-bag."""\n', encoding="utf-8")
    result = _lint(copy)
    assert result.returncode == 1
    assert "lessonkit.utils" in result.stdout


def _alike(one: str, other: str) -> bool:
    """`review`/`reviewing`, `records`/`recorder`: one stem, two endings."""
    if one.startswith(other) or other.startswith(one):
        return True
    shorter = min(len(one), len(other))
    common = next(i for i in range(shorter) if one[i] != other[i])
    return common >= 5 and common >= 0.75 * shorter


@pytest.mark.parametrize(
    ("one", "other", "alike"),
    [
        ("review", "reviewing", True),
        ("records", "recorder", True),
        ("sitebuild", "sitepage", False),  # alike only in their prefix: a folder's job now
        ("plainui", "richui", False),
        ("reader", "recorder", False),
    ],
)
def test_names_alike(one: str, other: str, alike: bool) -> None:
    assert _alike(one, other) is alike


def test_no_folder_holds_two_modules_named_alike() -> None:
    clashes = []
    for folder in sorted({p.parent for p in PACKAGE.rglob("*.py")}):
        names = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("__"))
        clashes += [
            f"{folder.relative_to(PACKAGE)}: {a}, {b}"
            for a, b in itertools.combinations(names, 2)
            if _alike(a, b)
        ]
    assert clashes == []


def test_every_folder_says_what_it_holds_and_may_import() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        text = init.read_text(encoding="utf-8")
        assert text.startswith('"""'), f"{init.relative_to(ROOT)} needs a docstring"
        assert "import" in text.split('"""')[1], f"{init.relative_to(ROOT)}: say what it may import"
