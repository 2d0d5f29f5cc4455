"""What a course folder is: one small rule that `validate`, `report`, `new` and `quiz` share.

A course is a folder holding both `content/` (the lessons) and `quizzes/` (the banks).
`mkdocs.yml` is optional: it configures the site, and a course without one still
validates and quizzes, with its lessons in `content/`. This module imports nothing
heavy, so the quiz's start-up can call it.
"""

from __future__ import annotations

from pathlib import Path

CONTENT = "content"
QUIZZES = "quizzes"
BANK_SUFFIXES = (".yml", ".yaml")  # a bank is quizzes/<slug>.yml (or .yaml)
POLICY_FILE = "lessonkit.yml"  # the course's policy (see `authoring.policy`)


def is_course(folder: Path) -> bool:
    """Whether ``folder`` holds a course: both `content/` and `quizzes/`."""
    return (folder / CONTENT).is_dir() and (folder / QUIZZES).is_dir()


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds a course."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if is_course(folder):
            return folder
    return None
