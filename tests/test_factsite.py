"""Facts on the built site: both engines render references and tables alike, and in a browser
each value shown leads to its source."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FACTS
from sitebuilds import (
    STAND_IN_LESSON,
    build,
    build_zensical,
    make_stand_in,
    serve,
)

# Both engines build a site here: the `build` tier, not `make check`'s.
pytestmark = pytest.mark.build

PAGE = "ai-hardware-fundamentals/gpu-vs-tpu/index.html"
FACT_LESSON = STAND_IN_LESSON.replace(
    "Systolic arrays.\n",
    "Systolic arrays. A TPU v6e costs ((fact tpu-v6e.price)) on demand; an H100 holds "
    "((fact h100-sxm.hbm unit=GiB decimals=1)).\n\n"
    "<!-- lessonkit:facts h100-sxm.hbm h200.hbm tpu-v6e.price -->\n",
).replace(
    "[^cuda]: NVIDIA, CUDA guide.",
    # A reference in the author's own footnote: its value, with no mark of its own.
    "[^cuda]: NVIDIA, CUDA guide; an H200 holds ((fact h200.hbm unit=GiB)).",
)
SOURCES = {
    "h100-sxm.hbm": "https://www.nvidia.com/en-us/data-center/h100/",
    "h200.hbm": "https://www.nvidia.com/en-us/data-center/h200/",
    "tpu-v6e.price": "https://cloud.google.com/tpu/pricing",
}


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The stand-in course with facts, built by mkdocs-material and by Zensical."""
    built = {}
    for engine in ("mkdocs", "zensical"):
        project = tmp_path_factory.mktemp(f"facts-{engine}") / "project"
        make_stand_in(project, lesson=FACT_LESSON, extra={"facts/chips.yml": FACTS})
        if engine == "zensical":
            result, out = build_zensical(project), project / "site"
        else:
            out = project.parent / "site"
            result = build(project, out)
        assert result.returncode == 0, result.stdout + result.stderr
        built[engine] = out
    return built


def facts_shown(html: str) -> dict[str, Any]:
    """What a reader gets of the facts: each value with its footnote mark, the table, and
    the facts' footnotes."""
    values = re.findall(r'([\w.,/ -]+)<sup id="fnref\d?:fact-([\w.-]+)">', html)
    table = re.search(r"<table>\s*<thead>\s*<tr>\s*<th>Figure</th>.*?</table>", html, re.S)
    notes = re.findall(r'<li id="fn:fact-([\w.-]+)">\s*<p>(.*?)&#160;', html, re.S)
    own = re.search(r'<li id="fn:cuda">\s*<p>(.*?)&#160;', html, re.S)
    return {
        "values": [(text.strip(), fact) for text, fact in values],
        "table": re.sub(r"\s+", " ", table.group(0)) if table else None,
        "notes": notes,
        "own note": own.group(1) if own else None,
    }


def test_both_engines_render_references_and_tables_alike(sites: dict[str, Path]) -> None:
    ours = {e: facts_shown((site / PAGE).read_text(encoding="utf-8")) for e, site in sites.items()}
    assert ours["mkdocs"] == ours["zensical"]
    shown = ours["mkdocs"]
    assert shown["values"] == [
        ("Systolic arrays. A TPU v6e costs 2.7 USD/chip-hour", "tpu-v6e.price"),
        ("an H100 holds 74.5 GiB", "h100-sxm.hbm"),
        ("80 GB", "h100-sxm.hbm"),
        ("141 GB", "h200.hbm"),
        ("2.7 USD/chip-hour", "tpu-v6e.price"),
    ]
    for cell in ("H100 SXM memory", "H200 memory", "TPU v6e, on demand", "18 November 2024"):
        assert f"<td>{cell}</td>" in shown["table"]
    assert [fact for fact, _ in shown["notes"]] == ["tpu-v6e.price", "h100-sxm.hbm", "h200.hbm"]
    assert shown["own note"] == (
        'NVIDIA, CUDA guide; an H200 holds 131 GiB. <a href="https://docs.nvidia.com/cuda/">'
        "https://docs.nvidia.com/cuda/</a>"
    )
    assert shown["notes"][0][1] == (
        'Google Cloud, <a href="https://cloud.google.com/tpu/pricing">TPU pricing</a>; the '
        "figure as of 1 October 2026, checked 20 November 2026."
    )


@pytest.fixture(scope="module")
def fact_url(sites: dict[str, Path]) -> Iterator[str]:
    with serve(sites["mkdocs"]) as url:
        yield url


def test_each_value_shown_leads_to_its_source(page: Any, fact_url: str) -> None:
    page.goto(f"{fact_url}/ai-hardware-fundamentals/gpu-vs-tpu/")
    marks = page.locator("article a.footnote-ref")
    # The theme's instant navigation makes each address absolute: compare the fragments.
    targets = list(marks.evaluate_all("els => els.map(e => e.hash)"))
    facts = [t for t in targets if t.startswith("#fn:fact-")]
    assert len(facts) == 5  # two in the text, three in the table
    for number, target in enumerate(targets):
        if not target.startswith("#fn:fact-"):
            continue
        marks.nth(number).click()
        fact = target.removeprefix("#fn:fact-")
        # The theme moves to the footnote in a script of its own: wait for it to get there.
        page.wait_for_function("target => location.hash === target", arg=target, timeout=5000)
        note = page.locator(f'[id="fn:fact-{fact}"]')
        assert note.is_visible()
        assert note.locator("a").first.get_attribute("href") == SOURCES[fact]
    # Nothing was fetched from another host: a source is a link, never a request.
    assert all(url.startswith(fact_url) for url in page.requests)
