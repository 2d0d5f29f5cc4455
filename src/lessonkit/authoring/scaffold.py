"""`lessonkit new lesson`: a lesson page and its bank from the templates, listed in plan and nav.

The draft follows the course's own policy: as many example questions per insight as
`min-questions` asks, tagged `application` or `recall` when `application-share` is on,
the closing sections `sections` requires, and a link back to the plan's previous lesson.
Once its `TODO(lessonkit)` placeholders are replaced, it passes `validate --strict`.

Everything is checked and every new text is worked out before the first file is
written, so a refusal changes nothing. Existing files are edited as text, one
inserted line each, so their comments and layout stay as the author left them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from lessonkit.authoring import questionmix, sections
from lessonkit.authoring.policy import Policy
from lessonkit.authoring.rulebook import MIN_QUESTIONS, read_policy
from lessonkit.bank.fields import SLUG_PATTERN
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.course.lessons import read_lesson, read_plan
from lessonkit.errors import ContentError, UsageError
from lessonkit.questiontypes import registry

_SLUG = re.compile(SLUG_PATTERN)
# A YAML plain scalar that needs no quotes: letters first, nothing YAML reads specially.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.'()&/+-]*\Z")
_NAV_ITEM = re.compile(r"^(\s*)- ")


@dataclass(frozen=True)
class Change:
    """One file to write: its path, new text, and whether it is new."""

    path: Path
    text: str
    created: bool


def template(name: str) -> str:
    """A template shipped in the package (``lesson.md``, ``bank.yml``)."""
    return (
        resources.files("lessonkit.authoring")
        .joinpath("templates", name)
        .read_text(encoding="utf-8")
    )


def plan_changes(root: Path, slug: str, plan: str, title: str, today: dt.date) -> list[Change]:
    """Every file `new lesson` writes, worked out without writing; UsageError if it must refuse."""
    _check_slug(slug)
    title = _check_title(title)
    index = root / "content" / plan / "index.md"
    if not _SLUG.match(plan) or not index.is_file():
        raise UsageError(f"unknown plan `{plan}`: {_plans_hint(root)}")
    lesson_path = root / "content" / plan / f"{slug}.md"
    bank_paths = [root / "quizzes" / f"{slug}{suffix}" for suffix in BANK_SUFFIXES]
    taken = [p for p in [*root.glob(f"content/*/{slug}.md"), *bank_paths] if p.exists()]
    if taken:
        shown = ", ".join(str(p.relative_to(root)) for p in taken)
        verb = "exists" if len(taken) == 1 else "exist"
        raise UsageError(f"the slug `{slug}` is taken: {shown} already {verb}; choose another")
    policy, _ = read_policy(root)  # a broken policy file is validate's to report
    per_insight = _per_insight(policy)
    values = {
        "slug": slug,
        "plan": plan,
        "title": yaml_text(title),
        "today": today.isoformat(),
        "month": f"{today:%Y-%m}",
        "previous": _previous(index),
        "per_insight": str(per_insight),
    }
    values["closing"] = fill(_closing(policy), values)
    values["questions"] = example_questions(slug, per_insight, _share(policy))
    changes = [
        Change(lesson_path, fill(template("lesson.md"), values), created=True),
        Change(bank_paths[0], fill(template("bank.yml"), values), created=True),
        Change(index, add_to_plan(index, slug), created=False),
    ]
    config = root / "mkdocs.yml"
    if config.is_file():
        text = config.read_text(encoding="utf-8")
        changes.append(Change(config, add_to_nav(text, plan, slug, title), created=False))
    return changes


def write(changes: list[Change]) -> None:
    """Write the files; new ones are created exclusively so a race cannot overwrite a lesson."""
    for change in changes:
        change.path.parent.mkdir(parents=True, exist_ok=True)
        mode = "x" if change.created else "w"
        with change.path.open(mode, encoding="utf-8", newline="") as file:
            file.write(change.text)


def new_lesson(root: Path, slug: str, plan: str, title: str, today: dt.date) -> list[Change]:
    """Scaffold a lesson; returns what was written."""
    changes = plan_changes(root, slug, plan, title, today)
    write(changes)
    return changes


# --- the draft, as the course's policy asks --------------------------------------------

INSIGHTS = ("first", "second", "third")  # the template's insights


def _per_insight(policy: Policy) -> int:
    """Example questions per insight: what `min-questions` asks, and enough for every
    question type to appear once."""
    every_type = -(-len(registry.names()) // len(INSIGHTS))
    if policy.level(MIN_QUESTIONS) == "off":
        return every_type
    return max(int(policy.settings(MIN_QUESTIONS).values()["per_insight"]), every_type)


def _share(policy: Policy) -> float | None:
    """The share of `application` questions the course asks for; None if it does not tag."""
    rule = questionmix.APPLICATION_SHARE
    if policy.level(rule) == "off":
        return None
    return float(policy.settings(rule).values()["share"])


def example_questions(slug: str, per_insight: int, share: float | None) -> str:
    """``per_insight`` example questions for each insight, cycling through the question
    types (each type's ``example``); with ``share``, the first of each insight's are
    tagged `application`."""
    kinds = registry.types()
    applied = math.ceil(per_insight * share) if share is not None else 0
    out: list[str] = []
    for insight, ordinal in enumerate(INSIGHTS, start=1):
        for number in range(per_insight):
            index = len(out)
            kind = kinds[index % len(kinds)]
            tags = ""
            if share is not None:
                tags = f"\n    tags: [{'application' if number < applied else 'recall'}]"
            out.append(
                fill(
                    kind.example.strip("\n"),
                    {
                        "id": f"{slug}-{kind.name.replace('_', '-')}-{index + 1}",
                        "insight": str(insight),
                        "section": f"{insight}-todolessonkit-state-the-{ordinal}-insight",
                        "tags": tags,
                    },
                )
            )
    return "\n\n".join(out)


def _closing(policy: Policy) -> str:
    """The `##` sections the course requires, from the template where it has them."""
    rule = sections.SECTIONS
    if policy.level(rule) == "off":
        return ""
    known = {
        block.split("\n", 1)[0][3:].casefold(): block
        for block in re.split(r"\n(?=## )", template("closing.md"))
    }
    required = [str(name) for name in policy.settings(rule).values()["required"]]
    written = [
        known.get(name.casefold(), f"## {name}\n\nTODO(lessonkit): What goes here.\n")
        for name in required
    ]
    return "\n".join(block.rstrip("\n") + "\n" for block in written) + "\n"


def _previous(index: Path) -> str:
    """A sentence linking back to the plan's last lesson, which the new one follows."""
    try:
        lessons = read_plan(index).meta.lessons
    except ContentError:
        return ""  # add_to_plan refuses such a plan with its problems
    page = index.parent / f"{lessons[-1]}.md"
    try:
        title = read_lesson(page).meta.title
    except ContentError:
        title = lessons[-1]
    return f"\nThis lesson builds on [{title}]({page.name}): read it first if you have not.\n"


# --- checks ------------------------------------------------------------------------------


def _check_slug(slug: str) -> None:
    if not _SLUG.match(slug) or len(slug) > 80:
        suggestion = re.sub(r"[^a-z0-9]+", "-", slug.lower()).strip("-")
        hint = f"e.g. `{suggestion}`" if suggestion and _SLUG.match(suggestion) else ""
        raise UsageError(
            f"`{slug}` is not a valid slug: use lower-case letters and digits joined by "
            f"single hyphens{', ' + hint if hint else ''}"
        )


def _check_title(title: str) -> str:
    title = " ".join(title.split())
    if not title:
        raise UsageError('the title is empty: give one with --title "…"')
    return title


def _plans_hint(root: Path) -> str:
    content = root / "content"
    plans = sorted(p.parent.name for p in content.glob("*/index.md")) if content.is_dir() else []
    if not plans:
        return "there is no content/<plan>/index.md here; run this in the course's folder"
    return "choose one of " + ", ".join(f"`{p}`" for p in plans)


# --- text edits --------------------------------------------------------------------------


def yaml_text(text: str) -> str:
    """``text`` as a YAML scalar: plain when that is safe, otherwise double-quoted."""
    if _PLAIN.match(text) and ": " not in text and not text.endswith(":"):
        return text
    return json.dumps(text, ensure_ascii=False)  # JSON strings are YAML double-quoted scalars


def fill(text: str, values: dict[str, str]) -> str:
    """Replace each ``{{name}}`` in a template."""
    for name, value in values.items():
        text = text.replace("{{" + name + "}}", value)
    return text


def add_to_plan(index: Path, slug: str) -> str:
    """The plan page with ``slug`` appended to its front matter's `lessons` list."""
    try:
        plan = read_plan(index)
    except ContentError as error:
        raise UsageError(
            f"{index.name} of the plan has problems; fix them first:\n{error}"
        ) from None
    text = index.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    first_line, first_column = plan.front.locate(("lessons",))
    line, column = plan.front.locate(("lessons", len(plan.meta.lessons) - 1))
    if lines[first_line - 1][first_column - 1] == "[":
        # A flow list, `lessons: [a, b]`: add before its closing bracket.
        offset = sum(len(row) for row in lines[: line - 1]) + column - 1
        close = text.index("]", offset)
        return f"{text[:close]}, {slug}{text[close:]}"
    # A block list: a new `- slug` line under the last item, indented as it is.
    lines.insert(line, f"{lines[line - 1][: column - 1]}{slug}\n")
    return "".join(lines)


def add_to_nav(text: str, plan: str, slug: str, title: str) -> str:
    """mkdocs.yml with the lesson added at the end of its plan's section of `nav`.

    The entry is the bare page path: the page takes its title from its front matter,
    as mkdocs.yml's own comment asks ("no titles here"), so renaming a lesson is one edit.
    ``title`` is kept for callers; it is not written.
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == "nav:"), None)
    if start is None:
        return text  # no nav: mkdocs lists every page by itself
    page = f"{plan}/{slug}.md"
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(r"[^\s#]", lines[i])), len(lines)
    )
    entries = [i for i in range(start + 1, end) if f" {plan}/" in lines[i]]
    if not entries:
        raise UsageError(
            f"mkdocs.yml: the plan `{plan}` is not in `nav`; add its section "
            f"(`- Title:` then `- {plan}/index.md`) and run this again"
        )
    last = entries[-1]
    indent = _NAV_ITEM.match(lines[last])
    if indent is None:
        raise UsageError(f"mkdocs.yml:{last + 1}: cannot read this nav entry; add `{page}` by hand")
    lines.insert(last + 1, f"{indent.group(1)}- {page}\n")
    new = "".join(lines)
    _check_nav(new, page)
    return new


def _check_nav(text: str, page: str) -> None:
    """The edited config still parses and lists the page; otherwise refuse rather than break it."""

    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml may use tags such as !ENV or !!python/name; their values do not matter here.
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    try:
        config = yaml.load(text, Loader=Loader)  # safe: a SafeLoader subclass
    except yaml.YAMLError as error:
        raise UsageError(f"mkdocs.yml: could not add the page to nav: {error}") from None
    if page not in json.dumps(config.get("nav") if isinstance(config, dict) else None):
        raise UsageError(f"mkdocs.yml: could not add `{page}` to nav; add it by hand")
