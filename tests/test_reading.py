"""What a reader trips on, in a real headless Chromium: figures, sources, wide tables on a
phone, the self-check's second try and the call to action (issue 21). Landmarks are in
test_browser.test_no_accessibility_violations_of_any_impact_on_any_page.

Each test here failed on the site as it was before the fix it checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from test_browser import (
    ARTIFACTS,
    FIXTURE_LESSON,
    LESSON_URL,
    SECOND_LESSON_URL,
    arrange,
    choose,
    press_check,
    question,
    result,
    set_scheme,
    shown_order,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page the size of a phone's screen, recording every request it makes."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    opened = context.new_page()
    opened.requests = []
    opened.on("request", lambda request: opened.requests.append(request.url))
    yield opened
    context.close()


# --- figures ---------------------------------------------------------------------------


def visible_figure(page: Any, scheme: str = "light") -> Any:
    """The first figure the scheme shows, scrolled to, once its image has loaded (figures
    load lazily, so only the scheme's own variant is downloaded)."""
    other = "dark" if scheme == "light" else "light"
    link = page.locator(f"a.lk-zoom:not(.lk-only-{other})").first
    link.evaluate("a => a.scrollIntoView({block: 'center'})")
    link.locator("img").evaluate(
        "img => img.complete && img.naturalWidth ? true"
        " : new Promise(done => img.addEventListener('load', done, {once: true}))"
    )
    return link


def test_a_figure_zooms_in_place_on_a_phone_and_closes_with_escape_and_back(
    phone: Any, base_url: str
) -> None:
    phone.goto(base_url + SECOND_LESSON_URL)
    phone.evaluate("window.lkStayed = true")  # gone if the page is left or reloaded
    viewport = phone.evaluate("document.querySelector('meta[name=viewport]').content")
    assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport
    link = visible_figure(phone)
    shown = link.locator("img").evaluate("img => img.currentSrc")
    link.click()
    view = phone.locator("dialog.lk-figure[open]")
    view.wait_for()
    assert urlsplit(phone.url).path == SECOND_LESSON_URL, "tapping left the page"
    image = view.locator("img")
    assert image.evaluate("img => img.currentSrc") == shown
    box = image.bounding_box()
    assert box["width"] >= PHONE["width"] - 1, f"zoomed figure is {box['width']} px wide"
    # Pinch zoom and panning stay with the reader.
    assert image.evaluate("img => getComputedStyle(img).touchAction") in ("auto", "manipulation")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "figure-zoomed-390-light.png"))
    phone.keyboard.press("Escape")
    view.wait_for(state="detached")
    assert phone.locator("dialog.lk-figure[open]").count() == 0
    # Back closes it too, and leaves the reader on the lesson where they were.
    visible_figure(phone).click()
    view.wait_for()
    phone.go_back()
    phone.wait_for_function("!document.querySelector('dialog.lk-figure[open]')")
    assert urlsplit(phone.url).path == SECOND_LESSON_URL
    assert phone.evaluate("window.lkStayed") is True
    # The close button does the same for a reader without a keyboard.
    visible_figure(phone).click()
    view.get_by_role("button", name="Close").click()
    view.wait_for(state="detached")
    assert urlsplit(phone.url).path == SECOND_LESSON_URL
    # In the dark scheme, the dark variant.
    set_scheme(phone, "dark")
    visible_figure(phone, "dark").click()
    view.wait_for()
    assert view.locator("img").evaluate("img => img.currentSrc").endswith("-dark.svg#only-dark")
    phone.screenshot(path=str(ARTIFACTS / "figure-zoomed-390-dark.png"))
    phone.keyboard.press("Escape")
    view.wait_for(state="detached")
    hosts = {urlsplit(url).hostname for url in phone.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_only_the_visible_variant_of_a_figure_is_downloaded(
    browser: Any, base_url: str, scheme: str
) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    figures: list[str] = []
    page.on("request", lambda r: figures.append(r.url) if r.url.endswith(".svg") else None)
    page.goto(base_url + SECOND_LESSON_URL)
    # Read to the end, as a reader scrolls, so every figure on the way comes into view.
    height = page.evaluate("document.body.scrollHeight")
    for top in range(0, height, PHONE["height"] // 2):
        page.evaluate(f"window.scrollTo(0, {top})")
        page.wait_for_timeout(30)
    page.wait_for_load_state("networkidle")
    context.close()
    names = sorted({urlsplit(url).path.rsplit("/", 1)[1] for url in figures})
    assert names, "no figure was downloaded"
    dark = [name for name in names if name.endswith("-dark.svg")]
    assert dark == (names if scheme == "dark" else []), names


# --- sources -----------------------------------------------------------------------------


def test_sources_have_a_heading_of_their_own_after_the_call_to_action(
    page: Any, base_url: str
) -> None:
    page.goto(base_url + LESSON_URL)
    heading = page.locator("article h2#sources")
    assert heading.inner_text().replace("¶", "").strip() == "Sources"
    # The theme's script makes the table of contents' links absolute.
    assert page.locator("nav.md-nav--secondary a[href$='#sources']").count() >= 1
    # The footnotes follow the heading, and the call to action keeps to its own section.
    assert heading.evaluate("h => h.nextElementSibling.classList.contains('footnote')")
    order = page.evaluate(
        "() => [...document.querySelectorAll('article h2, article .lk-quiz-call,"
        " article .footnote')].map(e => e.id || e.className)"
    )
    assert order[-3:] == ["take-the-quiz", "lk-quiz-call", "sources"] or order[-4:] == [
        "take-the-quiz",
        "lk-quiz-call",
        "sources",
        "footnote",
    ], order
    assert page.locator(".lk-quiz-call .footnote").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    heading.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "sources-heading-1280-light.png"))


def test_searching_a_cited_author_lands_on_the_sources(page: Any, base_url: str) -> None:
    page.goto(base_url + LESSON_URL)
    page.locator(".md-search__input").first.click()
    page.locator(".md-search__input").press_sequentially("Krizhevsky")
    page.locator(".md-search-result__item a").first.wait_for(timeout=10_000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(
        "els => els.map(e => new URL(e.href).hash)"
    )
    assert "#sources" in hrefs, hrefs
    assert "#take-the-quiz" not in hrefs, hrefs


# --- tables on a phone ---------------------------------------------------------------------


@pytest.mark.parametrize("url", [LESSON_URL, SECOND_LESSON_URL], ids=["lesson", "second"])
def test_a_wide_table_keeps_its_row_labels_when_scrolled_on_a_phone(
    phone: Any, base_url: str, url: str
) -> None:
    phone.goto(base_url + url)
    phone.wait_for_function("document.querySelectorAll('.md-typeset__scrollwrap').length > 0")
    wide = phone.evaluate(
        "() => [...document.querySelectorAll('.md-typeset__scrollwrap')]"
        ".map((w, n) => [n, w.scrollWidth - w.clientWidth]).filter(([n, d]) => d > 1)"
        ".sort((a, b) => b[1] - a[1]).map(([n]) => n)"
    )
    assert wide, "no table is wider than a phone: this test needs one"
    lost = []
    for n in wide:
        wrap = phone.locator(".md-typeset__scrollwrap").nth(n)
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
        phone.wait_for_timeout(50)
        edge = wrap.bounding_box()["x"]
        cells = wrap.locator("tbody tr > :first-child")
        for left in cells.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().left)"):
            if left < edge - 1:
                lost.append(f"table {n}: a row label starts at {left:.0f} px, left of {edge:.0f}")
                break
        if n == wide[0]:
            ARTIFACTS.mkdir(exist_ok=True)
            wrap.evaluate("w => w.scrollIntoView({block: 'start'})")
            phone.evaluate("window.scrollBy(0, -60)")  # below the theme's header
            name = "table" if url == LESSON_URL else "table-second"
            for scheme in ("light", "dark"):
                set_scheme(phone, scheme)
                phone.screenshot(path=str(ARTIFACTS / f"{name}-scrolled-390-{scheme}.png"))
    assert lost == []


# --- the self-check ------------------------------------------------------------------------


def open_answer(page: Any, qid: str) -> None:
    """Opens the full answer and waits until the page has taken note: a details element's
    "toggle" event is dispatched after the click returns, so reading the marks at once
    can catch them before the page has redrawn them."""
    asked = question(page, qid)
    asked.locator("details.lk-answer > summary").click()
    page.wait_for_function("q => q.lkSeen === true", arg=asked.element_handle())


def test_a_wrong_answer_leaves_the_answer_closed_for_a_second_try(
    page: Any, fixture_url: str
) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    choose(page, "pick-one", [1])
    assert result(page, "pick-one").startswith("✗ Incorrect: 0 of 1 point.")
    assert question(page, "pick-one").locator("details.lk-answer[open]").count() == 0
    choose(page, "pick-one", [0])
    assert question(page, "pick-one").locator("details.lk-answer[open]").count() == 1


def test_retry_asks_again_only_what_the_reader_has_not_seen_answered(
    page: Any, fixture_url: str
) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    choose(page, "pick-one", [1])  # wrong, answer still closed
    choose(page, "true-or-not", [0])  # wrong, and then the answer opened
    open_answer(page, "true-or-not")
    choose(page, "pick-many", [0, 1])  # right
    block = page.locator(".lk-self-check").first
    block.get_by_role("button", name="Retry the ones I missed").click()
    # A real second try: the unseen one is asked again, with nothing chosen.
    assert result(page, "pick-one") == ""
    assert question(page, "pick-one").locator("input:checked").count() == 0
    assert page.evaluate("document.activeElement.name") == "lk-pick-one"
    # The one whose full answer the reader read is not asked again as if it were new.
    assert result(page, "true-or-not").startswith("✗ Incorrect")
    assert question(page, "true-or-not").locator("details.lk-answer[open]").count() == 1
    assert result(page, "pick-many").startswith("✓ Correct")
    ARTIFACTS.mkdir(exist_ok=True)
    page.add_style_tag(content=".md-header { position: absolute; }")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for scheme in ("light", "dark"):
            set_scheme(page, scheme)
            block.screenshot(path=str(ARTIFACTS / f"block-after-retry-{width}-{scheme}.png"))
    # Nothing left to retry but what was seen: the button goes.
    page.set_viewport_size({"width": 1280, "height": 900})
    choose(page, "pick-one", [0])
    assert block.get_by_role("button", name="Retry the ones I missed").is_hidden()


def test_a_missed_right_option_is_marked_in_place_once_the_answer_is_open(
    page: Any, fixture_url: str
) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    choose(page, "pick-many", [0])  # HBM only: SRAM is right too
    options = question(page, "pick-many").locator(".lk-option")
    sram = options.filter(has=page.locator("input[value='1']"))
    assert sram.locator(".lk-mark").count() == 0  # not given away before the reader asks
    open_answer(page, "pick-many")
    assert sram.locator(".lk-mark").inner_text() == "✓ Right, not chosen"
    choose(page, "pick-one", [1])
    open_answer(page, "pick-one")
    gpu = (
        question(page, "pick-one")
        .locator(".lk-option")
        .filter(has=page.locator("input[value='0']"))
    )
    assert gpu.locator(".lk-mark").inner_text().startswith("✓ Right, not chosen")


# Chromium sends a details element's "toggle" event a moment after it opens; on a busy
# machine that moment grows. This makes it long, so nothing can lean on its timing.
LATE_TOGGLE = """
const listen = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, handler, options) {
  const late = type === "toggle"
    ? function (event) { setTimeout(() => handler.call(this, event), 300); }
    : handler;
  return listen.call(this, type, late, options);
};
"""


def test_a_quick_change_of_mind_after_a_right_answer_still_shows_the_right_option(
    page: Any, fixture_url: str
) -> None:
    page.add_init_script(LATE_TOGGLE)
    page.goto(fixture_url + FIXTURE_LESSON)
    choose(page, "pick-one", [0])  # right: the full answer opens, so it has been seen
    choose(page, "pick-one", [1])  # at once, before the "toggle" event arrives
    marks = question(page, "pick-one").locator(".lk-mark").all_inner_texts()
    assert marks == [
        "✓ Right, not chosen: Yes, the flexible one.",
        "✗ Wrong: No, that is the factory line.",
    ], marks


def test_order_items_are_marked_one_by_one_and_the_ends_say_so(page: Any, fixture_url: str) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    page.get_by_role("button", name="Next question").click()
    arrange(page, [0, 2, 1])
    press_check(page, "in-order")
    marks = question(page, "in-order").locator(".lk-order > li .lk-mark").all_inner_texts()
    # One item to move, the last: the first two stand in the right order already.
    assert marks == ["✓ In order", "✓ In order", "✗ Out of place"], marks
    open_answer(page, "in-order")
    marks = question(page, "in-order").locator(".lk-order > li .lk-mark").all_inner_texts()
    assert marks == ["✓ In order", "✓ In order", "✗ Out of place: belongs at 2"], marks
    first, last = shown_order(page)[0], shown_order(page)[-1]
    question(page, "in-order").locator(f'li[data-item="{first}"] .lk-up').click()
    assert result(page, "in-order") == "“Write code” is first already."
    question(page, "in-order").locator(f'li[data-item="{last}"] .lk-down').click()
    assert result(page, "in-order") == "“Compile with XLA” is last already."


def test_without_javascript_the_blocks_ask_for_nothing_they_cannot_do(
    browser: Any, fixture_url: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(fixture_url + FIXTURE_LESSON)
    text = " ".join(page.locator(".lk-self-check").all_inner_texts())
    context.close()
    assert "press Check" not in text
    assert "Put these in order" not in text
    assert "open its answer" in text


def test_with_javascript_the_blocks_say_how_to_check(page: Any, fixture_url: str) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    text = " ".join(page.locator(".lk-self-check").all_inner_texts())
    assert "press Check" in text
    assert "Put these in order, first at the top." in text


# --- the call to action -------------------------------------------------------


def test_the_call_to_action_fits_its_box_on_a_phone(phone: Any, fixture_url: str) -> None:
    # The published build's command, with the repository's address: the longest one.
    phone.goto(fixture_url + FIXTURE_LESSON)
    call = phone.locator(".lk-quiz-call")
    call.scroll_into_view_if_needed()
    overflowing = call.evaluate(
        "c => [c, ...c.querySelectorAll('*')].filter(e => e.clientWidth"
        " && e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + ' ' + e.scrollWidth"
        " + ' > ' + e.clientWidth)"
    )
    assert overflowing == []
    assert "pip install" in call.inner_text() and "github.com" in call.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    call.screenshot(path=str(ARTIFACTS / "call-to-action-390-light.png"))
