"""JSON Schemas generated from the models, for editors; never read by lessonkit itself;
and the list of question types the README gives, from the same models."""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path

from pydantic import BaseModel

from lessonkit.bank.factbook import SCHEMA_FILE as FACTS_SCHEMA
from lessonkit.bank.models import Bank, FactFile, Lesson, Plan
from lessonkit.bank.questions import Question

SCHEMAS: dict[str, type[BaseModel]] = {
    "quiz-bank.schema.json": Bank,
    "lesson.schema.json": Lesson,
    "plan.schema.json": Plan,
    FACTS_SCHEMA: FactFile,
}


def render(model: type[BaseModel]) -> str:
    """The schema text for one model, stable from run to run."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **model.model_json_schema(),
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(
    folder: Path, *, check: bool = False, extra: Mapping[str, type[BaseModel]] | None = None
) -> Iterator[tuple[Path, bool]]:
    """Write each schema (with ``check``, only compare); yield each path and whether it differed.

    ``extra`` adds models from the layers above, such as the course policy's, whose format
    the rule book defines.
    """
    for name, model in {**SCHEMAS, **(extra or {})}.items():
        path = folder / name
        text = render(model)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        changed = current != text
        if changed and not check:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        yield path, changed


def question_types_markdown() -> str:
    """Each question type as a Markdown list item: its `type:` and its model's docstring
    (what it asks, and its partial-credit rule). README.md holds it between its
    `types` markers; a test keeps the two equal."""
    lines = []
    for model in typing.get_args(typing.get_args(Question)[0]):
        name = typing.get_args(model.model_fields["type"].annotation)[0]
        words = " ".join((model.__doc__ or "").split())
        lines.append(f"- `{name}`: {words}")
    return "\n".join(lines) + "\n"
