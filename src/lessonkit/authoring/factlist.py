"""What `lessonkit facts` shows: a course's facts by age and kind of source, and where one is
shown, the checklist for updating it.

Pure over what it is given (the course's facts, where they are shown, the day); the CLI
reads the course and prints. ``--used-by`` lists lesson lines first, then questions, each
as `file:line:col`, so an editor can open every place in turn.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lessonkit.authoring.freshness import months_between
from lessonkit.bank import units
from lessonkit.bank.factbook import Fact, FactBook, fact_host
from lessonkit.course.factpages import Use
from lessonkit.errors import UsageError


@dataclass(frozen=True)
class Row:
    """One fact as the list shows it."""

    fact: Fact
    months: int  # since it was last checked
    shown: int  # how many places show it

    @property
    def source(self) -> str:
        return "primary" if self.fact.source.primary else "copy"


def rows(book: FactBook, uses: Sequence[Use], today: dt.date) -> list[Row]:
    """Every fact, the longest unchecked first; copies before primary sources of one age."""
    counts: dict[str, int] = {}
    for use in uses:
        counts[use.fact] = counts.get(use.fact, 0) + 1
    found = [Row(f, months_between(f.checked, today), counts.get(f.id, 0)) for f in book]
    return sorted(found, key=lambda r: (-r.months, r.fact.source.primary, r.fact.id))


def text(found: Sequence[Row]) -> str:
    """The list as aligned columns, one fact a line."""
    if not found:
        return "no facts: add files of `facts:` records under facts/ (see CONTRIBUTING.md)\n"
    head = ("ID", "KIND", "VALUE", "AS OF", "CHECKED", "AGE", "SOURCE", "HOST", "SHOWN")
    table = [head] + [
        (
            r.fact.id,
            r.fact.kind,
            f"{r.fact.value:g} {r.fact.unit}",
            r.fact.as_of.isoformat(),
            r.fact.checked.isoformat(),
            f"{r.months} mo",
            r.source,
            fact_host(r.fact),
            str(r.shown),
        )
        for r in found
    ]
    widths = [max(len(line[n]) for line in table) for n in range(len(head))]
    return "".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        + "\n"
        for line in table
    )


def as_json(found: Sequence[Row]) -> list[dict[str, Any]]:
    """The list for scripts: each record as written, with its age and how often it is shown."""
    return [{**r.fact.to_json(), "age_months": r.months, "shown": r.shown} for r in found]


def used_by(book: FactBook, uses: Sequence[Use], fact_id: str) -> list[Use]:
    """Every place that shows the fact: lesson lines first, then questions, in file order;
    UsageError for a fact the course does not have."""
    if fact_id not in book.facts:
        close = difflib.get_close_matches(fact_id, list(book.facts), n=1, cutoff=0.6)
        hint = f"did you mean `{close[0]}`?" if close else "`lessonkit facts` lists them"
        raise UsageError(f"no fact `{fact_id}` in facts/ ({hint})")
    return [u for u in uses if u.fact == fact_id]


def use_lines(found: Sequence[Use]) -> str:
    """`file:line:col: where`, one a line."""
    return "".join(f"{u.path}:{u.line}:{u.column}: {u.where}\n" for u in found)


def use_json(found: Sequence[Use]) -> list[dict[str, Any]]:
    return [{"path": u.path, "line": u.line, "column": u.column, "where": u.where} for u in found]


def unit_table() -> str:
    """The units a fact may be written in: each base unit, what it measures, its prefixes."""
    table = [("UNIT", "MEASURES", "PREFIXES"), *units.table()]
    widths = [max(len(line[n]) for line in table) for n in range(3)]
    return "".join(
        "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() + "\n"
        for line in table
    )
