"""The GPU vs TPU lesson and bank keep the standard issue 10 set for them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from lessonkit.course import Course
from lessonkit.rulebook import check_course
from lessonkit.models import NumericQuestion

ROOT = Path(__file__).resolve().parents[1]
LESSON = ROOT / "content" / "ai-hardware-fundamentals" / "gpu-vs-tpu.md"
KINDS = ("application", "recall")
# A figure is placed as `![alt](img/NAME.svg#only-light)` then `![alt](img/NAME-dark.svg#only-dark)`.
LIGHT = re.compile(r"\]\(img/([\w-]+)\.svg#only-light\)")
DARK = re.compile(r"\]\(img/([\w-]+)-dark\.svg#only-dark\)")
FONT_SIZE = re.compile(r'font-size="(\d+(?:\.\d+)?)"')


@pytest.fixture(scope="module")
def course() -> Course:
    return check_course(ROOT)


def test_every_question_is_tagged_application_or_recall(course: Course) -> None:
    bank = course.banks["gpu-vs-tpu"]
    wrong = [
        f"{q.id}: tags {q.tags}" for q in bank.questions if sum(t in KINDS for t in q.tags) != 1
    ]
    assert not wrong, "tag each question with exactly one of application, recall:\n" + "\n".join(
        wrong
    )


def test_at_least_half_apply_and_every_insight_has_application(course: Course) -> None:
    bank = course.banks["gpu-vs-tpu"]
    applied = [q for q in bank.questions if "application" in q.tags]
    assert 2 * len(applied) >= len(bank.questions), (
        f"{len(applied)} of {len(bank.questions)} questions are application questions; "
        "at least half should apply an idea to new numbers or a new situation"
    )
    per_insight = Counter(q.insight for q in applied)
    assert all(per_insight[n] >= 2 for n in (1, 2, 3)), f"application per insight: {per_insight}"


def test_numeric_questions_have_unit_tolerance_and_hint(course: Course) -> None:
    bank = course.banks["gpu-vs-tpu"]
    numeric = [q for q in bank.questions if isinstance(q, NumericQuestion)]
    assert numeric
    incomplete = [
        q.id
        for q in numeric
        if q.unit is None or (q.tolerance is None and q.relative_tolerance is None) or not q.hint
    ]
    assert not incomplete, f"numeric questions without a unit, a tolerance or a hint: {incomplete}"


def test_figures_come_in_light_and_dark_pairs_with_legible_text() -> None:
    text = LESSON.read_text(encoding="utf-8")
    light, dark = LIGHT.findall(text), DARK.findall(text)
    assert light, "the lesson places no light/dark figure"
    assert light == dark, f"light figures {light} and dark figures {dark} must pair up in order"
    for name in light:
        for suffix in ("", "-dark"):
            svg = LESSON.parent / "img" / f"{name}{suffix}.svg"
            sizes = [float(size) for size in FONT_SIZE.findall(svg.read_text(encoding="utf-8"))]
            assert sizes, f"{svg.name}: no font-size found"
            assert min(sizes) >= 14, f"{svg.name}: text as small as {min(sizes)} px"


def test_appendix_tables_are_dated_and_updates_are_listed() -> None:
    text = LESSON.read_text(encoding="utf-8")
    appendix = text.split("## Appendix: dated specs and prices", 1)[1].split("\n## ", 1)[0]
    assert appendix.count("as of") >= 2, "each appendix table needs an `as of` date"
    updates = text.split("\n## Updates\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^- \*\*\d{4}-\d{2}-\d{2}:\*\* ", updates, re.MULTILINE), (
        "list each update as `- **YYYY-MM-DD:** what changed`"
    )
