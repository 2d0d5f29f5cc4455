"""A drawn question's numbers in its prompt's own words: `weights take 140 GB, batch of 48
sequences`, where ``variants.shown_numbers`` gives the author's names (`weights_gb = 140`).

Learners never see a parameter's name; they saw the prompt. Each number is shown with
the words around it there: the unit after it and an `of …` or `per …` that says what it
counts, or else the words just before it. A number the prompt does not show is left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from lessonkit.bank import variants

__all__ = ["numbers_in_words"]

# Words that never end a phrase, and never start one.
_LITTLE = """a an the and or at on in with for to each is are it its that this which what how
you your if by from as than when while whose be can will would should per of do does has
have had need needs fit fits take takes about around"""
LITTLE = frozenset(_LITTLE.split())
LINKS = ("of", "per")  # `4 GB of KV cache`, `$20.00 per hour`: what the number counts
UNIT = 2  # words right after a number
AFTER = 3  # words after a link
BEFORE = 2  # words before a number whose link says nothing
START, MIDDLE, END = "\x00", "\x01", "\x02"  # around each number in the rendered prompt
SPACE = "\x03"  # a space inside a number's words while the prompt is cut into words
_MARKED = re.compile(f"{START}[^{MIDDLE}]*{MIDDLE}([^{END}]*){END}")
_MARKED_WHOLE = re.compile(f"{START}[^{END}]*{END}")
_NAMES = re.compile(f"{START}([^{MIDDLE}]*){MIDDLE}")
_CLAUSE_END = re.compile(r"[.,;:?!)]$")


def numbers_in_words(question: Mapping[str, Any], variant: Mapping[str, Any]) -> str:
    """The numbers ``variant`` gave ``question``, each in a phrase of its prompt; the
    author's names (``variants.shown_numbers``) when the prompt cannot be read so."""
    space = variants.Space(question)
    try:  # with the values its formulas and cases give, as the prompt showed them
        values: Mapping[str, Any] = space.values(dict(variant))
    except (ArithmeticError, KeyError, TypeError, ValueError):
        values = variant  # numbers from before the bank drew them: as they were kept

    def marked(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:  # `{{`, `}}`
            return match.group(0)[0]
        if name not in values:
            return match.group(0)
        return f"{START}{name}{MIDDLE}{space.written(name, values[name])}{END}"

    prompt = variants.PLACEHOLDER.sub(marked, str(question.get("prompt", "")))
    # A value of several words (`H100 SXM`) stays one token; emphasis marks go.
    text = _MARKED_WHOLE.sub(lambda m: m.group(0).replace(" ", SPACE), str(prompt))
    tokens = re.sub(r"[*_`]", "", text).split()
    phrases: list[str] = []
    used, named = -1, set[str]()
    for at, token in enumerate(tokens):
        names = set(_NAMES.findall(token))
        if names and at > used and not names <= named:  # each number once, where first shown
            first, used = _phrase(tokens, at, used + 1)
            for t in tokens[first : used + 1]:
                named |= set(_NAMES.findall(t))
            words = " ".join(_MARKED.sub(r"\1", t) for t in tokens[first : used + 1])
            phrases.append(_balanced(words.replace(SPACE, " ").rstrip(".,;:?!")))
    return ", ".join(phrases) if phrases else variants.shown_numbers(question, variant)


def _phrase(tokens: list[str], at: int, floor: int) -> tuple[int, int]:
    """The first and last token of the phrase around the number at ``at``, starting no
    sooner than ``floor`` (where the phrase before it ended)."""
    last = at
    while last + 1 < len(tokens) and START in tokens[last + 1] and not _ends(tokens[last]):
        last += 1  # `{gpus} {chip} GPUs`: numbers side by side are one phrase
    linked = False
    # The unit after a number (`GB`, `sequences`, `8 H100 SXM GPUs`); a name alone, such as
    # a chip's, is followed by what the prompt says of it (`H100 SXM peaks`), not a unit.
    for _ in range(UNIT if any(_numeric(t) for t in tokens[at : last + 1]) else 0):
        if not _ends(tokens[last]) and last + 1 < len(tokens) and _word(tokens[last + 1]):
            last += 1
    if not _ends(tokens[last]) and last + 1 < len(tokens) and tokens[last + 1] in LINKS:
        words = 0
        while (words < AFTER and last + 2 + words <= len(tokens) - 1
               and _word(tokens[last + 2 + words])):  # fmt: skip
            words += 1
            if _ends(tokens[last + 1 + words]):
                break
        if words:
            last, linked = last + 1 + words, True
    while last > at and tokens[last].rstrip(".,;:?!)").casefold() in LITTLE:
        last -= 1  # `… KV cache each`: not the little word
    first = at
    if not linked:
        while first > floor and at - first < BEFORE and not _ends(tokens[first - 1]):
            if START in tokens[first - 1]:
                break
            first -= 1
        while first < at and tokens[first].casefold() in LITTLE:
            first += 1  # `and costs $20`: not the little word
    return first, last


def _numeric(token: str) -> bool:
    """The token holds a number written with digits (`$4.00`, `16,384`), not only a name."""
    return any(re.match(r"[-+$€£]?\d", value) for value in _MARKED.findall(token))


def _balanced(phrase: str) -> str:
    """A bracket the phrase opened closed, one it did not open dropped."""
    if phrase.count("(") > phrase.count(")"):
        return phrase + ")"
    if phrase.count(")") > phrase.count("(") and phrase.endswith(")"):
        return phrase[:-1]
    return phrase


def _ends(token: str) -> bool:
    """The token closes a clause: nothing after it belongs to this number."""
    return bool(_CLAUSE_END.search(_MARKED.sub(r"\1", token)))


def _word(token: str) -> bool:
    """A word that can go on a phrase: not a little word, not another number, not a
    placeholder the numbers kept cannot fill (numbers from before the bank drew them)."""
    plain = token.rstrip(".,;:?!)").casefold()
    return START not in token and "{" not in token and plain not in LITTLE
