"""MkDocs hook: validate the course at build start and add self-checks and lesson lists to pages."""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from lessonkit import site
from lessonkit.course import Course, load_course
from lessonkit.errors import ContentError

_course: Course | None = None
# Under `mkdocs`, so warnings print like MkDocs's own and count in `--strict` builds.
_log = logging.getLogger("mkdocs.hooks.lessonkit")


def on_pre_build(config: MkDocsConfig) -> None:
    global _course
    try:
        _course = load_course(Path(config.config_file_path).parent, allow_placeholders=True)
    except ContentError as error:
        # MkDocs prints a PluginError as one message and stops: no traceback, just the
        # same `path:line:col: message (hint)` lines that `lessonkit validate` prints.
        problems = "\n".join(str(problem) for problem in error.problems)
        raise PluginError(f"lessonkit found problems in the course:\n{problems}") from None
    # Only template placeholders are left: a draft can be previewed with `make serve`,
    # while `mkdocs build --strict` still fails on these warnings, so a draft never ships.
    for problem in _course.problems:
        _log.warning(str(problem))


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    assert _course is not None, "on_pre_build loads the course first"
    root = Path(config.config_file_path).parent
    source = Path(page.file.abs_src_path or "").resolve()
    for lesson in _course.lessons.values():
        if (root / lesson.path).resolve() == source:
            sections = {heading.anchor: heading.text for heading in lesson.headings}
            bank = _course.banks[lesson.meta.quiz]
            return f"{markdown}\n\n{site.self_check(bank, lesson.meta.quiz, sections)}"
    for plan in _course.plans.values():
        if (root / plan.path).resolve() == source:
            entries = []
            for slug in plan.meta.lessons:
                lesson = _course.lessons[slug]
                where = (root / lesson.path).resolve().relative_to(Path(config.docs_dir).resolve())
                target = files.get_file_from_path(where.as_posix())
                if target is None:
                    raise PluginError(f"{lesson.path}: not in the site; is it under docs_dir?")
                entries.append(site.LessonEntry(
                    title=lesson.meta.title, href=target.url_relative_to(page.file),
                    minutes=lesson.meta.minutes, summary=lesson.meta.summary,
                    questions=len(_course.banks[lesson.meta.quiz].questions)))  # fmt: skip
            return f"{markdown}\n\n{site.plan_lessons(entries)}"
    return markdown
