"""References to a course's facts, as an author writes them in lessons and banks.

    ((fact h100-sxm.hbm))                          80 GB, as recorded
    ((fact h100-sxm.hbm unit=GiB decimals=1))      74.5 GiB
    ((fact tpu-v6e.price unit=USD/chip-hour significant=3 bare))    2.70

Double parentheses and the word `fact` cannot be read as Markdown (no construct starts with
`((`), as YAML syntax (a plain scalar may start with `(`, unlike `[` or `{`), or as a bank's
`{param}` placeholder; the options are the bank's own words for formats (`decimals`,
`significant`). `bare` leaves out the unit; `unmarked` leaves out a lesson's footnote mark,
for a figure inside a sum whose fact is marked nearby, where a mark would read as an
exponent. Converted without a precision, a value shows
three significant figures; unconverted, as recorded.

In a bank, a parameter's number may be a reference alone (`values: ['((fact …))']`, a
case's number, `min`, `max`, `step`): it becomes the fact's value in the unit asked for, so
an answer key computed from it follows the fact. Everywhere else in a bank (prompt,
explanation, options, hints, feedback) a reference becomes its text. ``resolve_bank`` does
both to a parsed bank before it is validated; ``resolve_text`` does the second for any text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lessonkit.bank import numerals, units
from lessonkit.bank.factbook import ID_PATTERN, Fact

__all__ = ["Citation", "CitationError", "find", "number", "resolve_bank", "resolve_text", "shown"]

OPEN = "((fact"
_REFERENCE = re.compile(r"\(\(fact(?P<body>[^()\n]*)\)\)")
_ID = re.compile(ID_PATTERN)
CONVERTED_SIGNIFICANT = 3
SYNTAX = "((fact ID unit=UNIT decimals=N))"


@dataclass(frozen=True)
class Citation:
    """One reference: the fact it names and how to show it, and where it is in its text."""

    id: str
    unit: str | None
    decimals: int | None
    significant: int | None
    bare: bool
    start: int  # offset of `((` in the text
    end: int  # offset after `))`
    unmarked: bool = False  # no footnote mark on a lesson page (a bank shows none anyway)

    @property
    def text(self) -> str:
        options = [f"unit={self.unit}"] if self.unit else []
        if self.decimals is not None:
            options.append(f"decimals={self.decimals}")
        if self.significant is not None:
            options.append(f"significant={self.significant}")
        options += ["bare"] if self.bare else []
        options += ["unmarked"] if self.unmarked else []
        return f"((fact {' '.join([self.id, *options])}))"


@dataclass(frozen=True)
class CitationError:
    """A reference that is not well formed, or names what the course does not have."""

    message: str
    hint: str
    start: int
    id: str = ""


def find(text: str) -> Iterator[Citation | CitationError]:
    """Every reference in ``text`` in order, or an error for one that is not well formed."""
    if OPEN not in text:
        return
    position = 0
    while (start := text.find(OPEN, position)) >= 0:
        found = _REFERENCE.match(text, start)
        if found is None:
            yield CitationError(
                "a fact reference is not closed",
                f"write `{SYNTAX}` on one line, with no parentheses inside",
                start,
            )
            position = start + len(OPEN)
            continue
        position = found.end()
        yield _read(found.group("body"), start, found.end())


def _read(body: str, start: int, end: int) -> Citation | CitationError:
    words = body.split()
    if not body[:1].isspace() or not words:
        return CitationError("a fact reference names no fact", f"write `{SYNTAX}`", start)
    fact_id, options = words[0], words[1:]
    if not _ID.match(fact_id):
        return CitationError(
            f"`{fact_id}` is not a fact id",
            "ids are lower-case words joined by dots and hyphens, e.g. `h100-sxm.hbm`",
            start,
        )
    given: dict[str, str] = {}
    bare = unmarked = False
    for option in options:
        name, equals, value = option.partition("=")
        if option == "bare":
            bare = True
        elif option == "unmarked":
            unmarked = True
        elif not equals or name not in ("unit", "decimals", "significant") or name in given:
            return CitationError(
                f"`{option}` is not an option of a fact reference",
                "options: `unit=GiB`, `decimals=N` or `significant=N`, `bare` for no unit and "
                "`unmarked` for no footnote mark",
                start,
                fact_id,
            )
        else:
            given[name] = value
    digits = {k: given[k] for k in ("decimals", "significant") if k in given}
    if len(digits) > 1 or any(not v.isdigit() or int(v) > 12 for v in digits.values()):
        return CitationError(
            "give `decimals=N` or `significant=N` (N from 0 to 12), not both",
            "e.g. `decimals=1` for 74.5",
            start,
            fact_id,
        )
    decimals = int(digits["decimals"]) if "decimals" in digits else None
    significant = int(digits["significant"]) if "significant" in digits else None
    if significant == 0:
        return CitationError("`significant=0` shows no figures", "write 1 or more", start, fact_id)
    return Citation(fact_id, given.get("unit"), decimals, significant, bare, start, end, unmarked)


def check(citation: Citation, facts: Mapping[str, Fact]) -> tuple[str, str] | None:
    """Why ``citation`` cannot be shown (a message and a hint), or None when it can."""
    fact = facts.get(citation.id)
    if fact is None:
        import difflib

        close = difflib.get_close_matches(citation.id, list(facts), n=1, cutoff=0.6)
        hint = (
            f"did you mean `{close[0]}`?"
            if close
            else "add it to a file in facts/, or see `lessonkit facts`"
        )
        return f"unknown fact `{citation.id}`", hint
    if citation.unit is not None:
        try:
            units.convert(fact.value, fact.unit, citation.unit)
        except units.UnitError as error:
            return f"fact `{citation.id}`: {error.message}", error.hint
    return None


def number(fact: Fact, citation: Citation) -> float:
    """The fact's value in the unit the reference asks for, rounded as it asks."""
    value = units.convert(fact.value, fact.unit, citation.unit or fact.unit)
    decimals, significant = _digits(fact, citation)
    text = numerals.written(value, decimals=decimals, significant=significant, separators=False)
    return float(text)


def shown(fact: Fact, citation: Citation) -> str:
    """The text a reader sees: `74.5 GiB`, or `74.5` when ``bare``."""
    value = units.convert(fact.value, fact.unit, citation.unit or fact.unit)
    decimals, significant = _digits(fact, citation)
    text = numerals.written(value, decimals=decimals, significant=significant)
    return text if citation.bare else f"{text} {citation.unit or fact.unit}"


def _digits(fact: Fact, citation: Citation) -> tuple[int | None, int | None]:
    significant = citation.significant
    converted = citation.unit is not None and citation.unit != fact.unit
    if converted and significant is None and citation.decimals is None:
        significant = CONVERTED_SIGNIFICANT
    return citation.decimals, significant


def resolve_text(text: str, facts: Mapping[str, Fact]) -> tuple[str, list[CitationError]]:
    """``text`` with each reference replaced by what a reader sees, and what went wrong."""
    if OPEN not in text:
        return text, []
    out: list[str] = []
    errors: list[CitationError] = []
    last = 0
    for found in find(text):
        if isinstance(found, CitationError):
            errors.append(found)
            continue
        out.append(text[last : found.start])
        last = found.end
        why = check(found, facts)
        if why is not None:
            errors.append(CitationError(*why, found.start, found.id))
            out.append(text[found.start : found.end])
        else:
            out.append(shown(facts[found.id], found))
    out.append(text[last:])
    return "".join(out), errors


# --- banks --------------------------------------------------------------------------

# Where in a question a parameter's numbers are: params.NAME.values[i], params.NAME.min …,
# params.NAME.cases.CASE.NUMBER (a question's path starts `questions`, index).
_NUMBER_PATHS = (("values", int), ("min",), ("max",), ("step",), ("cases", str, str))


def _is_number_place(loc: tuple[str | int, ...]) -> bool:
    if len(loc) < 5 or loc[0] != "questions" or loc[2] != "params":
        return False
    rest = loc[4:]
    for shape in _NUMBER_PATHS:
        if len(rest) == len(shape) and rest[0] == shape[0]:
            kinds = zip(rest[1:], shape[1:], strict=True)
            return all(isinstance(part, kind) for part, kind in kinds)
    return False


Located = tuple[tuple[str | int, ...], str, CitationError]  # where, the text, what is wrong


def resolve_bank(data: Any, facts: Mapping[str, Fact]) -> tuple[Any, list[Located]]:
    """A parsed bank's data with every reference resolved (see the module's docstring), and
    each that cannot be, with its path in the data and the text it is in."""
    errors: list[Located] = []
    if not _mentions(data):
        return data, errors

    def walk(value: Any, loc: tuple[str | int, ...]) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, (*loc, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, (*loc, n)) for n, v in enumerate(value)]
        if not isinstance(value, str) or OPEN not in value:
            return value
        if _is_number_place(loc):
            return _number_at(loc, value, facts, errors)
        text, found = resolve_text(value, facts)
        errors.extend((loc, value, error) for error in found)
        return text

    return walk(data, ()), errors


def _number_at(
    loc: tuple[str | int, ...], value: str, facts: Mapping[str, Fact], errors: list[Located]
) -> Any:
    found = list(find(value))
    citation = found[0] if len(found) == 1 else None
    if not isinstance(citation, Citation) or value.strip() != value[citation.start : citation.end]:
        error = next((f for f in found if isinstance(f, CitationError)), None) or CitationError(
            "a parameter's number is a fact reference alone",
            f"write `{SYNTAX}` with nothing around it",
            0,
        )
        errors.append((loc, value, error))
        return value
    why = check(citation, facts)
    if why is not None:
        errors.append((loc, value, CitationError(*why, citation.start, citation.id)))
        return value
    return number(facts[citation.id], citation)


def _mentions(data: Any) -> bool:
    if isinstance(data, str):
        return OPEN in data
    if isinstance(data, dict):
        return any(_mentions(v) for v in data.values())
    if isinstance(data, list):
        return any(_mentions(v) for v in data)
    return False


def used_ids(text: str) -> list[str]:
    """The fact ids a file's text names, in order of first mention, read without parsing it."""
    seen: dict[str, None] = {}
    for found in find(text):
        if isinstance(found, Citation):
            seen.setdefault(found.id, None)
    return list(seen)
