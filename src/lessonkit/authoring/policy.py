"""A course's policy: how strictly each rule of the book applies to it, and with which numbers.

What keeps a course correct (valid YAML, the format, unique ids, references that
resolve, the answer-key self-test, links, placeholders) holds for every course. What is
a matter of taste (how many questions an insight needs, which sections a lesson ends
with, how long a page may be) is the course's own choice, written in ``lessonkit.yml``
at its root. A course without the file gets each rule's default, chosen for a general
course.

Each rule is a ``Rule``: an id, what it asks and why, its default level, a pydantic model
of its numbers (``RuleSettings``) and the check that applies it. The policy file's
format is generated from those models, so the JSON Schema for editors
(``lessonkit schema``) and the file lessonkit reads can never disagree.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from lessonkit.bank import yamldoc
from lessonkit.bank.loader import validate
from lessonkit.bank.models import Bank
from lessonkit.course import folder
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import ContentError, Problem, display_path

POLICY_FILE = folder.POLICY_FILE
SCHEMA_FILE = "course-policy.schema.json"

Level = Literal["error", "warn", "advice", "off"]
LEVELS: tuple[Level, ...] = ("error", "warn", "advice", "off")
LEVEL_MEANING: dict[Level, str] = {
    "error": "fails `lessonkit validate`, CI and the site build",
    "warn": "printed by `lessonkit validate`; fails `validate --strict` and the strict site build",
    "advice": "shown by `lessonkit report`; never fails anything",
    "off": "not checked",
}
ALWAYS = "always"  # how `lessonkit rules` shows the level of a rule no course can change


class RuleSettings(BaseModel):
    """A rule's settings in `lessonkit.yml`: its level, and its numbers when it has any."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    level: Level | None = Field(
        None,
        description="How the rule applies: "
        + "; ".join(f"`{name}` {meaning}" for name, meaning in LEVEL_MEANING.items())
        + ". Unset: the rule's default.",
    )

    def values(self) -> dict[str, Any]:
        """The numbers, for the rule's text (`at least {per_insight} questions`)."""
        return {name: value for name, value in self.model_dump().items() if name != "level"}


@dataclass(frozen=True)
class Subject:
    """What a lesson's checks look at: the lesson, its bank when it loaded, and the day."""

    course: Course
    lesson: LessonPage
    bank: Bank | None
    document: yamldoc.Document | None  # the bank as parsed, for positions
    today: dt.date


LessonCheck = Callable[[Subject, Any], Iterable[Problem]]
CourseCheck = Callable[[Course, Any], Iterable[Problem]]


@dataclass(frozen=True)
class Rule:
    """One rule of the book.

    ``text`` may name the rule's numbers as ``{name}`` (``{share:.0%}``); they are filled in
    from the course's settings. A rule without a check is applied while the course is read
    (``course.read_course``): the format, ids, references and the answer key.
    """

    id: str
    text: str
    reason: str
    default: Level = "error"
    settings: type[RuleSettings] = RuleSettings
    lesson_check: LessonCheck | None = None
    course_check: CourseCheck | None = None
    fixed: bool = False  # keeps every course correct: no policy or waiver can change it
    site: bool = True  # the site build applies it too (a preview must not wait for a full bank)

    def describe(self, settings: RuleSettings | None = None) -> str:
        """What the rule asks, with the numbers of ``settings`` (the defaults if None)."""
        return self.text.format_map((settings or self.settings()).values())


def fixed(rule_id: str, text: str, reason: str, **checks: Any) -> Rule:
    """A rule that keeps every course correct: always an error, never waived."""
    return Rule(rule_id, text, reason, fixed=True, **checks)


@dataclass(frozen=True)
class Policy:
    """The course's settings of each rule; rules it does not mention keep their defaults."""

    path: str  # the policy file as an author types it; "" when the course has none
    chosen: Mapping[str, RuleSettings] = dataclasses.field(default_factory=dict)

    def settings(self, rule: Rule) -> RuleSettings:
        # The defaults as declared, not validated: building each rule's validator for that
        # cost 30 ms of every `validate` of a course without a policy file.
        return self.chosen.get(rule.id) or rule.settings.model_construct()

    def level(self, rule: Rule) -> Level:
        if rule.fixed:
            return "error"
        return self.settings(rule).level or rule.default

    def shown_level(self, rule: Rule) -> str:
        return ALWAYS if rule.fixed else self.level(rule)


# --- the file ---------------------------------------------------------------------------


@functools.cache
def policy_model(rules: tuple[Rule, ...]) -> type[BaseModel]:
    """The format of `lessonkit.yml` for these rules: one optional entry per rule a course
    may set. Fixed rules have none: writing one is refused with its reason."""
    config = ConfigDict(extra="forbid", strict=True, frozen=True)
    fields: dict[str, Any] = {
        rule.id: (
            rule.settings,
            Field(default_factory=rule.settings, description=_field_help(rule)),
        )
        for rule in rules
        if not rule.fixed
    }
    rules_model = create_model(
        "Rules", __config__=config, __doc__="Each rule's level and numbers.", **fields
    )
    return create_model(
        "CoursePolicy",
        __config__=config,
        __doc__="A course's policy: `lessonkit.yml` at the course's root. "
        "`lessonkit rules` lists every rule with its default and this course's setting.",
        rules=(
            rules_model,
            Field(default_factory=rules_model, description="Rules this course sets."),
        ),
    )


def _field_help(rule: Rule) -> str:
    return f"{rule.describe()} Why: {rule.reason}. Default: `{rule.default}`."


def read_policy(root: Path, rules: tuple[Rule, ...]) -> tuple[Policy, list[Problem]]:
    """The policy of the course at ``root`` and the problems in its file.

    Every problem is reported; an entry with a problem is left out (its rule keeps its
    default), and the entries that are right still apply, so the rest of the course is
    checked as its authors meant in the same run.
    """
    path = root / POLICY_FILE
    if not path.is_file():
        return Policy(""), []
    shown = display_path(path)
    try:
        document = yamldoc.load(path)
    except ContentError as error:
        return Policy(shown), list(error.problems)
    data, problems = _without_fixed(document, {r.id: r for r in rules})
    _, found = validate(
        policy_model(rules), dataclasses.replace(document, data=data), what="policy"
    )
    problems += found
    given = data.get("rules") if isinstance(data, dict) else None
    chosen: dict[str, RuleSettings] = {}
    for rule in rules:
        entry = given.get(rule.id) if isinstance(given, dict) else None
        if entry is None or rule.fixed:
            continue
        try:
            chosen[rule.id] = rule.settings.model_validate(entry)
        except ValidationError:
            continue  # reported above, at its place in the file
    return Policy(shown, chosen), problems


def _without_fixed(document: yamldoc.Document, rules: dict[str, Rule]) -> tuple[Any, list[Problem]]:
    """The document's data without entries for fixed rules, and a problem for each one."""
    data = document.data
    entries = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return data, []
    problems = [
        document.problem(
            ("rules", name),
            f"rules: `{name}` keeps every course correct, so no course can switch it off "
            "or change it",
            f"remove `{name}`; `lessonkit rules` shows such rules as `{ALWAYS}`",
            key=True,
        )
        for name in entries
        if name in rules and rules[name].fixed
    ]
    kept = {
        name: value for name, value in entries.items() if not (name in rules and rules[name].fixed)
    }
    return {**data, "rules": kept}, problems
