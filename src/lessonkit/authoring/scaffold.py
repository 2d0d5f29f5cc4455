"""`lessonkit new lesson`: a lesson page and its bank from the templates, listed in plan and nav.

Everything is checked and every new text is worked out before the first file is
written, so a refusal changes nothing. Existing files are edited as text, one
inserted line each, so their comments and layout stay as the author left them.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from lessonkit.bank.models import SLUG_PATTERN
from lessonkit.course.course import BANK_SUFFIXES
from lessonkit.course.lessons import read_plan
from lessonkit.errors import ContentError, UsageError

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
    values = {"slug": slug, "plan": plan, "title": yaml_text(title), "today": today.isoformat()}
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
