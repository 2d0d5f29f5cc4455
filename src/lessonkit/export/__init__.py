"""Export banks to where learners and teachers already are: Anki, Canvas (QTI), Moodle.

Converters are pure: ``convert(source) -> Export`` (bytes plus the losses); finding
the banks and writing files is left to ``sources`` and the CLI. This module stays
light (no pydantic), because the CLI reads ``FORMATS`` whenever it builds its parser.
The exporters may import ``lessonkit.course`` and the layers below it, never the quiz,
authoring or the site (bank Markdown is sanitised by ``lessonkit.bank.richtext``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lessonkit.errors import UsageError

if TYPE_CHECKING:
    from lessonkit.export.common import Export, Source

__all__ = ["FORMATS", "SUFFIXES", "convert"]

FORMATS = ("anki", "qti", "moodle", "gift")
SUFFIXES = {"anki": ".apkg", "qti": ".qti.zip", "moodle": ".moodle.xml", "gift": ".gift.txt"}


def convert(source: Source, to: str) -> Export:
    """One bank in one format; UsageError for an unknown format or a missing optional library."""
    return _converter(to)(source)


def _converter(to: str) -> Callable[[Source], Export]:
    if to == "anki":
        try:
            import genanki  # type: ignore[import-untyped]  # noqa: F401
        except ImportError:
            from lessonkit.export.anki import INSTALL_HINT

            raise UsageError(INSTALL_HINT) from None
        from lessonkit.export import anki

        return anki.convert
    if to == "qti":
        from lessonkit.export import qti

        return qti.convert
    if to == "moodle":
        from lessonkit.export import moodle

        return moodle.convert
    if to == "gift":
        from lessonkit.export import gift

        return gift.convert
    raise UsageError(f"unknown export format `{to}`; use one of {', '.join(FORMATS)}")
