"""Short-answer wildcards (Moodle's and GIFT's `*`) as lessonkit's accepted answers or patterns."""

from __future__ import annotations

import re


def pattern_from_wildcards(answer: str) -> tuple[str, str]:
    """``("accept", text)`` for a literal answer, ``("pattern", regex)`` for one with `*`.

    `*` stands for any run of characters; `\\*` is a literal star, as Moodle writes it.
    """
    parts = re.split(r"(?<!\\)\*", answer)
    if len(parts) == 1:
        return "accept", answer.replace("\\*", "*")
    pieces = [re.escape(part.replace("\\*", "*")) for part in parts]
    return "pattern", ".*".join(pieces)
