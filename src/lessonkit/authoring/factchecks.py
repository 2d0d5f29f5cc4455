"""Checks that keep a course's facts honest (``bank.factbook``), each a rule of the book.

Every reference must resolve (a rule no course can change); the rest are the course's
policy: a fact not checked for longer than its kind allows, a source that is a copy or on
a host the policy does not call primary, a table that mixes bases (dense with sparse, GB
with GiB), a figure typed with the wrong prefix (80 GiB for an 80 GB fact), and a figure
typed by hand that a reference would keep true (but not in a picture's alt text, which
describes a picture that stays as drawn). A course without `facts/` is checked
exactly as before: each check returns at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from pydantic import Field

from lessonkit.authoring.freshness import add_months
from lessonkit.authoring.pagechecks import blank_code
from lessonkit.authoring.policy import Rule, RuleSettings, Subject, fixed
from lessonkit.bank import citations, units
from lessonkit.bank.factbook import Fact, fact_host
from lessonkit.course import factpages, markers
from lessonkit.course.course import Course
from lessonkit.course.factpages import Use
from lessonkit.course.lessons import body_lines
from lessonkit.errors import Problem, display_path

# A number as prose writes it, then a unit: `80 GB`, `3.35 TB/s`, `1,979 TFLOP/s`, `989 TFLOPS`.
_FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?[ \u00a0]?([A-Za-zµ%][\w/%-]*)")


def _references(subject: Subject, settings: RuleSettings) -> list[Problem]:
    """Each reference or facts table in a lesson names a known fact and a unit it converts to
    (a bank's references are checked as the bank is read)."""
    lesson = subject.lesson
    if citations.OPEN not in lesson.body and "lessonkit:facts" not in lesson.body:
        return []
    lines = lesson.body.splitlines()
    expanded = factpages.expand(lines, subject.course.factbook.facts, first_line=lesson.body_line)
    shown = display_path(lesson.path)
    problems = [Problem(shown, p.line, p.column, p.message, p.hint) for p in expanded.problems]
    for number, line in body_lines(lesson):
        if line.startswith("#") and citations.OPEN in line:
            problems.append(
                Problem(
                    shown, number, line.index(citations.OPEN) + 1,
                    "a fact reference in a heading: its anchor, and the links to it, would "
                    "change with the figure",
                    "name the thing in the heading and give the figure in the text below it",
                )
            )  # fmt: skip
    return sorted(problems)


# --- where facts are shown, worked out once per check ------------------------------------

# The course last asked about and where its facts are shown: the age and source checks
# both name the places, and reading every page twice would cost a large course twice.
_memo: dict[int, tuple[Course, list[Use]]] = {}


def shown_places(course: Course) -> list[Use]:
    """Every place the course shows one of its facts (worked out once per checked course)."""
    return _uses(course)


def _uses(course: Course) -> list[Use]:
    kept = _memo.get(id(course))
    if kept is None or kept[0] is not course:
        _memo.clear()
        kept = (course, factpages.course_uses(course.root))
        _memo[id(course)] = kept
    return kept[1]


def _shown_at(course: Course, fact_id: str) -> str:
    places = [u for u in _uses(course) if u.fact == fact_id]
    if not places:
        return "shown nowhere yet"
    listed = [
        f"{u.path}:{u.line}" + (f" ({u.where})" if u.where.startswith("q") else "") for u in places
    ]
    more = f" and {len(listed) - 5} more" if len(listed) > 5 else ""
    return "shown at " + ", ".join(listed[:5]) + more


# --- age --------------------------------------------------------------------------------


class FactAge(RuleSettings):
    spec_months: int = Field(24, ge=1, le=240, description="Months a `spec` fact stays fresh.")
    price_months: int = Field(6, ge=1, le=240, description="Months a `price` fact stays fresh.")
    other_months: int = Field(12, ge=1, le=240, description="Months any other fact stays fresh.")


def _age(course: Course, settings: FactAge) -> list[Problem]:
    from lessonkit.course.day import today as _today

    today = getattr(course, "today", None) or _today()
    problems: list[Problem] = []
    for fact in course.factbook:
        months = getattr(settings, f"{fact.kind}_months")
        place = course.factbook.places[fact.id]
        if fact.checked > today:
            problems.append(
                place.problem(
                    f"fact `{fact.id}` was checked on {fact.checked}, which is in the future",
                    f"write the day you checked it, e.g. `checked: {today}`",
                )
            )
        elif add_months(fact.checked, months) < today:
            problems.append(
                place.problem(
                    f"fact `{fact.id}` ({fact.kind}) was last checked on {fact.checked}, more "
                    f"than {months} months ago; {_shown_at(course, fact.id)}",
                    "check it against its source, then set `checked:` (and `value:` and "
                    "`as_of:` if it changed)",
                )
            )
    return problems


# --- sources ----------------------------------------------------------------------------


class FactSources(RuleSettings):
    primary_hosts: list[str] = Field(
        default_factory=list,
        description="Hosts whose pages count as primary sources, e.g. `nvidia.com`, "
        "`cloud.google.com` (subdomains included). Empty: trust each fact's `primary:`.",
    )


def _sources(course: Course, settings: FactSources) -> list[Problem]:
    hosts = [h.lower().removeprefix("www.") for h in settings.primary_hosts]
    problems: list[Problem] = []
    for fact in course.factbook:
        place = course.factbook.places[fact.id]
        host = fact_host(fact)
        if not fact.source.primary:
            message = (
                f"fact `{fact.id}` rests on a copy ({fact.source.publisher}, {host}), not "
                f"its origin; {_shown_at(course, fact.id)}"
            )
            hint = "find the figure where it was first published and cite that"
        elif hosts and not any(host == h or host.endswith(f".{h}") for h in hosts):
            message = (
                f"fact `{fact.id}`: its source's host {host} is not among the policy's primary "
                f"hosts; {_shown_at(course, fact.id)}"
            )
            hint = "cite the vendor's own page, or add the host to `primary_hosts` in lessonkit.yml"
        else:
            continue
        problems.append(place.problem(message, hint))
    return problems


# --- tables -----------------------------------------------------------------------------


class MixedBasis(RuleSettings):
    qualifiers: list[str] = Field(
        default_factory=lambda: ["sparsity", "commitment"],
        description="Qualifiers every fact of one table must share, e.g. `sparsity` "
        "(dense or sparse) and `commitment` (on demand or reserved).",
    )


def _mixed_tables(subject: Subject, settings: MixedBasis) -> list[Problem]:
    """A facts table, or a line that sets figures side by side, on different bases."""
    facts, lesson = subject.course.factbook.facts, subject.lesson
    if not facts or (citations.OPEN not in lesson.body and "lessonkit:facts" not in lesson.body):
        return []
    problems: list[Problem] = []
    shown = display_path(lesson.path)
    for number, line in body_lines(lesson):
        found = _side_by_side(line, facts, settings.qualifiers)
        if found:
            problems.append(
                Problem(
                    shown, number, 1, found,
                    "compare like with like: choose facts on one basis, or say `unit=` "
                    "to show every value in one unit",
                )
            )  # fmt: skip
    return problems


def _side_by_side(line: str, facts: Mapping[str, Fact], qualifiers: list[str]) -> str:
    """What a table marker, or a line of text with several references, mixes; "" if nothing."""
    if line.startswith("<!--") and "lessonkit:facts" in line:
        try:
            marker = markers.read(line)
        except markers.MarkerError:
            return ""  # reported by the markers rule
        if marker is None or marker.kind != "facts":
            return ""
        ids, options, _ = factpages.table_options(marker.name.split())
        known = [facts[i] for i in ids if i in facts]
        why = _mixed(known, qualifiers, converted="unit" in options)
        return f"this table mixes {why}" if why else ""
    if line.count(citations.OPEN) < 2:
        return ""
    cited = [c for c in citations.find(line) if isinstance(c, citations.Citation)]
    # Figures compared in one line: those in units that convert into each other.
    for first in cited:
        fact = facts.get(first.id)
        if fact is None:
            continue
        alike = [
            (c, facts[c.id])
            for c in cited
            if c.id in facts and _ratio(facts[c.id].unit, fact.unit) is not None
        ]
        shown_units = {c.unit or f.unit for c, f in alike}
        why = _mixed([f for _, f in alike], qualifiers, converted=len(shown_units) == 1)
        if why:
            return f"this line sets figures side by side on different bases: {why}"
    return ""


def _mixed(facts: list[Fact], qualifiers: list[str], *, converted: bool) -> str:
    for name in qualifiers:
        values = {f.qualifiers[name] for f in facts if name in f.qualifiers}
        if len(values) > 1:
            return f"{name}: " + " with ".join(sorted(values))
    if not converted:
        for fact in facts:
            twin = units.other_basis(fact.unit)
            if twin and any(other.unit == twin for other in facts):
                return f"units: {fact.unit} with {twin}"
    return ""


# --- figures typed in prose ------------------------------------------------------------------


# path, line, column, as typed, number, unit, and whether it is in a picture's alt text
Typed = tuple[str, int, int, str, float, str, bool]


def _typed(subject: Subject) -> Iterator[Typed]:
    """Every figure typed in a lesson's prose, then in its bank's texts (read as lines of
    the file, so that a reference's value never counts as typed)."""
    lesson = subject.lesson
    shown = display_path(lesson.path)
    for number, raw in body_lines(lesson):
        line = blank_code(raw)
        if not line.startswith(("<!--", "[^", "*[")):
            yield from _figures(shown, number, line)
    if subject.document is None:
        return
    try:
        text = Path(subject.document.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return  # reported where the bank is read
    for number, line in enumerate(text.splitlines(), 1):
        if not line.lstrip().startswith("#"):
            yield from _figures(subject.document.path, number, line)


def _figures(path: str, number: int, line: str) -> Iterator[Typed]:
    line = _blank_references(line)
    if not any(c.isdigit() for c in line):
        return
    alts = factpages.alt_spans(line) if "alt" in line or "![" in line else []
    for found in _FIGURE.finditer(line):
        # `989 TFLOPS` as the table spells it: authors copy figures as vendors write them.
        unit = units.from_prose(found.group(3).rstrip(".,;:"))
        try:
            units.parse(unit)
        except units.UnitError:
            continue
        value = float(found.group(1).replace(",", "") + (found.group(2) or ""))
        text = found.group(0)[: found.end(3) - found.start(0)].rstrip(".,;:")
        in_alt = any(start <= found.start() < end for start, end in alts)
        yield path, number, found.start() + 1, text, value, unit, in_alt


def _blank_references(line: str) -> str:
    if citations.OPEN not in line:
        return line
    for found in citations.find(line):
        if isinstance(found, citations.Citation):
            line = line[: found.start] + " " * (found.end - found.start) + line[found.end :]
    return line


def _decimals(typed: str) -> int:
    digits = re.match(r"[\d,]+(?:\.(\d+))?", typed)
    return len(digits.group(1) or "") if digits else 0


def _equal(text: str, typed: float, value: float) -> bool:
    """Whether the figure typed (``text``, read as ``typed``) is ``value`` at the precision
    it was typed with. One significant digit (`4 TB/s`) is too rough to name a fact."""
    digits = re.match(r"[\d,.]+", text)
    if digits is None or len(digits.group(0).replace(",", "").replace(".", "").lstrip("0")) < 2:
        return False
    places = _decimals(text)
    return round(value, places) == round(typed, places)


@functools.cache
def _ratio(source: str, target: str) -> float | None:
    """What one `source` is in `target`, or None when they measure different things."""
    have, want = units.parse(source), units.parse(target)
    return float(have.factor / want.factor) if have.compatible(want) else None


def _candidates(facts: Iterable[Fact], unit: str) -> Iterator[tuple[Fact, float]]:
    """Each fact in units ``unit`` converts to, with its value in ``unit``."""
    for fact in facts:
        ratio = _ratio(fact.unit, unit)
        if ratio is not None:
            yield fact, fact.value * ratio


def _slips(subject: Subject, settings: RuleSettings) -> list[Problem]:
    """A figure that is a fact's value read with the other prefix: 80 GiB for 80 GB."""
    book = subject.course.factbook
    if not book:
        return []
    problems: list[Problem] = []
    for path, line, column, text, value, unit, _ in _typed(subject):
        for fact, right in _candidates(book, unit):
            twin = units.other_basis(fact.unit)
            ratio = _ratio(twin, unit) if twin else None
            # Equal to both at the precision typed: nothing says which basis was meant.
            if ratio is None or not _equal(text, value, fact.value * ratio):
                continue
            if _equal(text, value, right):
                continue
            problems.append(
                Problem(
                    path, line, column,
                    f"`{text}` reads fact `{fact.id}` ({fact.value:g} {fact.unit}) as "
                    f"{fact.value:g} {twin}; in {unit} it is {right:.3g}",
                    f"write `((fact {fact.id} unit={unit}))`",
                )
            )  # fmt: skip
            break
    return problems


def _hand_typed(subject: Subject, settings: RuleSettings) -> list[Problem]:
    """A figure typed by hand that equals a fact: a reference would keep it true."""
    book = subject.course.factbook
    if not book:
        return []
    problems: list[Problem] = []
    for path, line, column, text, value, unit, in_alt in _typed(subject):
        if in_alt:
            continue  # it describes the picture, whose figures a reference would not change
        for fact, shown in _candidates(book, unit):
            if _equal(text, value, shown):
                problems.append(
                    Problem(
                        path, line, column,
                        f"`{text}` is fact `{fact.id}` typed by hand; it will not follow the fact",
                        f"write `((fact {fact.id} unit={unit}))`",
                    )
                )  # fmt: skip
                break
    return problems


FACT_REFERENCES = fixed(
    "fact-references",
    "Every `((fact ID …))` and `<!-- lessonkit:facts … -->` names a fact in `facts/` and asks "
    "for a unit it converts to, outside headings and a picture's alt text; fact files follow "
    "`schemas/facts.schema.json`.",
    "an unknown fact or a conversion between different quantities cannot be shown",
    lesson_check=_references,
)
FACT_AGE = Rule(
    "fact-age",
    "A fact was checked against its source within {spec_months} months (a `spec`), "
    "{price_months} months (a `price`) or {other_months} months (any other).",
    "prices and specs change; the warning names every page and question that shows the fact",
    default="warn",
    settings=FactAge,
    course_check=_age,
)
FACT_SOURCE = Rule(
    "fact-source",
    "A fact's source is its origin (`primary: true`) on a host the policy lists as primary.",
    "a third party's copy of a vendor's figure may be wrong or out of date, and a reader "
    "cannot tell",
    default="warn",
    settings=FactSources,
    course_check=_sources,
)
MIXED_BASIS = Rule(
    "mixed-basis",
    "A facts table, or a line that sets facts side by side, does not mix values of the "
    "qualifiers {qualifiers}, nor GB with GiB.",
    "a dense figure beside a sparse one, or GB beside GiB, compares unlike things",
    default="warn",
    settings=MixedBasis,
    lesson_check=_mixed_tables,
)
PREFIX_SLIP = Rule(
    "prefix-slip",
    "A figure typed in a lesson or its bank is not a fact's value read with the other prefix "
    "(80 GiB for an 80 GB fact).",
    "GB and GiB differ by 7%, TB and TiB by 10%",
    default="warn",
    lesson_check=_slips,
)
HAND_TYPED = Rule(
    "hand-typed-figure",
    "A figure in a lesson or its bank that equals one of the course's facts is a reference to "
    "it; a picture's alt text excepted, as it says what the picture shows, and the figures "
    "drawn in a picture do not follow a fact.",
    "a figure typed by hand stays as it is when the fact changes",
    default="advice",
    lesson_check=_hand_typed,
)
RULES = (FACT_REFERENCES, FACT_AGE, FACT_SOURCE, MIXED_BASIS, PREFIX_SLIP, HAND_TYPED)
