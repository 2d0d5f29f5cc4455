"""`lessonkit read SLUG [SECTION]`: a lesson, or one section of it, in the terminal, offline.

The lesson comes from the same places as quizzes (see ``catalog.roots``): the checkout
around the working directory, the course inside the installed package, or the checkout
an editable install runs from. Needs neither MkDocs nor a server.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from lessonkit.course import catalog, markers
from lessonkit.course.headings import Heading
from lessonkit.course.invocation import program
from lessonkit.errors import UsageError
from lessonkit.quiz import markup, pagetext
from lessonkit.quiz.plainui import isatty


def lesson_path(slug: str, cwd: Path | None = None) -> Path:
    """The Markdown file of lesson ``slug``; UsageError naming the lessons there are."""
    here = (cwd or Path.cwd()).resolve()
    found: list[Path] = []
    for root in catalog.roots(here):
        content = root / catalog.docs_dir(root)
        found = sorted(content.glob(f"*/{slug}.md")) or sorted(content.glob(f"**/{slug}.md"))
        if found:
            return found[0]
    known = lesson_slugs(here)
    import difflib  # only on this error path

    close = difflib.get_close_matches(slug.casefold(), known, n=1)
    hint = f"did you mean `{close[0]}`?" if close else "lessons: " + (", ".join(known) or "none")
    raise UsageError(f"no lesson called `{slug}` ({hint})")


def lesson_slugs(cwd: Path) -> list[str]:
    """Every lesson reachable from ``cwd``: pages with a front matter `quiz:` line."""
    found: set[str] = set()
    for root in catalog.roots(cwd):
        for page in (root / catalog.docs_dir(root)).glob("*/*.md"):
            if page.stem != "index":
                found.add(page.stem)
    return sorted(found)


def lesson_text(path: Path, section: str | None) -> str:
    """The lesson as readable Markdown under its title, or one section of it by its anchor.

    Figures, footnotes, abbreviations and links become text (see ``pagetext``).
    """
    from lessonkit.course.lessons import read_lesson

    page = read_lesson(path)
    lines = page.body.splitlines()
    # The call to action where the site puts it when the page has no marker for it; a
    # self-check shows nothing here, so none is placed.
    shown = markers.with_defaults(lines, page.meta.quiz, page.meta.insights, ())
    if section is not None:
        heading = chosen(page.headings, section, page.meta.title)
        start = heading.line - page.body_line
        end = next(
            (h.line - page.body_line for h in page.headings
             if h.line > heading.line and h.level <= heading.level),
            len(lines),
        )  # fmt: skip
        shown = lines[start:end]
    docs = path.parent.parent
    if "((fact" in page.body or "lessonkit:facts" in page.body:
        shown, lines = _with_facts(docs.parent, shown, lines)
    lesson = pagetext.Lesson(
        slug=path.stem,
        folder=path.parent,
        lessons=frozenset(p.stem for p in docs.glob("*/*.md") if p.stem != "index"),
        read=f"{program()} read",
        quiz=f"{program()} quiz",
        shown=_shown_path,
    )
    return pagetext.readable(page.meta.title, shown, lines, lesson)


def _with_facts(root: Path, shown: list[str], lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines shown and the whole body with the course's facts in them, as on the site."""
    from lessonkit.bank.loader import read_facts
    from lessonkit.course import factpages

    facts = read_facts(root).facts
    part = factpages.expand(shown, facts)
    # Footnotes are looked up in the whole body, whose own may show facts too; the facts'
    # footnotes follow it.
    return part.lines, [*factpages.expand(lines, facts).lines, "", *part.notes]


def chosen(headings: Sequence[Heading], wanted: str, title: str) -> Heading:
    """The heading ``wanted`` names: its anchor, its number (`2` for `## 2. Where TPUs
    are strongest`, else the second `##`), or the start of its anchor or of a word in it
    (`where-tpus`, `where tpus`); UsageError saying which were meant, or what there is."""
    key = "-".join(wanted.casefold().replace("_", " ").split())
    anchors = {h.anchor: h for h in headings}
    if key in anchors:
        return anchors[key]
    tops = [h for h in headings if h.level == min((h.level for h in headings), default=2)]
    if key.isdigit():
        numbered = [h for h in tops if h.anchor.startswith(f"{key}-")]
        if numbered or any(re.match(r"\d+-", h.anchor) for h in tops):
            found = numbered
        else:
            found = tops[int(key) - 1 : int(key)] if int(key) >= 1 else []
    else:
        found = [h for h in headings if re.sub(r"^\d+-", "", h.anchor).startswith(key)]
        found = found or [h for h in headings if f"-{key}" in f"-{h.anchor}"]
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(f"`{h.anchor}`" for h in found)
        raise UsageError(f"section `{wanted}` could be any of {names} in {title}: give more of it")
    import difflib  # only on this error path

    close = difflib.get_close_matches(key, list(anchors), n=1)
    if close:
        hint = f"did you mean `{close[0]}`?"
    else:
        hint = (
            "sections: "
            + ", ".join(h.anchor for h in tops)
            + "; a number or the start of a name will do"
        )
    raise UsageError(f"no section `{wanted}` in {title} ({hint})")


def _shown_path(path: Path) -> str:
    """A file's path as the learner can use it: relative to here when it is below here."""
    here = Path.cwd()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def read_command(
    slug: str,
    section: str | None = None,
    *,
    no_color: bool = False,
    stdout: IO[str] | None = None,
    pager: bool | None = None,
) -> int:
    """Show a lesson or one section: rendered on a terminal (paged when long), plain otherwise."""
    stdout = stdout or sys.stdout
    text = lesson_text(lesson_path(slug), section)
    terminal = isatty(stdout) and os.environ.get("TERM") != "dumb"
    if not terminal:
        stdout.write(markup.plain(text) + "\n")
        return 0
    from rich.console import Console

    console = Console(file=stdout, no_color=no_color or None, highlight=False, emoji=False)
    console.width = min(console.width, markup.MEASURE)
    with console.capture() as captured:
        console.print(markup.rich(text))
    rendered = captured.get()
    height = shutil.get_terminal_size((80, 24)).lines
    if pager if pager is not None else rendered.count("\n") > height - 1:
        os.environ.setdefault("LESS", "-FRX")  # less shows the colours and quits at the end
        with console.pager(styles=True):
            console.print(markup.rich(text))
    else:
        stdout.write(rendered)
    return 0
