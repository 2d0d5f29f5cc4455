"""Classical item statistics as pure functions of lists of numbers.

Variances are population variances (divided by n, not n - 1), as KR-20 is defined with
p·q; with them Cronbach's alpha on items scored 0 or 1 is exactly KR-20. Sums use
``math.fsum``, so a class of any size adds up without drift.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Kelley's classic share for the upper and lower groups of the upper-lower index.
GROUP_SHARE = 0.27


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; 0 for no values."""
    return math.fsum(values) / len(values) if values else 0.0


def median(values: Sequence[float]) -> float | None:
    """The middle value (the mean of the two middle ones for an even count); None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def variance(values: Sequence[float]) -> float:
    """The population variance; 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.fsum((v - centre) ** 2 for v in values) / len(values)


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r; None when either list is constant or there are fewer than two pairs.

    With ``xs`` an item's 0/1 scores and ``ys`` the rest-of-test scores this is the
    point-biserial correlation; with partial credit it is the item-rest correlation.
    """
    if len(xs) != len(ys):
        raise ValueError(f"correlation of {len(xs)} values with {len(ys)}")
    if len(xs) < 2:
        return None
    mx, my = mean(xs), mean(ys)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def group_size(count: int) -> int:
    """How many learners each of the upper and lower groups holds: 27%, at least one,
    and never so many that the groups overlap."""
    if count < 2:
        return 0
    return min(count // 2, max(1, round(GROUP_SHARE * count)))


def ranked(totals: Sequence[float], names: Sequence[str]) -> list[int]:
    """Learner positions from the highest total to the lowest; equal totals by name, so
    the groups are the same on every run."""
    return sorted(range(len(totals)), key=lambda i: (-totals[i], names[i]))


def upper_lower(
    shares: Sequence[float], upper: Sequence[int], lower: Sequence[int]
) -> float | None:
    """The upper-lower discrimination index: the upper group's mean share of the item's
    points minus the lower group's. None when a group is empty."""
    if not upper or not lower:
        return None
    return mean([shares[i] for i in upper]) - mean([shares[i] for i in lower])


def alpha(columns: Sequence[Sequence[float]]) -> float | None:
    """Cronbach's alpha of items given as columns of scores (one value per learner, the
    same learners in the same order in each). KR-20 when every item is scored 0 or 1.

    None for fewer than two items or two learners, or when every total is the same.
    """
    items = len(columns)
    if items < 2 or len(columns[0]) < 2:
        return None
    totals = [math.fsum(row) for row in zip(*columns, strict=True)]
    spread = variance(totals)
    if spread <= 0:
        return None
    parts = math.fsum(variance(column) for column in columns)
    return items / (items - 1) * (1 - parts / spread)


def histogram(shares: Sequence[float], bins: int = 10) -> list[int]:
    """How many shares (0 to 1) fall in each of ``bins`` equal bins; 1.0 goes in the last."""
    counts = [0] * bins
    for share in shares:
        counts[min(bins - 1, max(0, int(share * bins + 1e-9)))] += 1
    return counts
