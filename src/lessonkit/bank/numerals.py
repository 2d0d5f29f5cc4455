"""How a drawn or computed number is written in a question: digits, separators, figures.

Pure: the same value and format always give the same text, in the terminal, on the
site and in exports, because every one of them calls this one function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULT_SIGNIFICANT", "places_for", "read", "written", "written_as"]

# Without a format, a number shows up to this many significant figures, trailing zeros
# dropped: 3.35 stays 3.35, and 989 / 3.35 shows as 295.224 rather than 17 digits.
DEFAULT_SIGNIFICANT = 6


def written(
    value: float,
    *,
    decimals: int | None = None,
    significant: int | None = None,
    separators: bool = True,
) -> str:
    """``value`` as a question shows it: `4,800`, `3.35`, `0.0833`, `1,230,000`.

    ``decimals`` fixes the digits after the point; ``significant`` rounds to that many
    significant figures; with neither, up to six significant figures, trailing zeros
    dropped. Thousands are separated by commas unless ``separators`` is false.
    """
    value = float(value)
    comma = "," if separators else ""
    if decimals is None and significant is None and value.is_integer() and abs(value) < 1e15:
        return f"{int(value):{comma}d}"
    if decimals is not None:
        text = f"{value:{comma}.{decimals}f}"
    else:
        figures = significant if significant is not None else DEFAULT_SIGNIFICANT
        places = _places(value, figures)
        rounded = round(value, places) if places < 0 else value
        text = f"{rounded:{comma}.{max(places, 0)}f}"
        if significant is None and "." in text:
            text = text.rstrip("0").rstrip(".")
    return "0" if text.lstrip("-").strip("0.,") == "" else text


def _places(value: float, figures: int) -> int:
    """Decimal places that keep ``figures`` significant figures (negative: round to tens…)."""
    if value == 0:
        return 0
    exponent = math.floor(math.log10(abs(value)))
    places = figures - 1 - exponent
    # 999.96 to four figures is 1,000.0: recount after rounding.
    if abs(round(value, places)) >= 10 ** (exponent + 1):
        places -= 1
    return places


def written_as(value: float, fmt: Mapping[str, Any]) -> str:
    """``value`` in the format a bank gives (``decimals``, ``significant``, ``separators``)."""
    return written(
        value,
        decimals=fmt.get("decimals"),
        significant=fmt.get("significant"),
        separators=fmt.get("separators", True),
    )


def places_for(allowed: float) -> int | None:
    """Decimal places that show a computed answer finely enough for its allowed error:
    typed as shown, it is right. None when the answer must be exact."""
    if allowed <= 0:
        return None
    return max(0, -math.floor(math.log10(allowed)))


def read(text: str) -> float:
    """A number as ``written`` wrote it, read back: what a learner computes with."""
    return float(text.replace(",", ""))
