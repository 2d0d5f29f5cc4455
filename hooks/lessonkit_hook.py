"""MkDocs hook, an extra: faster builds and smaller scripts under MkDocs.

Nothing a page shows depends on it. The Markdown extension ``lessonkit.site.extension``
makes every page, under MkDocs and under Zensical, which ignores hooks. Here, the
extension's self-check blocks wait outside each page while mkdocs-material's search reads
it (its indexer would parse them only to leave them out), and go in after; and lessonkit's
script and stylesheet are minified, as `make site-zensical` does after Zensical. Under
`mkdocs serve`, each rebuild also prints the course's problems, as `lessonkit validate` does,
in the console the author watches. This file sits outside ``site_overrides/``, as Zensical
publishes every file in that folder.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from lessonkit.errors import LessonkitError
from lessonkit.site import assets, extension

log = logging.getLogger("mkdocs.plugins.lessonkit")
_serving = False


def on_startup(*, command: str, dirty: bool) -> None:
    # Only while serving: `make site` and CI run `lessonkit validate --strict` before they
    # build, and a build should not pay for the check twice.
    global _serving
    _serving = command == "serve"


def on_pre_build(config: MkDocsConfig) -> None:
    extension.hold_blocks(True)
    if _serving:
        _report(Path(config.config_file_path).parent)


def _report(root: Path) -> None:
    """The course's problems, each at file:line:col, as MkDocs warnings and errors."""
    from lessonkit.authoring.validate import validate_paths

    try:
        report = validate_paths([], cwd=root)
    except LessonkitError as error:
        log.warning("lessonkit validate: %s", error)
        return
    for level, problem in report.lines():
        (log.error if level == "error" else log.warning)("%s", problem)
    if report.problems or report.warnings:
        log.info("lessonkit: %s", report.summary_line())


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return extension.fill(output)  # after the search plugin has read the page


def on_post_build(config: MkDocsConfig) -> None:
    extension.hold_blocks(False)
    cache = Path(config.config_file_path).parent / ".cache" / "lessonkit" / "assets"
    assets.shrink(Path(config.site_dir), cache)  # readers download the scripts minified


def on_build_error(error: Exception) -> None:
    extension.hold_blocks(False)
