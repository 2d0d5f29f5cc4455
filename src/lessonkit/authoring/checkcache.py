"""The last check of a course, kept so that `lessonkit validate` re-reads only what changed.

A full check reads every file: tens of seconds for a course of a thousand lessons, on
every commit. So the result is kept in ``.cache/lessonkit/validate.json`` in the course
folder: every problem, filed under the file it is in, and each file's facts (what the
checks of other files need of it; ``course.facts``). The next run reads again only the
files whose content changed and their partners, checks them against the kept facts of
the rest, and takes every other file's problems from the cache.

What it is keyed on (``fingerprint``): lessonkit's code and the libraries that decide what
is valid, the files directly in the course folder, and the list of files under
``content/`` and ``quizzes/``, any change to which makes the next run a full one; and
each of those files by the SHA-256 of its bytes. Size, inode, modification and change
times only say when the hash must be computed again; a file modified less than two
seconds before it was hashed is hashed again every run, since a second edit in the same
clock tick would leave every time as it was (git's "racily clean" rule).

Why a run that reads only some files reports what a full run would:

- a file's own problems depend only on its bytes, which its hash covers;
- checks across files read other files' facts, never their text: the course's facts are
  the kept ones plus those of every file read now, so they are current;
- the checks that read a partner's content (a bank against its lesson's headings, a
  lesson's insights against its bank, the first lesson naming a bank scanning it, a
  plan page's `lessonkit quiz` commands against its lessons' quizzes) have
  their partners read too, by the old facts and by the new (``facts.partners``);
- what a changed file could change in files that are not read is checked after the
  run: whether a lesson loads, its title, a plan's list of lessons, and the lines that make a
  page's anchors (headings, code fences, explicit ids), which other pages link to. If
  any changed, the run is done again in full. Duplicate question ids, which tie every
  bank to every other, are worked out from the facts of all banks on every run;
- the problems of each file read come from this run only; the kept ones of the others
  are still right, since nothing they depend on changed. A run that read a file which
  changed while it ran keeps nothing (a file it did not read is kept with the times
  and hash it had when the run began, so the next run sees the change);
- one rule depends on the day, not only on files: a lesson falls due for review as days
  pass. Each lesson's problems are kept with the span of days over which the `review`
  rule says the same of it (``freshness.steady``); on a day outside that span the lesson
  counts as changed and is read again.

Errors and warnings are kept apart, each filed under its file; each warning with the id
of the rule that found it, so what is counted by rule (lessons overdue for review) is
counted the same from the cache.

`lessonkit validate --full` ignores the cache (and writes a fresh one); CI runs that.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lessonkit.authoring import fingerprint
from lessonkit.authoring.fingerprint import Stat
from lessonkit.course import cachefile
from lessonkit.course.day import today as _today
from lessonkit.course.facts import (
    Facts,
    LessonFacts,
    PlanFacts,
    Scope,
    from_json,
    partners,
    to_json,
)
from lessonkit.errors import Problem, display_path

if TYPE_CHECKING:
    from lessonkit.authoring.rulebook import CheckedCourse
    from lessonkit.course.course import Course

FORMAT = 3  # 3: each warning keeps its rule; a bank's ids are packed (facts.PackedIds)
CACHE = Path(".cache") / "lessonkit" / "validate.json"
_SETTLED_NS = 2_000_000_000
# The lines a page's anchors are made from: headings, code fences (a heading inside a
# fence is none), and `{#id}` or `id="…"` anywhere.
_ANCHOR_LINES = re.compile(r"^[ \t]*(?:#|```|~~~).*$|^.*(?:\{[^}\n]*#[\w-]|\bid\s*=).*$", re.M)

Warned = tuple[Problem, str]  # a warning and the id of the rule that found it


@dataclass(frozen=True)
class Checked:
    """What a check found, and the facts of every file (for counting what was checked)."""

    problems: list[Problem]  # errors
    warned: list[Warned]  # what fails only `validate --strict`, with the rule that found it
    facts: dict[Path, Facts]
    read: int  # files read this run; all of them in a full run

    @property
    def warnings(self) -> list[Problem]:
        return [problem for problem, _ in self.warned]

    def found_by(self, rule: str) -> list[Problem]:
        """The warnings of one rule."""
        return [problem for problem, found in self.warned if found == rule]


def check(
    root: Path,
    extra_banks: Iterable[Path] = (),
    *,
    full: bool = False,
    today: dt.date | None = None,
) -> Checked:
    """Check the course at ``root`` as ``rulebook.check_course`` does on ``today`` (by
    default ``course.day.today()``), reading only what changed since the last check when
    the cache allows it; see the module's docstring."""
    day = today or _today()
    extra = list(extra_banks)
    if extra:  # banks outside the course: check everything, keep nothing
        course = _check_course(root, day, extra)
        return Checked(course.problems, _warned(course), course.facts, len(course.facts))
    key, stats = fingerprint.key(root, day), fingerprint.scan(root)
    kept = None if full else _kept(root, key, stats)
    if kept is None:
        return _full(root, key, stats, day)
    hashes = _hashes(root, stats, kept["files"])
    changed = {rel for rel, entry in hashes.items() if entry[1] != kept["files"][rel][1]}
    changed |= _due(kept["steady"], day)
    try:
        old = {root / rel: from_json(value) for rel, value in kept["facts"].items()}
    except (ValueError, TypeError):  # a cache edited by hand: read everything again
        return _full(root, key, stats, day)
    if not changed:
        problems = [_problem(root, p) for p in kept["problems"] + kept["across"]]
        warned = [_warning(root, p) for p in kept["warnings"]]
        _write(root, key, stats, hashes, kept, None)
        return Checked(sorted(problems), sorted(warned), old, 0)
    paths = {root / rel for rel in changed}
    if any(
        p.suffix == ".md" and not isinstance(old.get(p), LessonFacts | PlanFacts) for p in paths
    ):
        return _full(root, key, stats, day)  # neither lesson nor plan: the home page
    scope = Scope(frozenset(paths | partners(paths, old)), old)
    course = _check_course(root, day, scope=scope)
    skeletons = _skeletons(course)
    assert course.read_files is not None
    if any(_moved(path, old, course, kept, skeletons) for path in course.read_files):
        return _full(root, key, stats, day)
    read = {_relative(root, p) for p in course.read_files}
    across = set(course.across)
    fresh = [p for p in course.problems if p not in across and _file_of(root, p) in read]
    warned = [w for w in _warned(course) if _file_of(root, w[0]) in read]
    kept_problems = [p for p in kept["problems"] if p[0] not in read]
    kept_warnings = [p for p in kept["warnings"] if p[0] not in read]
    problems = [*(_problem(root, p) for p in kept_problems), *fresh, *course.across]
    warnings = [*(_warning(root, p) for p in kept_warnings), *warned]
    _write(root, key, stats, hashes, kept, (course, read, fresh, warned, skeletons))
    return Checked(sorted(problems), sorted(warnings), course.facts, len(read))


def _check_course(
    root: Path, today: dt.date, extra: Iterable[Path] = (), scope: Scope | None = None
) -> CheckedCourse:
    # The rule book imports pydantic and Markdown: only a run that reads files needs them.
    from lessonkit.authoring.rulebook import check_course

    return check_course(root, extra, scope=scope, today=today)


def _warned(course: CheckedCourse) -> list[Warned]:
    return [(f.problem, f.rule) for f in course.findings if f.level == "warn"]


def _due(steady: dict[str, list[str]], today: dt.date) -> set[str]:
    """Lessons on whose review the rule says something else today than when last read."""
    day = today.isoformat()
    return {rel for rel, (first, last) in steady.items() if not first <= day <= last}


def _steady(course: CheckedCourse) -> dict[str, list[str]]:
    """For each lesson read, the days over which its `review` verdict stays as it is now."""
    from lessonkit.authoring import freshness

    if course.policy.level(freshness.REVIEW) == "off":
        return {}
    settings = course.policy.settings(freshness.REVIEW)
    assert isinstance(settings, freshness.Review)
    return {
        _relative(course.root, lesson.path): [
            day.isoformat() for day in freshness.steady(lesson, settings, course.today)
        ]
        for lesson in course.lessons.values()
    }


# --- a full run -----------------------------------------------------------------------


def _full(root: Path, key: dict[str, Any], stats: dict[str, Stat], today: dt.date) -> Checked:
    course = _check_course(root, today)
    hashes = _hashes(root, stats, {})
    skeletons = _skeletons(course)
    across = set(course.across)
    if fingerprint.scan(root) == stats:  # nothing changed while it ran
        cachefile.write(
            root / CACHE,
            {
                "format": FORMAT,
                "key": key,
                "files": hashes,
                "facts": {_relative(root, p): to_json(f) for p, f in course.facts.items()},
                "skeletons": {_relative(root, p): s for p, s in skeletons.items()},
                "problems": [_row(root, p) for p in course.problems if p not in across],
                "warnings": [[*_row(root, p), rule] for p, rule in _warned(course)],
                "across": [_row(root, p) for p in course.across],
                "steady": _steady(course),
            },
        )
    return Checked(course.problems, _warned(course), course.facts, len(course.facts))


def _write(
    root: Path,
    key: dict[str, Any],
    stats: dict[str, Stat],
    hashes: dict[str, list[Any]],
    kept: dict[str, Any],
    ran: tuple[CheckedCourse, set[str], list[Problem], list[Warned], dict[Path, str]] | None,
) -> None:
    """Keep the new hashes (and what a partial run found) unless a file read changed meanwhile."""
    if ran is None:
        if hashes == kept["files"]:
            return
        value = {**kept, "files": hashes}
    else:
        course, read, fresh, warned, skeletons = ran
        if not fingerprint.unchanged(root, stats, read):
            return
        # The facts of files not read are the kept ones: 2,000 of them cost 10 ms to convert.
        facts = {p: course.facts[p] for p in course.read_files or () if p in course.facts}
        value = {
            **kept,
            "files": hashes,
            "facts": {
                **kept["facts"],
                **{_relative(root, p): to_json(f) for p, f in facts.items()},
            },
            "skeletons": {
                **kept["skeletons"],
                **{_relative(root, p): s for p, s in skeletons.items()},
            },
            "problems": [p for p in kept["problems"] if p[0] not in read]
            + [_row(root, p) for p in fresh],
            "warnings": [p for p in kept["warnings"] if p[0] not in read]
            + [[*_row(root, p), rule] for p, rule in warned],
            "across": [_row(root, p) for p in course.across],
            "steady": {
                **{rel: span for rel, span in kept["steady"].items() if rel not in read},
                **_steady(course),
            },
        }
    cachefile.write(root / CACHE, value)


# --- which files changed -------------------------------------------------------------


def _kept(root: Path, key: dict[str, Any], stats: dict[str, Stat]) -> dict[str, Any] | None:
    """The cache, if it was written for this key and this same list of files."""
    kept = cachefile.read(root / CACHE)
    try:
        usable = (
            kept["format"] == FORMAT and kept["key"] == key and set(kept["files"]) == set(stats)
        )
    except (KeyError, TypeError):
        return None
    return kept if usable else None


def _hashes(root: Path, stats: dict[str, Stat], kept: dict[str, Any]) -> dict[str, list[Any]]:
    """[stat, SHA-256, settled] of every file, hashed again unless its kept stat is settled."""
    now = time.time_ns()
    out: dict[str, list[Any]] = {}
    for rel, stat in stats.items():
        entry = kept.get(rel)
        if entry is not None and entry[0] == list(stat) and entry[2]:
            out[rel] = entry
            continue
        try:
            digest = hashlib.sha256((root / rel).read_bytes()).hexdigest()
        except OSError:
            digest = ""
        out[rel] = [list(stat), digest, now - stat[2] > _SETTLED_NS]
    return out


# --- what a partial run must not have changed -------------------------------------------


def _skeletons(course: Course) -> dict[Path, str]:
    """For each lesson and plan read, a digest of the lines its anchors are made from."""
    pages = [*course.lessons.values(), *course.plans.values()]
    return {
        page.path: hashlib.sha256("\n".join(_ANCHOR_LINES.findall(page.body)).encode()).hexdigest()
        for page in pages
    }


def _moved(
    path: Path, old: dict[Path, Facts], course: Course, kept: dict[str, Any], new: dict[Path, str]
) -> bool:
    """Whether a page read now changed in a way that files not read could see."""
    before, after = old.get(path), course.facts.get(path)
    if not isinstance(before, LessonFacts | PlanFacts):
        return False  # a bank: what others see of it is in the facts, read afresh
    if isinstance(before, LessonFacts) and isinstance(after, LessonFacts):
        if (before.quiz is None) != (after.quiz is None):
            return True  # whether it loads: plans and "did you mean" hints see that
        if before.title != after.title:
            return True  # the lesson after it names it, when it links back
    elif before != after:
        return True  # a plan's list of lessons, or a change of kind
    return bool(new.get(path) != kept["skeletons"].get(_relative(course.root, path)))


# --- problems as kept ---------------------------------------------------------------------


def _relative(root: Path, path: Path) -> str:
    text, prefix = str(path), f"{root}{os.sep}"
    if text.startswith(prefix):  # the common case, without pathlib's cost
        return text[len(prefix) :].replace(os.sep, "/")
    # Problems name files relative to the working directory, or absolutely outside it.
    return (Path.cwd() / path).relative_to(root).as_posix()


def _file_of(root: Path, problem: Problem) -> str:
    try:
        return _relative(root, Path(problem.path))
    except ValueError:
        return problem.path


def _row(root: Path, problem: Problem) -> list[Any]:
    return [_file_of(root, problem), problem.line, problem.column, problem.message, problem.hint]


def _problem(root: Path, row: list[Any]) -> Problem:
    rel, line, column, message, hint = row[:5]
    return Problem(display_path(root / rel), line, column, message, hint)


def _warning(root: Path, row: list[Any]) -> Warned:
    return _problem(root, row), row[5]
