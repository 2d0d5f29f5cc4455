"""MkDocs hook, an extra: readers download lessonkit's script and stylesheet minified.

Nothing a page shows comes from here. The Markdown extension ``lessonkit.site.extension``
makes every page, under MkDocs and under Zensical, which ignores hooks; `make site-zensical`
minifies after its build instead. This file sits outside ``site_overrides/``, because
Zensical copies every file of the theme folder into the published site.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from lessonkit.site import assets


def on_post_build(config: MkDocsConfig) -> None:
    cache = Path(config.config_file_path).parent / ".cache" / "lessonkit" / "assets"
    assets.shrink(Path(config.site_dir), cache)  # readers download the scripts minified
