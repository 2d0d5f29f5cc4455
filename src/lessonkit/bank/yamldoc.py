"""Safe YAML reading with positions: plain Python values plus a map back to line and column.

``composer`` builds the values and their positions from the parser's events; here are
the limits it is held to, the ``Document`` it gives (with ``locate``, which maps a path
such as pydantic's ``loc`` back to a line and column) and the reading of a file.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lessonkit.bank import hints, textfile
from lessonkit.bank.composer import Builder, MapNode, Position, SeqNode, TextScalar, line_column
from lessonkit.errors import ContentError, Problem, display_path

# libyaml's C parser when PyYAML was built with it; the pure-Python one otherwise.
_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

__all__ = [
    "DEFAULT_LIMITS",
    "Document",
    "Limits",
    "Loc",
    "decode",
    "load",
    "parse",
    "read_text",
]

decode = textfile.decode


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile or mistaken file from exhausting time or memory."""

    max_bytes: int = 10 * 1024 * 1024
    max_depth: int = 40
    max_alias_nodes: int = 100_000


DEFAULT_LIMITS = Limits()

Loc = Sequence[str | int]


@dataclass
class Document:
    """A parsed YAML file: its values, their positions, and non-fatal problems found."""

    path: str
    data: Any
    root: Position
    problems: list[Problem] = field(default_factory=list)
    # Folded scalars, and plain ones under the watched keys, as written (see TextScalar).
    text_scalars: list[TextScalar] = field(default_factory=list)
    # Lines before the YAML in its file (front matter starts on line 2): added to positions.
    shift: int = 0
    # The text parsed, so a reader can look for a word in it without walking the values.
    text: str = field(default="", repr=False, compare=False)

    def locate(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value at ``loc``, or of the deepest part of it that exists.

        Path parts that are not keys of a mapping (pydantic puts the union tag there)
        are skipped. With ``key=True`` the position of the last key is returned instead
        of its value, which is where an unknown field should be underlined.
        """
        node = self.root
        key_node: Position | None = None
        for part in loc:
            key_node = None
            if isinstance(node, MapNode) and isinstance(part, str) and part in node.keys:
                key_node, node = node.keys[part]
            elif (
                isinstance(node, SeqNode) and isinstance(part, int) and 0 <= part < len(node.items)
            ):
                node = node.items[part]
        line, column = line_column(key_node if key and key_node is not None else node)
        return line + self.shift, column

    def problem(self, loc: Loc, message: str, hint: str = "", *, key: bool = False) -> Problem:
        line, column = self.locate(loc, key=key)
        return Problem(self.path, line, column, message, hint)


# --- files -------------------------------------------------------------------


def read_text(path: Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """A file's text, refusing directories, huge or binary files and bad UTF-8, before parsing."""
    return textfile.read(path, limits.max_bytes)


def parse(
    text: str,
    path: str,
    *,
    first_line: int = 1,
    limits: Limits = DEFAULT_LIMITS,
    watch: frozenset[str] = frozenset(),
) -> Document:
    """Parse one YAML document; raises ContentError for anything that stops parsing.

    ``first_line`` shifts reported lines, for YAML embedded in another file (front matter).
    Plain scalars under the keys in ``watch``, and every folded one, are kept with their
    marks in ``Document.text_scalars``, so style checks need no second parse.
    """
    try:
        document = _parse(text, path, limits, watch)
    except ContentError as error:
        if first_line == 1:
            raise
        raise ContentError(_shifted(error.problems, first_line - 1)) from None
    if first_line != 1:
        document.shift = first_line - 1
        document.problems = _shifted(document.problems, first_line - 1)
    return document


# libyaml 0.2.6 (bundled with PyYAML 6.0.4) refuses nesting past 1,000 levels itself, after
# reading ahead over every opening bracket, so its error would reach an author before our
# own limit and word it differently on each PyYAML release. The pure-Python parser hands
# over events as it goes, so the builder stops at `max_depth` with lessonkit's message.
_LIBYAML_DEPTH = "exceeded maximum nesting depth"


def _parse(
    text: str, path: str, limits: Limits, watch: frozenset[str], parser_type: Any = None
) -> Document:
    builder = Builder(path, limits.max_depth, limits.max_alias_nodes, watch)
    parser = (parser_type or _Parser)(text)
    # The collector finds no cycles in freshly built values; pausing it during the
    # build makes large files about 2.5x faster (measured in the benchmark).
    collecting = gc.isenabled()
    gc.disable()
    try:
        value, root = builder.build(parser)
    except yaml.MarkedYAMLError as error:
        if error.problem == _LIBYAML_DEPTH and parser_type is None:
            return _parse(text, path, limits, watch, yaml.SafeLoader)
        found = [*builder.problems, hints.syntax_problem(error, path, text)]
        raise ContentError(hints.hinted(found, text)) from None
    except ContentError as error:
        raise ContentError(hints.hinted(error.problems, text)) from None
    except yaml.YAMLError as error:  # reader errors carry a character index, not a mark
        found = [*builder.problems, hints.reader_problem(error, path, text)]
        raise ContentError(found) from None
    finally:
        if collecting:
            gc.enable()
        parser.dispose()
    problems = hints.hinted(builder.problems, text)
    return Document(path, value, root, problems, builder.text_scalars, text=text)


def load(
    path: Path, *, limits: Limits = DEFAULT_LIMITS, watch: frozenset[str] = frozenset()
) -> Document:
    """Read and parse a YAML file, or raise ContentError naming the file, line and column."""
    return parse(read_text(path, limits), display_path(path), limits=limits, watch=watch)


def _shifted(problems: Iterable[Problem], lines: int) -> list[Problem]:
    return [
        Problem(p.path, p.line + lines if p.line else 0, p.column, p.message, p.hint)
        for p in problems
    ]
