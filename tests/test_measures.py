"""The item statistics against values worked out by hand (each derivation in a comment).

The class: six learners, four questions scored 0 or 1.

    learner   q1 q2 q3 q4   total
    L1         1  1  1  1     4
    L2         1  1  1  0     3
    L3         1  1  0  0     2
    L4         1  0  1  0     2
    L5         0  1  0  0     1
    L6         1  0  0  0     1
"""

from __future__ import annotations

import math

import pytest

from lessonkit.results import measures

ITEMS = {
    "q1": [1, 1, 1, 1, 0, 1],
    "q2": [1, 1, 1, 0, 1, 0],
    "q3": [1, 1, 0, 1, 0, 0],
    "q4": [1, 0, 0, 0, 0, 0],
}
TOTALS = [4, 3, 2, 2, 1, 1]
NAMES = ["L1", "L2", "L3", "L4", "L5", "L6"]


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        # q1: x-x̄ = 1/6 (five times), -5/6; rest = 3,2,1,1,1,0 about 4/3. Sxy = 1/18 + 5/18 = 1/3,
        # Sxx = 5/6, Syy = 16/3: r = (1/3) / sqrt(40/9) = 1 / (2·sqrt 10).
        ("q1", 1 / (2 * math.sqrt(10))),
        # q2: rest = 3,2,1,2,0,1 about 3/2; Sxy = 1/3·(1.5+0.5-0.5-1.5) - 2/3·(0.5-0.5) = 0.
        ("q2", 0.0),
        # q3: rest = 3,2,2,1,1,1 about 5/3; Sxy = 1, Sxx = 3/2, Syy = 10/3: r = 1/sqrt 5.
        ("q3", 1 / math.sqrt(5)),
        # q4: rest = 3,3,2,2,1,1 about 2; Sxy = 5/6 + 1/6 = 1, Sxx = 5/6, Syy = 4: r = sqrt 0.3.
        ("q4", math.sqrt(0.3)),
    ],
)
def test_point_biserial_against_the_rest_of_the_quiz(item: str, expected: float) -> None:
    scores = ITEMS[item]
    rest = [t - s for t, s in zip(TOTALS, scores, strict=True)]
    found = measures.correlation(scores, rest)
    assert found is not None
    assert found == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("item", "expected"),
    # Upper group L1, L2 (totals 4, 3); lower group L5, L6 (totals 1, 1): 27% of 6 is 1.62 → 2.
    [("q1", 1 - 0.5), ("q2", 1 - 0.5), ("q3", 1 - 0), ("q4", 0.5 - 0)],
)
def test_upper_lower_index_with_27_percent_groups(item: str, expected: float) -> None:
    order = measures.ranked(TOTALS, NAMES)
    size = measures.group_size(len(TOTALS))
    assert size == 2
    assert order[:size] == [0, 1] and order[-size:] == [4, 5]
    shares = [float(s) for s in ITEMS[item]]
    assert measures.upper_lower(shares, order[:size], order[-size:]) == pytest.approx(expected)


def test_kr20_of_the_six_learners() -> None:
    # p = 5/6, 4/6, 3/6, 1/6, so Σpq = (5 + 8 + 9 + 5)/36 = 3/4; the totals' variance is
    # 35/6 - (13/6)² = 41/36; KR-20 = 4/3 · (1 - (3/4)/(41/36)) = 4/3 · 14/41 = 56/123.
    assert measures.alpha(list(ITEMS.values())) == pytest.approx(56 / 123, abs=1e-12)


def test_cronbach_alpha_with_partial_credit() -> None:
    # Items [2,1,0] (variance 2/3) and [1,1,0] (2/9); totals 3,2,0 (variance 14/9):
    # alpha = 2 · (1 - (8/9)/(14/9)) = 6/7.
    assert measures.alpha([[2, 1, 0], [1, 1, 0]]) == pytest.approx(6 / 7, abs=1e-12)


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        ([[1, 0, 1]], None),  # one item: alpha is undefined
        ([[1], [0]], None),  # one learner
        ([[1, 1], [0, 0]], None),  # every total the same
    ],
)
def test_alpha_undefined(columns: list[list[float]], expected: None) -> None:
    assert measures.alpha(columns) is expected


@pytest.mark.parametrize(
    ("values", "expected"),
    [([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), ([7], 7), ([], None)],
)
def test_median(values: list[float], expected: float | None) -> None:
    assert measures.median(values) == expected


@pytest.mark.parametrize(
    ("count", "size"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 1), (6, 2), (10, 3), (100, 27)]
)
def test_group_size_is_27_percent_never_overlapping(count: int, size: int) -> None:
    assert measures.group_size(count) == size


def test_correlation_is_undefined_for_a_constant_item() -> None:
    assert measures.correlation([1, 1, 1], [3, 2, 1]) is None
    assert measures.correlation([1], [1]) is None


def test_score_shares_of_the_six_learners() -> None:
    shares = [t / 4 for t in TOTALS]  # 1, .75, .5, .5, .25, .25
    assert measures.mean(shares) == pytest.approx(13 / 24)
    assert math.sqrt(measures.variance(shares)) == pytest.approx(math.sqrt(41) / 24)
    assert measures.histogram(shares) == [0, 0, 2, 0, 0, 2, 0, 1, 0, 1]
    assert measures.histogram([0.0, 0.1, 0.3, 0.7, 0.999, 1.0]) == [1, 1, 0, 1, 0, 0, 0, 1, 0, 2]
