"""Imported questions placed in a course: `quizzes/<slug>.yml`, and a lesson stub when none exists.

Each question is checked against the bank models before anything is written; one the
models refuse is left out and reported. Questions keep the insight lessonkit's own
exports record; otherwise each source category becomes an insight of the stub, with a
`##` heading whose anchor is the questions' `section`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from markdown.extensions.toc import slugify, unique
from pydantic import TypeAdapter, ValidationError

from lessonkit.authoring.scaffold import Change, add_to_nav, add_to_plan, yaml_text
from lessonkit.bank.fields import SLUG_PATTERN
from lessonkit.bank.questions import Question
from lessonkit.course.lessons import read_lesson
from lessonkit.errors import UsageError
from lessonkit.imports.common import NO_EXPLANATION, Imported, Loss

SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/quiz-bank.schema.json\n"
DEFAULT_INSIGHT = "Imported questions"
_ORDER = ["id", "type", "insight", "objectives", "section", "points", "tags", "params",
          "derived", "prompt", "options", "blanks", "answer", "tolerance",
          "relative_tolerance", "unit", "accept", "patterns", "case_sensitive", "items",
          "pairs", "distractors", "scoring", "shuffle", "hint", "explanation"]  # fmt: skip


@dataclass
class Placed:
    """What an import will write, and what it left out or lost."""

    slug: str
    changes: list[Change]
    questions: int
    losses: list[Loss] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)  # what --force writes over


def place(
    root: Path, imported: Imported, *, slug: str | None, plan: str | None,
    today: dt.date, replace: bool = False, force: bool = False,
) -> Placed:  # fmt: skip
    """Work out every file to write, without writing; UsageError when it must refuse.

    Imported over (``replace``), a bank the author has edited since is refused, with
    what the import would discard, unless ``force``; the discarded is then in ``Placed``.
    """
    slug = slug or _slug(Path(imported.source).stem)
    if not re.fullmatch(SLUG_PATTERN, slug):
        raise UsageError(f"`{slug}` is not a valid slug: give one with --slug, e.g. `my-quiz`")
    bank = root / "quizzes" / f"{slug}.yml"
    if bank.exists() and not replace:
        raise UsageError(f"{bank.relative_to(root)} exists; pass --replace to import over it "
                         "(question ids come out the same, so history is kept)")  # fmt: skip
    lessons = sorted(root.glob(f"content/*/{slug}.md"))
    title = " ".join((imported.title or slug.replace("-", " ").capitalize()).split())
    categories = list(dict.fromkeys(d.category.strip() or DEFAULT_INSIGHT for d in imported.drafts))
    changes: list[Change] = []
    if lessons:
        insights = [(h.title, h.anchor) for h in read_lesson(lessons[0]).headings if h.level == 2]
    else:
        insights = _anchored(_insight_names(imported, categories))
        objectives = max(
            (max(d.fields.get("objectives") or [1]) for d in imported.drafts), default=1
        )
        stub = _Stub(slug, title, insights, objectives, imported.source)
        changes += _lesson_stub(root, stub, plan, today)
    placed = Placed(slug, changes, 0, list(imported.losses))
    questions = []
    for draft in imported.drafts:
        fields = dict(draft.fields)
        category = draft.category.strip() or DEFAULT_INSIGHT
        titles = [name.casefold() for name, _ in insights]
        matched = titles.index(category.casefold()) + 1 if category.casefold() in titles else 1
        number = fields.get("insight") or matched
        number = min(int(number), len(insights)) if insights else 1
        fields["insight"] = number
        fields["section"] = insights[number - 1][1] if insights else "top"
        fields.setdefault("explanation", NO_EXPLANATION)
        try:
            TypeAdapter(Question).validate_python(fields)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"][1:])
            found = f"{where}: {first['msg']}" if where else first["msg"]
            what = f"left out: the bank format refuses it as imported ({found}); write it by hand"
            placed.losses.append(Loss(imported.source, draft.name, what, omitted=True))
            continue
        # The usual fields in the order authors expect; any other (a new type's own) after
        # them, never dropped.
        ordered = {key: fields[key] for key in _ORDER if key in fields}
        questions.append(ordered | {k: v for k, v in fields.items() if k not in ordered})
    placed.questions = len(questions)
    if questions:
        data = {"lesson": slug, "title": title, "pass_mark": 0.7, "questions": questions}
        if bank.exists():
            placed.discarded = _discarded(bank, data, imported.source)
            if placed.discarded and not force:
                raise UsageError(
                    f"{bank.relative_to(root)} differs from what {imported.source} gives; "
                    "importing over it would discard:\n"
                    + "".join(f"  {line}\n" for line in placed.discarded)
                    + "pass --force to discard that, or --slug NEW to import beside it"
                )
        changes.insert(0, Change(bank, SCHEMA_LINE + _dump(data), created=not bank.exists()))
    return placed


def _discarded(bank: Path, data: dict[str, Any], source: str) -> list[str]:
    """What writing ``data`` over ``bank`` would lose, question by question: the author's
    edits since the last import, and questions the source no longer has."""
    try:
        old = yaml.safe_load(bank.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return ["the whole file (it cannot be read as YAML, so it cannot be compared)"]
    if not isinstance(old, dict):
        return ["the whole file (it holds no bank)"]
    lost = [f"`{key}`: {old[key]!r}" for key in sorted(old)
            if key != "questions" and old.get(key) != data.get(key)]  # fmt: skip
    new = {q["id"]: q for q in data["questions"]}
    for question in old.get("questions") or []:
        if not isinstance(question, dict):
            continue
        qid = question.get("id", "?")
        if qid not in new:
            lost.append(f"question `{qid}`: not in {source}, so removed")
            continue
        fields = sorted(
            k for k in set(question) | set(new[qid]) if question.get(k) != new[qid].get(k)
        )
        if fields:
            lost.append(f"question `{qid}`: your {', '.join(f'`{f}`' for f in fields)}")
    return lost


def _insight_names(imported: Imported, categories: list[str]) -> list[str]:
    """The stub's insights: one per source category, or, when the questions carry the
    insight numbers of lessonkit's own export, one per number (their categories are the
    export's, not the lesson's)."""
    numbers = [int(d.fields["insight"]) for d in imported.drafts if d.fields.get("insight")]
    if numbers:
        return [f"Insight {n}" for n in range(1, min(max(numbers), 9) + 1)]
    return categories[:9] or [DEFAULT_INSIGHT]


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:80].strip("-") or "imported"


def _anchored(names: list[str]) -> list[tuple[str, str]]:
    used: set[str] = set()
    found = []
    for number, name in enumerate(names, start=1):
        text = " ".join(name.split())
        found.append((text, unique(slugify(f"{number}. {text}", "-"), used)))
    return found


@dataclass
class _Stub:
    """What a new lesson page needs from the import: its quiz, title, insights (name and
    anchor), how many objectives the questions name, and the file they came from."""

    slug: str
    title: str
    insights: list[tuple[str, str]]
    objectives: int
    source: str


def _lesson_stub(root: Path, stub: _Stub, plan: str | None, today: dt.date) -> list[Change]:
    slug, title = stub.slug, stub.title
    plans = sorted(p.parent.name for p in root.glob("content/*/index.md"))
    if plan is None and len(plans) == 1:
        plan = plans[0]
    if plan is None or plan not in plans:
        known = ", ".join(f"`{p}`" for p in plans) or "none (create content/PLAN/index.md)"
        raise UsageError(
            f"say which plan the new lesson `{slug}` joins with --plan; plans: {known}"
        )
    index = root / "content" / plan / "index.md"
    page = root / "content" / plan / f"{slug}.md"
    changes = [Change(page, _stub_text(stub, plan, today), created=True),
               Change(index, add_to_plan(index, slug), created=False)]  # fmt: skip
    config = root / "mkdocs.yml"
    if config.is_file():
        text = config.read_text(encoding="utf-8")
        changes.append(Change(config, add_to_nav(text, plan, slug, title), created=False))
    return changes


def _stub_text(stub: _Stub, plan: str, today: dt.date) -> str:
    """The lesson page: every placeholder marked, and each self-check and the quiz's call
    to action placed, so that it is valid as written apart from its placeholders."""
    todo, slug = "TODO(lessonkit)", stub.slug
    # The markers written out, as a course whose `markers` rule asks for them needs; each
    # insight here is a group of imported questions, so each has a self-check.
    listed = "".join(f"  - {yaml_text(name)}\n" for name, _ in stub.insights)
    objectives = "".join(f'  - "{todo}: What a learner can do afterwards ({n})"\n'
                         for n in range(1, stub.objectives + 1))  # fmt: skip
    sections = "".join(f"## {n}. {name}\n\n{todo}: explain this insight in your own words.\n\n"
                       f"<!-- lessonkit:check {slug} {n} -->\n\n"
                       for n, (name, _) in enumerate(stub.insights, start=1))  # fmt: skip
    return (
        f"---\n# {todo}: Made by `lessonkit import` from {stub.source}. Replace every line marked "
        "like this one;\n# `lessonkit validate` lists those left.\n"
        f"title: {yaml_text(stub.title)}\nplan: {plan}\nsummary: >-\n  {todo}: one or two "
        f"sentences on what the lesson covers.\nminutes: 10  # {todo}: reading time\n"
        f"objectives:\n{objectives}"
        f"insights:\n{listed}"
        f'key_points:\n  - "{todo}: The one sentence a reader should remember"\n'
        f"quiz: {slug}\nsources:\n"
        f'  - title: "{todo}: Title of the page or paper"\n'
        f"    url: https://{todo}/the-address-you-read\n    accessed: {today.isoformat()}\n"
        f"last_reviewed: {today.isoformat()}\n---\n\n"
        f"{todo}: Open with the problem this lesson solves. The quiz was imported from "
        f"{stub.source}.\n\n{sections}<!-- lessonkit:quiz {slug} -->\n"
    )


class _Dumper(yaml.SafeDumper):
    """Lists indented under their key and prose with line breaks as `|` blocks, as authors write."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value and not any(line != line.rstrip() for line in value.split("\n")):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)


def _dump(data: dict[str, Any]) -> str:
    text: str = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return re.sub(
        r"(?<!questions:)\n  - id:", "\n\n  - id:", text
    )  # a blank line between questions


def write(changes: list[Change]) -> None:
    """Write every file; a bank imported over is replaced whole."""
    for change in changes:
        change.path.parent.mkdir(parents=True, exist_ok=True)
        change.path.write_text(change.text, encoding="utf-8", newline="")
