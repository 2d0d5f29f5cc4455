"""The package's public API: complete, resolvable, and cheap to import."""

from __future__ import annotations

import subprocess
import sys

import lessonkit


def test_every_export_resolves() -> None:
    assert sorted(lessonkit.__all__) == sorted(["__version__", *lessonkit._EXPORTS])
    for name in lessonkit.__all__:
        assert getattr(lessonkit, name) is not None, name


def test_importing_the_package_does_not_import_pydantic() -> None:
    code = "import sys, lessonkit, lessonkit.cli; print(sorted(m for m in ('pydantic', 'yaml', 'rich') if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == "[]\n"
