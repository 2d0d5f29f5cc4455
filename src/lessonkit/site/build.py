"""What the site build adds to pages, worked out once and kept until a course file changes.

The MkDocs hook needs, for each build, the course's warnings, every lesson's
self-check and every plan's list of lessons. Working them out means YAML, pydantic
and the whole course check: more than the rest of the hook costs. So the result is
kept in ``.cache/lessonkit/`` in the course folder (where mkdocs-material's plugins
keep theirs), keyed by a hash of every file the result depends on: the course
(``content/`` and ``quizzes/``) and lessonkit's own code. A build of an
unchanged course reads one JSON file and never imports pydantic.

Only a course that loads is kept: a broken one is checked again on every build, so
it fails every build with the same ``path:line:col`` messages as ``lessonkit validate``.
"""

from __future__ import annotations

import hashlib
import html
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from lessonkit import __version__
from lessonkit.course import cachefile
from lessonkit.course.day import today
from lessonkit.site import placement

__all__ = [
    "CACHE",
    "SELF_CHECK_TITLE",
    "Additions",
    "Block",
    "LessonEntry",
    "PlanLesson",
    "additions",
    "plan_lessons",
]

SELF_CHECK_TITLE = placement.SELF_CHECK_TITLE
CACHE = Path(".cache") / "lessonkit" / "site.json"
FORMAT = 3  # bump when the cached layout changes
_PACKAGE = Path(__file__).resolve().parents[1]  # the whole lessonkit package
# Named tuples, not dataclasses: this module loads on every build, and each dataclass
# costs about a millisecond to define.


class PlanLesson(NamedTuple):
    """A lesson a plan lists, before the build knows the URL it gets."""

    path: str  # the lesson file, relative to the course folder, with `/`
    title: str
    minutes: int
    questions: int
    summary: str


class Block(NamedTuple):
    """One self-check: the questions on one insight, as HTML."""

    insight: int
    html: str


class Additions(NamedTuple):
    """What the build adds; pages are named by path relative to the course folder, with `/`."""

    # Template placeholders and the rule book's warnings (a lesson past its review date):
    # a preview shows them, `--strict` fails on them.
    warnings: tuple[str, ...]
    self_checks: Mapping[str, tuple[Block, ...]]  # lesson page → its self-checks, by insight
    plans: Mapping[str, tuple[PlanLesson, ...]]  # plan page → its lessons, in reading order
    quizzes: Mapping[str, str]  # lesson page → the slug `lessonkit quiz` takes

    def markdown(self, page: str, markdown: str) -> str:
        """A lesson's Markdown with each self-check's heading and slot at the end of its
        insight's `## N.` section (or at the author's marker), and the call to action last.

        Raises LessonkitError for a marker naming an insight without questions.
        """
        blocks = self.self_checks.get(page)
        if blocks is None:
            return markdown
        return placement.place(page, markdown, [block.insight for block in blocks])

    def html(self, page: str, html: str, repo_url: str | None = None) -> str:
        """A finished page with its self-checks and call to action in their slots (the last of
        each, as authors may quote a slot in their text)."""
        blocks = self.self_checks.get(page)
        checks = [block.html for block in blocks or ()]
        quiz = self.quizzes.get(page) if blocks is not None else None
        return placement.fill(page, html, checks, quiz, repo_url)


def additions(root: Path) -> Additions:
    """The additions for the course at ``root``, from the cache when no file changed.

    Raises ContentError listing every problem when the course does not load.
    """
    root = root.resolve()
    key = _key(root)
    cached = _read(root / CACHE, key)
    if cached is not None:
        return cached
    found = _work_out(root)
    _write(root / CACHE, key, found)
    return found


class LessonEntry(NamedTuple):
    """One lesson as a plan page lists it."""

    title: str
    href: str
    minutes: int
    questions: int
    summary: str


def plan_lessons(entries: Sequence[LessonEntry]) -> str:
    """The plan's lessons in reading order, with reading time and question counts."""
    rows = []
    for entry in entries:
        noun = "question" if entry.questions == 1 else "questions"
        rows.append(
            f'<li><a href="{_text(entry.href)}"><strong>{_text(entry.title)}</strong></a>'
            f'<br><span class="lk-meta">{entry.minutes} min read · '
            f"{entry.questions} self-check {noun}</span>"
            f'<br><span class="lk-summary">{_text(entry.summary)}</span></li>'
        )
    return f'## Lessons\n\n<ol class="lk-plan-lessons">\n{chr(10).join(rows)}\n</ol>\n'


def _text(value: str) -> str:
    return html.escape(value, quote=True)


def _work_out(root: Path) -> Additions:
    # The slow path: only here are YAML, pydantic, Markdown and the sanitiser imported.
    from lessonkit.authoring.placeholders import grouped
    from lessonkit.authoring.rulebook import load_course
    from lessonkit.site import selfcheck

    course = load_course(root, allow_placeholders=True)
    self_checks = {}
    quizzes = {}
    for lesson in course.lessons.values():
        sections = {heading.anchor: heading.text for heading in lesson.headings}
        bank = course.banks[lesson.meta.quiz]
        blocks = []
        first = 1
        for insight in sorted({q.insight for q in bank.questions}):
            questions = [q for q in bank.questions if q.insight == insight]
            blocks.append(Block(insight, selfcheck.block(bank, questions, sections, first=first)))
            first += len(questions)
        self_checks[_relative(root, lesson.path)] = tuple(blocks)
        quizzes[_relative(root, lesson.path)] = lesson.meta.quiz
    plans = {}
    for plan in course.plans.values():
        lessons = [course.lessons[slug] for slug in plan.meta.lessons]
        plans[_relative(root, plan.path)] = tuple(
            PlanLesson(
                path=_relative(root, lesson.path),
                title=lesson.meta.title,
                minutes=lesson.meta.minutes,
                questions=len(course.banks[lesson.meta.quiz].questions),
                summary=lesson.meta.summary,
            )
            for lesson in lessons
        )
    real, placeholders = grouped(course.problems)
    warnings = tuple(str(problem) for problem in [*real, *course.warnings, *placeholders])
    return Additions(warnings, self_checks, plans, quizzes)


def _relative(root: Path, path: Path) -> str:
    return (root / path).resolve().relative_to(root).as_posix()


def _key(root: Path) -> str:
    """A hash of everything the additions depend on, the day included: a lesson falls due
    for review overnight."""
    day = today().isoformat()
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0{Path.cwd()}\0{day}\0".encode())
    for label, path in _inputs(root):
        try:
            data = path.read_bytes()
        except OSError:
            continue  # gone since it was listed (an editor's swap file): not part of the course
        # The length keeps one file's bytes from running into the next file's name.
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _inputs(root: Path) -> Iterator[tuple[str, Path]]:
    # Contents, not modification times: a checkout or a copy changes every mtime, and
    # an edit within the same clock tick must still count. Hashing this course takes
    # about a millisecond. Problems name files relative to the working directory, so
    # that is part of the key (above) too.
    for folder in ("content", "quizzes"):
        for path in sorted(_files(root / folder)):
            yield path.relative_to(root).as_posix(), path
    for name in ("lessonkit.yml", "mkdocs.yml"):  # the policy, and the nav it checks
        yield name, root / name
    # lessonkit's own code decides what is rendered: an edited checkout must not be
    # served yesterday's HTML under an unchanged version number.
    for path in sorted(_PACKAGE.rglob("*.py")):
        yield f"lessonkit/{path.relative_to(_PACKAGE).as_posix()}", path


def _files(folder: Path) -> Iterator[Path]:
    for directory, _, names in os.walk(folder):
        for name in names:
            path = Path(directory, name)
            if path.is_file():
                yield path


def _read(cache: Path, key: str) -> Additions | None:
    data = cachefile.read(cache)
    try:
        if data["key"] != key:
            return None
        plans = {
            page: tuple(PlanLesson(**lesson) for lesson in lessons)
            for page, lessons in data["plans"].items()
        }
        checks = {
            page: tuple(Block(int(n), str(text)) for n, text in blocks)
            for page, blocks in data["self_checks"].items()
        }
        return Additions(tuple(data["warnings"]), checks, plans, dict(data["quizzes"]))
    except (KeyError, TypeError, AttributeError):
        return None  # missing, unreadable or another layout: work it out again


def _write(cache: Path, key: str, found: Additions) -> None:
    cachefile.write(cache, {
        "key": key,
        "warnings": list(found.warnings),
        "self_checks": {page: [list(b) for b in found.self_checks[page]]
                        for page in found.self_checks},
        "quizzes": dict(found.quizzes),
        "plans": {page: [item._asdict() for item in items] for page, items in found.plans.items()},
    })  # fmt: skip
