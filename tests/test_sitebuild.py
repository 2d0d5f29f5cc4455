"""Tests for what the site build adds to pages, and the cache that keeps it between builds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import BANK, LESSON, MakeCourse
from lessonkit.authoring import rulebook as course_module
from lessonkit.errors import ContentError, LessonkitError
from lessonkit.site import build, placement

LESSON_PAGE = "content/test-plan/lesson-one.md"
PLAN_PAGE = "content/test-plan/index.md"


@pytest.fixture
def root(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small course, with the working directory in it as `mkdocs build` has it."""
    folder = make_course()
    monkeypatch.chdir(folder)
    return folder


def without_course_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any use of the course check fail: what follows must come from the cache."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the course was checked again")

    monkeypatch.setattr(course_module, "load_course", refuse)


def test_additions_hold_each_self_check_and_each_plans_lessons(root: Path) -> None:
    added = build.additions(root)
    assert added.warnings == ()
    assert list(added.self_checks) == [LESSON_PAGE]
    # One block per insight with questions, numbered on from the one before.
    first, second = added.self_checks[LESSON_PAGE]
    assert (first.insight, second.insight) == (1, 2)
    assert first.html.startswith(
        '<div class="lk-self-check" data-pass-mark="0.5">\n<p class="lk-intro">1 question.'
    )
    assert 'id="lk-q-single"' in first.html and "Question 1" in first.html
    assert 'id="lk-q-order"' in second.html and "Question 2" in second.html
    assert '<a href="#a-detail">A detail</a>' in second.html
    assert added.quizzes == {LESSON_PAGE: "lesson-one"}
    assert added.plans == {
        PLAN_PAGE: (build.PlanLesson(LESSON_PAGE, "Lesson one", 5, 2, "A lesson for tests."),)
    }


def test_unchanged_course_comes_from_the_cache(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = build.additions(root)
    assert (root / build.CACHE).is_file()
    without_course_check(monkeypatch)
    assert build.additions(root) == first


def test_an_edit_is_seen_even_with_the_same_size_and_time(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build.additions(root)
    bank = root / "quizzes/lesson-one.yml"
    before = bank.stat()
    bank.write_text(BANK.replace("Pick b.", "Pick B."), encoding="utf-8")
    os.utime(bank, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert bank.stat().st_size == before.st_size
    assert "Pick B." in build.additions(root).self_checks[LESSON_PAGE][0].html


def test_a_new_file_in_the_course_is_seen(root: Path) -> None:
    build.additions(root)
    (root / "content/test-plan/lesson-two.md").write_text(
        LESSON.replace("quiz: lesson-one", "quiz: lesson-two"), encoding="utf-8"
    )
    with pytest.raises(ContentError) as caught:
        build.additions(root)
    assert any("lesson-two" in str(problem) for problem in caught.value.problems)


def test_broken_course_fails_every_time_and_is_never_cached(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = build.additions(root)
    cached = (root / build.CACHE).read_bytes()
    bank = root / "quizzes/lesson-one.yml"
    bank.write_text(BANK.replace("insight: 2", "insight: 0"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError) as caught:
            build.additions(root)
        assert [str(p) for p in caught.value.problems] == [
            "quizzes/lesson-one.yml:18:14: questions[1].insight: "
            "input should be greater than or equal to 1"
        ]
    assert (root / build.CACHE).read_bytes() == cached
    # Put back as it was, the course matches the cache again.
    bank.write_text(BANK, encoding="utf-8")
    without_course_check(monkeypatch)
    assert build.additions(root) == good


def test_draft_warnings_are_cached_and_given_again(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course({LESSON_PAGE: LESSON.replace("Opening text.", "TODO(lessonkit): Intro.")})
    monkeypatch.chdir(root)
    warning = (
        f"{LESSON_PAGE}:18:1: placeholder left from the template: TODO(lessonkit): Intro. "
        "(replace it with your own text; see CONTRIBUTING.md)"
    )
    assert build.additions(root).warnings == (warning,)
    without_course_check(monkeypatch)
    assert build.additions(root).warnings == (warning,)


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b"[]", b'{"key": 1}', b'{"plans": 3}', b"\xff\xfe"]
)
def test_damaged_cache_is_worked_out_again(root: Path, damage: bytes) -> None:
    good = build.additions(root)
    cache = root / build.CACHE
    cache.write_bytes(damage)
    assert build.additions(root) == good
    assert json.loads(cache.read_bytes())["self_checks"] == {
        page: [list(block) for block in blocks] for page, blocks in good.self_checks.items()
    }


def test_damaged_cache_with_the_right_key_is_worked_out_again(root: Path) -> None:
    good = build.additions(root)
    cache = root / build.CACHE
    data = json.loads(cache.read_bytes())
    cache.write_text(json.dumps({"key": data["key"], "plans": {"x": [{"wrong": 1}]}}))
    assert build.additions(root) == good


def test_a_cache_that_cannot_be_written_costs_time_only(root: Path) -> None:
    (root / ".cache").write_text("a file where the cache folder would go")
    added = build.additions(root)
    assert list(added.self_checks) == [LESSON_PAGE]
    assert not (root / build.CACHE).exists()


def test_a_change_to_lessonkit_itself_is_seen(
    root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path_factory.mktemp("package")
    (package / "site.py").write_text("RENDERER = 1\n")
    monkeypatch.setattr(build, "_PACKAGE", package)
    build.additions(root)
    first = (root / build.CACHE).read_bytes()
    (package / "site.py").write_text("RENDERER = 2\n")
    build.additions(root)
    assert json.loads((root / build.CACHE).read_bytes())["key"] != json.loads(first)["key"]


def test_lesson_markdown_gets_a_heading_per_insight_and_html_the_bodies(root: Path) -> None:
    added = build.additions(root)
    first, second = (block.html for block in added.self_checks[LESSON_PAGE])
    body = "Intro.\n\n## 1. First idea\n\nText.\n\n## 2. Second idea\n\nMore.\n\n[^a]: Note."
    markdown = added.markdown(LESSON_PAGE, body)
    assert markdown == (
        "Intro.\n\n## 1. First idea\n\nText.\n\n\n"
        "### Check yourself: section 1 { #check-yourself-1 }\n\n"
        "<!-- lessonkit:self-check 1 -->\n\n"
        "## 2. Second idea\n\nMore.\n\n[^a]: Note.\n\n"
        "### Check yourself: section 2 { #check-yourself-2 }\n\n"
        "<!-- lessonkit:self-check 2 -->\n\n"
        "## Take the quiz in your terminal { #take-the-quiz }\n\n"
        "<!-- lessonkit:quiz-call -->\n"
    )
    html = (
        "<p>Quoted: <!-- lessonkit:self-check 1 --></p>\n"
        "<!-- lessonkit:self-check 1 -->\n<!-- lessonkit:self-check 2 -->\n"
        "<!-- lessonkit:quiz-call -->\n<div>notes</div>"
    )
    filled = added.html(LESSON_PAGE, html, "https://github.com/someone/lessonkit")
    # An author who quotes a slot keeps the quote: the last one is filled.
    assert filled == (
        "<p>Quoted: <!-- lessonkit:self-check 1 --></p>\n"
        f"{first.rstrip()}\n{second.rstrip()}\n"
        f"{placement.quiz_call('lesson-one', 'https://github.com/someone/lessonkit')}\n"
        "<div>notes</div>"
    )
    with pytest.raises(LessonkitError) as caught:
        added.html(LESSON_PAGE, "<p>Text.</p>")  # a Markdown extension that drops comments
    assert str(caught.value) == (
        f"{LESSON_PAGE}: the self-check's place was lost between Markdown and the page; "
        "does a Markdown extension remove HTML comments?"
    )


def test_a_marker_moves_checks_into_a_review_and_fences_are_skipped(root: Path) -> None:
    added = build.additions(root)
    body = (
        "## 1. First idea\n\n```md\n## 2. Not a heading\n<!-- lessonkit:check 9 -->\n```\n\n"
        "## 2. Second idea\n\n## Review\n\n<!-- lessonkit:check 1 2 -->\n\n## Glossary\n"
    )
    markdown = added.markdown(LESSON_PAGE, body)
    assert "### Check yourself" not in markdown
    assert (
        "## Review\n\n\n## Check yourself: review { #check-yourself-review }\n\n"
        "<!-- lessonkit:self-check 1 -->\n\n<!-- lessonkit:self-check 2 -->\n\n\n\n"
        "## Glossary\n"
    ) in markdown
    with pytest.raises(LessonkitError) as caught:
        added.markdown(LESSON_PAGE, "## 1. First idea\n\n<!-- lessonkit:check 3 -->\n")
    assert str(caught.value) == (
        f"{LESSON_PAGE}: `<!-- lessonkit:check 3 -->` names insight 3, which has no "
        "questions; use one of 1, 2"
    )


def test_a_lesson_without_numbered_sections_gets_one_check_at_the_end(root: Path) -> None:
    added = build.additions(root)
    markdown = added.markdown(LESSON_PAGE, "Text.")
    assert markdown.startswith(
        "Text.\n\n## Check yourself { #check-yourself }\n\n"
        "<!-- lessonkit:self-check 1 -->\n\n<!-- lessonkit:self-check 2 -->\n"
    )


def test_tidy_turns_empty_headers_into_cells_and_wraps_images() -> None:
    html = '<th></th><th>GPU</th><img alt="x" src="img/a.svg" /><a href="b"><img src="c.png"></a>'
    assert placement.tidy(html) == (
        '<td></td><th>GPU</th><a class="lk-zoom" href="img/a.svg">'
        '<img alt="x" src="img/a.svg" /></a><a href="b"><img src="c.png"></a>'
    )
    # A scheme's variant: the link is hidden with its image.
    assert placement.tidy('<img alt="x" src="img/a-dark.svg#only-dark" />') == (
        '<a class="lk-zoom lk-only-dark" href="img/a-dark.svg#only-dark">'
        '<img alt="x" src="img/a-dark.svg#only-dark" /></a>'
    )


def test_install_marker_gets_the_commands_with_the_address_only_when_known() -> None:
    page = f"<p>Install:</p>\n{placement.INSTALL_MARKER}"
    local = placement.fill("content/index.md", page, [], None, None)
    assert "pip install .</code>" in local and "github" not in local
    published = placement.fill("content/index.md", page, [], None, "https://github.com/a/b")
    assert "pip install &quot;git+https://github.com/a/b&quot;</code>" in published
    assert '<a href="https://github.com/a/b">https://github.com/a/b</a>' in published


def test_other_pages_are_left_alone(root: Path) -> None:
    added = build.additions(root)
    for page in (PLAN_PAGE, "content/index.md", ""):
        assert added.markdown(page, "Text.") == "Text."
        assert added.html(page, "<p>Text. <!-- lessonkit:self-check 1 --></p>") == (
            "<p>Text. <!-- lessonkit:self-check 1 --></p>"
        )


def test_plan_lessons_lists_time_and_question_counts_in_order() -> None:
    entries = [
        build.LessonEntry("GPU vs TPU", "gpu-vs-tpu/", 12, 8, "How they differ."),
        build.LessonEntry("Memory <walls>", "memory/", 1, 1, "Why bandwidth."),
    ]
    assert build.plan_lessons(entries) == (
        "## Lessons\n\n"
        '<ol class="lk-plan-lessons">\n'
        '<li><a href="gpu-vs-tpu/"><strong>GPU vs TPU</strong></a><br>'
        '<span class="lk-meta">12 min read · 8 self-check questions</span><br>'
        '<span class="lk-summary">How they differ.</span></li>\n'
        '<li><a href="memory/"><strong>Memory &lt;walls&gt;</strong></a><br>'
        '<span class="lk-meta">1 min read · 1 self-check question</span><br>'
        '<span class="lk-summary">Why bandwidth.</span></li>\n'
        "</ol>\n"
    )


def test_a_file_gone_between_listing_and_reading_is_left_out(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's swap file can vanish while `mkdocs serve` rebuilds."""
    swap = root / "content/test-plan/.lesson-one.md.swp"
    swap.write_text("swap")
    listed = list(build._inputs(root))
    swap.unlink()
    monkeypatch.setattr(build, "_inputs", lambda _: iter(listed))
    assert list(build.additions(root).self_checks) == [LESSON_PAGE]
