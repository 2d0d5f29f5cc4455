"""A course's facts: dated, sourced figures kept once, in ``facts/*.yml``, and read together.

Each file holds ``facts:``, a list of records: a stable id, a value in an explicit
unit (``units``), the qualifiers that change its meaning (precision, sparsity, region,
commitment …), the day the value applies to (``as_of``) and the day someone last checked
it (``checked``), what kind of figure it is (its age is judged by kind) and its source.
Lessons and banks show a fact through a reference (``citations``), so a changed figure
changes everywhere it is shown. The file's format is ``models.FactFile`` (pydantic, with
the JSON Schema for editors); here is the light form every layer uses once a file is
validated (``Fact``), which the site reads from its cache without pydantic.
``loader.read_facts`` gives the ``FactBook`` of a course folder, every problem at
file:line:col; a course without ``facts/`` has an empty book.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lessonkit.errors import Problem

FOLDER = "facts"
SCHEMA_FILE = "facts.schema.json"
SCHEMA_LINE = f"# yaml-language-server: $schema=../schemas/{SCHEMA_FILE}"
ID_PATTERN = r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$"
KEY_PATTERN = r"^[a-z][a-z0-9_]*$"
Kind = Literal["spec", "price", "other"]
KINDS: tuple[Kind, ...] = ("spec", "price", "other")


@dataclass(frozen=True)
class Publication:
    """Where a figure comes from, and whether that is its origin or a copy."""

    url: str
    title: str
    publisher: str
    primary: bool


@dataclass(frozen=True)
class Fact:
    """One figure as every layer uses it once its file is validated (``models.FactRecord``
    is its format): value and unit, what it means, when it applied, and its source."""

    id: str
    label: str | None
    value: float
    unit: str
    qualifiers: Mapping[str, str]
    as_of: dt.date
    checked: dt.date
    kind: Kind
    source: Publication
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fact as JSON values, days as `YYYY-MM-DD`: what a cache or a script keeps."""
        found = dataclasses.asdict(self)
        found["qualifiers"] = dict(self.qualifiers)
        found["as_of"], found["checked"] = self.as_of.isoformat(), self.checked.isoformat()
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fact:
        """A fact ``to_json`` wrote (from a cache lessonkit wrote, never from an author)."""
        return cls(
            **{
                **data,
                "as_of": dt.date.fromisoformat(data["as_of"]),
                "checked": dt.date.fromisoformat(data["checked"]),
                "source": Publication(**data["source"]),
            }
        )


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
