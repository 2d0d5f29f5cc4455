"""Fact references: how an author writes one, what a reader sees, and every mistake named."""

from __future__ import annotations

import datetime as dt

import pytest

from lessonkit.bank import citations
from lessonkit.bank.citations import Citation, CitationError
from lessonkit.bank.factbook import Fact, Publication

SOURCE = Publication("https://www.nvidia.com/", "H100", "NVIDIA", primary=True)


def fact(fact_id: str, value: float, unit: str) -> Fact:
    day = dt.date(2026, 11, 1)
    return Fact(fact_id, None, value, unit, {}, day, day, "spec", SOURCE)


FACTS = {
    "h100-sxm.hbm": fact("h100-sxm.hbm", 80, "GB"),
    "h100-sxm.hbm-bw": fact("h100-sxm.hbm-bw", 3.35, "TB/s"),
    "h100-sxm.bf16-dense": fact("h100-sxm.bf16-dense", 989.4, "TFLOP/s"),
}


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("((fact h100-sxm.hbm))", "80 GB"),
        ("((fact h100-sxm.hbm unit=GiB))", "74.5 GiB"),
        ("((fact h100-sxm.hbm unit=GiB decimals=2))", "74.51 GiB"),
        ("((fact h100-sxm.hbm-bw unit=GB/s))", "3,350 GB/s"),
        ("((fact h100-sxm.hbm-bw unit=GB/s significant=2))", "3,400 GB/s"),
        ("((fact h100-sxm.bf16-dense unit=PFLOP/s))", "0.989 PFLOP/s"),
        ("((fact h100-sxm.bf16-dense bare))", "989.4"),
        ("((fact   h100-sxm.hbm   unit=GiB   bare))", "74.5"),
    ],
)
def test_a_reference_shows_the_value_as_asked(written: str, shown: str) -> None:
    assert citations.resolve_text(f"It holds {written}.", FACTS) == (f"It holds {shown}.", [])


@pytest.mark.parametrize(
    ("text", "message", "hint", "column"),
    [
        (
            "has ((fact h100-sxm.hmb)).",
            "unknown fact `h100-sxm.hmb`",
            "did you mean `h100-sxm.hbm`?",
            4,
        ),
        (
            "has ((fact h100-sxm.hbm unit=TB/s)).",
            "fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure different things",
            "ask for a unit like `GB`, or use another fact",
            4,
        ),
        (
            "has ((fact h100-sxm.hbm unit=GiB",
            "a fact reference is not closed",
            "write `((fact ID unit=UNIT decimals=N))` on one line, with no parentheses inside",
            4,
        ),
        (
            "has ((fact)).",
            "a fact reference names no fact",
            "write `((fact ID unit=UNIT decimals=N))`",
            4,
        ),
        (
            "has ((fact H100.HBM)).",
            "`H100.HBM` is not a fact id",
            "ids are lower-case words joined by dots and hyphens, e.g. `h100-sxm.hbm`",
            4,
        ),
        (
            "has ((fact h100-sxm.hbm units=GiB)).",
            "`units=GiB` is not an option of a fact reference",
            "options: `unit=GiB`, `decimals=N` or `significant=N`, `bare` for no unit and "
            "`unmarked` for no footnote mark",
            4,
        ),
        (
            "has ((fact h100-sxm.hbm decimals=1 significant=2)).",
            "give `decimals=N` or `significant=N` (N from 0 to 12), not both",
            "e.g. `decimals=1` for 74.5",
            4,
        ),
    ],
)
def test_a_reference_that_cannot_be_shown_says_why_and_where(
    text: str, message: str, hint: str, column: int
) -> None:
    shown, errors = citations.resolve_text(text, FACTS)
    assert shown == text  # left as written, for the author to see
    assert [(e.message, e.hint, e.start) for e in errors] == [(message, hint, column)]


def test_references_are_found_in_order_with_their_places() -> None:
    found = list(citations.find("a ((fact x.y)) b ((fact z unit=GB bare)) c"))
    assert found == [
        Citation("x.y", None, None, None, False, 2, 14),
        Citation("z", "GB", None, None, True, 17, 40),
    ]
    assert [c.text for c in found if isinstance(c, Citation)] == [
        "((fact x.y))",
        "((fact z unit=GB bare))",
    ]
    assert citations.used_ids("((fact b)) ((fact a)) ((fact b)) ((fact") == ["b", "a"]
    assert isinstance(next(citations.find("((fact")), CitationError)


def test_a_parameter_takes_the_number_and_text_takes_the_words() -> None:
    data = {
        "questions": [
            {
                "prompt": "Memory: ((fact h100-sxm.hbm unit=GiB)).",
                "params": {
                    "hbm": {"values": ["((fact h100-sxm.hbm unit=GiB decimals=2))", 16]},
                    "chip": {"cases": {"H100": {"tb_s": "((fact h100-sxm.hbm-bw))"}}},
                    "low": {"min": "((fact h100-sxm.hbm bare))", "max": 100, "step": 1},
                },
            }
        ]
    }
    resolved, errors = citations.resolve_bank(data, FACTS)
    assert errors == []
    question = resolved["questions"][0]
    assert question["prompt"] == "Memory: 74.5 GiB."
    assert question["params"]["hbm"]["values"] == [74.51, 16]
    assert question["params"]["chip"]["cases"]["H100"]["tb_s"] == 3.35
    assert question["params"]["low"]["min"] == 80.0
    assert data["questions"][0]["prompt"].startswith("Memory: ((fact")  # the input is kept


def test_a_parameter_with_words_around_its_reference_is_refused() -> None:
    data = {"questions": [{"params": {"hbm": {"values": ["about ((fact h100-sxm.hbm))"]}}}]}
    _, errors = citations.resolve_bank(data, FACTS)
    assert [(loc, e.message, e.hint) for loc, _, e in errors] == [
        (
            ("questions", 0, "params", "hbm", "values", 0),
            "a parameter's number is a fact reference alone",
            "write `((fact ID unit=UNIT decimals=N))` with nothing around it",
        )
    ]
