"""A grade and the ways a question type makes one: pure, light (no pydantic), shared by
every type module.

A canonical response is one of ``Response``'s forms; each type's module says which.
"""

from __future__ import annotations

from typing import NamedTuple

Response = int | frozenset[int] | bool | float | str | tuple[int, ...]


class Grade(NamedTuple):
    """The result of grading one response: points earned out of the maximum.

    A named tuple rather than a dataclass: it is made on the quiz's start-up path, and a
    dataclass costs its class a few times as much to create."""

    score: float
    max_score: float
    correct: bool
    feedback: tuple[str, ...] = ()


def full_or_nothing(points: float, right: bool) -> Grade:
    """All the points when ``right``, else none."""
    return Grade(score=points if right else 0.0, max_score=points, correct=right)


def scaled(points: float, share: float, feedback: tuple[str, ...] = ()) -> Grade:
    """``share`` (clamped to 0..1) of the points; right only for the whole share."""
    share = min(1.0, max(0.0, share))
    return Grade(score=points * share, max_score=points, correct=share == 1.0, feedback=feedback)


def scored(scoring: str, points: float, share: float, feedback: tuple[str, ...] = ()) -> Grade:
    """Partial credit, or with `all_or_nothing` full points only for a full share."""
    if scoring == "all_or_nothing" and share < 1.0:
        share = 0.0
    return scaled(points, share, feedback)


def index(response: Response, count: int, what: str) -> int:
    """``response`` as an index below ``count``; a programming error otherwise."""
    if isinstance(response, bool) or not isinstance(response, int):
        raise TypeError(f"{what} must be an int, not {type(response).__name__}")
    if not 0 <= response < count:
        raise ValueError(f"{what} {response} is out of range 0..{count - 1}")
    return response
