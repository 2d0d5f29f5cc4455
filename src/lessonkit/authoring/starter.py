"""`lessonkit new course DIR`: a course of one's own that builds and passes its own checks.

It writes the site's configuration (``templates/course/mkdocs.yml``, which follows the
repository's own), the site's additions (lessonkit's `site_overrides/` and build hook,
shipped in the wheel), a plan with a sample lesson and its bank, the course's policy with
every rule a course can set at its default, the JSON Schemas for editors, a README with the
set-up commands, a CI workflow (validate, a strict build, the site as an artifact) and a
pre-commit configuration. The README and CI install lessonkit from where the author got
it (``origin``). Everything is worked out before the first file is written.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import textwrap
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import lessonkit
from lessonkit.authoring.origin import Origin
from lessonkit.authoring.policy import POLICY_FILE, SCHEMA_FILE, policy_model
from lessonkit.authoring.rulebook import RULES
from lessonkit.authoring.scaffold import fill, yaml_text
from lessonkit.bank.schema import SCHEMAS, render
from lessonkit.errors import UsageError

# Template files whose names would mean something to a tool where they lie in the package.
_RENAMED = {
    "gitignore": ".gitignore",
    "pre-commit-config.yaml": ".pre-commit-config.yaml",
    "github-workflow.yml": ".github/workflows/site.yml",
}
_NOTE = "#|"  # a line of the templates for lessonkit's maintainers, left out of the course


def course_files(title: str, today: dt.date, origin: Origin) -> dict[str, bytes]:
    """Every file of a new course, by path relative to its folder; its README and CI
    install lessonkit from ``origin``."""
    values = {
        "title": title,  # in Markdown
        "title_yaml": yaml_text(title),
        "today": today.isoformat(),
        "month": f"{today:%Y-%m}",
        "version": lessonkit.__version__,
        "install": origin.readme,
        "install_about": "\n".join(textwrap.wrap(origin.about, 88)),
        "install_ci": textwrap.indent(_ci_install(origin), " " * 10).rstrip("\n"),
    }
    files: dict[str, bytes] = {}
    root = resources.files("lessonkit.authoring").joinpath("templates", "course")
    for relative, item in _walk(root):
        text = fill(item.read_text(encoding="utf-8"), values)
        text = "".join(
            line for line in text.splitlines(keepends=True) if not line.startswith(_NOTE)
        )
        files[_RENAMED.get(relative, relative)] = text.encode()
    files[POLICY_FILE] = policy_text().encode()
    schemas = {**SCHEMAS, SCHEMA_FILE: policy_model(RULES)}
    for name, model in schemas.items():
        files[f"schemas/{name}"] = render(model).encode()
    for relative, data in site_files().items():
        files[f"site_overrides/{relative}"] = data
    for relative, data in site_files("hooks").items():
        files[f"hooks/{relative}"] = data
    files.update(origin.files)
    return files


def _ci_install(origin: Origin) -> str:
    """The lines of CI's install step: the install, or, where CI cannot install from the
    author's origin, what to write instead, printed as the step fails."""
    if origin.ci is not None:
        return f"python -m pip install {origin.ci}\n"
    message = shlex.quote(f"::error title=Install lessonkit::{origin.todo}")
    return (
        "# Replace these lines with an install CI can run (README.md, Set up, says how).\n"
        f"echo {message}\nexit 1\n"
    )


def _walk(folder: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    found: list[tuple[str, Traversable]] = []
    for item in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if item.name == "__pycache__":
            continue
        name = f"{prefix}{item.name}"
        found += _walk(item, f"{name}/") if item.is_dir() else [(name, item)]
    return found


def site_files(name: str = "site_overrides") -> dict[str, bytes]:
    """lessonkit's additions to the site, folder ``name``: the theme's (overrides, script,
    stylesheet) or ``hooks`` (the MkDocs build hook); from the installed wheel, or from the
    checkout an editable install runs from."""
    package = Path(lessonkit.__file__).resolve().parent
    for folder in (package / "_course" / name, package.parents[1] / name):
        if folder.is_dir():
            return {
                path.relative_to(folder).as_posix(): path.read_bytes()
                for path in sorted(folder.rglob("*"))
                if path.is_file() and "__pycache__" not in path.parts
            }
    raise UsageError(f"this lessonkit has no site files ({name}/); reinstall lessonkit")


def policy_text() -> str:
    """`lessonkit.yml` with every rule a course can set, each at its default and explained."""
    lines = [
        "# yaml-language-server: $schema=schemas/course-policy.schema.json",
        "# This course's policy: how strictly each rule of lessonkit's rule book applies here.",
        "# Levels: error fails `lessonkit validate`, CI and the site build; warn fails only",
        "# `validate --strict` and the strict site build; advice is shown by `lessonkit report`;",
        "# off is not checked. Below, every rule a course can set, at lessonkit's default:",
        "# change a level or a number to make it this course's. Rules that keep a course",
        "# correct are not here: they always apply. `lessonkit rules` shows the whole book.",
        "rules:",
    ]
    for rule in RULES:
        if rule.fixed:
            continue
        lines += textwrap.wrap(rule.describe(), 88, initial_indent="  # ", subsequent_indent="  # ")
        values = {"level": rule.default, **rule.settings().values()}
        shown = ", ".join(
            f"{name}: {value if name == 'level' else json.dumps(value)}"
            for name, value in values.items()
        )
        lines.append(f"  {rule.id}: {{{shown}}}")
    return "\n".join(lines) + "\n"


def new_course(target: Path, title: str, today: dt.date, origin: Origin) -> list[Path]:
    """Write a new course into ``target`` (new or empty); returns the files written."""
    title = " ".join(title.split())
    if not title:
        raise UsageError('the title is empty: give one with --title "…"')
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"{target} is not an empty folder: choose a new one")
    files = course_files(title, today, origin)
    written = []
    for relative, data in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written
