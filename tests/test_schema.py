"""The committed JSON Schemas are generated from the models and must not go stale."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lessonkit.authoring.policy import SCHEMA_FILE, policy_model
from lessonkit.authoring.rulebook import RULES
from lessonkit.bank.schema import SCHEMAS, render

ROOT = Path(__file__).resolve().parent.parent
# The course policy's format comes from the rule book, a layer above the bank format.
ALL = {**SCHEMAS, SCHEMA_FILE: policy_model(RULES)}


def test_committed_schemas_match_the_models() -> None:
    for name, model in ALL.items():
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

    for name, model in ALL.items():
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


def test_the_readme_lists_the_question_types_of_the_models() -> None:
    from lessonkit.bank.schema import question_types_markdown

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = text.index("<!-- types:start -->\n") + len("<!-- types:start -->\n")
    assert text[start : text.index("<!-- types:end -->")] == question_types_markdown(), (
        "README.md: replace the text between the types markers with the output of "
        "`python -c 'from lessonkit.bank.schema import question_types_markdown as m; "
        'print(m(), end="")\'`'
    )
