"""Lesson figures: light/dark pairs (a validate rule) and legible SVG text (report advice).

A figure is placed as mkdocs-material's colour-scheme fragments, the light variant then
the dark one: ``![alt](img/NAME.svg#only-light)`` then ``![alt](img/NAME-dark.svg#only-dark)``.
A missing file is already a broken link (``pagechecks.check_links``).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from pydantic import Field

from lessonkit.authoring.pagechecks import Link, links, on_page
from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import Problem, display_path

LIGHT, DARK = "only-light", "only-dark"
MIN_TEXT_PX = 14  # legible when a figure shrinks to a 390 px phone screen
# `font-size="12"`, `font-size="12px"` and `font-size: 12px` in a style; other units are
# left alone.
_FONT_SIZE = re.compile(
    r"""font-size\s*(?:=\s*["']\s*|:\s*)(\d+(?:\.\d+)?)(?:px)?\s*(?=["';}\s])"""
)


def _variant(link: Link) -> str:
    return urlsplit(link.target).fragment if link.image else ""


def dark_twin(target: str) -> str:
    """The dark twin of a light target: `img/x.svg#only-light` → `img/x-dark.svg#only-dark`."""
    path = PurePosixPath(urlsplit(target).path)
    return f"{path.with_name(f'{path.stem}-dark{path.suffix}')}#{DARK}"


def _pair_hint(light: str, alt: str = "the same alt text") -> str:
    return (
        f"place the light variant, then the dark one on the next line: `![{alt}]"
        f"({urlsplit(light).path}#{LIGHT})` then `![{alt}]({dark_twin(light)})`"
    )


def check_figure_pairs(page: LessonPage, course: Course) -> list[Problem]:
    """Every `#only-light` image is followed by its `#only-dark` twin, and every dark one
    follows its light twin: otherwise one colour scheme shows no figure at all."""
    shown = display_path(page.path)
    problems: list[Problem] = []
    pending: Link | None = None

    def unpaired(light: Link) -> Problem:
        return Problem(
            shown, light.line, light.column,
            f"figure `{light.target}` has no dark variant after it, so dark mode shows no figure",
            _pair_hint(light.target),
        )  # fmt: skip

    for link in (item for item in links(page) if item.image):
        variant = _variant(link)
        if variant == DARK:
            if pending is not None and link.target == dark_twin(pending.target):
                pending = None
                continue
            if pending is not None:
                problems.append(unpaired(pending))
                pending = None
            light = re.sub(r"-dark(\.\w+)#only-dark$", rf"\1#{LIGHT}", link.target)
            problems.append(
                Problem(
                    shown, link.line, link.column,
                    f"figure `{link.target}` has no light variant before it, so light mode "
                    "shows no figure",
                    _pair_hint(light) if light != link.target else
                    f"name the dark variant NAME-dark and place `![alt](img/NAME.svg#{LIGHT})` "
                    "just before it",
                )
            )  # fmt: skip
            continue
        if pending is not None:
            problems.append(unpaired(pending))
            pending = None
        if variant == LIGHT:
            pending = link
    if pending is not None:
        problems.append(unpaired(pending))
    return problems


# --- report advice ---------------------------------------------------------------------


def figure_files(page: LessonPage) -> list[Path]:
    """The SVG files the lesson places, in order, each once (missing files left out)."""
    found: list[Path] = []
    for link in links(page):
        parts = urlsplit(link.target)
        if not link.image or parts.scheme or not parts.path.lower().endswith(".svg"):
            continue
        path = page.path.parent / unquote(parts.path)
        if path.is_file() and path not in found:
            found.append(path)
    return found


def svg_text_warnings(page: LessonPage, smallest: float = MIN_TEXT_PX) -> list[Problem]:
    """Text smaller than ``smallest`` px in the lesson's SVG figures, one warning per file
    at the first place, with how many places there are."""
    warnings: list[Problem] = []
    for path in figure_files(page):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # an unreadable figure is not this advice's business
        small: list[tuple[int, int, float]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            for match in _FONT_SIZE.finditer(line):
                size = float(match.group(1))
                if size < smallest:
                    small.append((number, match.start() + 1, size))
        if not small:
            continue
        first, column, size = small[0]
        more = f" (and {len(small) - 1} more below {smallest:g} px in this file)"
        more = more if len(small) > 1 else ""
        warnings.append(
            Problem(
                display_path(path), first, column,
                f"figure text of {size:g} px is smaller than {smallest:g} px{more}",
                f"make every font-size at least {smallest:g} at the SVG's natural size, and "
                "prefer a tall, narrow layout: the figure shrinks to fit a 390 px phone screen",
            )
        )  # fmt: skip
    return warnings


class FigureText(RuleSettings):
    min_px: float = Field(
        MIN_TEXT_PX, gt=0, description="The smallest font-size, in px, at the SVG's natural size."
    )


def _figure_text(subject: Subject, settings: FigureText) -> list[Problem]:
    return svg_text_warnings(subject.lesson, settings.min_px)


FIGURES = Rule(
    "figures",
    "A figure is placed as a pair: `![alt](img/NAME.svg#only-light)` then "
    "`![alt](img/NAME-dark.svg#only-dark)`.",
    "each colour scheme shows one of the two; an unpaired variant leaves the other scheme "
    "without the figure",
    lesson_check=on_page(check_figure_pairs),
)
FIGURE_TEXT = Rule(
    "figure-text",
    "Text in an SVG figure is at least {min_px:g} px at the figure's natural size.",
    "a figure shrinks to fit a 390 px phone screen, and smaller text becomes unreadable",
    default="advice",
    settings=FigureText,
    lesson_check=_figure_text,
)
