"""A course of N lessons for the scale benchmarks, made from this repository's lessons.

The course's four lessons are copied as a group, again and again: lesson 4k+i is a copy of
the plan's i-th lesson, with the suffix `-k` on its slug, its bank's slug and every
question id (k = 0 keeps the real names, so a course of 4 is this repository's course).
Links between the lessons follow the copies; five groups share a learning plan, which gets
the real plan's page and images, and every copy shows its figures from the course's one
`facts/` folder. `mkdocs.yml` is the real one with the page tree rewritten, and `site_overrides/`
is copied, so the site builds as configured here, whatever that configuration is.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
PLAN = "ai-hardware-fundamentals"
LESSONS = ("gpu-vs-tpu", "reading-specs-and-prices", "rooflines-and-serving", "scaling-out")
GROUP = len(LESSONS)
GROUPS_PER_PLAN = 5
_SLUGS = re.compile(r"\b(" + "|".join(LESSONS) + r")\b")
_LESSON_LIST = re.compile(r"^lessons:\n(?:  - .*\n)+", re.M)
_ID = re.compile(r"^(\s*-?\s*id:\s*)([\w-]+)", re.M)


class _Config(yaml.SafeLoader):
    """mkdocs.yml read with its `!ENV` and `!!python/name:` tags kept as written."""


class Tagged:
    """A tagged value read from mkdocs.yml, written back with the same tag."""

    def __init__(self, tag: str, value: Any) -> None:
        self.tag, self.value = tag, value


def _keep_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Tagged:
    if isinstance(node, yaml.ScalarNode):
        return Tagged(node.tag, loader.construct_scalar(node))
    return Tagged(node.tag, loader.construct_sequence(node))  # type: ignore[arg-type]


_Config.add_multi_constructor("!", _keep_tag)
_Config.add_multi_constructor("tag:yaml.org,2002:python/", _keep_tag)


class _Dumper(yaml.SafeDumper):
    pass


def _tagged(dumper: yaml.SafeDumper, value: Tagged) -> yaml.Node:
    if isinstance(value.value, list):
        return dumper.represent_sequence(value.tag, value.value, flow_style=True)
    return dumper.represent_scalar(value.tag, value.value)


_Dumper.add_representer(Tagged, _tagged)


def read_config(path: Path) -> dict[str, Any]:
    """mkdocs.yml as a mapping whose tagged values survive a round trip."""
    config: dict[str, Any] = yaml.load(path.read_text(encoding="utf-8"), Loader=_Config)
    return config


def write_config(path: Path, config: dict[str, Any]) -> None:
    path.write_text(yaml.dump(config, Dumper=_Dumper, sort_keys=False), encoding="utf-8")


def slug(lesson: int) -> str:
    """The slug of lesson number ``lesson`` (0-based) in a generated course."""
    group, which = divmod(lesson, GROUP)
    return LESSONS[which] + (f"-{group}" if group else "")


def plan_folder(group: int) -> str:
    number = group // GROUPS_PER_PLAN
    return PLAN + (f"-{number}" if number else "")


def _renamed(text: str, group: int) -> str:
    if not group:
        return text
    text = _SLUGS.sub(lambda m: f"{m.group(1)}-{group}", text)
    return text.replace(f"plan: {PLAN}\n", f"plan: {plan_folder(group)}\n")


def write(root: Path, lessons: int) -> Path:
    """Write a course of ``lessons`` lessons (a multiple of the course's own) under
    ``root``; returns root."""
    if lessons < GROUP or lessons % GROUP:
        raise ValueError(f"a generated course has a multiple of {GROUP} lessons")
    source = ROOT / "content" / PLAN
    texts = {name: (source / f"{name}.md").read_text(encoding="utf-8") for name in LESSONS}
    banks = {n: (ROOT / "quizzes" / f"{n}.yml").read_text(encoding="utf-8") for n in LESSONS}
    (root / "quizzes").mkdir(parents=True)
    shutil.copytree(ROOT / "site_overrides", root / "site_overrides")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "hooks", root / "hooks", ignore=ignore)  # mkdocs.yml names it
    shutil.copytree(ROOT / "facts", root / "facts")
    # The course's own policy (its levels for the facts rules among them), except that a
    # copied group's first lesson cannot link back to the group before it.
    policy = (ROOT / "lessonkit.yml").read_text(encoding="utf-8")
    policy = policy.replace("link-back: {level: error}", "link-back: {level: off}")
    (root / "lessonkit.yml").write_text(policy, encoding="utf-8")
    nav: dict[str, list[str]] = {}
    for group in range(lessons // GROUP):
        folder = root / "content" / plan_folder(group)
        if not folder.is_dir():
            shutil.copytree(source / "img", folder / "img")
        for name in LESSONS:
            new = name + (f"-{group}" if group else "")
            (folder / f"{new}.md").write_text(_renamed(texts[name], group), encoding="utf-8")
            bank = _renamed(banks[name], group)
            if group:
                bank = _ID.sub(rf"\g<1>\g<2>-{group}", bank)
            (root / "quizzes" / f"{new}.yml").write_text(bank, encoding="utf-8")
            nav.setdefault(folder.name, []).append(f"{folder.name}/{new}.md")
    index = (source / "index.md").read_text(encoding="utf-8")
    for number, (name, pages) in enumerate(nav.items()):
        listed = "lessons:\n" + "".join(f"  - {Path(p).stem}\n" for p in pages)
        text = _LESSON_LIST.sub(listed, index, count=1)
        marker = "<!-- lessonkit:lessons {} -->"
        text = text.replace(marker.format(PLAN), marker.format(name))
        if number:
            title = f'title: "AI hardware fundamentals, part {number}"'
            text = text.replace('title: "AI hardware fundamentals"', title, 1)
        (root / "content" / name / "index.md").write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "content" / "index.md", root / "content" / "index.md")
    config = read_config(ROOT / "mkdocs.yml")
    plans = [
        {f"Plan {n}": [f"{name}/index.md", *pages]} for n, (name, pages) in enumerate(nav.items())
    ]
    config["nav"] = [{"Home": "index.md"}, *plans]
    # `watch` names folders of this checkout (src/lessonkit) that a generated course lacks.
    config["watch"] = [w for w in config.get("watch") or [] if (root / str(w)).exists()]
    write_config(root / "mkdocs.yml", config)
    return root


def add_big_bank(root: Path) -> str:
    """Add to a written course the 10,000-question lesson of ``bench/validate.py`` (in its
    own plan, listed in the page tree); returns its slug."""
    from bench import validate

    folder = root / "content" / "bench-plan"
    folder.mkdir()
    (folder / "index.md").write_text(validate.PLAN, encoding="utf-8")
    (folder / "bench.md").write_text(validate.LESSON, encoding="utf-8")
    (root / "quizzes" / "bench.yml").write_text(validate.bank_text(), encoding="utf-8")
    config = read_config(root / "mkdocs.yml")
    config["nav"].append({"Bench plan": ["bench-plan/index.md", "bench-plan/bench.md"]})
    write_config(root / "mkdocs.yml", config)
    return "bench"
