"""Word-level differences, written for a reviewer reading Markdown (a PR or job summary)."""

from __future__ import annotations

import difflib
import re

CONTEXT = 4  # unchanged words kept on each side of a change
_SPECIAL = re.compile(r"([\\`*_~|<>\[\]])")


def escape(text: str) -> str:
    """Text that Markdown shows as written, on one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def words(old: str, new: str) -> str:
    """`Pick ~~b~~ **a**.`: removed words struck through, added ones bold, long unchanged
    stretches shortened to their ends."""
    before, after = old.split(), new.split()
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    codes = matcher.get_opcodes()
    for number, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag == "equal":
            same = before[i1:i2]
            head = same[:CONTEXT] if number else []
            tail = same[-CONTEXT:] if number < len(codes) - 1 else []
            if len(same) > len(head) + len(tail):
                kept = [*head, "…", *tail] if head or tail else ["…"]
                parts.append(" ".join(escape(w) if w != "…" else w for w in kept))
            else:
                parts.append(escape(" ".join(same)))
            continue
        if i2 > i1:
            parts.append(f"~~{escape(' '.join(before[i1:i2]))}~~")
        if j2 > j1:
            parts.append(f"**{escape(' '.join(after[j1:j2]))}**")
    return " ".join(p for p in parts if p)
