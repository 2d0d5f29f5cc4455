"""What a self-check owes a reader on the page, under both engines in a real Chromium
(issue 36): the verdict stays in view on a phone, a search never counts as having seen
an answer, fields are named by their question and unit, hints are offered as in the
terminal, stale marks go, and a figure zooms to a readable size on a phone.

Each test failed on the site as it was before the fix it checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
import yaml

from sitebuilds import serve
from test_browser import (
    ARTIFACTS,
    FIXTURE_LESSON,
    LESSON_URL,
    SECOND_LESSON_URL,
    choose,
    match,
    press_check,
    question,
    result,
    set_scheme,
)
from test_reading import visible_figure
from test_zensical import index_text

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(params=["mkdocs", "zensical"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def every_type_url(engine: str, request: pytest.FixtureRequest) -> str:
    """The course with one question of every type, built by each engine."""
    name = "fixture_url" if engine == "mkdocs" else "zensical_fixture_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def course_url(engine: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """The real course built by each engine, served on 127.0.0.1."""
    if engine == "mkdocs":
        yield request.getfixturevalue("base_url")
    else:
        with serve(request.getfixturevalue("zensical_site")) as url:
            yield url


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone's screen: touch, 390 px wide, recording every request."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True
    )
    opened = context.new_page()
    opened.requests = []
    opened.on("request", lambda request: opened.requests.append(request.url))
    yield opened
    context.close()


def only_local(page: Any) -> None:
    hosts = {urlsplit(url).hostname for url in page.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}


def settled(page: Any) -> None:
    """After the page's handlers have run (a change is handled a task later)."""
    page.evaluate("new Promise(done => setTimeout(done, 0))")


def kept_seen(page: Any) -> list[str]:
    seen: list[str] = page.evaluate(
        "JSON.parse(localStorage.getItem('lessonkit:' + location.pathname) || '{}')['#seen'] || []"
    )
    return seen


# --- the verdict after Check ---------------------------------------------------------------


def test_the_verdict_after_check_stays_on_a_phone_screen(
    phone: Any, every_type_url: str, engine: str
) -> None:
    phone.goto(every_type_url + FIXTURE_LESSON)
    asked = question(phone, "pick-many")
    for value in ("0", "2"):  # HBM (right) and MXU (wrong): marks and feedback appear
        asked.locator(f".lk-options input[value='{value}']").check()
    # The Check button just above the bottom of the screen, where a reader's thumb is.
    bar = asked.locator(".lk-check")
    phone.evaluate(
        "bar => window.scrollBy(0, bar.getBoundingClientRect().bottom - innerHeight + 4)",
        bar.element_handle(),
    )
    asked.get_by_role("button", name="Check").tap()
    assert result(phone, "pick-many") == "✗ Incorrect: 0 of 1 point."
    verdict = asked.locator(".lk-result").bounding_box()
    header = phone.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert verdict["y"] >= header and verdict["y"] + verdict["height"] <= PHONE["height"], verdict
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        set_scheme(phone, scheme)
        phone.screenshot(path=str(ARTIFACTS / f"verdict-after-check-{engine}-390-{scheme}.png"))
    only_local(phone)


# --- find-in-page ---------------------------------------------------------------------------


def test_a_text_fragment_opening_an_answer_never_marks_it_seen(
    page: Any, every_type_url: str
) -> None:
    # Chromium opens a closed <details> for find-in-page (Ctrl+F) and for a link to a text
    # fragment alike; a fragment can be driven headless, Ctrl+F cannot.
    page.goto(every_type_url + FIXTURE_LESSON + "#:~:text=" + quote("flexible workshop"))
    answer = question(page, "pick-one").locator("details.lk-answer")
    page.wait_for_function("details => details.open", arg=answer.element_handle())
    page.wait_for_function("document.querySelector('.lk-self-check .lk-tally')")
    settled(page)
    assert kept_seen(page) == []
    # The same once the page has long been mounted: a search opens the next answer.
    other = question(page, "true-or-not").locator("details.lk-answer")
    other.evaluate("details => { details.open = true; }")  # as find-in-page does, no click
    page.wait_for_function("details => details.open", arg=other.element_handle())
    page.evaluate("new Promise(done => setTimeout(done, 50))")  # the toggle event is async
    assert kept_seen(page) == []
    # Missed, it is still asked again by "Retry the ones I missed".
    choose(page, "pick-one", [1])
    block = page.locator(".lk-self-check").first
    block.get_by_role("button", name="Retry the ones I missed").click()
    assert result(page, "pick-one") == ""
    # Opened by the reader, it counts as seen, as before.
    answer.locator("summary").click()  # closes what the search opened
    answer.locator("summary").click()
    page.wait_for_function(
        "q => q.lkSeen === true", arg=question(page, "pick-one").element_handle()
    )
    assert kept_seen(page) == ["lk-pick-one"]


# --- names for screen readers and voice control -----------------------------------------


def test_every_typed_answer_field_is_named_by_its_question_and_unit(
    page: Any, every_type_url: str
) -> None:
    page.goto(every_type_url + FIXTURE_LESSON)
    page.locator(".lk-more").click()  # the text question is the fifth
    numeric = page.get_by_role("textbox", name="H100 memory bandwidth? Your answer, in TB/s")
    assert numeric.get_attribute("id") == "lk-how-fast-answer"
    text = page.get_by_role("textbox", name="What is the MXU? Your answer", exact=True)
    assert text.get_attribute("id") == "lk-name-it-answer"
    assert page.get_by_role("textbox", name="Your answer", exact=True).count() == 0
    # Each Check button says which question it checks.
    check = question(page, "how-fast").get_by_role("button", name="Check question 4", exact=True)
    assert check.count() == 1


# --- hints -----------------------------------------------------------------------------------


def bank_hints() -> dict[str, str]:
    bank = yaml.safe_load((ROOT / "quizzes/gpu-vs-tpu.yml").read_text(encoding="utf-8"))
    return {q["id"]: q["hint"] for q in bank["questions"] if q.get("hint")}


def test_hints_are_offered_on_the_page_as_in_the_terminal(page: Any, course_url: str) -> None:
    hints = bank_hints()
    page.goto(course_url + LESSON_URL)
    page.wait_for_function("document.querySelector('.lk-self-check .lk-tally')")
    offered = page.locator(".lk-question details.lk-hint")
    assert offered.count() == len(hints)
    # A hint written in plain words (no figure by reference, no markup), so the page shows
    # exactly the bank's text.
    qid = next(q for q, text in hints.items() if not any(c in text for c in "((*`_["))
    asked = page.locator(f"#lk-{qid}")
    block = page.locator(f".lk-self-check:has(#lk-{qid})")
    for _ in range(5):
        if not asked.is_hidden():
            break
        block.locator(".lk-more").click()
    hint = asked.locator("details.lk-hint")
    assert hint.locator("summary").inner_text().startswith("Hint for question")
    assert hint.locator("p").is_hidden()
    hint.locator("summary").click()
    assert hint.locator("p").inner_text() == hints[qid]
    # A hint is a nudge, not the answer: the question stays open for "Retry".
    settled(page)
    assert kept_seen(page) == []
    assert asked.locator("details.lk-answer[open]").count() == 0
    only_local(page)


def test_hints_stay_out_of_both_engines_search_indexes(
    real_site: Path, zensical_site: Path
) -> None:
    hints = list(bank_hints().values())
    for site in (real_site, zensical_site):
        text = index_text(site)
        assert "Check yourself" in text
        assert [h for h in hints if h.lower() in text] == [], site


# --- stale marks -------------------------------------------------------------------------------


def test_marks_go_when_the_choice_they_judged_changes(page: Any, every_type_url: str) -> None:
    page.goto(every_type_url + FIXTURE_LESSON)
    many = question(page, "pick-many")
    choose(page, "pick-many", [2])  # MXU: wrong
    assert many.locator(".lk-mark").all_inner_texts() == ["✗ Wrong: The MXU multiplies."]
    many.locator(".lk-options input[value='2']").uncheck()
    settled(page)
    assert many.locator(".lk-mark, .lk-wrong, .lk-right").count() == 0
    press_check(page, "pick-many")
    assert result(page, "pick-many") == "Choose at least one option."
    assert many.locator(".lk-mark").count() == 0
    # A radio button: choosing another leaves no mark on the one no longer chosen.
    choose(page, "pick-one", [1])
    one = question(page, "pick-one")
    one.locator(".lk-options input[value='0']").check()
    settled(page)
    assert one.locator(".lk-mark").count() == 0
    # A match: the changed answer's mark goes, the other stays.
    page.get_by_role("button", name="Next question").click()
    match(page, [0, 2])
    pairs = question(page, "pairs")
    assert pairs.locator(".lk-mark").all_inner_texts() == ["✓ Right", "✗ Wrong"]
    pairs.locator('select[data-pair="1"]').select_option("1")
    settled(page)
    assert pairs.locator(".lk-mark").all_inner_texts() == ["✓ Right"]


# --- figures on a phone ------------------------------------------------------------------------


def test_a_figure_zooms_to_a_readable_size_on_a_phone(phone: Any, course_url: str) -> None:
    phone.goto(course_url + SECOND_LESSON_URL)
    link = visible_figure(phone)
    inline = link.locator("img").bounding_box()["width"]
    link.click()
    image = phone.locator("dialog.lk-figure[open] img")
    image.wait_for()
    # Twice its width on the page: the drawings' small labels become readable.
    zoomed = image.bounding_box()["width"]
    assert zoomed >= 2 * inline - 1, f"{inline:.0f} px grew only to {zoomed:.0f} px"
    phone.keyboard.press("Escape")
    only_local(phone)
