"""What an answer cost the learner: seconds on screen and hints asked for, saved with it.

Class results (`lessonkit results`) report each question's median time and how often
its hint was used; both are measured here, on the learner's machine, and leave it only
in a file the learner exports on purpose.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable


class Effort:
    """When each question was last put on screen, and how often its hint was shown.

    Times come from a monotonic clock, so a wall-clock change mid-quiz (a laptop
    resyncing, a time-zone move) cannot make an answer take negative or hours of time.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._shown: dict[str, float] = {}
        self._hints: Counter[str] = Counter()

    def shown(self, question_id: str) -> None:
        """The question is on screen now (again, after an undo: the new answer's time)."""
        self._shown[question_id] = self._clock()

    def hinted(self, question_id: str) -> None:
        """The learner asked for the question's hint (counted across an undo)."""
        self._hints[question_id] += 1

    def spent(self, question_id: str) -> tuple[float | None, int]:
        """Seconds since the question was shown (None if it never was), and hints asked for."""
        shown = self._shown.get(question_id)
        seconds = None if shown is None else round(self._clock() - shown, 1)
        return seconds, self._hints[question_id]
