"""Import question banks from Moodle XML, GIFT, QTI (Canvas, text2qti) and mkdocs-quiz pages.

One module per format turns a file into draft questions plus what could not come
across (``common.Loss``); ``bankfile`` places them in a course as `quizzes/<slug>.yml`
with a lesson stub. Files from outside are read defensively: size limits before
parsing, XML through defusedxml with a depth limit (``safexml``), zips within limits
(``archive``). This layer sits beside ``site`` and ``export`` and imports neither; it
may use ``authoring`` (the scaffold's plan and nav edits), ``course`` and the layers
below them. This module stays light: the CLI reads ``FORMATS`` to build its parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lessonkit.errors import UsageError

if TYPE_CHECKING:
    from lessonkit.imports.common import Imported

__all__ = ["FORMATS", "INSTALL_HINT", "read"]

FORMATS = ("moodle", "gift", "qti", "mkdocs-quiz")
INSTALL_HINT = 'import needs defusedxml, markdownify and nh3: pip install "lessonkit[import]"'


def read(path: Path, source_format: str) -> Imported:
    """The questions of one file in the named format; ContentError for a file refused."""
    try:
        import defusedxml  # type: ignore[import-untyped]  # noqa: F401
        import markdownify  # noqa: F401
        import nh3  # noqa: F401
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    from lessonkit.imports import gift, mkdocsquiz, moodle, qti
    from lessonkit.imports.common import read_limited

    readers = {"moodle": moodle.read, "gift": gift.read, "qti": qti.read,
               "mkdocs-quiz": mkdocsquiz.read}  # fmt: skip
    if source_format not in readers:
        raise UsageError(
            f"unknown import format `{source_format}`; use one of {', '.join(FORMATS)}"
        )
    if not path.is_file():
        what = "a directory, not a file" if path.is_dir() else "not found"
        raise UsageError(f"{path}: {what}")
    return readers[source_format](path, read_limited(path))
