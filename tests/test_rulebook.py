"""The rule book: its list in the docs matches the code, and each rule's exact message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK, FULL_BANK, LESSON, MakeCourse
from lessonkit.authoring.handbook import rules_markdown
from lessonkit.authoring.rulebook import RULES, check_course, load_course, read_policy
from lessonkit.bank import limits

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course sees them


def _listed(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index("<!-- rules:start -->\n") + len("<!-- rules:start -->\n")
    return text[start : text.index("<!-- rules:end -->")]


# CONTRIBUTING.md lists every rule; the pull-request template those that can fail it.
DOCS = {
    "CONTRIBUTING.md": (),
    ".github/PULL_REQUEST_TEMPLATE.md": ("always", "error", "warn"),
}


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_docs_list_the_rules_of_the_code(doc: str) -> None:
    policy, problems = read_policy(ROOT)
    assert problems == []
    assert _listed(ROOT / doc) == rules_markdown(policy, levels=DOCS[doc]), (
        f"{doc}: replace the text between the rules markers with the output of "
        "`lessonkit rules --format markdown`"
        + (f" (only the rules at levels {', '.join(DOCS[doc])})" if DOCS[doc] else "")
    )


def test_rule_ids_are_unique_and_every_rule_has_a_reason() -> None:
    ids = [rule.id for rule in RULES]
    assert len(ids) == len(set(ids))
    assert all(rule.describe().endswith(".") and rule.reason for rule in RULES)


def _problems(root: Path) -> list[str]:
    return [str(p) for p in check_course(root).problems]


def test_too_few_questions_per_insight(make_course: MakeCourse) -> None:
    assert _problems(make_course()) == [
        "content/test-plan/lesson-one.md:8:5: insight 1 has 1 question in "
        "quizzes/lesson-one.yml; every insight needs at least 5 (add questions with "
        "`insight: 1`)",
        "content/test-plan/lesson-one.md:9:5: insight 2 has 1 question in "
        "quizzes/lesson-one.yml; every insight needs at least 5 (add questions with "
        "`insight: 2`)",
    ]


def test_the_site_build_previews_a_bank_still_growing(make_course: MakeCourse) -> None:
    assert load_course(make_course()).problems == []


def test_mermaid_block_is_a_problem(make_course: MakeCourse) -> None:
    lesson = LESSON + "\n```mermaid\ngraph TD; A-->B\n```\n\n~~~ {.mermaid}\nx\n~~~\n"
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    message = (
        "block needs a script from a CDN, which the site does not load (draw the diagram "
        "as an SVG (a light and a dark variant) or a table)"
    )
    assert _problems(root) == [
        f"content/test-plan/lesson-one.md:36:1: a `mermaid` {message}",
        f"content/test-plan/lesson-one.md:40:1: a `mermaid` {message}",
    ]


def test_mermaid_inside_another_fence_is_only_an_example(make_course: MakeCourse) -> None:
    lesson = LESSON + "\n````markdown\n```mermaid\ngraph TD\n```\n````\n"
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    assert _problems(root) == []


def test_page_over_the_limit_points_at_the_line_that_crosses_it(make_course: MakeCourse) -> None:
    line = "word " * 199 + "word\n"  # 1,000 bytes
    lines = limits.PAGE_BYTES // len(line) + 1
    lesson = LESSON + line * lines
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    size = len(lesson.encode())
    crossing = lesson.encode()[: limits.PAGE_BYTES].count(b"\n") + 1
    assert _problems(root) == [
        f"content/test-plan/lesson-one.md:{crossing}:1: the page is {size:,} bytes, over the "
        "limit of 160,000; it crosses the limit on this line (split the topic into two "
        "lessons, or move reference material to its sources)"
    ]


def test_a_long_lesson_of_nine_thousand_words_passes(make_course: MakeCourse) -> None:
    lesson = LESSON + ("A sentence of about ten words for a long page here.\n" * 900)
    assert len(lesson.encode()) > 45_000
    root = make_course(
        {"content/test-plan/lesson-one.md": lesson, "quizzes/lesson-one.yml": FULL_BANK}
    )
    assert _problems(root) == []


@pytest.mark.parametrize(
    ("old", "field", "limit", "where"),
    [
        ("prompt: Pick b.", "prompt", limits.PROMPT_CHARS, "7:13: questions[0].prompt"),
        ("explanation: Because b.", "explanation", limits.EXPLANATION_CHARS,
         "10:18: questions[0].explanation"),
        ("- text: a", "- text", limits.OPTION_CHARS, "12:15: questions[0].options[0].text"),
    ],
)  # fmt: skip
def test_text_over_its_limit_is_a_problem_at_the_field(
    make_course: MakeCourse, old: str, field: str, limit: int, where: str
) -> None:
    bank = FULL_BANK.replace(old, f"{field}: {'x' * (limit + 1)}", 1)
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert _problems(root)[0] == (
        f"quizzes/lesson-one.yml:{where}: is {limit + 1:,} characters, over the limit of "
        f"{limit:,} (shorten it; the limit is several times the longest text of real courses, "
        "so a paste may have gone wrong)"
    )


def test_order_item_over_its_limit(make_course: MakeCourse) -> None:
    bank = FULL_BANK.replace("items: [a, b, c]", f"items: [a, b, {'c' * 501}]")
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert _problems(root)[0].startswith(
        "quizzes/lesson-one.yml:21:19: questions[1].items[2]: is 501 characters, over the "
        "limit of 500 ("
    )


def test_placeholder_host_in_a_figure(make_course: MakeCourse) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK,
                        "content/test-plan/img/x.svg": "<svg>\n<text>see example.org</text></svg>\n"})  # fmt: skip
    assert _problems(root) == [
        "content/test-plan/img/x.svg:2:11: `example.org` is a placeholder address, never a "
        "source (link to the real page you used)"
    ]


def test_placeholder_host_in_any_letter_case(make_course: MakeCourse) -> None:
    bank = FULL_BANK.replace("explanation: Because b.", "explanation: See Docs.Example.COM/b.")
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert _problems(root) == [
        "quizzes/lesson-one.yml:10:27: `Example.COM` is a placeholder address, never a "
        "source (link to the real page you used)"
    ]


def test_validate_of_the_course_agrees(make_course: MakeCourse) -> None:
    root = make_course({"quizzes/lesson-one.yml": BANK})
    result = subprocess.run([sys.executable, "-m", "lessonkit", "validate"], cwd=root,
                            capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "2 problems in 1 file"
