"""The built lesson site in a real headless Chromium: reading, self-check, search, offline, a11y."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from lessonkit.lessons import read_lesson

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LESSON = ROOT / "content" / "ai-hardware-fundamentals" / "gpu-vs-tpu.md"
LESSON_URL = "/ai-hardware-fundamentals/gpu-vs-tpu/"
# The plan's second lesson, with a figure in light and dark variants.
SECOND_LESSON_URL = "/ai-hardware-fundamentals/rooflines-and-serving/"
PLAN_URL = "/ai-hardware-fundamentals/"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def missing(what: str) -> None:
    """Skip locally, but fail in CI, where a missing tool means a broken setup."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: the browser tests must run)")
    pytest.skip(f"{what}; install it to run the browser tests")


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        missing("no chromium on PATH (Debian: apt-get install chromium)")
    assert found is not None
    return found


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves the built site without logging every request to stderr."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real site built once, served on 127.0.0.1 on a free port."""
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    handler = functools.partial(QuietHandler, directory=str(out))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that records every request it makes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.requests = []
    opened.on("request", lambda request: opened.requests.append(request.url))
    yield opened
    context.close()


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


def test_checking_a_choice_in_place_says_right_or_not(page: Any, base_url: str) -> None:
    page.goto(base_url + LESSON_URL)
    question = page.locator('.lk-question[data-type="single"]').first
    question.locator('input[data-correct="true"]').check()
    question.get_by_role("button", name="Check").click()
    assert question.locator(".lk-check output").inner_text() == "Right."
    question.locator('input[data-correct="false"]').first.check()
    question.get_by_role("button", name="Check").click()
    assert question.locator(".lk-check output").inner_text() == "Not quite: open the answer below."


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
    "url", [LESSON_URL, SECOND_LESSON_URL, PLAN_URL], ids=["lesson", "second-lesson", "plan"]
)
def test_no_serious_accessibility_violations(page: Any, base_url: str, url: str) -> None:
    if not AXE.is_file():
        missing(f"{AXE.relative_to(ROOT)} not found (run `npm ci`)")
    page.goto(base_url + url)
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    report = "\n".join(
        f"{v['impact']}: {v['id']}: {v['help']}\n"
        + "\n".join(f"    at {json.dumps(node['target'])}" for node in v["nodes"][:5])
        for v in serious
    )
    assert not serious, f"axe found problems on {url}:\n{report}"


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
