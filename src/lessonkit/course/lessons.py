"""Lesson and plan pages: front matter, headings and the anchors the site gives them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lessonkit.bank import yamldoc
from lessonkit.bank.fields import PROSE_FIELDS
from lessonkit.bank.loader import validate
from lessonkit.bank.models import Lesson, Plan
from lessonkit.course.headings import Heading, text_headings, unfenced
from lessonkit.errors import ContentError, Problem, display_path


@dataclass(frozen=True)
class Page:
    """A Markdown page split into its parsed front matter and its body."""

    path: Path
    front: yamldoc.Document
    body: str
    body_line: int  # line of the file where the body starts

    @property
    def slug(self) -> str:
        return self.path.stem


@dataclass(frozen=True)
class LessonPage(Page):
    meta: Lesson
    headings: tuple[Heading, ...]

    def anchors(self) -> dict[str, Heading]:
        return {h.anchor: h for h in self.headings}


@dataclass(frozen=True)
class PlanPage(Page):
    meta: Plan


def split_page(path: Path) -> Page:
    """Front matter and body of a Markdown file; ContentError if the front matter is missing."""
    text = yamldoc.read_text(path)
    shown = display_path(path)
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != "---":
        raise ContentError(
            [Problem(shown, 1, 1, "the page has no front matter", "start it with a `---` line")]
        )
    for number, line in enumerate(lines[1:], start=2):
        if line.rstrip() in ("---", "..."):
            front_text = "".join(lines[1 : number - 1])
            body = "".join(lines[number:])
            break
    else:
        raise ContentError(
            [Problem(shown, 1, 1, "the front matter is not closed", "end it with a `---` line")]
        )
    if not front_text.strip():
        raise ContentError([Problem(shown, 1, 1, "the front matter is empty", "add its fields")])
    front = yamldoc.parse(front_text, shown, first_line=2, watch=PROSE_FIELDS)
    return Page(path, front, body, number + 1)


def read_lesson(path: Path) -> LessonPage:
    """A lesson page with validated front matter; ContentError lists every problem."""
    page = split_page(path)
    meta, problems = validate(Lesson, page.front, what="front matter")
    if meta is None:
        raise ContentError(problems)
    return LessonPage(page.path, page.front, page.body, page.body_line, meta, headings(page))


def read_plan(path: Path) -> PlanPage:
    """A learning plan's index page with validated front matter."""
    page = split_page(path)
    meta, problems = validate(Plan, page.front, what="front matter")
    if meta is None:
        raise ContentError(problems)
    return PlanPage(page.path, page.front, page.body, page.body_line, meta)


def body_lines(page: Page) -> Iterator[tuple[int, str]]:
    """(file line, text) of every body line outside fenced code blocks."""
    return unfenced(page.body, page.body_line)


def headings(page: Page) -> tuple[Heading, ...]:
    """ATX headings outside code fences, with anchors made as Python-Markdown's toc makes them."""
    return text_headings(page.body, page.body_line)
