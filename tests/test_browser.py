"""The built lesson site in a real headless Chromium: reading, self-check, search, offline, a11y."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from lessonkit.course.lessons import read_lesson
from sitebuilds import build, make_stand_in, missing, serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LESSON = ROOT / "content" / "ai-hardware-fundamentals" / "gpu-vs-tpu.md"
LESSON_URL = "/ai-hardware-fundamentals/gpu-vs-tpu/"
# The plan's second lesson, with a figure in light and dark variants.
SECOND_LESSON_URL = "/ai-hardware-fundamentals/rooflines-and-serving/"
PLAN_URL = "/ai-hardware-fundamentals/"
# The lesson of the stand-in course with one question of every type (conftest.fixture_url).
FIXTURE_LESSON = "/ai-hardware-fundamentals/gpu-vs-tpu/"
CASES = json.loads((ROOT / "tests" / "grading_cases.json").read_text(encoding="utf-8"))


def heading_texts(page: Any) -> list[str]:
    texts = page.locator("article h2").all_inner_texts()
    # The permalink sign belongs to the theme, not to the heading.
    return [text.replace("¶", "").strip() for text in texts]


def without_number(text: str) -> str:
    return re.sub(r"^\d+[.)]\s+", "", text)


def test_lesson_shows_its_insight_headings_in_front_matter_order(page: Any, base_url: str) -> None:
    insights = read_lesson(LESSON).meta.insights
    page.goto(base_url + LESSON_URL)
    shown = [without_number(text) for text in heading_texts(page)]
    in_order = [text for text in shown if text in insights]
    assert in_order == list(insights), f"h2 headings on the page: {shown}"
    assert page.locator("h1").count() == 1


def test_search_finds_a_term_from_the_lesson(page: Any, base_url: str) -> None:
    # The longest word of the first insight: long enough to be specific to the lesson.
    first = read_lesson(LESSON).meta.insights[0]
    term = max(re.findall(r"[A-Za-z]{4,}", first), key=len)
    page.goto(base_url + "/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # Typed key by key: the theme searches on key events, which `fill` does not send.
    page.locator(".md-search__input").press_sequentially(term)
    result = page.locator(".md-search-result__item a").first
    result.wait_for(timeout=10_000)
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    assert any(LESSON_URL in href for href in hrefs), f"{term!r} found only {hrefs}"


def test_self_check_answer_is_revealed_on_click(page: Any, base_url: str) -> None:
    page.goto(base_url + LESSON_URL)
    first = page.locator(".lk-question").first
    answer = first.locator("details.lk-answer")
    explanation = answer.locator(".lk-explanation")
    assert not explanation.is_visible()
    answer.locator("summary").click()
    explanation.wait_for(state="visible")
    assert answer.get_attribute("open") is not None
    # The link back to the section the question tests is visible and lands on that heading.
    link = answer.locator(".lk-section a")
    target = urlsplit(link.evaluate("a => a.href"))
    assert target.path == LESSON_URL
    assert page.locator(f"h2[id='{target.fragment}'], h3[id='{target.fragment}']").count() == 1


def test_dark_mode_toggle_switches_the_scheme(page: Any, base_url: str) -> None:
    page.goto(base_url + LESSON_URL)
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    assert page.evaluate(scheme) == "default"
    # The visible toggle is a label titled with the palette's `toggle.name`.
    page.locator('label[title="Switch to dark mode"]').click()
    page.wait_for_function(f"{scheme} === 'slate'")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lesson-dark.png"), full_page=True)
    page.locator('label[title="Switch to light mode"]').click()
    page.wait_for_function(f"{scheme} === 'default'")


def test_every_request_stays_on_127_0_0_1(page: Any, base_url: str) -> None:
    for url in ("/", PLAN_URL, LESSON_URL):
        page.goto(base_url + url)
        page.wait_for_load_state("networkidle")
    # Instant navigation and search fetch more once the reader starts using the site.
    page.locator(".md-search__input").first.click()
    page.locator(".md-search__input").press_sequentially("memory")
    page.wait_for_load_state("networkidle")
    hosts = {urlsplit(url).hostname for url in page.requests if not url.startswith("data:")}
    assert page.requests, "no requests were recorded"
    assert hosts == {"127.0.0.1"}, sorted(url for url in page.requests if "127.0.0.1" not in url)


def test_full_page_screenshot_is_saved(page: Any, base_url: str) -> None:
    page.goto(base_url + LESSON_URL)
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / "lesson-light.png"
    target.unlink(missing_ok=True)
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 10_000


@pytest.mark.parametrize(
    "url",
    ["/", PLAN_URL, LESSON_URL, SECOND_LESSON_URL],
    ids=["home", "plan", "lesson", "second-lesson"],
)
def test_every_image_has_alt_text(page: Any, base_url: str, url: str) -> None:
    page.goto(base_url + url)
    images = page.locator("article img").evaluate_all(
        "els => els.map(e => [e.getAttribute('src'), e.getAttribute('alt')])"
    )
    assert [src for src, alt in images if not (alt or "").strip()] == []


# --- the self-check on a course with one question of every type ----------------


def question(page: Any, qid: str) -> Any:
    return page.locator(f"#lk-{qid}")


def result(page: Any, qid: str) -> str:
    text: str = question(page, qid).locator(".lk-result").inner_text()
    return text


def press_check(page: Any, qid: str) -> None:
    question(page, qid).get_by_role("button", name="Check").click()


def choose(page: Any, qid: str, values: list[int]) -> None:
    for box in question(page, qid).locator(".lk-options input").all():
        wanted = int(box.get_attribute("value")) in values
        if wanted or box.get_attribute("type") == "checkbox":
            box.set_checked(wanted)
    press_check(page, qid)


def shown_order(page: Any) -> list[int]:
    items = question(page, "in-order").locator(".lk-order > li")
    return [int(v) for v in items.evaluate_all("els => els.map(e => e.dataset.item)")]


def arrange(page: Any, wanted: list[int]) -> None:
    """Put the order question's items in `wanted` order with its move-up buttons."""
    for place, item in enumerate(wanted):
        while shown_order(page).index(item) > place:
            question(page, "in-order").locator(f'li[data-item="{item}"] .lk-up').click()


def answer_field(page: Any, qid: str, text: str) -> None:
    question(page, qid).locator(".lk-field [id]").fill(text)
    press_check(page, qid)


def match(page: Any, values: list[int]) -> None:
    for n, value in enumerate(values):
        question(page, "pairs").locator(f'select[data-pair="{n}"]').select_option(str(value))
    press_check(page, "pairs")


def marks(page: Any, qid: str) -> list[str]:
    found: list[str] = question(page, qid).locator(".lk-mark").all_inner_texts()
    return found


def tally(page: Any, block: int) -> str:
    text: str = page.locator(".lk-self-check").nth(block).locator(".lk-tally p").inner_text()
    return text


def axe_problems(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> str:
    """axe-core findings of these impacts on the page as it is now, one per line."""
    if not AXE.is_file():
        missing(f"{AXE.relative_to(ROOT)} not found (run `npm ci`)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    settle(page)
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in impacts]
    return "\n".join(
        f"{v['impact']}: {v['id']}: {v['help']}\n"
        + "\n".join(f"    at {json.dumps(node['target'])}" for node in v["nodes"][:5])
        for v in serious
    )


def shoot_first_block(page: Any, name: str) -> None:
    """Screenshots of the first self-check block for reviewers, at 1280 and 390 px in both
    schemes: test-artifacts/NAME-WIDTH-SCHEME.png. The page is left as it was found."""
    ARTIFACTS.mkdir(exist_ok=True)
    block = page.locator(".lk-self-check").first
    # The theme's header sticks to the top and would cover part of a tall block.
    unpinned = page.add_style_tag(content=".md-header { position: absolute; }")
    sizes = {}
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for scheme in ("light", "dark"):
            set_scheme(page, scheme)
            target = ARTIFACTS / f"{name}-{width}-{scheme}.png"
            block.screenshot(path=str(target))
            sizes[width, scheme] = target.stat().st_size
    unpinned.evaluate("node => node.remove()")
    page.set_viewport_size({"width": 1280, "height": 900})
    set_scheme(page, "light")
    assert sizes[1280, "light"] != sizes[1280, "dark"], "the dark scheme did not apply"


def set_scheme(page: Any, scheme: str) -> None:
    """Show the open page in a colour scheme with the theme's toggle, as a reader does
    (the theme keeps the reader's choice, so the media query alone changes nothing)."""
    palette = "slate" if scheme == "dark" else "default"
    current = "document.body.getAttribute('data-md-color-scheme')"
    if page.evaluate(current) != palette:
        page.locator(f'label[title="Switch to {scheme} mode"]').click()
        page.wait_for_function(f"{current} === '{palette}'")
    settle(page)


def settle(page: Any) -> None:
    """Wait until no transition runs: the theme fades colours and the header's title in,
    and axe or a screenshot must see the finished page, not a frame of the fade (a header
    caught halfway through failed a contrast check once)."""
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")


def test_every_type_answered_right_then_wrong_shows_feedback_and_score(
    page: Any, fixture_url: str
) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    # Before any answer nothing is revealed: every answer is closed, no verdict shows.
    assert page.locator("details.lk-answer[open]").count() == 0
    assert page.locator(".lk-result").all_inner_texts() == [""] * 7
    shoot_first_block(page, "block-before")
    right = "✓ Correct: 1 of 1 point."
    wrong = "✗ Incorrect: 0 of 1 point."
    half = "◐ Partly correct: 0.5 of 1 point."

    choose(page, "pick-one", [0])
    assert result(page, "pick-one") == right
    assert marks(page, "pick-one") == ["✓ Right: Yes, the flexible one."]
    assert question(page, "pick-one").locator("details.lk-answer").get_attribute("open") == ""
    assert question(page, "pick-one").locator(".lk-explanation").is_visible()
    assert question(page, "pick-one").locator(".lk-section a").is_visible()
    choose(page, "pick-one", [1])
    assert result(page, "pick-one") == wrong
    # The reader has seen the answer (a right answer opens it), so the right option is
    # marked beside the wrong choice.
    assert marks(page, "pick-one") == [
        "✓ Right, not chosen: Yes, the flexible one.",
        "✗ Wrong: No, that is the factory line.",
    ]

    choose(page, "pick-many", [0, 1])
    assert result(page, "pick-many") == right
    assert marks(page, "pick-many") == ["✓ Right: Stacked DRAM.", "✓ Right"] or marks(
        page, "pick-many"
    ) == ["✓ Right", "✓ Right: Stacked DRAM."]
    choose(page, "pick-many", [0])
    assert result(page, "pick-many") == half
    choose(page, "pick-many", [0, 2])
    assert result(page, "pick-many") == wrong
    assert "✗ Wrong: The MXU multiplies." in marks(page, "pick-many")

    choose(page, "true-or-not", [1])
    assert (result(page, "true-or-not"), marks(page, "true-or-not")) == (right, ["✓ Right"])
    choose(page, "true-or-not", [0])
    assert result(page, "true-or-not") == wrong
    assert marks(page, "true-or-not") == ["✓ Right, not chosen", "✗ Wrong"]

    answer_field(page, "how-fast", "3,35 TB/s")
    assert result(page, "how-fast") == right + " Read as 3.35 TB/s."
    answer_field(page, "how-fast", "3.5")
    assert result(page, "how-fast") == wrong
    answer_field(page, "how-fast", "fast")  # refused, as the terminal refuses it
    assert result(page, "how-fast") == (
        "“fast” is not a number. Type digits such as “2.5” or “2,5”, optionally followed by TB/s."
    )

    # Five questions on insight 1: four show, the fifth waits behind a button.
    page.get_by_role("button", name="Next question").click()
    answer_field(page, "name-it", "  Systolic   ARRAY ")
    assert result(page, "name-it") == right
    answer_field(page, "name-it", "tensor core")
    assert result(page, "name-it") == wrong

    arrange(page, [0, 1, 2])
    press_check(page, "in-order")
    assert result(page, "in-order") == right
    arrange(page, [1, 2, 0])
    press_check(page, "in-order")
    assert result(page, "in-order") == half
    arrange(page, [2, 1, 0])
    press_check(page, "in-order")
    assert result(page, "in-order") == wrong

    match(page, [0, 1])
    assert result(page, "pairs") == right
    assert marks(page, "pairs") == ["✓ Right", "✓ Right"]
    match(page, [0, 2])
    assert result(page, "pairs") == half
    assert marks(page, "pairs") == ["✓ Right", "✗ Wrong"]

    assert tally(page, 0) == "Your score: 0 of 5 points (0%), 5 of 5 answered."
    assert tally(page, 1) == "Your score: 0.5 of 2 points (25%), 2 of 2 answered."
    shoot_first_block(page, "block-after")
    for scheme in ("light", "dark"):
        set_scheme(page, scheme)
        problems = axe_problems(page)
        assert not problems, f"axe, answered, {scheme}:\n{problems}"
    hosts = {urlsplit(url).hostname for url in page.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}, page.requests


def test_a_few_questions_at_a_time(page: Any, fixture_url: str) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    first = page.locator(".lk-self-check").first
    assert first.locator(".lk-question:visible").count() == 4
    more = first.get_by_role("button", name="Next question")
    more.click()
    assert first.locator(".lk-question:visible").count() == 5
    assert more.is_hidden()
    assert page.evaluate("document.activeElement.closest('.lk-question').id") == "lk-name-it"


def test_a_score_just_under_the_pass_mark_never_reads_as_the_mark(
    page: Any, fixture_url: str
) -> None:
    """3.48 of 5 is 69.6%: "(70%)" would read as a pass at the bank's 70% pass mark."""
    page.goto(fixture_url + FIXTURE_LESSON)
    block = page.locator(".lk-self-check").first
    assert block.get_attribute("data-pass-mark") == "0.7"
    # Scores as if four questions were already answered (partial credit included); the
    # fifth is answered for real, and the tally adds them up.
    page.evaluate(
        """() => {
        const scores = {"pick-many": 1, "true-or-not": 1, "how-fast": 0.48, "name-it": 0};
        for (const [id, score] of Object.entries(scores)) {
          document.getElementById("lk-" + id).lkScore = {score, correct: score === 1};
        }
      }"""
    )
    choose(page, "pick-one", [0])
    assert tally(page, 0) == "Your score: 3.48 of 5 points (69.6%), 5 of 5 answered."
    page.evaluate('document.getElementById("lk-how-fast").lkScore.score = 0.5')
    choose(page, "pick-one", [0])
    assert tally(page, 0) == "Your score: 3.5 of 5 points (70%), 5 of 5 answered."


def test_progress_is_kept_across_reloads_until_cleared(page: Any, fixture_url: str) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    choose(page, "pick-one", [0])
    answer_field(page, "how-fast", "4")
    page.reload()
    assert result(page, "pick-one") == "✓ Correct: 1 of 1 point."
    assert question(page, "pick-one").locator('input[value="0"]').is_checked()
    assert result(page, "how-fast") == "✗ Incorrect: 0 of 1 point."
    assert question(page, "how-fast").locator("input").input_value() == "4"
    assert tally(page, 0) == "Your score: 1 of 5 points (20%), 2 of 5 answered."
    page.locator(".lk-self-check").first.get_by_role(
        "button", name="Retry the ones I missed"
    ).click()
    assert result(page, "how-fast") == ""
    assert question(page, "how-fast").locator("input").input_value() == ""
    assert page.evaluate("document.activeElement.id") == "lk-how-fast-answer"
    page.reload()
    assert result(page, "pick-one") == "✓ Correct: 1 of 1 point."
    assert result(page, "how-fast") == ""
    page.locator(".lk-self-check").first.get_by_role("button", name="Clear my answers").click()
    page.reload()
    assert result(page, "pick-one") == ""
    assert tally(page, 0) == ""
    assert page.context.cookies() == []


def focus_ring(page: Any) -> str:
    """The focused element's outline: the theme's reset makes it `none` for form controls."""
    style: str = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return s.outlineStyle + ' ' + s.outlineWidth; })()"
    )
    return style


def test_every_type_can_be_answered_with_the_keyboard_alone(page: Any, fixture_url: str) -> None:
    page.goto(fixture_url + FIXTURE_LESSON)
    keys = page.keyboard
    rings = []

    def tab_to_check() -> None:
        keys.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Check"
        rings.append(focus_ring(page))
        keys.press("Enter")

    # Single and true/false: arrow keys move between radio buttons and choose.
    question(page, "pick-one").locator(".lk-options input").first.focus()
    rings.append(focus_ring(page))
    keys.press("Space")
    while not question(page, "pick-one").locator('input[value="0"]').is_checked():
        keys.press("ArrowDown")
    tab_to_check()
    assert result(page, "pick-one") == "✓ Correct: 1 of 1 point."

    boxes = question(page, "pick-many").locator(".lk-options input")
    boxes.first.focus()
    for n in range(boxes.count()):
        if boxes.nth(n).get_attribute("value") in ("0", "1"):
            keys.press("Space")
        keys.press("Tab")
    rings.append(focus_ring(page))
    keys.press("Enter")
    assert result(page, "pick-many") == "✓ Correct: 1 of 1 point."

    question(page, "true-or-not").locator('input[value="1"]').focus()
    keys.press("Space")
    tab_to_check()
    assert result(page, "true-or-not") == "✓ Correct: 1 of 1 point."

    question(page, "how-fast").locator("input").focus()
    keys.type("3.35")
    keys.press("Enter")
    assert result(page, "how-fast") == "✓ Correct: 1 of 1 point."

    # The fifth question waits behind "Next question": Enter on it, then type.
    page.get_by_role("button", name="Next question").focus()
    keys.press("Enter")
    question(page, "name-it").locator("input").focus()
    keys.type("systolic array")
    tab_to_check()
    assert result(page, "name-it") == "✓ Correct: 1 of 1 point."

    # Order: Enter on an item's move-up button moves it, and focus stays with the item.
    for place, item in enumerate([0, 1, 2]):
        up = question(page, "in-order").locator(f'li[data-item="{item}"] .lk-up')
        if shown_order(page).index(item) > place:
            up.focus()
            rings.append(focus_ring(page))
            while shown_order(page).index(item) > place:
                keys.press("Enter")
    assert shown_order(page) == [0, 1, 2]
    question(page, "in-order").get_by_role("button", name="Check").focus()
    keys.press("Enter")
    assert result(page, "in-order") == "✓ Correct: 1 of 1 point."

    # Match: arrow keys change a closed select.
    for n in range(2):
        select = question(page, "pairs").locator(f'select[data-pair="{n}"]')
        select.focus()
        rings.append(focus_ring(page))
        while select.input_value() != str(n):
            keys.press("ArrowDown")
    tab_to_check()
    assert result(page, "pairs") == "✓ Correct: 1 of 1 point."

    question(page, "pairs").locator("summary").focus()
    rings.append(focus_ring(page))
    assert all(not ring.startswith("none") and ring != "solid 0px" for ring in rings), rings


def test_the_grading_table_gives_the_same_scores_in_the_browser(page: Any) -> None:
    from test_grading_parity import key

    page.goto("about:blank")
    assets = ROOT / "site_overrides/assets/lessonkit"
    # The page with every type: its script, then each type's widget script.
    for script in [assets / "self-check.js", *sorted((assets / "types").glob("*.js"))]:
        page.add_script_tag(path=str(script))
    cases = [[key(name), response] for name, response, *_ in CASES["cases"]]
    got = page.evaluate(
        "cases => cases.map(([key, response]) => lessonkit.grade(key, response))", cases
    )
    wrong = []
    for (name, response, score, *said), found in zip(CASES["cases"], got, strict=True):
        graded = None if "error" in found else found["score"]
        if (graded is None) != (score is None) or (
            graded is not None and abs(graded - score) > 1e-12
        ):
            wrong.append(f"{name} {response!r}: page {graded}, table {score}")
        # What the page says besides the score: how a number was read, a hint, a refusal.
        page_said = [found["error"]] if "error" in found else found["said"]
        if said and page_said != [re.sub(r"`([^`]*)`", "“\\1”", line) for line in said[0]]:
            wrong.append(f"{name} {response!r}: page says {page_said}, table {said[0]}")
    assert wrong == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_no_accessibility_violations_of_any_impact_on_any_page(
    browser: Any, base_url: str, real_site: Path, width: int, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    urls = sorted(
        "/" + path.parent.relative_to(real_site).as_posix().replace(".", "", 1).lstrip("/")
        for path in real_site.rglob("index.html")
    )
    assert LESSON_URL.rstrip("/") in [u.rstrip("/") for u in urls]
    found = []
    for url in urls:
        page.goto(base_url + url)
        page.wait_for_timeout(100)  # the script names each wide table once it is laid out
        problems = axe_problems(page, ("minor", "moderate", "serious", "critical"))
        if problems:
            found.append(f"{url}:\n{problems}")
    context.close()
    assert not found, "\n".join(found)


def test_lesson_images_open_full_size_and_wide_tables_scroll_with_a_cue(
    browser: Any, fixture_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(fixture_url + FIXTURE_LESSON)
    links = page.locator("article img").evaluate_all(
        "els => els.map(e => e.closest('a.lk-zoom') && e.closest('a.lk-zoom').href)"
    )
    assert links and all(links), links
    for href in set(links):
        assert page.request.get(href).status == 200
    wide = page.locator(".md-typeset__scrollwrap.lk-scrolls")
    wide.first.wait_for()
    assert wide.first.get_attribute("tabindex") == "0"
    assert page.locator(".lk-scroll-hint:visible").count() == wide.count()
    # Wide enough for the table, the cue goes and the table is no longer a tab stop.
    page.set_viewport_size({"width": 1800, "height": 900})
    page.wait_for_function("!document.querySelector('.lk-scrolls')")
    assert page.locator(".lk-scroll-hint:visible").count() == 0
    assert page.locator(".md-typeset__scrollwrap[tabindex]").count() == 0
    context.close()


def test_each_type_script_loads_only_on_pages_that_ask_for_it(
    page: Any, fixture_url: str, tmp_path: Path
) -> None:
    """A page of choices is lighter without the scripts of typed answers; a page with a
    number question fetches types/numeric.js before mounting its blocks, so a kept typed
    answer is graded at once."""
    project = tmp_path / "project"
    make_stand_in(project)  # a single-choice and a true/false question, nothing typed
    assert build(project, tmp_path / "site").returncode == 0
    with serve(tmp_path / "site") as url:
        page.goto(url + FIXTURE_LESSON)
        page.locator(".lk-self-check .lk-tally").first.wait_for(state="attached")
        choose(page, "why-gpus", [0])
        assert result(page, "why-gpus") == "✓ Correct: 1 of 1 point."
        fetched = {u.rsplit("/", 1)[1] for u in page.requests if "/types/" in u}
        assert fetched == {"single.js", "true_false.js"}
    page.goto(fixture_url + FIXTURE_LESSON)
    answer_field(page, "how-fast", "3,35 TB/s")
    assert result(page, "how-fast").startswith("✓ Correct")
    assert [u for u in page.requests if u.endswith("/types/numeric.js")]
    page.reload()  # the kept answer, graded again before the reader does anything
    page.locator("#lk-how-fast .lk-result").filter(has_text="Correct").wait_for()
