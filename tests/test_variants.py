"""Drawing a parameterised question's numbers, and the plain question one draw gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lessonkit.bank import numerals, variants
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import NumericQuestion, instantiate
from lessonkit.questiontypes import registry

RIDGE: dict[str, Any] = {
    "id": "ridge",
    "type": "numeric",
    "insight": 1,
    "section": "s",
    "prompt": "{chip}: {tflops} TFLOPS and {tb_s} TB/s, batch {batch}. Ridge?",
    "explanation": "{tflops} ÷ {tb_s} ≈ {ridge}; literal {{braces}} stay.",
    "hint": "Divide {tflops} by {tb_s}.",
    "params": {
        "chip": {
            "cases": {
                "H100 SXM": {"tflops": 989, "tb_s": 3.35},
                "B200": {"tflops": 2250, "tb_s": 7.7},
                "TPU v5e": {"tflops": 197, "tb_s": 0.819},
            }
        },
        "batch": {"min": 8, "max": 64, "step": 8},
    },
    "derived": {"ridge": {"formula": "tflops / tb_s", "significant": 3}},
    "constraints": ["batch * tflops < 100000"],
    "answer": "ridge",
    "relative_tolerance": 0.02,
    "unit": "FLOPs/byte",
}


def model(question: dict[str, Any]) -> Any:
    bank = Bank.model_validate(
        {"lesson": "x", "title": "X", "pass_mark": 0.5, "questions": [question]}
    )
    return bank.questions[0]


def test_the_same_seed_draws_the_same_numbers_and_another_seed_others() -> None:
    data = model(RIDGE).model_dump(mode="json")
    first = [variants.seeded(data, f"{seed}/ridge")[0] for seed in range(20)]
    again = [variants.seeded(data, f"{seed}/ridge")[0] for seed in range(20)]
    assert first == again
    assert len({tuple(sorted(v.items())) for v in first}) > 5  # seeds differ, so do draws


def test_every_draw_meets_the_constraints() -> None:
    space = variants.Space(model(RIDGE).model_dump(mode="json"))
    assert space.size == 3 * 8
    rng = random.Random(7)
    drawn = [space.draw(rng) for _ in range(300)]
    assert all(float(v["batch"]) * float(v["tflops"]) < 100_000 for v in drawn)
    assert {v["chip"] for v in drawn} == {"H100 SXM", "B200", "TPU v5e"}
    assert {(v["chip"], v["tflops"], v["tb_s"]) for v in drawn} == {
        ("H100 SXM", 989, 3.35),
        ("B200", 2250, 7.7),
        ("TPU v5e", 197, 0.819),
    }  # a case's numbers always come together
    assert sorted({v["batch"] for v in drawn}) == [8, 16, 24, 32, 40, 48, 56, 64]
    b200 = {v["batch"] for v in drawn if v["chip"] == "B200"}
    assert max(b200) * 2250 < 100_000 and sorted(b200) == [8, 16, 24, 32, 40]


def test_a_draw_avoids_numbers_seen_before_while_others_remain() -> None:
    space = variants.Space(model(RIDGE).model_dump(mode="json"))
    seen = [space.choice(i) for i in space.allowed()[:-1]]
    last = [space.choice(space.allowed()[-1])]
    assert space.draw(random.Random(1), avoid=seen) == last[0]
    # When every draw has been seen, one is drawn anyway.
    assert space.draw(random.Random(1), avoid=seen + last) in seen + last


def test_a_space_nothing_satisfies_raises_a_draw_error() -> None:
    data = model(RIDGE | {"constraints": ["batch > 1000"]}).model_dump(mode="json")
    with pytest.raises(variants.DrawError):
        variants.Space(data).draw(random.Random(0))


def test_rendering_writes_every_name_and_computes_the_answer() -> None:
    question = model(RIDGE)
    plain = variants.render(question.model_dump(mode="json"), {"chip": "H100 SXM", "tflops": 989.0,
                                                                "tb_s": 3.35, "batch": 16.0})  # fmt: skip
    assert plain["prompt"] == "H100 SXM: 989 TFLOPS and 3.35 TB/s, batch 16. Ridge?"
    assert plain["explanation"] == "989 ÷ 3.35 ≈ 295; literal {braces} stay."
    assert plain["hint"] == "Divide 989 by 3.35."
    assert plain["answer"] == pytest.approx(295.2238806)
    assert "params" not in plain and "derived" not in plain and "constraints" not in plain
    concrete = instantiate(question, {"chip": "B200", "tflops": 2250, "tb_s": 7.7, "batch": 8})
    assert isinstance(concrete, NumericQuestion)
    runtime = registry.runtime(concrete)
    assert registry.grade(runtime, 292.0).correct and not registry.grade(runtime, 281.0).correct


def test_option_values_are_computed_and_written_in_their_own_format() -> None:
    question = model(
        {
            "id": "pick",
            "type": "single",
            "insight": 1,
            "section": "s",
            "prompt": "{gb} GB at {tb_s} TB/s?",
            "explanation": "Divide.",
            "params": {"gb": {"values": [16, 40]}, "tb_s": {"values": [3.35]}},
            "options": [
                {"text": "{value} ms", "value": "gb / tb_s", "decimals": 1, "correct": True},
                {"text": "{value} s", "value": "gb / tb_s / 1000", "significant": 2,
                 "feedback": "{value} s is {gb} over {tb_s} in the wrong unit."},
                {"text": "Neither"},
            ],
        }
    )  # fmt: skip
    plain = variants.render(question.model_dump(mode="json"), {"gb": 40.0, "tb_s": 3.35})
    assert [o["text"] for o in plain["options"]] == ["11.9 ms", "0.012 s", "Neither"]
    assert plain["options"][1]["feedback"] == "0.012 s is 40 over 3.35 in the wrong unit."
    assert all("value" not in o for o in plain["options"])


@pytest.mark.parametrize(
    ("value", "fmt", "written"),
    [
        (4800, {}, "4,800"),
        (3.35, {}, "3.35"),
        (989 / 3.35, {}, "295.224"),
        (1234567.0, {}, "1,234,567"),
        (1234567.0, {"significant": 3}, "1,230,000"),
        (0.0833333, {"significant": 3}, "0.0833"),
        (999.96, {"significant": 4}, "1,000"),
        (8.0, {"decimals": 2}, "8.00"),
        (2250, {"separators": False}, "2250"),
        (-0.0001, {"decimals": 2}, "0"),
        (0.30000000000000004, {}, "0.3"),
    ],
)
def test_numbers_are_written_as_their_format_says(
    value: float, fmt: dict[str, Any], written: str
) -> None:
    assert numerals.written_as(value, fmt) == written
    assert numerals.read(written) == pytest.approx(value, rel=0.01, abs=0.001)


def test_a_range_steps_without_binary_rounding_and_keeps_its_end() -> None:
    data = model(RIDGE | {"params": {"x": {"min": 0.1, "max": 0.5, "step": 0.1}},
                          "prompt": "{x}?", "explanation": "x.", "hint": None,
                          "derived": {}, "constraints": [], "answer": "x * 2"})  # fmt: skip
    space = variants.Space(data.model_dump(mode="json"))
    assert [space.choice(i)["x"] for i in range(space.size)] == [0.1, 0.2, 0.3, 0.4, 0.5]


def test_the_numbers_shown_to_a_learner_name_a_case_by_its_name() -> None:
    data = model(RIDGE).model_dump(mode="json")
    drawn = {"chip": "TPU v5e", "tflops": 197.0, "tb_s": 0.819, "batch": 24.0}
    assert variants.shown_numbers(data, drawn) == "chip = TPU v5e, batch = 24"
