"""Units of a course's facts: a small, explicit table, and conversions between compatible units.

A unit is written as authors write it in datasheets and price lists: `GB`, `GiB`, `TB/s`,
`Gbit/s`, `TFLOP/s`, `USD/chip-hour`, `W`. Its numerator and its denominator (after one
`/`, and after another for `TFLOP/s/W`) are products of terms joined by `-` (`chip-hour`),
each term a base unit with an optional prefix. SI prefixes (`k` … `E`) count in thousands
and binary ones (`Ki` … `Ei`, bytes and bits only) in 1,024s, so `GB` and `GiB` are never
the same unit.

Hand-written rather than taken from a units library: the table is forty lines and exact
(factors are fractions), it refuses what a course should not write (`FLOPS`, `Gb`, a
month as 730 hours), and it costs nothing to import. A library such as pint knows
thousands of units a course never needs, has no FLOP or currency-per-chip-hour, and
would add its import time to every page of the site.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Unit", "UnitError", "convert", "from_prose", "parse"]

Prefixes = dict[str, int | Fraction]
_SI: Prefixes = {p: 1000**n for n, p in enumerate("kMGTPE", 1)}
_BINARY: Prefixes = {f"{p}i": 1024**n for n, p in enumerate("KMGTPE", 1)}
_SMALL: Prefixes = {"m": Fraction(1, 10**3), "u": Fraction(1, 10**6), "µ": Fraction(1, 10**6)}
_SMALL_N: Prefixes = {**_SMALL, "n": Fraction(1, 10**9)}


@dataclass(frozen=True)
class _Base:
    dimension: str  # units with the same dimensions convert into each other
    factor: Fraction  # how many of the dimension's reference unit one of these is
    prefixes: tuple[Prefixes, ...] = ()


# Each base unit, the dimension it measures and the prefixes it takes. Bits and bytes
# share a dimension (8 bits a byte); a month is its own, as clouds count it differently.
_BASES: dict[str, _Base] = {
    "B": _Base("information", Fraction(8), (_SI, _BINARY)),
    "bit": _Base("information", Fraction(1), (_SI, _BINARY)),
    "FLOP": _Base("flop", Fraction(1), (_SI,)),
    "OP": _Base("op", Fraction(1), (_SI,)),
    "s": _Base("time", Fraction(1), (_SMALL_N,)),
    "min": _Base("time", Fraction(60)),
    "hour": _Base("time", Fraction(3600)),
    "h": _Base("time", Fraction(3600)),
    "day": _Base("time", Fraction(86400)),
    "month": _Base("month", Fraction(1)),
    "year": _Base("year", Fraction(1)),
    "W": _Base("power", Fraction(1), (_SI, _SMALL)),
    "J": _Base("energy", Fraction(1), (_SI, _SMALL)),
    "Hz": _Base("frequency", Fraction(1), (_SI,)),
    "m": _Base("length", Fraction(1), ({"k": 10**3, **_SMALL_N},)),
    "USD": _Base("USD", Fraction(1)),
    "EUR": _Base("EUR", Fraction(1)),
    "GBP": _Base("GBP", Fraction(1)),
    "chip": _Base("chip", Fraction(1)),
    "node": _Base("node", Fraction(1)),
    "token": _Base("token", Fraction(1), (_SI,)),
    "count": _Base("count", Fraction(1), (_SI,)),
    "%": _Base("count", Fraction(1, 100)),
}
# Spellings that look like units but are ambiguous: what to write instead.
_AMBIGUOUS = {
    "FLOPS": "write `FLOP/s` for a rate (`TFLOP/s`), `FLOP` for an amount",
    "Gb": "write `Gbit` for gigabits or `GB` for gigabytes",
    "b": "write `bit` for bits or `B` for bytes",
    "TOPS": "write `TOP/s`",
    "GHZ": "write `GHz`",
}


# How datasheets and prose often write a rate the table spells otherwise: `989 TFLOPS`,
# `400 Gbps`, `3.35 TBps`. A facts file must write the table's spelling; the check for
# figures typed by hand reads these too (``from_prose``), as that is how authors copy them.
_PROSE: dict[str, str] = {
    prefix + written: prefix + meant
    for prefix in ("", *_SI)
    for written, meant in (
        ("FLOPS", "FLOP/s"),
        ("OPS", "OP/s"),
        ("Bps", "B/s"),
        ("bps", "bit/s"),
        ("b/s", "bit/s"),
    )
}


def from_prose(text: str) -> str:
    """``text`` in the table's spelling when it is a common datasheet spelling of a rate
    (`TFLOPS` is `TFLOP/s`, `Gbps` and `Gb/s` are `Gbit/s`), else ``text`` as it is. For
    reading figures typed in prose only: ``parse`` still refuses these spellings."""
    return _PROSE.get(text, text)


class UnitError(ValueError):
    """A unit that is not in the table, or a conversion between units that measure
    different things; ``hint`` says what to write."""

    def __init__(self, message: str, hint: str) -> None:
        self.message, self.hint = message, hint
        super().__init__(f"{message} ({hint})")


@dataclass(frozen=True)
class Unit:
    """A parsed unit: as written, its dimensions (base → power) and its size in them."""

    text: str
    dimensions: tuple[tuple[str, int], ...]
    factor: Fraction

    def compatible(self, other: Unit) -> bool:
        return self.dimensions == other.dimensions

    @property
    def binary(self) -> bool:
        """Whether it counts bytes or bits in 1,024s (`GiB`), as opposed to thousands."""
        return any(part[:2] in _BINARY for part in _terms(self.text))


@functools.cache
def parse(text: str) -> Unit:
    """The unit written as ``text``; raises UnitError naming what is not in the table."""
    if not text or text != text.strip():
        raise UnitError(f"`{text}` is not a unit", "write a unit such as `GB`, `TB/s` or `W`")
    sides = text.split("/")
    if any(not side for side in sides):
        raise UnitError(f"`{text}`: an empty part around `/`", "write e.g. `TB/s`")
    powers: dict[str, int] = {}
    factor = Fraction(1)
    for number, side in enumerate(sides):
        sign = 1 if number == 0 else -1
        for term in side.split("-"):
            dimension, size = _term(term, text)
            powers[dimension] = powers.get(dimension, 0) + sign
            factor = factor * size if sign > 0 else factor / size
    dimensions = tuple(sorted((d, p) for d, p in powers.items() if p))
    return Unit(text, dimensions, factor)


def _terms(text: str) -> list[str]:
    return [term for side in text.split("/") for term in side.split("-")]


def _term(term: str, whole: str) -> tuple[str, Fraction]:
    where = "" if term == whole else f"`{whole}`: "
    if term in _AMBIGUOUS:
        raise UnitError(f"{where}`{term}` is ambiguous", _AMBIGUOUS[term])
    if term in _PROSE:
        raise UnitError(f"{where}`{term}` is ambiguous", f"write `{_PROSE[term]}` for a rate")
    if term in _BASES:
        base = _BASES[term]
        return base.dimension, base.factor
    for name, base in _BASES.items():
        if term.endswith(name) and len(term) > len(name):
            prefix = term[: -len(name)]
            for table in base.prefixes:
                if prefix in table:
                    return base.dimension, base.factor * Fraction(table[prefix])
    if term.endswith(("byte", "bytes")):
        written = term.removesuffix("s").removesuffix("byte")
        return_hint = f"write `B` for bytes: `{written}B`"
        raise UnitError(f"{where}unknown unit `{term}`", return_hint)
    close = difflib.get_close_matches(term, _spellings(), n=1, cutoff=0.5)
    hint = f"did you mean `{close[0]}`? " if close else ""
    raise UnitError(f"{where}unknown unit `{term}`", hint + "(`lessonkit facts --units`)")


@functools.cache
def _spellings() -> list[str]:
    """Every unit the table can spell, prefixed or not, for "did you mean"."""
    found = list(_BASES)
    for name, base in _BASES.items():
        found += [prefix + name for table in base.prefixes for prefix in table if prefix != "u"]
    return found


def convert(value: float, source: str, target: str) -> float:
    """``value`` in unit ``source`` expressed in ``target``; UnitError when they measure
    different things (`GB` to `TB/s`) or either is unknown."""
    if source == target:
        return value
    have, want = parse(source), parse(target)
    if not have.compatible(want):
        raise UnitError(
            f"cannot convert `{source}` to `{target}`: they measure different things",
            f"ask for a unit like `{source}`, or use another fact",
        )
    return float(Fraction(value) * have.factor / want.factor)


def other_basis(text: str) -> str | None:
    """The same unit counted the other way, binary for SI and SI for binary (`GB` and
    `GiB`, `TB/s` and `TiB/s`); None when it counts no bytes or bits."""
    twins = {**{si: f"{si}i" for si in "MGTPE"}, "k": "Ki", **{f"{b}i": b for b in "MGTPE"}}
    twins["Ki"] = "k"
    changed = False
    sides = []
    for side in text.split("/"):
        terms = []
        for term in side.split("-"):
            for base in ("B", "bit"):
                prefix = term[: -len(base)] if term.endswith(base) else None
                if prefix in twins:
                    term, changed = twins[prefix] + base, True
                    break
            terms.append(term)
        sides.append("-".join(terms))
    return "/".join(sides) if changed else None


def table() -> list[tuple[str, str, str]]:
    """Each base unit, its dimension and the prefixes it takes (`lessonkit facts --units`)."""
    rows = []
    for name, base in _BASES.items():
        prefixes = " ".join(p for table in base.prefixes for p in table if p != "µ")
        rows.append((name, base.dimension, prefixes))
    return rows
