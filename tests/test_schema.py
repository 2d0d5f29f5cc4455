"""The committed JSON Schemas are generated from the models and must not go stale."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lessonkit.bank.schema import SCHEMAS, render

ROOT = Path(__file__).resolve().parent.parent


def test_committed_schemas_match_the_models() -> None:
    for name, model in SCHEMAS.items():
        committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
        assert committed == render(model), f"schemas/{name} is stale: run `lessonkit schema`"


def test_every_field_is_described() -> None:
    def walk(node: object, where: str) -> list[str]:
        missing: list[str] = []
        if isinstance(node, dict):
            for name, prop in (node.get("properties") or {}).items():
                if "description" not in prop:
                    missing.append(f"{where}.{name}")
            for key, value in node.items():
                missing += walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                missing += walk(value, f"{where}[{index}]")
        return missing

    for name, model in SCHEMAS.items():
        assert walk(json.loads(render(model)), name) == []


def test_check_mode_reports_a_stale_file(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "lessonkit", "schema", "--output", str(tmp_path)]
    written = subprocess.run(command, capture_output=True, text=True, check=True)
    assert f"{tmp_path}/quiz-bank.schema.json written" in written.stdout
    (tmp_path / "lesson.schema.json").write_text("{}\n")
    checked = subprocess.run([*command, "--check"], capture_output=True, text=True)
    assert checked.returncode == 1
    assert f"{tmp_path}/lesson.schema.json is stale" in checked.stdout
    assert (tmp_path / "lesson.schema.json").read_text() == "{}\n"


def test_banks_point_editors_at_the_schema() -> None:
    for bank in sorted((ROOT / "quizzes").glob("*.yml")):
        first = bank.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schemas/quiz-bank.schema.json", (
            bank.name
        )
