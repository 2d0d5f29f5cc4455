"""MkDocs hook: check the course at build start, then add self-checks and lesson lists to pages."""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from lessonkit.errors import ContentError, LessonkitError

# Only light modules at import: the course check (pydantic, YAML) loads when the
# course changed since the last build, not on every build.
from lessonkit.site import assets, build, placement

_added: build.Additions | None = None
# Under `mkdocs`, so warnings print like MkDocs's own.
_log = logging.getLogger("mkdocs.hooks.lessonkit")


def on_pre_build(config: MkDocsConfig) -> None:
    global _added
    try:
        _added = build.additions(_root(config))
    except ContentError as error:
        # MkDocs prints a PluginError as one message and stops: no traceback, just the
        # same `path:line:col: message (hint)` lines that `lessonkit validate` prints.
        problems = "\n".join(str(problem) for problem in error.problems)
        raise PluginError(f"lessonkit found problems in the course:\n{problems}") from None
    # Only template placeholders are left: a draft can be previewed with `make serve`,
    # but never published. A strict build stops here rather than counting warnings,
    # which `--quiet` would hide.
    if _added.warnings and config.strict:
        placeholders = "\n".join(_added.warnings)
        raise PluginError(f"lessonkit: this draft is not ready to publish:\n{placeholders}")
    for warning in _added.warnings:
        _log.warning(warning)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    assert _added is not None, "on_pre_build works out the additions first"
    root = _root(config)
    source = _course_path(page, root)
    if source in _added.plans:
        docs = Path(config.docs_dir).resolve()
        entries = []
        for lesson in _added.plans[source]:
            where = (root / lesson.path).relative_to(docs).as_posix()
            target = files.get_file_from_path(where)
            if target is None:
                raise PluginError(f"{lesson.path}: not in the site; is it under docs_dir?")
            href = target.url_relative_to(page.file)
            entries.append(build.LessonEntry(
                lesson.title, href, lesson.minutes, lesson.questions, lesson.summary))  # fmt: skip
        return f"{markdown}\n\n{build.plan_lessons(entries)}"
    try:
        return _added.markdown(source, markdown)  # a lesson gets its self-checks' headings
    except LessonkitError as error:
        raise PluginError(str(error)) from None


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return placement.tidy(html)  # empty table headers, images that open full size


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    # Into the finished page, after the search plugin has read it: the self-check stays
    # out of the index (its answers would turn up as results) at no parsing cost.
    assert _added is not None, "on_pre_build works out the additions first"
    try:
        return _added.html(_course_path(page, _root(config)), output, config.repo_url or None)
    except LessonkitError as error:
        raise PluginError(str(error)) from None


def on_post_build(config: MkDocsConfig) -> None:
    assets.shrink(Path(config.site_dir))  # readers download the script without comments


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).parent.resolve()


def _course_path(page: Page, root: Path) -> str:
    """The page's source relative to the course folder, as the additions name it."""
    try:
        return Path(page.file.abs_src_path or "").resolve().relative_to(root).as_posix()
    except ValueError:
        return ""  # a page from outside the course folder has nothing added
