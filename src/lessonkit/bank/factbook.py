"""A course's facts: dated, sourced figures kept once, in ``facts/*.yml``, and read together.

Each file holds ``facts:``, a list of records (``Fact``): a stable id, a value in an explicit
unit (``units``), the qualifiers that change its meaning (precision, sparsity, region,
commitment …), the day the value applies to (``as_of``) and the day someone last checked
it (``checked``), what kind of figure it is (its age is judged by kind) and its source.
Lessons and banks show a fact through a reference (``citations``), so a changed figure
changes everywhere it is shown. ``loader.read_facts`` gives the ``FactBook`` of a course
folder, every problem at file:line:col; a course without ``facts/`` has an empty book.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator

from lessonkit.bank import units
from lessonkit.bank.fields import Strict, Text
from lessonkit.errors import Problem

FOLDER = "facts"
SCHEMA_FILE = "facts.schema.json"
SCHEMA_LINE = f"# yaml-language-server: $schema=../schemas/{SCHEMA_FILE}"
ID_PATTERN = r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$"
_KEY_PATTERN = r"^[a-z][a-z0-9_]*$"
Kind = Literal["spec", "price", "other"]
KINDS: tuple[Kind, ...] = ("spec", "price", "other")

FactId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN,
        max_length=120,
        description="A stable id: lower-case words joined by dots and hyphens, e.g. "
        "`h100-sxm.bf16-dense`. Lessons and questions name it; never reuse one.",
    ),
]
# Not strict: YAML 1.2 reads `2026-11-27` as text, which is how an author writes a day.
Day = Annotated[dt.date, Field(strict=False, description="A day, written `YYYY-MM-DD`.")]


class Source(Strict):
    """Where a figure comes from, and whether that is its origin or a copy."""

    url: str = Field(pattern=r"^https://[^\s/$.?#][^\s]*$", description="An `https://` address.")
    title: Text = Field(description="The page's or document's title.")
    publisher: Text = Field(description="Who published it, e.g. `NVIDIA`, `Google Cloud`.")
    primary: bool = Field(
        description="`true` when the publisher is the figure's origin (the vendor's datasheet "
        "or price list); `false` for a copy, a report or a third party's table."
    )


class Fact(Strict):
    """One figure: its value and unit, what it means, when it applied, and its source."""

    id: FactId
    label: Text | None = Field(
        None,
        max_length=120,
        description="How a table names the fact, e.g. `H100 SXM, BF16 dense`; the id if unset.",
    )
    value: float = Field(description="The number, in `unit`, as the source gives it.")
    unit: str = Field(
        min_length=1,
        max_length=40,
        description="Its unit with an explicit prefix: `GB` or `GiB`, `TB/s`, `Gbit/s`, "
        "`TFLOP/s`, `USD/chip-hour`, `W`. `lessonkit facts --units` lists the table.",
    )
    qualifiers: dict[Annotated[str, Field(pattern=_KEY_PATTERN)], Text] = Field(
        default_factory=dict,
        max_length=12,
        description="What changes the figure's meaning: `{precision: bf16, sparsity: dense}`, "
        "`{region: us-central1, commitment: on-demand}`. A table mixing two values of one "
        "qualifier is flagged.",
    )
    as_of: Day = Field(description="The day the value applies to, e.g. a launch or price date.")
    checked: Day = Field(description="The day someone last checked it against the source.")
    kind: Kind = Field(
        description="`spec`, `price` or `other`; the course's policy sets how old each may be."
    )
    source: Source = Field(description="Where the figure comes from: address, title, publisher.")
    note: Text | None = Field(None, description="Anything a reader of the figure should know.")

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, text: str) -> str:
        try:
            units.parse(text)
        except units.UnitError as error:
            raise ValueError(f"{error.message} ({error.hint})") from None
        return text


class FactFile(Strict):
    """A file of facts: `facts/<topic>.yml` in a course."""

    facts: list[Fact] = Field(min_length=1, description="The facts, each with a unique id.")


@dataclass(frozen=True)
class Place:
    """Where something is written: a file as shown to authors, a line and a column."""

    path: str
    line: int
    column: int

    def problem(self, message: str, hint: str = "") -> Problem:
        return Problem(self.path, self.line, self.column, message, hint)


@dataclass
class FactBook:
    """Every fact of a course by id, where each is written, and the files' problems."""

    facts: dict[str, Fact] = field(default_factory=dict)
    places: dict[str, Place] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    files: tuple[Path, ...] = ()

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts.values())

    def __bool__(self) -> bool:
        return bool(self.facts)


def files(root: Path) -> tuple[Path, ...]:
    """The fact files of the course at ``root``, sorted: `facts/*.yml` and `*.yaml`."""
    folder = root / FOLDER
    if not folder.is_dir():
        return ()
    return tuple(sorted((*folder.glob("*.yml"), *folder.glob("*.yaml")), key=lambda p: p.name))


def fact_host(fact: Fact) -> str:
    """The host of a fact's source, without `www.`."""
    found = re.match(r"https://([^/:?#]+)", fact.source.url)
    return (found.group(1) if found else "").lower().removeprefix("www.")
