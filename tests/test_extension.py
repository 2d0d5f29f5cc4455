"""The Markdown extension with plain Python-Markdown: no site engine, just `markdown.markdown`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from conftest import BANK, FACTS
from lessonkit.site import extension
from lessonkit.site.extension import LessonkitExtension, PageError, tidy

EXTENSIONS = ["attr_list", "toc", "footnotes", "tables", "fenced_code"]
LESSON_BODY = """\
Opening.

## 1. First idea

Text.

### A detail

<!-- lessonkit:check lesson-one 1 -->

## 2. Second idea

<!-- lessonkit:check lesson-one 2 -->

<!-- lessonkit:quiz lesson-one -->
"""


@pytest.fixture
def root(course_root: Path) -> Path:
    return course_root


def render(text: str, **config: str) -> str:
    return markdown.markdown(text, extensions=[*EXTENSIONS, LessonkitExtension(**config)])


def test_each_check_marker_becomes_its_heading_and_block_in_place(root: Path) -> None:
    html = render(LESSON_BODY)
    order = [
        '<h2 id="1-first-idea">',
        '<h3 id="a-detail">',
        '<h3 id="check-yourself-1">Check yourself: section 1</h3>',
        '<section class="lk-self-check" data-search-exclude data-pass-mark="0.5">',
        'id="lk-q-single"',
        '<h2 id="2-second-idea">',
        '<h3 id="check-yourself-2">Check yourself: section 2</h3>',
        'id="lk-q-order"',
        '<h2 id="take-the-quiz">Take the quiz in your terminal</h2>',
        "<code>python3 -m venv ~/.lessonkit\n~/.lessonkit/bin/pip install .\n"
        "~/.lessonkit/bin/lessonkit quiz lesson-one</code>",
    ]
    places = [html.index(part) for part in order]
    assert places == sorted(places), html
    # Numbered on from the block before, and linking back by the page's own heading words.
    assert '<p class="lk-number">Question 2</p>' in html
    assert '<a href="#a-detail">A detail</a>' in html
    assert "lessonkit:" not in html


def test_a_review_gathers_insights_and_a_quoted_marker_stays_text(root: Path) -> None:
    html = render(
        "## Review\n\n<!-- lessonkit:check lesson-one 2 1 -->\n\n"
        "```\n<!-- lessonkit:check lesson-one 9 -->\n```\n"
    )
    assert '<h2 id="check-yourself-review">Check yourself: review</h2>' in html
    assert html.index('id="lk-q-order"') < html.index('id="lk-q-single"')  # as written
    assert "&lt;!-- lessonkit:check lesson-one 9 --&gt;" in html


def test_the_call_to_action_installs_from_the_repository_when_given(root: Path) -> None:
    html = render("<!-- lessonkit:quiz lesson-one -->", repo_url="https://github.com/a/b")
    assert "~/.lessonkit/bin/pip install &quot;git+https://github.com/a/b&quot;\n" in html
    assert '<a href="https://github.com/a/b">https://github.com/a/b</a>' in html
    install = render("Install:\n\n<!-- lessonkit:install -->\n")
    assert "~/.lessonkit/bin/pip install .</code>" in install and "lessonkit quiz" not in install


def test_a_plan_lists_its_lessons_as_markdown_links(root: Path) -> None:
    lesson = root / "content/test-plan/lesson-one.md"
    lesson.write_text(lesson.read_text().replace("title: Lesson one", "title: Lesson *one* <b>"))
    html = render("<!-- lessonkit:lessons test-plan -->")
    assert html == (
        '<h2 id="lessons">Lessons</h2>\n<ol>\n'
        '<li><a href="lesson-one.md"><strong>Lesson *one* &lt;b&gt;</strong></a><br />\n'
        '    <span class="lk-meta">5 min read · 2 self-check questions</span><br />\n'
        '    <span class="lk-summary">A lesson for tests.</span></li>\n</ol>'
    )


def test_sources_get_a_heading_of_their_own(root: Path) -> None:
    text = "Text.[^a]\n\n## Updates\n\nNone.\n\n[^a]: A source."
    html = render(text)
    assert re.search(r'<h2 id="updates">Updates</h2>\s*<p>None.</p>\s*<h2 id="sources">Sources</h2>'
                     r'\s*<div class="footnote">\s*<ol>', html), html  # fmt: skip
    assert "<hr" not in html
    # In the table of contents, as a reader looking for a reference expects.
    md = markdown.Markdown(extensions=[*EXTENSIONS, LessonkitExtension()])
    md.convert(text)
    assert [entry["id"] for entry in md.toc_tokens] == ["updates", "sources"]  # type: ignore[attr-defined]
    assert "Sources" not in render("No notes.")
    assert "Sources" not in render(text, sources_title="")
    own = render("Text.[^a]\n\n## References\n\n///Footnotes Go Here///\n\n[^a]: A source.")
    assert own.count("<h2") == 1 and "References" in own


def test_tidy_turns_empty_headers_into_cells_and_figures_into_lazy_zoom_links() -> None:
    html = '<th></th><th>GPU</th><img alt="x" src="img/a.svg" /><a href="b"><img src="c.png"></a>'
    assert tidy(html) == (
        '<td></td><th>GPU</th><a class="lk-zoom" href="img/a.svg">'
        '<img loading="lazy" alt="x" src="img/a.svg" /></a><a href="b"><img src="c.png"></a>'
    )
    # A scheme's variant: its link is hidden with its image, and it loads only when shown.
    assert tidy('<img alt="x" src="img/a-dark.svg#only-dark" />') == (
        '<a class="lk-zoom lk-only-dark" href="img/a-dark.svg#only-dark">'
        '<img loading="lazy" alt="x" src="img/a-dark.svg#only-dark" /></a>'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "<!-- lessonkit:check lesson-one 3 -->",
            "lessonkit: `<!-- lessonkit:check lesson-one 3 -->` names insight 3, which has no "
            "questions in bank lesson-one (insights with questions: 1, 2)",
        ),
        (
            "<!-- lessonkit:check lesson-two 1 -->",
            "lessonkit: `<!-- lessonkit:check lesson-two 1 -->` needs what does not load:\n"
            "quizzes/lesson-two.yml: no bank `lesson-two` (check the slug, or add the bank)\n"
            "`lessonkit validate` lists every problem in the course.",
        ),
        (
            "<!-- lessonkit:check 1 -->",
            "lessonkit: `<!-- lessonkit:check 1 -->`: the marker names no bank "
            "(write `<!-- lessonkit:check BANK 1 -->`)",
        ),
    ],
)
def test_a_marker_that_cannot_be_rendered_says_why(root: Path, text: str, message: str) -> None:
    with pytest.raises(PageError) as caught:
        render(text)
    assert str(caught.value) == message


def test_a_broken_bank_is_reported_with_its_positions(root: Path) -> None:
    (root / "quizzes/lesson-one.yml").write_text(BANK.replace("insight: 2", "insight: 0"))
    with pytest.raises(PageError) as caught:
        render("<!-- lessonkit:quiz lesson-one -->")
    assert str(caught.value).splitlines()[1] == (
        "quizzes/lesson-one.yml:18:14: questions[1].insight: "
        "input should be greater than or equal to 1"
    )


def test_a_page_without_markers_needs_no_course_and_loads_no_models(tmp_path: Path) -> None:
    code = (
        "import sys, markdown\n"
        "from lessonkit.site.extension import LessonkitExtension\n"
        "html = markdown.markdown('# Hi\\n\\nText.', extensions=[LessonkitExtension()])\n"
        "print(html, 'pydantic' in sys.modules, 'yaml' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["<h1>Hi</h1>", "<p>Text.</p>", "False", "False"]


def test_a_marker_outside_a_course_says_where_to_build_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PageError) as caught:
        render("<!-- lessonkit:install -->")
    assert str(caught.value).startswith("lessonkit: no course folder (with content/ and quizzes/)")
    assert "set `course:` under `lessonkit.site.extension` in mkdocs.yml" in str(caught.value)


def test_the_course_can_be_named_in_the_configuration(
    root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    html = render("<!-- lessonkit:check lesson-one 1 -->", course=str(root))
    assert 'id="lk-q-single"' in html


def test_blocks_can_wait_outside_the_page_until_it_is_finished(root: Path) -> None:
    """What the MkDocs hook does, so that mkdocs-material's search never parses them."""
    extension.hold_blocks(True)
    try:
        held = render("<!-- lessonkit:check lesson-one 1 -->")
        assert 'id="lk-q-single"' not in held
        assert re.search(r"<!--lk-block:\d+-->", held)
        filled = extension.fill(f"<article>{held}</article>")
        assert 'id="lk-q-single"' in filled and "lk-block" not in filled
        with pytest.raises(PageError, match="was lost before the page was written"):
            extension.fill(held)  # each block goes in once
    finally:
        extension.hold_blocks(False)
    assert 'id="lk-q-single"' in render("<!-- lessonkit:check lesson-one 1 -->")


def test_a_fact_that_cannot_be_shown_stops_the_page_with_where_and_why(root: Path) -> None:
    (root / "facts").mkdir()
    (root / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    html = render("Memory: ((fact h100-sxm.hbm unit=GiB)).\n\nCode: `((fact nope))`.")
    assert "Memory: 74.5 GiB<sup" in html and "<code>((fact nope))</code>" in html
    with pytest.raises(PageError) as caught:
        render("Fine.\n\nMemory: ((fact h100-sxm.hbm unit=TB/s)).")
    assert str(caught.value) == (
        "lessonkit: line 3: fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure "
        "different things (ask for a unit like `GB`, or use another fact); `lessonkit validate` "
        "lists every problem in the course"
    )


def test_a_fact_in_a_footnote_is_its_value_with_no_mark_of_its_own(root: Path) -> None:
    (root / "facts").mkdir()
    (root / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    html = render("Memory.[^nv]\n\n[^nv]: NVIDIA lists ((fact h100-sxm.hbm)) for the SXM part.")
    note = re.search(r'<li id="fn:nv">\s*<p>(.*?)&#160;', html, re.S)
    assert note is not None and note.group(1) == "NVIDIA lists 80 GB for the SXM part."
    assert "fn:fact-" not in html  # the footnote is the figure's source: no second one
    with pytest.raises(PageError, match="line 3: unknown fact `nope`"):
        render("Memory.[^nv]\n\n[^nv]: NVIDIA lists ((fact nope)).")


def test_a_fact_in_alt_text_stops_the_page(root: Path) -> None:
    (root / "facts").mkdir()
    (root / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    with pytest.raises(PageError, match="line 1: a fact reference in alt text"):
        render("![H100: ((fact h100-sxm.hbm))](a.svg)")


def test_a_page_with_facts_reads_them_from_the_cache_without_models(root: Path) -> None:
    (root / "facts").mkdir()
    facts = root / "facts" / "chips.yml"
    facts.write_text(FACTS, encoding="utf-8")
    code = (
        "import sys, markdown\n"
        "from lessonkit.site.extension import LessonkitExtension\n"
        "html = markdown.markdown('((fact h200.hbm))', extensions=['footnotes', LessonkitExtension()])\n"
        "print(html.split('<sup')[0], 'pydantic' in sys.modules, 'yaml' in sys.modules)\n"
    )

    def page() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
        )
        return done.stdout.split()

    assert page() == ["<p>141", "GB", "True", "True"]  # the first page reads the file
    assert page() == ["<p>141", "GB", "False", "False"]  # the next, the cache
    facts.write_text(FACTS.replace("value: 141", "value: 144"), encoding="utf-8")
    assert page() == ["<p>144", "GB", "True", "True"]  # a changed fact is read again
