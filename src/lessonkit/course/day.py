"""The day a course is checked on, which the review dates of its lessons are counted from.

``SOURCE_DATE_EPOCH``, the reproducible-builds convention, pins it: a build of the same
sources then gives the same verdict on every machine, and tests pin the clock. It imports
nothing heavy: the site build asks for it on every build, cached or not.
"""

from __future__ import annotations

import datetime as dt
import os


def today() -> dt.date:
    """Today in UTC, or the day ``SOURCE_DATE_EPOCH`` names."""
    pinned = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if pinned.isdigit():
        return dt.datetime.fromtimestamp(int(pinned), dt.UTC).date()
    return dt.datetime.now(dt.UTC).date()
