"""A match question whose items share an answer, on the page in a real headless Chromium:
the shared answer listed once, chosen for several items, graded and marked per item."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sitebuilds import STAND_IN_LESSON, build, make_stand_in, serve
from test_browser import FIXTURE_LESSON, axe_problems, question, result

pytestmark = pytest.mark.browser

BANK = """\
lesson: gpu-vs-tpu
title: GPU vs TPU
pass_mark: 0.7
questions:
  - id: animals
    type: match
    prompt: Classify the animals.
    insight: 1
    section: 1-why-gpus-won
    explanation: Frogs and newts are amphibians; cats are mammals.
    shuffle: false
    pairs:
      - {left: frog, right: amphibian}
      - {left: cat, right: mammal}
      - {left: newt, right: amphibian}
    distractors: [insect]
"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = tmp_path_factory.mktemp("shared-match") / "project"
    # The bank asks about insight 1 only: the lesson places no block for insight 2.
    lesson = STAND_IN_LESSON.replace("<!-- lessonkit:check gpu-vs-tpu 2 -->\n", "")
    make_stand_in(project, bank=BANK, lesson=lesson)
    out = project.parent / "site"
    built = build(project, out)
    assert built.returncode == 0, built.stderr
    with serve(out) as url:
        yield url + FIXTURE_LESSON


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def answer(page: Any, values: list[int]) -> None:
    for n, value in enumerate(values):
        question(page, "animals").locator(f'select[data-pair="{n}"]').select_option(str(value))
    question(page, "animals").get_by_role("button", name="Check").click()


def marks(page: Any) -> list[str]:
    found: list[str] = question(page, "animals").locator(".lk-mark").all_inner_texts()
    return found


def test_a_shared_answer_is_listed_once_and_may_be_chosen_twice(page: Any, site_url: str) -> None:
    page.goto(site_url)
    asked = question(page, "animals")
    assert asked.locator(".lk-instruction").inner_text() == (
        "Match each item with one of the choices. A choice may go with more than one item."
    )
    choices = asked.locator('select[data-pair="0"] option').all_inner_texts()
    assert choices == ["Choose…", "a) amphibian", "b) mammal", "c) insect"]
    answer(page, [0, 1, 0])  # frog and newt: amphibian
    assert result(page, "animals") == "✓ Correct: 1 of 1 point."
    assert marks(page) == ["✓ Right", "✓ Right", "✓ Right"]
    answer(page, [0, 0, 0])
    assert result(page, "animals").startswith("◐ Partly correct: 0.67 of 1 point")
    assert marks(page) == ["✓ Right", "✗ Wrong", "✓ Right"]
    answer(page, [1, 0, 1])
    assert result(page, "animals") == "✗ Incorrect: 0 of 1 point."
    answer_rows = asked.locator("details.lk-answer ol li").all_inner_texts()
    assert answer_rows == ["frog → a) amphibian", "cat → b) mammal", "newt → a) amphibian"]
    assert axe_problems(page) == ""
