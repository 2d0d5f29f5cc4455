"""Pass or fail against a pass mark, and a score's percentage that never contradicts it.

22.27 of 32 points is 69.59%: shown rounded as "70%" above "Not passed (pass mark 70%)"
it would contradict its own verdict. ``percent`` rounds to whole percents, and only
where that would land on the other side of the mark shows one decimal (69.6%), or, as
a last resort, cuts the digits instead of rounding them (69.99%). The site's
self-check (``self-check.js``) shows percentages by the same rule.
"""

from __future__ import annotations

import math

SLACK = 1e-9  # 0.7 * 10 is 7.000000000000001: a learner exactly on the mark passes


def passes(score: float, max_score: float, pass_mark: float) -> bool:
    """True when ``score`` of ``max_score`` reaches the pass mark (a share, e.g. 0.7)."""
    return score + SLACK >= pass_mark * max_score


def mark_percent(pass_mark: float) -> str:
    """A pass mark as a percentage, with as many decimals as it has: `70%`, `72.5%`."""
    return f"{pass_mark * 100:.2f}".rstrip("0").rstrip(".") + "%"


def percent(score: float, max_score: float, pass_mark: float | None = None) -> str:
    """``score`` of ``max_score`` as a percentage on the same side of ``pass_mark`` as it is.

    Whole percents where that is true to the verdict; otherwise the fewest decimals that
    are (69.6%), and failing those the digits cut off rather than rounded (69.99%).
    Without a pass mark there is nothing to contradict: whole percents, rounded.
    """
    share = score / max_score if max_score > 0 else 0.0
    if pass_mark is None:
        return f"{share * 100:.0f}%"
    passed = passes(score, max_score, pass_mark)
    mark = pass_mark * 100
    for places in (0, 1, 2):
        shown = f"{share * 100:.{places}f}"
        if (float(shown) + SLACK * 100 >= mark) == passed:
            return shown + "%"
    cut = (math.ceil if passed else math.floor)(share * 10_000 + (-SLACK if passed else SLACK))
    return f"{cut / 100:.2f}%"
