"""A score's percentage is never shown on the other side of the pass mark from its verdict."""

from __future__ import annotations

import pytest

from lessonkit.grading.passmark import mark_percent, passes, percent


@pytest.mark.parametrize(
    ("score", "max_score", "mark", "shown"),
    [
        (22.27, 32, 0.7, "69.6%"),  # 69.59%: "70%" would sit above "Not passed (pass mark 70%)"
        (16, 23, 0.7, "69.6%"),  # 69.57%
        (6.999, 10, 0.7, "69.99%"),  # even one decimal rounds up to the mark: two
        (6.99999, 10, 0.7, "69.99%"),  # and failing that, the digits are cut, not rounded
        (7, 10, 0.7, "70%"),  # exactly on the mark passes, and says so
        (0.7 * 3, 3, 0.7, "70%"),  # 2.0999999999999996 of 3 is on the mark, not under it
        (2.5, 3, 0.6, "83%"),  # far from the mark: whole percents, rounded
        (1, 3, 0.5, "33%"),
        (0, 7, 0.9, "0%"),
        (7.06, 10, 0.705, "71%"),  # a mark with a decimal: whole percents while they agree
        (7.04, 10, 0.705, "70%"),
        (7.05, 10, 0.705, "70.5%"),  # on the mark: "70%" (or 71%) would contradict it
    ],
)
def test_percent_agrees_with_the_verdict(
    score: float, max_score: float, mark: float, shown: str
) -> None:
    assert percent(score, max_score, mark) == shown
    number = float(shown.rstrip("%"))
    assert (number >= mark * 100 - 1e-9) == passes(score, max_score, mark)


def test_without_a_pass_mark_whole_percents() -> None:
    assert percent(22.27, 32) == "70%"
    assert percent(1, 0) == "0%"


def test_pass_marks_show_their_decimals() -> None:
    assert (mark_percent(0.7), mark_percent(0.725), mark_percent(0.6)) == ("70%", "72.5%", "60%")
