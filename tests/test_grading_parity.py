"""The grading-parity table (tests/grading_cases.json) through lessonkit's own grader.

tests/test_browser.py runs the same table through the site's self-check script in
Chromium; between them, the page and `lessonkit quiz` grade every case alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from string import ascii_lowercase
from typing import Any

import pytest

from lessonkit.bank.models import Bank
from lessonkit.questiontypes import cloze, registry
from lessonkit.questiontypes.base import ResponseError, RuntimeQuestion
from lessonkit.site import selfcheck

TABLE = json.loads((Path(__file__).parent / "grading_cases.json").read_text(encoding="utf-8"))


def spec(name: str) -> dict[str, Any]:
    """The table's question, with the fields every question needs."""
    return {
        "id": name,
        "prompt": f"Prompt of {name}",
        "insight": 1,
        "section": "one",
        "explanation": "Because.",
    } | TABLE["questions"][name]


def model(fields: dict[str, Any]) -> RuntimeQuestion:
    """The table's question, validated as a bank's are, in its run-time form; one with
    `params` as its `draw` of numbers makes it."""
    fields = dict(fields)
    draw = fields.pop("draw", None)
    bank = Bank.model_validate(
        {"lesson": "parity", "title": "Parity", "pass_mark": 0.5, "questions": [fields]}
    )
    question = registry.runtime(bank.questions[0])
    return question if draw is None else registry.drawn(question, draw)


def key(name: str) -> dict[str, Any]:
    """What the page gets for the question: `selfcheck.grading_key`."""
    return selfcheck.grading_key(model(spec(name)))


def typed(question: dict[str, Any], response: Any) -> str:
    """The response as a learner types it in the terminal (numbers as the bank lists them)."""
    kind = question["type"]
    if response is None:
        return ""
    if kind == "true_false":
        return "true" if response else "false"
    if kind == "single":
        return str(response + 1)
    if kind in ("multiple", "order"):
        return " ".join(str(i + 1) for i in response)
    if kind == "match":
        letters = ascii_lowercase
        return " ".join(f"{n}{letters[i]}" for n, i in enumerate(response, 1) if i is not None)
    if isinstance(response, list):  # typed in several fields: a cloze's blanks
        return cloze.typed_line(response)
    assert isinstance(response, str)
    return response


def cases() -> list[Any]:
    found = []
    for number, (name, response, score, *said) in enumerate(TABLE["cases"], start=1):
        found.append(
            pytest.param(name, response, score, *said[:1] or [None], id=f"{number}-{name}")
        )
    return found


@pytest.mark.parametrize(("name", "response", "score", "said"), cases())
def test_the_terminal_grades_the_table(
    name: str, response: Any, score: float | None, said: list[str] | None
) -> None:
    fields = spec(name)
    question = model(fields)
    text = typed(fields, response)
    try:
        parsed = registry.parse(question, text, range(registry.of(question).choices(question)))
    except ResponseError as error:
        assert score is None, f"{name}: {text!r} was refused, the table expects {score}"
        assert said is None or [str(error)] == said
        return
    assert score is not None, f"{name}: {text!r} was graded, the table expects a refusal"
    graded = registry.grade(question, parsed)
    assert graded.score == pytest.approx(score, abs=1e-12)
    if said is not None:
        read = getattr(parsed, "read_as", "")
        assert [*([f"read as {read}"] if read else []), *graded.feedback] == said


def test_the_table_covers_every_question_type() -> None:
    kinds = {TABLE["questions"][name]["type"] for name, *_ in TABLE["cases"]}
    assert kinds == set(registry.names())


@pytest.mark.parametrize(("name", "response", "marks"), TABLE["marks"])
def test_the_terminal_marks_the_items_out_of_place_as_the_table(
    name: str, response: list[int], marks: list[bool]
) -> None:
    question = model(spec(name))
    assert registry.of(question).part_marks(question, tuple(response)) == marks
