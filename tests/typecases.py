"""What the per-type test modules share: a question from bank YAML, and what each export
format carries of it."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from lessonkit.bank.models import Bank
from lessonkit.bank.questions import Question as Model
from lessonkit.export import FORMATS, convert
from lessonkit.questiontypes.base import RuntimeQuestion
from lessonkit.questiontypes.registry import runtime
from test_export_common import LESSON_META, MODIFIED

BASE = {"id": "q", "prompt": "P?", "insight": 1, "section": "s", "explanation": "Because."}
_MODEL: TypeAdapter[Model] = TypeAdapter(Model)


def question(**fields: Any) -> RuntimeQuestion:
    """A question validated by its model, as a bank's are, in its run-time form."""
    return runtime(_MODEL.validate_python({**BASE, **fields}))


def carried(**fields: Any) -> dict[str, list[str]]:
    """Each export format's losses for a bank of this one question (`omitted: …` when the
    format leaves the question out)."""
    bank = Bank.model_validate(
        {"lesson": "lesson-one", "title": "T", "pass_mark": 0.5, "questions": [{**BASE, **fields}]}
    )
    from lessonkit.export.common import Source

    found = {}
    for to in FORMATS:
        export = convert(Source("lesson-one", bank, LESSON_META, MODIFIED), to)
        found[to] = [("omitted: " if loss.omitted else "") + loss.what for loss in export.losses]
    return found
