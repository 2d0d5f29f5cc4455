"""The site's own scripts and stylesheet, made smaller once the engine has copied them.

The sources under ``site_overrides/assets/lessonkit/`` keep their comments for the next
person who reads them; readers download them minified, scripts with their local names
shortened. The theme's own files come minified already, so only lessonkit's are touched.
The hook calls ``shrink`` after an MkDocs build, `make site-zensical` after Zensical's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import rcssmin  # type: ignore[import-untyped]  # no type information shipped
import rjsmin  # type: ignore[import-untyped]

__all__ = ["shrink"]

_FOLDER = "assets/lessonkit"  # under the site directory, as mkdocs.yml names the files
FORMAT = 1  # bump when the minifiers' settings change


def _script(source: str) -> str:
    # calmjs.parse reads the script's grammar (ES5) and renames what is local to a
    # function; the page relies on no local name. A script it cannot read is still
    # served, with comments and spaces taken out.
    from calmjs.parse import es5  # type: ignore[import-untyped]
    from calmjs.parse.exceptions import ECMASyntaxError  # type: ignore[import-untyped]
    from calmjs.parse.unparsers.es5 import minify_print  # type: ignore[import-untyped]

    try:
        shortened: str = minify_print(es5(source), obfuscate=True, obfuscate_globals=False)
    except ECMASyntaxError:
        return str(rjsmin.jsmin(source))
    return shortened


def _stylesheet(source: str) -> str:
    return str(rcssmin.cssmin(source))


_MINIFIERS: dict[str, Callable[[str], str]] = {".js": _script, ".css": _stylesheet}


def shrink(site_dir: Path, cache: Path | None = None) -> None:
    """Minify lessonkit's scripts and stylesheets in a built site, in place.

    Reading a script's grammar takes most of a second, so each result is kept in
    ``cache`` (when given) under a hash of its source.
    """
    for path in sorted((site_dir / _FOLDER).rglob("*")):  # types/ holds each type's script
        minify = _MINIFIERS.get(path.suffix)
        if minify is None or not path.is_file():
            continue
        source = path.read_text(encoding="utf-8")
        key = hashlib.sha256(f"{FORMAT}\0{path.suffix}\0{source}".encode()).hexdigest()
        kept = cache / f"{key}{path.suffix}" if cache else None
        if kept is not None and kept.is_file():
            path.write_bytes(kept.read_bytes())
            continue
        path.write_text(minify(source) + "\n", encoding="utf-8")
        if kept is not None:
            try:
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(path.read_bytes())
            except OSError:
                pass  # a cache that cannot be written costs the next build time, nothing more
