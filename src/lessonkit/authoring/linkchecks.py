"""Links everywhere the site shows them: lessons, the home page, plan pages and bank text.

`mkdocs build --strict` refuses a link to a page that does not exist, on any page it
builds; a reader follows any link, wherever it is. So the links rule reads every page the
site builds (``pagechecks.site_pages`` beside the lessons) and the text of every question,
whose self-check shows on its lesson's page: an `#anchor` in a bank resolves there. A link
to a file does not: the self-check is HTML neither engine rewrites.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from lessonkit.authoring.pagechecks import (
    blank_code,
    check_links,
    check_sources,
    external_problem,
    link_problem,
    on_page,
    site_pages,
)
from lessonkit.authoring.policy import RuleSettings, fixed
from lessonkit.bank import yamldoc
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import Problem, display_path

__all__ = ["LINKS", "bank_texts", "check_bank_links", "field_name"]

# Bank fields the site and the terminal show as Markdown; `accept` is what learners type.
SHOWN_FIELDS = frozenset(
    {"prompt", "explanation", "text", "feedback", "hint", "items", "left", "right", "distractors"}
)
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp):[^>\s]+)>")


def bank_texts(
    course: Course,
) -> Iterator[tuple[yamldoc.Document, tuple[Any, ...], str, LessonPage | None]]:
    """Every shown text of every bank that loaded: its document, its place in it, the
    text, and the lesson page its self-checks are on (None when the bank has none)."""
    for slug, bank in course.banks.items():
        document = course.bank_documents.get(slug)
        if document is None:
            continue
        lesson = course.first_lesson_naming(slug)
        for index, question in enumerate(bank.questions):
            data = question.model_dump(exclude_defaults=True)
            for loc, text in _strings(data, ("questions", index)):
                yield document, loc, text, lesson


def _strings(
    value: Any, loc: tuple[Any, ...], shown: bool = False
) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        if shown:
            yield loc, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*loc, key), key in SHOWN_FIELDS)
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _strings(item, (*loc, number), shown)


def check_bank_links(course: Course) -> list[Problem]:
    """Links in question text: external ones as anywhere else, anchors on the page that
    shows the question, and none to a file."""
    problems: list[Problem] = []
    for document, loc, text, lesson in bank_texts(course):
        if "](" not in text and "<" not in text:
            continue  # the common case: one look, no regex
        clear = blank_code(text)
        targets = [m.group(1) for m in _INLINE.finditer(clear)]
        targets += [m.group(1) for m in _AUTOLINK.finditer(clear)]
        for target in targets:
            if _to_a_file(target):
                message, hint = _FILE_LINK
                problems.append(
                    document.problem(loc, f"{field_name(loc)}: {message.format(target)}", hint)
                )
                continue
            if lesson is not None:
                message, hint = link_problem(target, lesson, course)
                # A question is shown on its lesson's page: say so, not "this page".
                folder = f"the lesson's folder, {display_path(lesson.path.parent)}/"
                message = message.replace("this page", "the lesson's page")
                hint = hint.replace("this page's folder", folder)
            elif urlsplit(target).scheme:
                message, hint = external_problem(target)
            else:
                continue  # no page to resolve it from: the pairing rule reports the lesson
            if message:
                problems.append(document.problem(loc, f"{field_name(loc)}: {message}", hint))
    return problems


# A question is drawn as HTML that neither engine rewrites: `other.md` stays `other.md` in
# the built page (a 404 from the lesson's address), and the terminal prints it as typed.
_FILE_LINK = (
    "link `{}` leads to a file, which a question cannot link to: the site leaves the address "
    "as written, so it leads nowhere, and the quiz prints it as typed",
    "link to the page's full `https://` address, or to an `#anchor` of the lesson",
)


def _to_a_file(target: str) -> bool:
    parts = urlsplit(target)
    return bool(parts.path) and not parts.scheme and not target.startswith("//")


def field_name(loc: tuple[Any, ...]) -> str:
    """``("questions", 3, "options", 1, "text")`` as an author reads it:
    `questions[3].options[1].text`."""
    return "".join(f".{part}" if isinstance(part, str) else f"[{part}]" for part in loc)[1:]


def _everywhere_else(course: Course, settings: RuleSettings) -> list[Problem]:
    problems = [p for page in site_pages(course) for p in check_links(page, course)]
    return problems + check_bank_links(course)


LINKS = fixed(
    "links",
    "Relative links and `#anchors` resolve, on every page the site builds and in question "
    "text (anchors of its lesson's page; no links to files); external links and sources use "
    "`https` on a real host (no `example.com`, `localhost`, `*.test`…).",
    "readers follow them, and `mkdocs build --strict` refuses a link to a missing page",
    lesson_check=on_page(check_links, check_sources),
    course_check=_everywhere_else,
)
