"""A plan page's list of its lessons: title, reading time, question count and summary.

Worked out from each lesson's front matter and its bank, each kept in the course's cache
until that file changes (``blocks.kept``), so a plan of a thousand lessons reads JSON, not
YAML. Written as Markdown, not HTML: MkDocs and Zensical both turn a link to `lesson.md`
into the lesson's address and check it, which they do not do for a link written in HTML.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from lessonkit.errors import ContentError, Problem, display_path
from lessonkit.site import blocks

__all__ = ["Entry", "entries", "markdown"]

TITLE = "Lessons"
# Characters Markdown would read as markup in a title or summary.
_MARKUP = re.compile(r"([\\`*_{}\[\]()#+!-])")  # those Python-Markdown unescapes


class Entry(NamedTuple):
    """One lesson as its plan lists it."""

    title: str
    href: str  # the lesson's Markdown file, relative to the plan page's folder
    minutes: int
    questions: int
    summary: str


def entries(root: Path, plan: str) -> list[Entry]:
    """The lessons of plan ``plan`` (its folder under `content/`), in reading order.

    Raises ContentError when the plan, a lesson or a bank cannot be read.
    """
    index = root / "content" / plan / "index.md"
    if not index.is_file():
        shown = display_path(index)
        raise ContentError(
            [Problem(shown, 0, 0, f"no plan `{plan}`", "name a folder under content/")]
        )
    card = blocks.kept(root, "plans", plan, index.read_bytes(), lambda: _plan_card(index))
    found = []
    for slug in card["lessons"]:
        path = _lesson_path(root, plan, slug)
        lesson = blocks.kept(
            root, "lessons", slug, path.read_bytes(), functools.partial(_card, path)
        )
        questions = blocks.question_count(root, lesson["quiz"])
        href = Path(os.path.relpath(path, index.parent)).as_posix()
        found.append(Entry(lesson["title"], href, lesson["minutes"], questions, lesson["summary"]))
    return found


def markdown(found: list[Entry]) -> list[str]:
    """The list as Markdown lines, under a `## Lessons` heading."""
    lines = [f"## {TITLE}", ""]
    for number, entry in enumerate(found, 1):
        noun = "question" if entry.questions == 1 else "questions"
        lines += [
            f"{number}. [**{_plain(entry.title)}**]({entry.href})  ",
            f'    <span class="lk-meta">{entry.minutes} min read · '
            f"{entry.questions} self-check {noun}</span>  ",
            f'    <span class="lk-summary">{_plain(entry.summary)}</span>',
        ]
    return [*lines, ""]


def _plain(text: str) -> str:
    """Text shown as typed: HTML escaped, Markdown's markup characters backslashed."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKUP.sub(r"\\\1", " ".join(escaped.split()))


def _lesson_path(root: Path, plan: str, slug: str) -> Path:
    path = root / "content" / plan / f"{slug}.md"
    if path.is_file():
        return path
    elsewhere = sorted((root / "content").glob(f"*/{slug}.md"))
    if elsewhere:
        return elsewhere[0]
    shown = display_path(root / "content" / plan / "index.md")
    raise ContentError(
        [Problem(shown, 0, 0, f"the plan lists `{slug}`, which has no lesson page",
                 f"add content/{plan}/{slug}.md, or take it off the plan's list")]
    )  # fmt: skip


def _plan_card(path: Path) -> dict[str, Any]:
    from lessonkit.course.lessons import read_plan

    return {"lessons": list(read_plan(path).meta.lessons)}


def _card(path: Path) -> dict[str, Any]:
    from lessonkit.course.lessons import read_lesson

    meta = read_lesson(path).meta
    return {
        "title": meta.title,
        "minutes": meta.minutes,
        "summary": meta.summary,
        "quiz": meta.quiz,
    }
