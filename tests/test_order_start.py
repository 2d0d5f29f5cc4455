"""An order question never starts within one swap of its answer, in the terminal's first
display and on the page: pressing Check (or Enter) on the order as shown must not earn
a third or a half of the points, as `[1, 0, 2, 3]` did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lessonkit.bank.loader import load_bank
from lessonkit.bank.models import Bank
from lessonkit.quiz import session
from lessonkit.site import selfcheck

ROOT = Path(__file__).resolve().parents[1]


def exchanges(shown: tuple[int, ...] | list[int]) -> int:
    """Swaps of two items that sort ``shown``, counted by doing them (not as the code
    under test counts them)."""
    items, done = list(shown), 0
    for at in range(len(items)):
        while items[at] != at:
            into = items[at]
            items[at], items[into] = items[into], items[at]
            done += 1
    return done


def order_bank(count: int, ids: int) -> dict[str, Any]:
    items = [f"step {n}" for n in range(count)]
    return {
        "lesson": "lesson-one",
        "title": "Quiz",
        "pass_mark": 0.7,
        "questions": [
            {
                "id": f"o-{n}",
                "type": "order",
                "insight": 1,
                "section": "one",
                "prompt": "P?",
                "explanation": "E.",
                "items": items,
            }
            for n in range(ids)
        ],
    }


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_the_terminal_never_first_shows_an_order_within_one_swap_of_its_answer(
    count: int,
) -> None:
    bank = order_bank(count, 1)
    for seed in range(300):
        shown = session.plan(bank, seed).displays["o-0"]
        assert sorted(shown) == list(range(count))
        assert exchanges(shown) >= 2, (seed, shown)
        assert session.plan(bank, seed).displays["o-0"] == shown  # still from the seed


def test_two_items_can_only_start_swapped() -> None:
    for seed in range(20):
        assert session.plan(order_bank(2, 1), seed).displays["o-0"] == (1, 0)


def page_orders(bank: Bank) -> dict[str, list[int]]:
    html = selfcheck.block(bank, bank.questions, {})
    return {
        found.group(1): [int(n) for n in re.findall(r'data-item="(\d+)"', found.group(2))]
        for found in re.finditer(
            r'id="lk-([^"]+)" data-key=.*?<ol class="lk-order"[^>]*>(.*?)</ol>', html, re.S
        )
    }


@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_page_never_shows_an_order_within_one_swap_of_its_answer(count: int) -> None:
    orders = page_orders(Bank.model_validate(order_bank(count, 200)))
    assert len(orders) == 200
    for qid, shown in orders.items():
        assert exchanges(shown) >= 2, (qid, shown)


def test_the_course_s_own_order_questions_start_well_mixed_on_the_page() -> None:
    # `rank-offers-by-work` started as [1, 0, 2, 3] and `order-step-bytes` as [1, 0, 2, 3, 4].
    seen = 0
    for path in sorted(ROOT.glob("quizzes/*.yml")):
        for qid, shown in page_orders(load_bank(path)).items():
            seen += 1
            assert exchanges(shown) >= 2, (path.name, qid, shown)
    assert seen >= 3
