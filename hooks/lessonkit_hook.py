"""MkDocs hook, an extra: faster builds and smaller scripts under MkDocs.

Nothing a page shows depends on it. The Markdown extension ``lessonkit.site.extension``
makes every page, under MkDocs and under Zensical, which ignores hooks. Here, the
extension's self-check blocks wait outside each page while mkdocs-material's search reads
it (its indexer would parse them only to leave them out), and go in after; and lessonkit's
script and stylesheet are minified, as `make site-zensical` does after Zensical. This
file sits outside ``site_overrides/``, as Zensical publishes every file in that folder.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from lessonkit.site import assets, extension


def on_pre_build(config: MkDocsConfig) -> None:
    extension.hold_blocks(True)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return extension.fill(output)  # after the search plugin has read the page


def on_post_build(config: MkDocsConfig) -> None:
    extension.hold_blocks(False)
    cache = Path(config.config_file_path).parent / ".cache" / "lessonkit" / "assets"
    assets.shrink(Path(config.site_dir), cache)  # readers download the scripts minified


def on_build_error(error: Exception) -> None:
    extension.hold_blocks(False)
