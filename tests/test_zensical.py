"""The site built by Zensical, mkdocs-material's successor, beside the mkdocs-material build.

Both builds come from conftest.py (once per session). The browser suite and the grading
table run against the mkdocs-material build; here the Zensical build must carry every
block the other has, keep answers out of its search index, publish none of our sources,
and work in a real browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from sitebuilds import ROOT
from test_browser import (
    FIXTURE_LESSON,
    answer_field,
    arrange,
    axe_problems,
    choose,
    match,
    press_check,
    result,
)

LESSONS = sorted((ROOT / "content").glob("*/*.md"))
RIGHT = "✓ Correct: 1 of 1 point."


def lesson_pages(site: Path) -> dict[str, str]:
    """Each real lesson's built page, by slug."""
    pages = {}
    for source in LESSONS:
        if source.name != "index.md":
            built = site / source.parent.name / source.stem / "index.html"
            pages[source.stem] = built.read_text(encoding="utf-8")
    return pages


def shown(page: str) -> dict[str, Any]:
    """What a reader gets from the lessonkit parts of a page."""
    return {
        "blocks": page.count('<section class="lk-self-check"'),
        "questions": re.findall(r'<li class="lk-question" id="([^"]+)"', page),
        "checks": re.findall(r'<h[23] id="(check-yourself-[\w-]+)"', page),
        "call": page.count('<div class="lk-quiz-call">'),
        "sources": page.count('<h2 id="sources">'),
        "markers left": page.count("<!-- lessonkit:") + page.count("<!--lk-block:"),
    }


def expected(slug: str) -> dict[str, Any]:
    bank = yaml.safe_load((ROOT / "quizzes" / f"{slug}.yml").read_text(encoding="utf-8"))
    insights = sorted({q["insight"] for q in bank["questions"]})
    return {"blocks": len(insights), "questions": len(bank["questions"])}


def test_zensical_builds_every_block_the_mkdocs_build_has(
    real_site: Path, zensical_site: Path
) -> None:
    ours, theirs = lesson_pages(zensical_site), lesson_pages(real_site)
    assert sorted(ours) == sorted(theirs) and ours
    for slug, page in ours.items():
        found = shown(page)
        want = expected(slug)
        assert (found["blocks"], len(found["questions"])) == (want["blocks"], want["questions"])
        assert found == shown(theirs[slug]), slug
        assert (found["call"], found["sources"], found["markers left"]) == (1, 1, 0)
    plan = (zensical_site / "ai-hardware-fundamentals/index.html").read_text(encoding="utf-8")
    assert plan.count('<span class="lk-meta">') == len(ours)


def test_zensical_keeps_the_lesson_header_and_its_plan_link(zensical_site: Path) -> None:
    page = (zensical_site / "ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    header = page[page.index('<div class="lk-lesson-header">') :]
    assert re.search(r'<a href="\.\./">AI hardware fundamentals</a> ·', header)
    assert "min read</span>" in header and "After this lesson you can" in header


def test_no_source_file_of_ours_is_published_by_either_engine(
    real_site: Path, zensical_site: Path
) -> None:
    for site in (real_site, zensical_site):
        sources = [
            path.relative_to(site).as_posix()
            for path in site.rglob("*")
            if path.suffix in (".py", ".pyc", ".yml", ".yaml", ".md") or path.name == "README"
        ]
        assert sources == [], site


def words(text: str) -> str:
    """Text as plain words: no markup, no punctuation, one space between."""
    return " ".join(re.findall(r"[A-Za-z0-9][\w'-]*", re.sub(r"<[^>]+>", " ", text)))


def answer_phrases() -> list[str]:
    """Six-word runs from every explanation and option feedback that the lessons' own text
    does not contain: found in a search index, they can only have come from an answer."""
    prose = " ".join(
        words(path.read_text(encoding="utf-8")) for path in ROOT.glob("content/**/*.md")
    )
    phrases = []
    for bank in sorted((ROOT / "quizzes").glob("*.yml")):
        for question in yaml.safe_load(bank.read_text(encoding="utf-8"))["questions"]:
            texts = [question["explanation"]]
            texts += [o.get("feedback") or "" for o in question.get("options", [])]
            # A text with `{name}` placeholders is shown with drawn numbers, so its words
            # never appear verbatim anywhere: it would prove nothing either way.
            for text in (t for t in texts if "{" not in t):
                found = words(text).split()
                for start in range(0, max(len(found) - 5, 0), 6):
                    phrase = " ".join(found[start : start + 6])
                    if phrase not in prose:
                        phrases.append(phrase)
                        break
    return phrases


def index_text(site: Path) -> str:
    """Everything a search index holds, as one string of words."""
    mkdocs = site / "search/search_index.json"
    if mkdocs.is_file():
        entries = json.loads(mkdocs.read_text(encoding="utf-8"))["docs"]
    else:
        entries = json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]
    return words(" ".join(f"{e['title']} {e['text']}" for e in entries))


def test_answers_stay_out_of_both_engines_search_indexes(
    real_site: Path, zensical_site: Path
) -> None:
    phrases = answer_phrases()
    assert len(phrases) > 50, "too few answer phrases to prove anything"
    for site in (real_site, zensical_site):
        text = index_text(site)
        assert "Check yourself" in text and "systolic" in text  # the lessons are indexed
        assert [p for p in phrases if p in text] == [], site
    # The check can fail: the same phrases are in the built pages themselves.
    pages = words(" ".join(lesson_pages(zensical_site).values()))
    assert sum(p in pages for p in phrases) > 0.9 * len(phrases)


# --- in a real browser --------------------------------------------------------------------

browser_test = pytest.mark.browser


@browser_test
def test_zensical_lessons_mount_every_block(page: Any, zensical_site: Path) -> None:
    from sitebuilds import serve

    with serve(zensical_site) as url:
        for slug, built in lesson_pages(zensical_site).items():
            page.goto(f"{url}/ai-hardware-fundamentals/{slug}/")
            blocks = page.locator(".lk-self-check")
            assert blocks.count() == expected(slug)["blocks"]
            # The script found and mounted each one: a tally and a Check per question.
            assert page.locator(".lk-self-check .lk-tally").count() == blocks.count()
            checks = page.locator(".lk-question .lk-check > button:first-child").count()
            assert checks == expected(slug)["questions"], slug
            assert built.count('class="lk-question"') == checks
            problems = axe_problems(page)
            assert not problems, f"{slug}:\n{problems}"
        hosts = {re.sub(r":\d+$", "", u.split("/")[2]) for u in page.requests if "://" in u}
        assert hosts == {"127.0.0.1"}


@browser_test
def test_zensical_grades_one_question_of_each_type(page: Any, zensical_fixture_url: str) -> None:
    page.goto(zensical_fixture_url + FIXTURE_LESSON)
    choose(page, "pick-one", [0])
    choose(page, "pick-many", [0, 1])
    choose(page, "true-or-not", [1])
    answer_field(page, "how-fast", "3.35")
    page.get_by_role("button", name="Next question").click()
    answer_field(page, "name-it", "systolic array")
    arrange(page, [0, 1, 2])
    press_check(page, "in-order")
    match(page, [0, 1])
    graded = {
        qid: result(page, qid)
        for qid in ("pick-one", "pick-many", "true-or-not", "how-fast", "name-it", "in-order")
    }
    graded["pairs"] = result(page, "pairs")
    assert graded == dict.fromkeys(graded, RIGHT)
    for scheme in ("light", "dark"):
        from test_browser import set_scheme

        set_scheme(page, scheme)
        problems = axe_problems(page)
        assert not problems, f"axe, answered, {scheme}:\n{problems}"
