"""Waivers: a question or a lesson that does not follow one rule of the course, and says why.

A question's `waive:` covers what a rule finds inside that question in its bank; a
lesson's covers what a rule finds anywhere in the lesson's page. Only rules a course may
set can be waived: what keeps a course correct (the format, references, the answer key,
links…) cannot. `lessonkit report` lists every waiver with its reason, so a reviewer
sees each exception, and says when one no longer waives anything.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lessonkit.authoring.policy import Level, Rule
from lessonkit.bank import yamldoc
from lessonkit.bank.fields import Waiver
from lessonkit.course.course import Course
from lessonkit.errors import Problem, display_path


@dataclass(frozen=True, order=True)
class Finding:
    """What one rule found, at the level the course's policy gives the rule."""

    problem: Problem
    rule: str
    level: Level
    lesson: str = ""  # the lesson it belongs to, when a lesson's check found it


@dataclass(frozen=True)
class Grant:
    """One waiver as written: where, for what, why, and what it waived in this run."""

    path: str
    line: int
    column: int
    owner: str  # `questions[3] (gvt-id)` or `the lesson`
    rule: str
    reason: str
    waived: int = 0

    def __str__(self) -> str:
        used = (
            f"waives {self.waived} finding{'' if self.waived == 1 else 's'}"
            if self.waived
            else "waives nothing now: remove it"
        )
        return (
            f"{self.path}:{self.line}:{self.column}: {self.owner} waives `{self.rule}`: "
            f"{self.reason} ({used})"
        )


@dataclass(frozen=True)
class _Scope:
    """Lines of one file a set of waivers covers."""

    path: str
    first: int
    last: int
    waivers: tuple[tuple[Waiver, int], ...]  # each waiver and its index in `waive`
    document: yamldoc.Document
    loc: tuple[str | int, ...]  # where `waive` is
    owner: str

    @property
    def prefix(self) -> str:
        """`questions[3].` for a question's waivers, nothing for a lesson's."""
        return f"questions[{self.loc[1]}]." if self.loc else ""


def _scopes(course: Course) -> list[_Scope]:
    scopes: list[_Scope] = []
    for slug, bank in course.banks.items():
        if not any(question.waive for question in bank.questions):
            continue  # most banks waive nothing: no need to place every question
        document = course.bank_documents[slug]
        starts = [document.locate(("questions", i))[0] for i in range(len(bank.questions))]
        ends = [start - 1 for start in starts[1:]] + [10**9]
        for index, question in enumerate(bank.questions):
            if question.waive:
                scopes.append(
                    _Scope(
                        document.path, starts[index], ends[index],
                        tuple((w, n) for n, w in enumerate(question.waive)), document,
                        ("questions", index), f"questions[{index}] ({question.id})",
                    )
                )  # fmt: skip
    for lesson in course.lessons.values():
        if lesson.meta.waive:
            waivers = tuple((w, n) for n, w in enumerate(lesson.meta.waive))
            shown = display_path(lesson.path)
            scopes.append(_Scope(shown, 1, 10**9, waivers, lesson.front, (), "the lesson"))
    return scopes


def check(course: Course, rules: Sequence[Rule]) -> list[Problem]:
    """Waivers that name no rule, or a rule that keeps every course correct."""
    known = {rule.id: rule for rule in rules}
    problems: list[Problem] = []
    for scope in _scopes(course):
        for waiver, number in scope.waivers:
            loc = (*scope.loc, "waive", number, "rule")
            label = f"{scope.prefix}waive[{number}].rule"
            rule = known.get(waiver.rule)
            if rule is None:
                close = difflib.get_close_matches(waiver.rule, list(known), n=1)
                hint = f"did you mean `{close[0]}`?" if close else "`lessonkit rules` lists them"
                problems.append(
                    scope.document.problem(loc, f"{label}: no rule `{waiver.rule}`", hint)
                )
            elif rule.fixed:
                problems.append(
                    scope.document.problem(
                        loc,
                        f"{label}: `{waiver.rule}` keeps every course correct and cannot be waived",
                        "fix what it reports instead",
                    )
                )
    return problems


def apply(
    course: Course, findings: Iterable[Finding], fixed: set[str]
) -> tuple[list[Finding], list[Finding], list[Grant]]:
    """The findings split into those that stand and those waived, and every waiver with
    how much it waived."""
    scopes = _scopes(course)
    counts: dict[tuple[int, int], int] = {}
    kept: list[Finding] = []
    waived: list[Finding] = []
    for finding in findings:
        match = None if finding.rule in fixed else _waiver_for(scopes, finding)
        if match is None:
            kept.append(finding)
        else:
            counts[match] = counts.get(match, 0) + 1
            waived.append(finding)
    grants = []
    for place, scope in enumerate(scopes):
        for waiver, number in scope.waivers:
            line, column = scope.document.locate((*scope.loc, "waive", number))
            grants.append(
                Grant(
                    scope.path, line, column, scope.owner, waiver.rule, waiver.reason,
                    counts.get((place, number), 0),
                )
            )  # fmt: skip
    return kept, waived, sorted(grants, key=lambda g: (g.path, g.line, g.column))


def _waiver_for(scopes: list[_Scope], finding: Finding) -> tuple[int, int] | None:
    problem = finding.problem
    for place, scope in enumerate(scopes):
        if scope.path != problem.path or not scope.first <= problem.line <= scope.last:
            continue
        for waiver, number in scope.waivers:
            if waiver.rule == finding.rule:
                return place, number
    return None
