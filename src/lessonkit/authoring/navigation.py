"""How readers move between pages: the site's nav, a plan page's list, and links back.

Three rules a course sets: every lesson is in `mkdocs.yml`'s `nav` (when it has one), the
home page and plan pages leave counting and listing lessons to the site, and each lesson
after the first links back to the one before it near its start.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

from lessonkit.authoring.pagechecks import blank_code, links
from lessonkit.authoring.policy import Rule, RuleSettings, Subject, fixed
from lessonkit.bank import composer, yamldoc
from lessonkit.course.course import Course
from lessonkit.course.facts import PlanFacts
from lessonkit.course.lessons import Page, PlanPage, body_lines
from lessonkit.errors import ContentError, Problem, display_path

_NUMBERS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_COUNT = re.compile(rf"\b(?:{_NUMBERS}|\d+)\s+(?:\w+\s+)?lessons?\b", re.IGNORECASE)
_QUIZ_COMMAND = re.compile(r"\blessonkit quiz ([a-z0-9]+(?:-[a-z0-9]+)*)")
# libyaml when PyYAML has it: the nav of 1,000 lessons takes 60 ms to compose in Python, 5 in C,
# with the same nodes and marks.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# --- nav ---------------------------------------------------------------------------------


def _nav_of(course: Course) -> tuple[Path, yaml.Node, yaml.Node, Path] | None:
    """mkdocs.yml, its `nav` key and value, and its docs folder, when it has a nav over
    this course's content/."""
    config = course.root / "mkdocs.yml"
    try:
        root = yaml.compose(config.read_text(encoding="utf-8"), Loader=_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None  # no site configuration here, or MkDocs itself reports it
    if not isinstance(root, yaml.MappingNode):
        return None
    entries = {key.value: value for key, value in root.value if isinstance(key, yaml.ScalarNode)}
    docs = entries.get("docs_dir")
    docs_dir = course.root / (docs.value if isinstance(docs, yaml.ScalarNode) else "docs")
    nav = entries.get("nav")
    if nav is None or docs_dir.resolve() != course.content_dir.resolve():
        return None
    key = next(k for k, _ in root.value if isinstance(k, yaml.ScalarNode) and k.value == "nav")
    return config, key, nav, docs_dir


def _nav(course: Course, settings: RuleSettings) -> list[Problem]:
    found = _nav_of(course)
    if found is None:
        return []
    config, key, nav, _ = found
    listed = list(_pages(nav))
    names = {name for name, _ in listed}
    pages = [*(p.path for p in course.plans.values()), *(p.path for p in course.lessons.values())]
    problems: list[Problem] = []
    for path in sorted(pages):
        name = path.resolve().relative_to(course.content_dir.resolve()).as_posix()
        if name in names:
            continue
        folder = f"{name.split('/')[0]}/"
        near = [node for page, node in listed if page.startswith(folder)] or [key]
        mark = near[-1].start_mark
        what = "plan page" if path.name == "index.md" else "lesson"
        problems.append(
            Problem(
                display_path(config), mark.line + 1, mark.column + 1,
                f"nav: `{name}` is not listed, so the {what} drops out of every page's sidebar",
                f"add `- {name}` under its plan in `nav`; `lessonkit new lesson` does this "
                "for new lessons",
            )
        )  # fmt: skip
    return problems


def _missing(course: Course, settings: RuleSettings) -> list[Problem]:
    """Every page `nav` names that is not a file under content/."""
    found = _nav_of(course)
    if found is None:
        return []
    config, _, nav, docs_dir = found
    problems: list[Problem] = []
    for name, node in _pages(nav):
        if urlsplit(name).scheme or (docs_dir / unquote(name)).is_file():
            continue
        mark = node.start_mark
        problems.append(
            Problem(
                display_path(config), mark.line + 1, mark.column + 1,
                f"nav: `{name}` is not a file under {docs_dir.name}/, so the site has no such "
                "page and `mkdocs build --strict` stops",
                "write the page's path relative to the docs folder, or remove the entry",
            )
        )  # fmt: skip
    return problems


def _pages(node: yaml.Node) -> list[tuple[str, yaml.Node]]:
    """Every page path in a nav tree, with its node."""
    if isinstance(node, yaml.ScalarNode):
        return [(node.value, node)] if str(node.value).endswith(".md") else []
    if isinstance(node, yaml.SequenceNode):
        return [page for item in node.value for page in _pages(item)]
    if isinstance(node, yaml.MappingNode):
        return [page for _, value in node.value for page in _pages(value)]
    return []


NAV_FILES = fixed(
    "nav-files",
    "Every page `mkdocs.yml`'s `nav` names is a file under `content/`.",
    "the site would have no such page, and `mkdocs build --strict` stops on it",
    course_check=_missing,
)

NAV = Rule(
    "nav",
    "When `mkdocs.yml` has a `nav`, every plan page and lesson is listed in it.",
    "a page left out of `nav` silently drops out of every other page's sidebar",
    course_check=_nav,
)


# --- the plan page ------------------------------------------------------------------------


def _hand_counts(course: Course, settings: RuleSettings) -> list[Problem]:
    problems: list[Problem] = []
    home = course.content_dir / "index.md"
    if home.is_file():
        try:
            text = yamldoc.read_text(home)
        except ContentError:
            text = ""  # an unreadable home page is MkDocs's to report
        page = Page(home, yamldoc.Document(display_path(home), {}, composer.Node(1, 1)), text, 1)
        total = len(course.lessons)
        problems += _counts(page, f"the course has {total} lesson{'' if total == 1 else 's'}")
    for plan in course.plans.values():
        problems += _plan_problems(course, plan)
    return problems


def _counts(page: Page, actual: str) -> list[Problem]:
    """A problem for every "two lessons" written in the page's text."""
    shown = display_path(page.path)
    return [
        Problem(
            shown,
            number,
            match.start() + 1,
            f"the page counts lessons by hand (`{match.group(0)}`); {actual}, and a "
            "hand-written count goes stale with the next lesson",
            "drop the count: the site lists each plan's lessons on the plan's page",
        )
        for number, raw in body_lines(page)
        for match in _COUNT.finditer(blank_code(raw))
    ]


def _plan_problems(course: Course, plan: PlanPage) -> list[Problem]:
    shown = display_path(plan.path)
    lessons = plan.meta.lessons
    count = f"{len(lessons)} lesson{'' if len(lessons) == 1 else 's'}"
    problems = _counts(plan, f"the plan has {count}")
    # Code blocks included: that is where a command is written.
    commands = [
        (plan.body_line + offset, m.start() + 1, m.group(1))
        for offset, raw in enumerate(plan.body.splitlines())
        for m in _QUIZ_COMMAND.finditer(raw)
    ]
    # By the facts of every lesson, read in this run or not (see `course.facts`).
    loaded = course.loaded_lessons()
    quizzes = {loaded[s][1].quiz: s for s in lessons if s in loaded}
    named = {quiz for _, _, quiz in commands}
    missing = [quiz for quiz in quizzes if quiz not in named]
    if commands and missing:
        number, column, _ = commands[0]
        problems.append(
            Problem(
                shown, number, column,
                f"the plan page gives `lessonkit quiz` for {len(named & set(quizzes))} of its "
                f"{count}; none for {', '.join(f'`{q}`' for q in missing)}",
                "list a command for every lesson, or none: each lesson ends with its own",
            )
        )  # fmt: skip
    return problems


HAND_COUNTS = Rule(
    "hand-counts",
    "The home page and plan pages do not count lessons by hand, and a plan page gives a "
    "`lessonkit quiz` command for every lesson of the plan or for none.",
    "the site lists each plan's lessons from its `lessons:`; hand-written counts and lists go "
    "stale when a lesson is added",
    default="warn",
    course_check=_hand_counts,
)


# --- links back ----------------------------------------------------------------------------


def _link_back(subject: Subject, settings: RuleSettings) -> list[Problem]:
    lesson, course = subject.lesson, subject.course
    # The plan and the lesson before by their facts: a run may not have read them.
    plan = course.facts.get(lesson.path.parent / "index.md")
    listed = plan.lessons if isinstance(plan, PlanFacts) else None
    if listed is None or lesson.slug not in listed:
        return []
    place, loaded = listed.index(lesson.slug), course.loaded_lessons()
    if place == 0 or listed[place - 1] not in loaded:
        return []
    path, before = loaded[listed[place - 1]]
    first = next((h.line for h in lesson.headings if h.level == 2), None)
    for link in links(lesson):
        if first is not None and link.line >= first:
            break
        target = urlsplit(link.target)
        if target.scheme or not target.path:
            continue
        if (lesson.path.parent / unquote(target.path)).resolve() == path.resolve():
            return []
    relative = Path(path.name).as_posix()
    return [
        Problem(
            display_path(lesson.path), lesson.body_line, 1,
            f"the opening never links back to the lesson before this one, `{before.slug}`",
            f"link it before the first `##`, e.g. `[{before.title}]({relative})`, so a "
            "reader who skipped it can go back",
        )
    ]  # fmt: skip


LINK_BACK = Rule(
    "link-back",
    "Each lesson after the first in its plan links to the lesson before it, before its first `##`.",
    "a reader who arrives from a search can go back to what this lesson builds on",
    default="advice",
    lesson_check=_link_back,
)
