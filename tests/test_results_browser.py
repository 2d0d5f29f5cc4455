"""The results page in a real headless Chromium: offline, accessible, phone and dark scheme.

A synthetic class of 200 on the real gpu-vs-tpu bank, with the demo's planted faults and
one hostile wrong answer (markup typed as a text answer), is read by `lessonkit results`
and its page served from 127.0.0.1. Screenshots go to test-artifacts/results-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from classroom import DEMO_FAULTS, Behaviour, question_lines, simulate, write_class
from lessonkit.bank.loader import load_bank
from lessonkit.results.charts import Point, scatter
from lessonkit.results.collection import collect
from lessonkit.results.page import STYLE, render_page
from sitebuilds import serve
from test_browser import ARTIFACTS, ROOT, axe_problems

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:
    """The lesson site's headless Debian Chromium (conftest's `browser`), under a name of its
    own here."""
    return browser


HOSTILE = '<script>window.hacked = 1</script><img src="https://tracker.invalid/x.png">'


@pytest.fixture(scope="module")
def results_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("results")
    bank = ROOT / "quizzes" / "gpu-vs-tpu.yml"
    faults = {**DEMO_FAULTS, "gvt-xla-name": Behaviour(missing=HOSTILE, missing_share=0.3)}
    learners = simulate(load_bank(bank), 200, seed=26, behaviours=faults, slug="gpu-vs-tpu",
                        varied=True)  # fmt: skip
    write_class(folder / "class", learners)
    found = collect([folder / "class"], bank=str(bank))
    (folder / "site").mkdir()
    (folder / "site" / "index.html").write_text(render_page(found), encoding="utf-8")
    with serve(folder / "site") as url:
        yield url + "/index.html"


def opened(chromium: Any, url: str, width: int, scheme: str) -> Any:
    context = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.goto(url)
    return page


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_results_page_is_offline_accessible_and_fits(
    chromium: Any, results_url: str, width: int, scheme: str
) -> None:
    page = opened(chromium, results_url, width, scheme)
    try:
        assert page.locator("h1").inner_text() == "Class results"
        assert page.locator("svg.lk-chart").count() == 2  # the histogram and the scatter
        assert page.locator(".lk-question .lk-bars").count() > 50  # option bars
        labels = page.locator("svg.lk-chart text.lk-label").all_text_contents()
        assert {"gvt-tpu-best-fit", "gvt-xla-name", "gvt-nvlink-domain-fit"} <= set(labels)
        # The hostile answer is text on the page, never markup: no script, no image fetched.
        assert page.locator("script").count() == 0 and page.locator("img").count() == 0
        assert page.evaluate("window.hacked") is None
        assert HOSTILE.casefold() in page.locator("body").inner_text().casefold()
        hosts = {urlsplit(url).hostname for url in page.requests}
        assert page.requests and hosts == {"127.0.0.1"}, page.requests
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, f"the page is {overflow} px wide in a {width} px window"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(13, 17, 23)" if scheme == "dark" else "rgb(255, 255, 255)")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"results-{width}-{scheme}.png"))
        assert axe_problems(page) == ""
    finally:
        page.context.close()


def test_the_page_names_flags_at_their_lines(chromium: Any, results_url: str) -> None:
    page = opened(chromium, results_url, 1280, "light")
    try:
        flags = page.locator(".lk-flags li").all_inner_texts()
        line = question_lines(ROOT / "quizzes" / "gpu-vs-tpu.yml")
        where = "quizzes/gpu-vs-tpu.yml:{} {}".format
        best_fit = where(line["gvt-tpu-best-fit"], "gvt-tpu-best-fit: the top group")
        assert any(f.startswith(best_fit) for f in flags), flags
        nvlink = where(line["gvt-nvlink-domain-fit"], "gvt-nvlink-domain-fit: option 2")
        assert any(f.startswith(nvlink) for f in flags), flags
    finally:
        page.context.close()


# Ids as long as this course's, crowded where a class's flags crowd: too hard and too
# easy questions, and several questions with the same difficulty and discrimination.
CROWD = [
    Point(x, y, f"{name}-{n}", True)
    for n, (x, y, name) in enumerate(
        [(0.05 + 0.01 * (k % 4), 0.1 + 0.02 * (k // 4), "gvt-node-vs-chip-price") for k in range(8)]
        + [(0.97, -0.2 + 0.05 * k, "rs-intensity-fp32-multiply") for k in range(8)]
        + [(0.5, 0.05, "gvt-nvlink-domain-fit")] * 6
        + [(0.02, 0.98, "gvt-tpu-best-fit"), (0.99, 0.99, "gvt-xla-name")]
    )
] + [Point(0.3 + 0.01 * k, 0.4, f"plain-{k}", False) for k in range(20)]

# Every text box of every chart, in the page's pixels, with the chart it is in.
BOXES = """() => [...document.querySelectorAll('svg.lk-chart')].flatMap((svg, chart) =>
  [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {chart, text: t.textContent, left: r.left, right: r.right, top: r.top,
            bottom: r.bottom};
  }))"""


def overlaps(boxes: list[dict[str, Any]]) -> list[str]:
    """Each pair of texts in one chart whose boxes cross by more than half a pixel."""
    found = []
    for n, a in enumerate(boxes):
        for b in boxes[:n]:
            if a["chart"] != b["chart"]:
                continue
            across = min(a["right"], b["right"]) - max(a["left"], b["left"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if across > 0.5 and down > 0.5:
                found.append(f"{b['text']!r} and {a['text']!r} in chart {a['chart']}")
    return found


@pytest.mark.parametrize("width", [1280, 390])
def test_chart_labels_never_overlap(
    chromium: Any, results_url: str, tmp_path: Path, width: int
) -> None:
    crowded = scatter(CROWD, "crowd", easy=0.9, hard=0.3, low=0.2)
    html = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            'content="width=device-width, initial-scale=1"><title>Crowded</title>'
            f"<style>{STYLE}</style></head><body><main>{crowded}</main></body></html>")  # fmt: skip
    (tmp_path / "index.html").write_text(html, encoding="utf-8")
    with serve(tmp_path) as url:
        for name, address in (("class", results_url), ("crowded", url + "/index.html")):
            page = opened(chromium, address, width, "light")
            try:
                boxes = page.evaluate(BOXES)
                labels = [b["text"] for b in boxes if "-" in b["text"]]
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"results-labels-{name}-{width}.png"))
                assert overlaps(boxes) == [], (name, overlaps(boxes))
                if name == "crowded":  # every flagged id is on the chart, or in its words
                    desc = page.locator("svg desc").text_content() or ""
                    shown = set(labels) | set(desc.split("flagged: ", 1)[1].split(", "))
                    assert {p.label for p in CROWD if p.flagged} <= {s.strip(".") for s in shown}
            finally:
                page.context.close()
