"""Tests for the site: rendering banks as HTML, and real `mkdocs build --strict` runs."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import nh3
import pytest
import yaml

from lessonkit.bank import richtext
from lessonkit.bank.models import Bank
from lessonkit.bank.richtext import safe_html
from lessonkit.site import selfcheck
from sitebuilds import build, make_stand_in

ROOT = Path(__file__).resolve().parents[1]


def make_bank(*questions: dict[str, Any], title: str = "GPU vs TPU") -> Bank:
    return Bank.model_validate(
        {"lesson": "gpu-vs-tpu", "title": title, "pass_mark": 0.7, "questions": list(questions)}
    )


def question(qid: str, qtype: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": qid,
        "type": qtype,
        "prompt": f"Prompt of {qid}",
        "insight": 1,
        "section": "1-why-gpus",
        "explanation": f"Explanation of {qid}.",
    }
    return base | fields


SINGLE = question(
    "pick-one",
    "single",
    options=[
        {"text": "GPU", "correct": True, "feedback": "Yes: *many* cores."},
        {"text": "TPU"},
    ],
)
MULTIPLE = question(
    "pick-many",
    "multiple",
    options=[{"text": "HBM", "correct": True}, {"text": "SRAM", "correct": True}, {"text": "Tape"}],
)
TRUE_FALSE = question("is-it", "true_false", answer=False)
NUMERIC = question("how-much", "numeric", answer=2.5, tolerance=0.1, unit="TB/s")
TEXT = question("name-it", "text", accept=["systolic array", "systolic"])
ORDER = question("in-order", "order", items=["Alpha", "Beta", "Gamma"])
MATCH = question(
    "pairs",
    "match",
    pairs=[{"left": "GPU", "right": "Apple"}, {"left": "TPU", "right": "Banana"}],
    distractors=["Cherry"],
)
SECTIONS = {"1-why-gpus": "1. Why GPUs"}
CALL_TO_ACTION = "<code>pip install .\nlessonkit quiz gpu-vs-tpu</code>"


def render(bank: Bank) -> str:
    return selfcheck.block(bank, bank.questions, SECTIONS)


class Tags(HTMLParser):
    """Every start tag in a document, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


# --- safe_html -------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Which *chip*?", "<p>Which <em>chip</em>?</p>"),
        ("Use `a < b`", "<p>Use <code>a &lt; b</code></p>"),
        ("Hi <script>alert(1)</script>there", "<p>Hi there</p>"),
        ('<img src="x" onerror="alert(1)">', ""),
        ('<a href="javascript:alert(1)">go</a>', '<p><a rel="noopener noreferrer">go</a></p>'),
        ('<b onclick="steal()">bold</b>', "<p><b>bold</b></p>"),
        ("<style>body{display:none}</style>", ""),
        ("<iframe src='https://evil.example'></iframe>x", "<p>x</p>"),
        (
            "[docs](https://example.org)",
            '<p><a href="https://example.org" rel="noopener noreferrer">docs</a></p>',
        ),
    ],
)
def test_safe_html_keeps_formatting_and_drops_anything_active(source: str, expected: str) -> None:
    assert safe_html(source) == expected


def test_safe_html_inline_drops_a_lone_paragraph_only() -> None:
    assert safe_html("**GPU**", inline=True) == "<strong>GPU</strong>"
    assert safe_html("one\n\ntwo", inline=True) == "<p>one</p>\n<p>two</p>"


def test_hostile_bank_text_cannot_reach_the_page() -> None:
    hostile = (
        '<script>alert("x")</script><img src=x onerror=alert(1)> <b onmouseover=alert(1)>b</b>'
    )
    bank = make_bank(
        question(
            "evil",
            "single",
            prompt=hostile,
            explanation=hostile,
            hint=hostile,
            options=[
                {"text": hostile, "correct": True, "feedback": hostile},
                {"text": "plain"},
            ],
        ),
        question("evil-order", "order", prompt=hostile, items=[hostile, "b"]),
        question(
            "evil-match",
            "match",
            pairs=[{"left": hostile, "right": "r"}, {"left": "l", "right": hostile}],
        ),
        title=hostile,
    )
    html = render(bank)
    tags = Tags()
    tags.feed(html)
    assert not {"script", "img", "iframe", "style"} & {tag for tag, _ in tags.found}
    assert [name for _, attrs in tags.found for name, _ in attrs if name.startswith("on")] == []
    # Plain-text fields are escaped rather than stripped, so the reader sees what was typed.
    assert "<li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


# --- self_check -------------------------------------------------------------


def test_block_opens_with_its_count_and_stays_out_of_search() -> None:
    html = render(make_bank(SINGLE, TRUE_FALSE))
    # Without the page's script there is no Check button: the intro does not mention one.
    assert html.startswith(
        '<section class="lk-self-check" data-search-exclude data-pass-mark="0.7">\n'
        '<p class="lk-intro">2 questions. Answer each, then open its answer to compare.</p>\n'
    )
    assert html.endswith("</ol>\n</section>\n")
    # No <section> inside: mkdocs-material's indexer ends the exclusion at the first one.
    assert html.count("<section") == 1
    assert html.count('<details class="lk-answer info" data-search-exclude>') == 2
    assert "<details" not in html.replace('<details class="lk-answer info"', "")


def test_block_numbers_its_questions_from_first() -> None:
    bank = make_bank(SINGLE, TRUE_FALSE)
    html = selfcheck.block(bank, bank.questions, SECTIONS, first=4)
    assert re.findall(r'<p class="lk-number">(.*?)</p>', html) == ["Question 4", "Question 5"]


def test_single_question_renders_exactly() -> None:
    html = render(make_bank(SINGLE))
    start = html.index('<li class="lk-question"')
    end = html.index("</ol>\n</section>")
    # Shuffled by the question's id, the same on every build; never the written order.
    assert html[start:end] == (
        '<li class="lk-question" id="lk-pick-one"'
        """ data-key='{"type":"single","points":1,"correct":[0]}'>\n"""
        '<p class="lk-number">Question 1</p>\n'
        '<div class="lk-prompt" id="lk-pick-one-prompt"><p>Prompt of pick-one</p></div>\n'
        '<p class="lk-instruction">Choose one option.</p>\n'
        '<fieldset class="lk-options" aria-labelledby="lk-pick-one-prompt">\n'
        '<label class="lk-option"><input type="radio" name="lk-pick-one" value="1">'
        " <span>a) TPU</span></label>\n"
        '<label class="lk-option"><input type="radio" name="lk-pick-one" value="0">'
        " <span>b) GPU</span></label>\n"
        "</fieldset>\n"
        '<details class="lk-answer info" data-search-exclude>\n'
        "<summary>Show the answer to question 1</summary>\n"
        "<p><strong>Answer:</strong> b) GPU</p>\n"
        '<p>About the options:</p><ul class="lk-about">'
        '<li data-option="0">b) Yes: <em>many</em> cores.</li></ul>\n'
        '<div class="lk-explanation"><p>Explanation of pick-one.</p></div>\n'
        '<p class="lk-section">Re-read: <a href="#1-why-gpus">1. Why GPUs</a></p>\n'
        "</details>\n"
        "</li>\n"
    )


def test_shuffle_false_keeps_the_written_order() -> None:
    bank = Bank.model_validate(
        {"lesson": "gpu-vs-tpu", "title": "t", "pass_mark": 0.7,
         "shuffle": {"options": False}, "questions": [SINGLE, MATCH]}
    )  # fmt: skip
    html = render(bank)
    assert "<span>a) GPU</span>" in html and "<span>b) TPU</span>" in html
    assert '<option value="0">a) Apple</option><option value="1">b) Banana</option>' in html


@pytest.mark.parametrize(
    ("spec", "shown", "answer"),
    [
        (
            MULTIPLE,
            ['type="checkbox"', "Choose every correct option.", "b) Tape"],
            "<ul><li>a) HBM</li><li>c) SRAM</li></ul>",
        ),
        (
            TRUE_FALSE,
            ["True or false?", '<input type="radio" name="lk-is-it" value="0"> <span>False'],
            "<p><strong>Answer:</strong> False</p>",
        ),
        (
            NUMERIC,
            [
                "Answer with a number in TB/s; a decimal point or comma.",
                '<label for="lk-how-much-answer">Your answer</label> <span class="lk-entry">'
                '<input type="text" id="lk-how-much-answer" inputmode="decimal"'
                ' autocomplete="off" size="10"> <span class="lk-unit">TB/s</span></span>',
            ],
            "<p><strong>Answer:</strong> 2.5 TB/s (± 0.1 TB/s)</p>",
        ),
        (
            TEXT,
            ["Answer in a word or a short phrase.", '<input type="text" id="lk-name-it-answer"'],
            "<p><strong>Accepted answers:</strong> <q>systolic array</q>, <q>systolic</q></p>",
        ),
        (
            ORDER,
            [
                '<ol class="lk-order" aria-labelledby="lk-in-order-prompt"><li data-item="0">'
                '<span>Alpha</span></li><li data-item="2"><span>Gamma</span></li>'
                '<li data-item="1"><span>Beta</span></li></ol>'
            ],
            "<ol><li>Alpha</li><li>Beta</li><li>Gamma</li></ol>",
        ),
        (
            MATCH,
            [
                '<label for="lk-pairs-0">GPU</label> <select id="lk-pairs-0" data-pair="0">'
                '<option value="">Choose…</option><option value="2">a) Cherry</option>'
                '<option value="0">b) Apple</option><option value="1">c) Banana</option>'
                "</select>"
            ],
            "<ol><li>GPU → b) Apple</li><li>TPU → c) Banana</li></ol>",
        ),
    ],
    ids=lambda value: value["type"] if isinstance(value, dict) else "",
)
def test_every_question_type_renders_its_parts_and_answer(
    spec: dict[str, Any], shown: list[str], answer: str
) -> None:
    html = render(make_bank(spec))
    before, after = html.split("<details", 1)
    for fragment in shown:
        assert fragment in before
    assert answer in after
    assert answer not in before
    assert f"<p>Explanation of {spec['id']}.</p>" in after
    assert '<a href="#1-why-gpus">1. Why GPUs</a>' in after


def test_text_question_with_only_patterns_shows_no_regular_expression() -> None:
    spec = question("pattern-only", "text", patterns=[r"systolic( array)?"])
    html = render(make_bank(spec))
    # The page's script needs the pattern to grade; the reader never sees it.
    shown = re.sub(r" data-key='[^']*'", "", html)
    assert "systolic( array)?" not in shown
    assert "Accepted answers" not in shown


def test_answers_link_to_their_own_sections() -> None:
    specs = [
        SINGLE | {"id": "one", "section": "1-why-gpus"},
        TRUE_FALSE | {"id": "two", "section": "2-where-tpus-win", "insight": 2},
    ]
    bank = make_bank(*specs)
    html = selfcheck.block(
        bank, bank.questions, {"1-why-gpus": "Why GPUs", "2-where-tpus-win": "TPUs win"}
    )
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', html)
    assert links == [("1-why-gpus", "Why GPUs"), ("2-where-tpus-win", "TPUs win")]


# --- real builds -------------------------------------------------------------


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    make_stand_in(project)
    return project


def test_stand_in_course_builds_with_self_check_header_and_plan_list(
    stand_in: Path, tmp_path: Path
) -> None:
    result = build(stand_in, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    lesson = (tmp_path / "site/ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    # Each insight's questions at the end of its section, the call to action after them all.
    order = [
        'id="1-why-gpus-won"',
        '<h3 id="check-yourself-1">Check yourself: section 1',
        'id="lk-why-gpus"',
        'id="2-where-tpus-win"',
        '<h3 id="check-yourself-2">Check yourself: section 2',
        'id="lk-tpu-core"',
        'id="3-how-to-choose"',
        '<h2 id="take-the-quiz">Take the quiz in your terminal',
        CALL_TO_ACTION,
        '<h2 id="sources">Sources',
        '<div class="footnote">',
    ]
    places = [lesson.index(part) for part in order]
    assert places == sorted(places)
    assert "check-yourself-3" not in lesson  # insight 3 has no questions
    assert "<!-- lessonkit:" not in lesson  # every marker rendered
    assert '<a href="#2-where-tpus-win">2. Where TPUs win</a>' in lesson
    # The header sits under the title, the review date at the end.
    title = lesson.index("<h1")
    header = lesson.index('<div class="lk-lesson-header">')
    assert title < header < lesson.index('id="1-why-gpus-won"')
    assert '<a href="../">AI hardware fundamentals</a>' in lesson
    assert "<span>7 min read</span>" in lesson
    assert "<li>Explain why GPUs won</li>" in lesson
    assert '<time datetime="2026-02-03">2026-02-03</time>' in lesson
    plan = (tmp_path / "site/ai-hardware-fundamentals/index.html").read_text()
    assert (
        '<li><a href="gpu-vs-tpu/"><strong>GPU vs TPU</strong></a><br />\n'
        '    <span class="lk-meta">7 min read · 2 self-check questions</span>'
    ) in plan
    assert 'class="lk-lesson-header"' not in plan


def test_published_build_takes_site_and_repository_addresses_from_the_environment(
    stand_in: Path, tmp_path: Path
) -> None:
    repo = "https://github.com/someone/lessonkit"
    result = build(
        stand_in, tmp_path / "site", env={"SITE_URL": "https://someone.github.io/lessonkit/",
                                          "REPO_URL": repo},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lesson = (tmp_path / "site/ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    assert f"<code>pip install &quot;git+{repo}&quot;\nlessonkit quiz gpu-vs-tpu</code>" in lesson
    assert f'<a href="{repo}">{repo}</a>' in lesson
    # The header links to the repository without asking the GitHub API for its stars.
    assert f'<a href="{repo}" title="Go to repository" class="md-source">' in lesson
    assert 'data-md-component="source"' not in lesson
    sitemap = (tmp_path / "site/sitemap.xml").read_text()
    assert (
        "<loc>https://someone.github.io/lessonkit/ai-hardware-fundamentals/gpu-vs-tpu/</loc>"
        in sitemap
    )
    # A local build shows neither address, and no made-up one.
    local = build(stand_in, tmp_path / "local", env={"SITE_URL": "", "REPO_URL": ""})
    assert local.returncode == 0, local.stderr
    lesson = (tmp_path / "local/ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    assert "<code>pip install .\nlessonkit quiz gpu-vs-tpu</code>" in lesson
    assert "md-source" not in lesson and "github.com" not in lesson


def test_broken_bank_fails_the_build_with_positions_not_a_traceback(
    stand_in: Path, tmp_path: Path
) -> None:
    bank = stand_in / "quizzes/gpu-vs-tpu.yml"
    colour = "      - text: Their colour\n"
    text = bank.read_text().replace(colour, colour + "        correct: true\n")
    bank.write_text(text.replace("insight: 2", "insight: 0"))
    result = build(stand_in, tmp_path / "site")
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if line.startswith("quizzes/")]
    assert lines == [
        "quizzes/gpu-vs-tpu.yml:12:7: questions[0].options: found 2 correct options; "
        "mark exactly one with `correct: true` (or use `type: multiple`)",
        "quizzes/gpu-vs-tpu.yml:19:14: questions[1].insight: "
        "input should be greater than or equal to 1",
    ], output
    # MkDocs names the page; lessonkit the marker that needed the bank, and what to run.
    assert "ERROR   -  Error reading page 'ai-hardware-fundamentals/index.md':" in output
    assert (
        "ERROR   -  lessonkit: ai-hardware-fundamentals/index.md: "
        "`<!-- lessonkit:lessons ai-hardware-fundamentals -->` needs what does not load:"
    ) in output
    assert "`lessonkit validate` lists every problem in the course." in output
    assert "Aborted with a BuildError!" in output


def imported(stderr: str) -> set[str]:
    """Top-level packages named in `python -X importtime` output."""
    return {
        line.rpartition("|")[2].strip().split(".")[0]
        for line in stderr.splitlines()
        if line.startswith("import time:")
    }


def test_unchanged_course_builds_from_the_cache_without_pydantic(
    stand_in: Path, tmp_path: Path
) -> None:
    first = build(stand_in, tmp_path / "first", python=("-X", "importtime"))
    assert first.returncode == 0, first.stderr
    assert "pydantic" in imported(first.stderr)
    assert (stand_in / ".cache/lessonkit/banks/gpu-vs-tpu.json").is_file()
    second = build(stand_in, tmp_path / "second", python=("-X", "importtime"))
    assert second.returncode == 0, second.stderr
    assert {"mkdocs", "lessonkit"} <= imported(second.stderr)
    assert "pydantic" not in imported(second.stderr)
    assert "yaml" in imported(second.stderr)  # MkDocs's own: the check above can see imports
    for page in ("ai-hardware-fundamentals/gpu-vs-tpu", "ai-hardware-fundamentals"):
        built = [(tmp_path / out / page / "index.html").read_text() for out in ("first", "second")]
        assert 'class="lk-' in built[0]
        assert built[0] == built[1]


def test_a_bank_broken_after_a_good_build_still_fails_the_next(
    stand_in: Path, tmp_path: Path
) -> None:
    assert build(stand_in, tmp_path / "good").returncode == 0
    bank = stand_in / "quizzes/gpu-vs-tpu.yml"
    bank.write_text(bank.read_text().replace("insight: 2", "insight: 0"))
    result = build(stand_in, tmp_path / "broken")
    assert result.returncode == 1
    assert (
        "quizzes/gpu-vs-tpu.yml:18:14: questions[1].insight: "
        "input should be greater than or equal to 1"
    ) in result.stderr.splitlines()
    assert "Traceback" not in result.stdout + result.stderr


PLACEHOLDER_WARNING = (
    "WARNING -  lessonkit: ai-hardware-fundamentals/gpu-vs-tpu.md: 1 placeholder left from "
    "the template, the first: TODO(lessonkit): Intro text. (`lessonkit validate` shows where "
    "each one is)"
)


def make_draft(project: Path) -> None:
    """Leave one template placeholder in the stand-in lesson, as a fresh scaffold does."""
    lesson = project / "content/ai-hardware-fundamentals/gpu-vs-tpu.md"
    lesson.write_text(lesson.read_text().replace("Intro text.", "TODO(lessonkit): Intro text."))


def test_draft_with_placeholders_previews_but_fails_strict(stand_in: Path, tmp_path: Path) -> None:
    make_draft(stand_in)
    preview = build(stand_in, tmp_path / "preview", strict=False)
    assert preview.returncode == 0, preview.stderr
    assert PLACEHOLDER_WARNING in preview.stderr.splitlines()
    lesson = (tmp_path / "preview/ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    assert "TODO(lessonkit): Intro text." in lesson
    assert '<h3 id="check-yourself-1">Check yourself: section 1' in lesson
    strict = build(stand_in, tmp_path / "site")
    assert strict.returncode == 1
    output = strict.stdout + strict.stderr
    assert PLACEHOLDER_WARNING in output.splitlines()
    assert "Aborted with 1 warnings in strict mode!" in output
    assert "Traceback" not in output


def test_real_site_builds_strict_with_self_check_and_call_to_action(real_site: Path) -> None:
    lesson = (real_site / "ai-hardware-fundamentals/gpu-vs-tpu/index.html").read_text()
    assert '<h3 id="check-yourself-1">Check yourself: section 1' in lesson
    assert lesson.count('<li class="lk-question"') >= 1
    answers = '<details class="lk-answer info" data-search-exclude>'
    assert lesson.count(answers) == lesson.count('class="lk-question"')
    assert CALL_TO_ACTION in lesson
    # References stay last: the footnotes come after every self-check and the call.
    assert lesson.rindex('class="lk-question"') < lesson.index('<div class="footnote">')
    plan = (real_site / "ai-hardware-fundamentals/index.html").read_text()
    assert '<a href="gpu-vs-tpu/"><strong>' in plan


def test_real_plan_lists_its_lessons_in_order(real_site: Path) -> None:
    # Whether each lesson links back to the one before is the rule book's `link-back`.
    plan_page = ROOT / "content/ai-hardware-fundamentals/index.md"
    slugs = yaml.safe_load(plan_page.read_text().split("---")[1])["lessons"]
    assert len(slugs) >= 2, "the plan has a second lesson; this test is about their order"
    plan = (real_site / "ai-hardware-fundamentals/index.html").read_text()
    places = [plan.find(f'<li><a href="{slug}/"><strong>') for slug in slugs]
    assert -1 not in places, f"plan page lacks a lesson of {slugs}"
    assert places == sorted(places), f"plan page lists {slugs} out of order"


def test_search_index_has_the_lesson_but_not_the_self_check_answers(real_site: Path) -> None:
    """Answers in the index would turn up as search results for the question's words."""
    docs = json.loads((real_site / "search/search_index.json").read_text())["docs"]
    lesson = [d for d in docs if d["location"].startswith("ai-hardware-fundamentals/gpu-vs-tpu/")]
    text = " ".join(d["text"] for d in lesson)
    assert "systolic array" in text
    titles = [d["title"] for d in lesson]
    assert "Check yourself: section 1" in titles
    for part in ("Show the answer", "Answer:", "Choose one option", "Re-read:"):
        assert part not in text


@pytest.mark.parametrize(
    "name", ["self-check.js", "types/numeric.js", "reading.js", "lessonkit.css"]
)
def test_readers_download_lessonkit_assets_minified(real_site: Path, name: str) -> None:
    source = (ROOT / "site_overrides/assets/lessonkit" / name).read_text(encoding="utf-8")
    shipped = (real_site / "assets/lessonkit" / name).read_text(encoding="utf-8")
    assert "/*" in source
    assert "/*" not in shipped, "comments reach the reader"
    assert len(shipped) < (0.7 if name.endswith(".js") else 0.8) * len(source)
    # Still the same code: every class and message the page relies on is there (a script's
    # local names are shortened, so they are not compared).
    pattern = r"\.(lk-[\w-]+)" if name.endswith(".css") else r'"([A-Za-z][\w .,:…“”→-]{5,})"'
    names = set(re.findall(pattern, source))
    assert len(names) > (5 if name.startswith("types/") else 10)  # it builds most messages
    for found in names:
        assert found in shipped, f"{found} lost in minifying {name}"


def test_every_question_types_script_is_shipped_minified(real_site: Path) -> None:
    sources = sorted((ROOT / "site_overrides/assets/lessonkit/types").glob("*.js"))
    assert len(sources) >= 7
    for source in sources:
        shipped = (real_site / "assets/lessonkit/types" / source.name).read_text(encoding="utf-8")
        assert "/*" not in shipped, f"comments reach the reader in {source.name}"
        assert len(shipped) < 0.8 * len(source.read_text(encoding="utf-8")), source.name


def test_a_key_with_quotes_and_markup_survives_the_attribute() -> None:
    spec = question("quoted", "text", accept=['it\'s <b>"x"</b> & more'])
    html = render(make_bank(spec))
    attribute = re.search(r"data-key='([^']*)'", html)
    assert attribute is not None
    key = json.loads(unescape(attribute.group(1)))
    assert key["accept"] == ['it\'s <b>"x"</b> & more']


class Resources(HTMLParser):
    """Every address a browser would fetch without a click: src and href of resource tags."""

    TAGS: ClassVar = {
        "link",
        "script",
        "img",
        "iframe",
        "source",
        "video",
        "audio",
        "embed",
        "object",
    }

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.TAGS:
            self.urls += [v for k, v in attrs if k in ("src", "href", "data", "srcset") and v]


def other_hosts(site_dir: Path) -> list[str]:
    found = []
    for page in sorted(site_dir.rglob("*.html")):
        parser = Resources()
        parser.feed(page.read_text(encoding="utf-8"))
        found += [
            f"{page.relative_to(site_dir)}: {url}"
            for url in parser.urls
            if urlsplit(url.strip()).netloc or urlsplit(url.strip()).scheme in ("http", "https")
        ]
    for sheet in sorted(site_dir.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", sheet.read_text(encoding="utf-8")):
            if urlsplit(url).netloc:
                found.append(f"{sheet.relative_to(site_dir)}: {url}")
    return found


def test_built_site_references_no_other_host(real_site: Path) -> None:
    assert other_hosts(real_site) == []


def test_host_check_catches_the_theme_default_google_fonts(stand_in: Path, tmp_path: Path) -> None:
    config = stand_in / "mkdocs.yml"
    config.write_text(config.read_text().replace("  font: false\n", ""))
    assert build(stand_in, tmp_path / "site").returncode == 0
    found = other_hosts(tmp_path / "site")
    assert found and all(
        "fonts.googleapis.com" in line or "fonts.gstatic.com" in line for line in found
    )


@pytest.mark.parametrize(
    "text",
    [
        "Plain sentence, with 3.5 numbers (and brackets)?",
        'It\'s a "quote" and 100% sure; e.g. H100s -- or not.',
        "Folded block scalar\n",
        "1. a list",
        "- a list",
        "> a quote",
        "    indented code",
        "trailing spaces  ",
        "x = 1",
        "Setext\n===",
        "a & b < c",
        "snake_case and *stars*",
    ],
)
def test_plain_text_shortcut_renders_as_markdown_would(text: str) -> None:
    """safe_html skips Markdown for plain text; the result must not change."""
    richtext._markdown.cache_clear()
    for inline in (False, True):
        slow = nh3.clean(
            richtext._markdown().reset().convert(text), tags=richtext._ALLOWED_TAGS, attributes={}
        ).strip()
        if inline and slow.count("<p>") == 1 and slow.startswith("<p>") and slow.endswith("</p>"):
            slow = slow[3:-4]
        assert safe_html(text, inline=inline) == slow
