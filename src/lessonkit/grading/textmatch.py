"""Text compared as a reader expects: Unicode, case, spaces, and what frames an answer.

Used by the `text` question type (``questiontypes.text``), by the answer-key hash, and by
the results' grouping of free answers. Pure and light.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

# What frames a typed answer without being part of it (see ``text_right``).
_END_PUNCTUATION = ".!?,;:\u2026 "
_QUOTES = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb"}
_ARTICLE = re.compile(r"^(?:the|an|a) (?=\S)", re.IGNORECASE)
_BOTH = re.compile(r"(.+?) ?\((.+)\)")


def normalise_text(text: str, *, case_sensitive: bool = False) -> str:
    """NFKC, then casefold unless ``case_sensitive``, then whitespace collapsed and trimmed."""
    text = unicodedata.normalize("NFKC", text)
    if not case_sensitive:
        text = text.casefold()
    return " ".join(text.split())


def text_right(
    accept: Sequence[str],
    patterns: Sequence[str],
    response: str,
    *,
    case_sensitive: bool = False,
    multiline: bool = False,
) -> bool:
    """Whether a free-text response matches an accepted answer or a whole pattern.

    Both sides are compared after the normalisation a reader expects (``normalise_text``
    and ``bare``): Unicode (NFKC), letter case unless ``case_sensitive``, runs of spaces,
    sentence punctuation at the end (`XLA.`), quotes or backticks around the whole answer,
    and one leading English article (`the ridge point`). An answer that gives two accepted
    forms the usual way, `XLA (Accelerated Linear Algebra)`, is right when each form is.
    Patterns see the text both as typed (spaces collapsed) and bare, so a pattern that
    means to match a full stop still can.

    Deliberately not normalised: extra words (`the XLA compiler`), since no rule tells
    a harmless word from one that changes the answer (`TPU v4` and `TPU v4 pod`, `XLA`
    and `not XLA`); authors who want such forms add them to `accept` or `patterns`
    (`lessonkit report` warns when the accepted forms look too narrow for the prompt).
    Nor are plurals, spelling, punctuation inside the answer (`TPU-v4`), articles of
    other languages, or other joins of two forms (`A or B`, `A/B`, which also write
    hedges). Several-line answers are compared line by line as typed: they are usually
    a program's output, where every character counts.
    """
    if multiline:
        return _lines_right(accept, patterns, response, case_sensitive)
    if _form_right(accept, patterns, response, case_sensitive):
        return True
    both = _BOTH.fullmatch(bare(normalise_text(response, case_sensitive=True)))
    return both is not None and all(
        _form_right(accept, patterns, form, case_sensitive) for form in both.groups()
    )


def bare(text: str) -> str:
    """Normalised text without what frames an answer: end punctuation, quotes, an article."""
    kept = text
    text = text.rstrip(_END_PUNCTUATION)
    if len(text) > 1 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip().rstrip(_END_PUNCTUATION)
    text = _ARTICLE.sub("", text, count=1)
    return text or kept  # an answer that is only punctuation stays what it is


def _form_right(accept: Sequence[str], patterns: Sequence[str], response: str, case: bool) -> bool:
    typed = bare(normalise_text(response, case_sensitive=case))
    if any(typed == bare(normalise_text(a, case_sensitive=case)) for a in accept):
        return True
    # Patterns see the text without casefolding (so `[A-Z]` means what it says) and
    # ignore case through the regex flag instead.
    spaced = normalise_text(response, case_sensitive=True)
    flags = 0 if case else re.IGNORECASE
    forms = (spaced, bare(spaced))
    return any(_compiled(p, flags).fullmatch(form) for p in patterns for form in forms)


def _lines(text: str, *, case_sensitive: bool) -> list[str]:
    lines = [normalise_text(line, case_sensitive=case_sensitive) for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _lines_right(accept: Sequence[str], patterns: Sequence[str], response: str, case: bool) -> bool:
    """Several lines, each compared as one line of text; patterns see them joined by \\n."""
    typed = _lines(response, case_sensitive=case)
    if any(typed == _lines(a, case_sensitive=case) for a in accept):
        return True
    joined = "\n".join(_lines(response, case_sensitive=True))
    flags = 0 if case else re.IGNORECASE
    return any(_compiled(p, flags).fullmatch(joined) for p in patterns)


@lru_cache(maxsize=256)
def _compiled(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)
