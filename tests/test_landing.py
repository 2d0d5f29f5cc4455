"""Links land where they point, and a table-of-contents click loses nothing, under both
engines in a real Chromium (issue 36): a heading right after a self-check used to be
800-6,100 px away once the blocks had hidden their later questions, and mkdocs-material's
instant navigation rendered the lesson afresh, wiping what was typed but not checked.

Each test failed on the site as it was before the fix it checks.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from lessonkit.course import catalog
from sitebuilds import serve
from test_browser import ARTIFACTS, LESSON_URL, SECOND_LESSON_URL, question

pytestmark = [pytest.mark.browser, pytest.mark.build]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ROOT = Path(__file__).resolve().parents[1]

# Headings that come right after a self-check block, in the real course.
AFTER_A_BLOCK = [
    LESSON_URL + "#2-where-tpus-are-strongest",
    LESSON_URL + "#3-how-to-choose-between-them",
    LESSON_URL + "#common-misconceptions",
    SECOND_LESSON_URL
    + "#3-choose-serving-hardware-by-bandwidth-and-capacity-per-dollar-then-measure",
    SECOND_LESSON_URL + "#common-misconceptions",
]


@pytest.fixture(params=["mkdocs", "zensical"])
def engine_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The real course built by each engine, served on 127.0.0.1."""
    if request.param == "mkdocs":
        yield request.getfixturevalue("base_url")
    else:
        with serve(request.getfixturevalue("zensical_site")) as url:
            yield url


@pytest.fixture(params=[PHONE, DESKTOP], ids=["390", "1280"])
def reader(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page at a phone's size (touch) or a desktop's, recording every request."""
    phone = request.param is PHONE
    context = browser.new_context(viewport=request.param, has_touch=phone, is_mobile=phone)
    opened = context.new_page()
    opened.requests = []
    opened.on("request", lambda request: opened.requests.append(request.url))
    yield opened
    context.close()


def mounted(page: Any) -> None:
    """Wait until the page has loaded and every self-check block is mounted (a tally each)."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        "document.querySelectorAll('.lk-self-check').length"
        " === document.querySelectorAll('.lk-self-check .lk-tally').length"
    )
    # Two frames: whatever the browser or the theme scrolls on load has happened.
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def heading_top(page: Any, anchor: str) -> float:
    top: float = page.evaluate(
        "id => document.getElementById(id).getBoundingClientRect().top", anchor
    )
    return top


def assert_landed(page: Any, anchor: str) -> None:
    """The heading sits just under the theme's header, where a link to it should put it,
    once every block is mounted (an engine may scroll to it a moment after loading)."""
    mounted(page)
    under = (
        "id => { const top = document.getElementById(id).getBoundingClientRect().top;"
        " const header = document.querySelector('.md-header').getBoundingClientRect().bottom;"
        " return top >= header - 2 && top <= header + 40; }"
    )
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(under, arg=anchor, timeout=5000)
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    header = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    top = heading_top(page, anchor)
    assert header - 2 <= top <= header + 40, f"#{anchor} is at {top:.0f} px, not under the header"
    hosts = {urlsplit(url).hostname for url in page.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}


def test_a_deep_link_lands_on_a_heading_right_after_a_self_check(
    reader: Any, engine_url: str, request: pytest.FixtureRequest
) -> None:
    for address in AFTER_A_BLOCK:
        reader.goto("about:blank")  # a fresh load each time, as a shared link opens
        reader.goto(engine_url + address)
        assert_landed(reader, address.split("#")[1])
    if reader.viewport_size == PHONE:
        ARTIFACTS.mkdir(exist_ok=True)
        engine = request.node.callspec.params["engine_url"]
        reader.screenshot(path=str(ARTIFACTS / f"deep-link-{engine}-390.png"))


def test_the_terminal_s_re_read_address_lands_on_its_heading(reader: Any, engine_url: str) -> None:
    # `rs-more-tflops-faster` sends a learner to "Common misconceptions", past three blocks.
    compiled = catalog.find("rooflines-and-serving", cwd=ROOT)
    said = compiled.lesson["sections"]["common-misconceptions"]["url"]
    parts = urlsplit(said)
    reader.goto(engine_url + parts.path + "#" + parts.fragment)
    assert_landed(reader, parts.fragment)


def test_the_second_lesson_s_link_lands_on_the_first_lesson_s_heading(
    reader: Any, engine_url: str
) -> None:
    anchor = "3-how-to-choose-between-them"
    reader.goto(engine_url + SECOND_LESSON_URL)
    mounted(reader)
    link = reader.locator(f'article a[href$="gpu-vs-tpu/#{anchor}"]').first
    link.scroll_into_view_if_needed()
    # Opened in a new tab, as a reader keeping their place does: the lesson loads afresh.
    with reader.context.expect_page() as opening:
        link.click(modifiers=["Control"])
    tab = opening.value
    tab.requests = []
    tab.on("request", lambda request: tab.requests.append(request.url))
    try:
        tab.wait_for_url(f"**{LESSON_URL}#{anchor}")
        tab.bring_to_front()  # the reader switches to it
        assert_landed(tab, anchor)
    finally:
        tab.close()
    # Followed in place: both engines' instant navigation swaps the page in.
    link.click()
    reader.wait_for_url(f"**{LESSON_URL}#{anchor}")
    reader.wait_for_function(f"!!document.getElementById('{anchor}')")
    assert_landed(reader, anchor)


def test_a_table_of_contents_click_keeps_typed_answers_and_what_was_shown(
    browser: Any, engine_url: str
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    try:
        page.goto(engine_url + LESSON_URL)
        mounted(page)
        # The first block with a typed answer, shown more until that question is in view.
        blocks = ".lk-self-check:has(.lk-question .lk-field input)"
        first = page.locator(blocks).first
        typed = first.locator(".lk-question:not([hidden]) .lk-field input").first
        for _ in range(5):
            if typed.count():
                break
            first.locator(".lk-more").click()
        qid = typed.get_attribute("id").removeprefix("lk-").removesuffix("-answer")
        typed.fill("1000")
        shown = first.locator(".lk-question:not([hidden])").count()
        # mkdocs-material renders the page afresh on this click; Zensical keeps it.
        page.locator("a.md-nav__link[href$='#common-misconceptions']:visible").first.click()
        page.wait_for_url("**#common-misconceptions")
        assert_landed(page, "common-misconceptions")
        assert question(page, qid).locator(".lk-field input").input_value() == "1000"
        block = page.locator(blocks).first
        assert block.locator(".lk-question:not([hidden])").count() == shown
        # A draft is not an answer: nothing was checked, so nothing is scored.
        assert question(page, qid).locator(".lk-result").inner_text() == ""
        # Still there after a reload in the same tab.
        page.reload()
        mounted(page)
        assert question(page, qid).locator(".lk-field input").input_value() == "1000"
    finally:
        page.close()
