"""The site's own script and stylesheet, made smaller once MkDocs has copied them into the site.

The sources under ``site_overrides/assets/lessonkit/`` keep their comments for the next
person who reads them; readers download them without comments or indentation. The
theme's own files come minified already, so only lessonkit's are touched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import rcssmin  # type: ignore[import-untyped]  # no type information shipped
import rjsmin  # type: ignore[import-untyped]

__all__ = ["shrink"]

_FOLDER = "assets/lessonkit"  # under the site directory, as mkdocs.yml names the files

_MINIFIERS: dict[str, Callable[[str], str]] = {
    ".js": rjsmin.jsmin,
    ".css": rcssmin.cssmin,
}


def shrink(site_dir: Path) -> None:
    """Minify lessonkit's scripts and stylesheets in a built site, in place."""
    for path in (site_dir / _FOLDER).glob("*"):
        if minify := _MINIFIERS.get(path.suffix):
            path.write_text(minify(path.read_text(encoding="utf-8")) + "\n", encoding="utf-8")
