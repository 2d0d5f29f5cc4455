"""The rule book as people read it: `lessonkit rules`, and the lists in CONTRIBUTING.md and
the pull-request template (a test keeps those equal to ``rules_markdown``)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from lessonkit.authoring.policy import ALWAYS, LEVEL_MEANING, Policy, Rule
from lessonkit.authoring.rulebook import RULES


def rules_markdown(policy: Policy | None = None, *, levels: Iterable[str] = ()) -> str:
    """The rule book as a Markdown list with each rule's setting in the course, as
    CONTRIBUTING.md (every rule) and the pull-request template (``levels``) show it."""
    policy = policy or Policy("")
    wanted = set(levels)
    lines = []
    for rule in RULES:
        shown = policy.shown_level(rule)
        if wanted and shown not in wanted:
            continue
        default = "" if rule.fixed or shown == rule.default else f"; default `{rule.default}`"
        text = rule.describe(policy.settings(rule))
        lines.append(f"- **{rule.id}** (`{shown}`{default}): {text} *Why:* {rule.reason}.\n")
    return "".join(lines)


def rules_text(policy: Policy, rules: Iterable[Rule] = RULES, width: int = 80) -> str:
    """The rule book for a terminal: each rule's id, level in this course and default, what
    it asks, why, and its numbers against their defaults."""
    source = (
        f"as this course's {policy.path} sets it"
        if policy.path
        else "with its defaults (this course has no lessonkit.yml)"
    )
    head = [f"The rule book, {source}. Levels:"]
    meanings = [(ALWAYS, "keeps every course correct; no course can change it")]
    meanings += [(str(level), meaning) for level, meaning in LEVEL_MEANING.items()]
    head += [f"  {name:<7} {meaning}" for name, meaning in meanings]
    blocks = ["\n".join(head)]
    for rule in rules:
        blocks.append(_one(rule, policy, width))
    return "\n\n".join(blocks) + "\n"


def _one(rule: Rule, policy: Policy, width: int) -> str:
    shown = policy.shown_level(rule)
    default = "" if rule.fixed or shown == rule.default else f" (default: {rule.default})"
    settings = policy.settings(rule)
    lines = [f"{rule.id}: {shown}{default}"]
    lines += _wrapped(rule.describe(settings), width)
    lines += _wrapped(f"Why: {rule.reason}.", width)
    defaults = rule.settings().values()
    numbers = [
        f"{name}: {_value(value)}"
        + ("" if value == defaults[name] else f" (default: {_value(defaults[name])})")
        for name, value in settings.values().items()
    ]
    if numbers:
        lines += _wrapped("Settings: " + "; ".join(numbers), width)
    return "\n".join(lines)


def _wrapped(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  ") or ["  "]


def _value(value: object) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)
