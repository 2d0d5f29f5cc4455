"""A bank's self-check blocks, rendered once and kept until the bank, its facts or lessonkit change.

Rendering a bank takes YAML, pydantic and the sanitiser: far more than placing the result
in a page. So each bank's blocks are kept in ``.cache/lessonkit/banks/SLUG.json`` in the
course folder, keyed by a hash of that bank file's bytes and of lessonkit's own code. In a
course of a thousand lessons where one bank changed, a build renders that one bank and
reads every other bank's JSON; nothing imports pydantic unless a bank changed.

The "Re-read" link under each answer names a section of the page. Its words come from the
page being rendered, not from the cache (`with_sections`), so renaming a heading never
needs the bank rendered again.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from lessonkit import __version__
from lessonkit.bank import factbook
from lessonkit.bank.factbook import Fact
from lessonkit.course import cachefile
from lessonkit.errors import ContentError, Problem, display_path

__all__ = [
    "CACHE",
    "Rendered",
    "bank_path",
    "code_digest",
    "facts",
    "kept",
    "question_count",
    "rendered",
    "with_sections",
]

CACHE = Path(".cache") / "lessonkit"
FORMAT = 1  # bump when the cached layout changes
_SUFFIXES = (".yml", ".yaml")  # as course.folder.BANK_SUFFIXES, without importing pydantic
_PACKAGE = Path(__file__).resolve().parents[1]
# Where a section's title goes; an anchor is letters, digits, `-` and `_`, never these.
_SECTION = "\ue000{}\ue001"
_SECTIONS = re.compile("\ue000([^\ue001]*)\ue001")


class Rendered(NamedTuple):
    """One bank as the site shows it."""

    lesson: str  # the lesson the bank belongs to (its `lesson:` field)
    questions: int
    blocks: Mapping[int, str]  # insight → its self-check block, in the bank's insight order


def bank_path(root: Path, slug: str) -> Path | None:
    """The bank file for ``slug`` in the course at ``root``, if there is one."""
    for suffix in _SUFFIXES:
        path = root / "quizzes" / f"{slug}{suffix}"
        if path.is_file():
            return path
    return None


def rendered(root: Path, slug: str) -> Rendered:
    """The blocks of bank ``slug``, from the cache when neither it nor lessonkit changed.

    Raises ContentError, with positions, when the bank is missing or does not load.
    """
    path = bank_path(root, slug)
    if path is None:
        shown = display_path(root / "quizzes" / f"{slug}.yml")
        raise ContentError(
            [Problem(shown, 0, 0, f"no bank `{slug}`", "check the slug, or add the bank")]
        )
    data = _with_facts(root, path.read_bytes())
    found = kept(root, "banks", slug, data, lambda: _render(path))
    blocks = {int(insight): str(text) for insight, text in found["blocks"]}
    return Rendered(str(found["lesson"]), int(found["questions"]), blocks)


def _with_facts(root: Path, source: bytes) -> bytes:
    """A bank's bytes, and when it shows the course's facts, theirs too: a changed fact
    renders the bank again (read as bytes here, so a page that is cached needs no YAML)."""
    if b"((fact" not in source:
        return source
    folder = root / "facts"
    for path in sorted((*folder.glob("*.yml"), *folder.glob("*.yaml")), key=lambda p: p.name):
        source += b"\0" + path.read_bytes()
    return source


def facts(root: Path) -> dict[str, Fact]:
    """The course's facts by id, for its pages: kept in the course's cache like the blocks,
    so that a page showing a fact needs YAML and pydantic only when a facts file changed."""
    paths = factbook.files(root)
    if not paths:
        return {}
    source = b"".join(p.name.encode() + b"\0" + p.read_bytes() + b"\0" for p in paths)
    found = kept(root, "facts", "facts", source, lambda: _facts(root))
    return {item["id"]: Fact.from_json(item) for item in found["facts"]}


def _facts(root: Path) -> dict[str, Any]:
    from lessonkit.bank.loader import read_facts  # the slow path: YAML and pydantic

    # A record with a problem is left out; `lessonkit validate` reports it at its line.
    return {"facts": [fact.to_json() for fact in read_facts(root)]}


def question_count(root: Path, slug: str) -> int:
    """How many questions bank ``slug`` has, kept apart from its blocks: a plan of a
    thousand lessons reads a thousand small files, not a thousand banks' HTML."""
    path = bank_path(root, slug)
    if path is None:
        return rendered(root, slug).questions  # raises, naming the missing bank
    found = kept(root, "counts", slug, path.read_bytes(), lambda: _count(root, slug))
    return int(found["questions"])


def _count(root: Path, slug: str) -> dict[str, Any]:
    return {"questions": rendered(root, slug).questions}


def with_sections(block: str, sections: Mapping[str, str]) -> str:
    """A cached block with each section placeholder replaced by that heading's words."""
    return _SECTIONS.sub(
        lambda found: html.escape(sections.get(found.group(1), found.group(1)), quote=False),
        block,
    )


def kept(
    root: Path, kind: str, name: str, source: bytes, make: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """What ``make`` works out from ``source``, kept in the course's cache under ``kind``.

    The cache entry holds a hash of ``source`` and of lessonkit's code; any other entry is
    worked out again. A memo in this process spares the JSON read when a page asks twice.
    """
    key = hashlib.sha256(f"{FORMAT}\0{code_digest()}\0".encode() + source).hexdigest()
    memo = _MEMO.get((root, kind, name))
    if memo is not None and memo[0] == key:
        return memo[1]
    cache = root / CACHE / kind / f"{name}.json"
    stored = cachefile.read(cache)
    if isinstance(stored, dict) and stored.get("key") == key and "value" in stored:
        value: dict[str, Any] = stored["value"]
    else:
        value = make()
        cachefile.write(cache, {"key": key, "value": value})
    _MEMO[(root, kind, name)] = (key, value)
    while len(_MEMO) > _MEMO_SIZE:
        del _MEMO[next(iter(_MEMO))]  # the oldest: a page asks again for what it just read
    return value


_MEMO: dict[tuple[Path, str, str], tuple[str, dict[str, Any]]] = {}
_MEMO_SIZE = 16


@functools.cache
def code_digest() -> str:
    """A hash of lessonkit's own code: an edited checkout must not be served yesterday's
    HTML under an unchanged version number. Worked out once a process, as code already
    imported does not change underneath it."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _render(path: Path) -> dict[str, Any]:
    # The slow path: only here are YAML, pydantic, Markdown and the sanitiser imported.
    from lessonkit.bank.loader import load_bank
    from lessonkit.site import selfcheck

    bank = load_bank(path)
    sections = {q.section: _SECTION.format(q.section) for q in bank.questions}
    blocks = []
    first = 1
    for insight in sorted({q.insight for q in bank.questions}):
        questions = [q for q in bank.questions if q.insight == insight]
        blocks.append([insight, selfcheck.block(bank, questions, sections, first=first)])
        first += len(questions)
    return {"lesson": bank.lesson, "questions": len(bank.questions), "blocks": blocks}
