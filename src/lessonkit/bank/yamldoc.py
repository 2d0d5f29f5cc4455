"""Safe YAML reading with positions: plain Python values plus a map back to line and column.

Values are built from the parser's event stream rather than PyYAML's constructors, so
no tag can ever construct a Python object, nesting depth and alias expansion are bounded
while parsing (libyaml's own composer recurses and crashes on deep nesting), duplicate
keys are caught, and every value keeps the position it came from.

Scalars follow the YAML 1.2 core schema (see ``scalars``): only ``true``/``false``
are booleans, so ``no``, ``yes``, ``on`` and ``off`` stay text.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lessonkit.bank import hints, scalars
from lessonkit.errors import ContentError, Problem, display_path

# libyaml's C parser when PyYAML was built with it; the pure-Python one otherwise.
_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile or mistaken file from exhausting time or memory."""

    max_bytes: int = 10 * 1024 * 1024
    max_depth: int = 40
    max_alias_nodes: int = 100_000


DEFAULT_LIMITS = Limits()

Loc = Sequence[str | int]


class Node:
    """Where a value starts; collections also know where their children are."""

    __slots__ = ("column", "line")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


class MapNode(Node):
    __slots__ = ("keys",)

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        # key -> (node of the key itself, node of its value)
        self.keys: dict[str, tuple[Node, Node]] = {}


class SeqNode(Node):
    __slots__ = ("items",)

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.items: list[Node] = []


@dataclass(frozen=True, slots=True)
class TextScalar:
    """A folded (`>`) or plain scalar as the author wrote it, for checks of its style.

    Marks are libyaml's: 0-based line and column, before any front-matter shift.
    """

    style: str  # ">" folded, "" plain
    value: str
    start: tuple[int, int]
    end: tuple[int, int]
    name: str  # the key it is the value of, or the key its list is under
    item: bool  # an item of a list rather than the value of a key


@dataclass
class Document:
    """A parsed YAML file: its values, their positions, and non-fatal problems found."""

    path: str
    data: Any
    root: Node
    problems: list[Problem] = field(default_factory=list)
    # Folded scalars, and plain ones under the watched keys, as written (see TextScalar).
    text_scalars: list[TextScalar] = field(default_factory=list)

    def locate(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value at ``loc``, or of the deepest part of it that exists.

        Path parts that are not keys of a mapping (pydantic puts the union tag there)
        are skipped. With ``key=True`` the position of the last key is returned instead
        of its value, which is where an unknown field should be underlined.
        """
        node = self.root
        key_node: Node | None = None
        for part in loc:
            key_node = None
            if isinstance(node, MapNode) and isinstance(part, str) and part in node.keys:
                key_node, node = node.keys[part]
            elif (
                isinstance(node, SeqNode) and isinstance(part, int) and 0 <= part < len(node.items)
            ):
                node = node.items[part]
        target = key_node if key and key_node is not None else node
        return target.line, target.column

    def problem(self, loc: Loc, message: str, hint: str = "", *, key: bool = False) -> Problem:
        line, column = self.locate(loc, key=key)
        return Problem(self.path, line, column, message, hint)


# --- building values from events ---------------------------------------------


class _Frame:
    """A mapping or sequence being built, and how many nodes it expands to."""

    __slots__ = ("anchor", "key", "key_node", "name", "node", "size", "value")

    def __init__(self, value: Any, node: Node, anchor: str | None, name: str = "") -> None:
        self.value = value
        self.node = node
        self.anchor = anchor
        self.name = name  # the key this collection is the value of, if any
        self.key: str | None = None
        self.key_node: Node | None = None
        self.size = 1


class _Builder:
    """Turns one parser's events into a Document, collecting problems as it goes."""

    def __init__(self, path: str, limits: Limits, watch: frozenset[str] = frozenset()) -> None:
        self.path = path
        self.limits = limits
        self.watch = watch
        self.text_scalars: list[TextScalar] = []
        self.problems: list[Problem] = []
        self.anchors: dict[str, tuple[Any, Node, int]] = {}
        # Anchors on text that no alias uses: mostly text that starts with `&` unquoted,
        # which YAML cuts off silently (`&nbsp; and more` reads as "and more").
        self.text_anchors: dict[str, Node] = {}
        self.aliased: set[str] = set()
        self.alias_nodes = 0

    def fail(self, node: Node, message: str, hint: str = "") -> ContentError:
        return ContentError(
            [*self.problems, Problem(self.path, node.line, node.column, message, hint)]
        )

    def build(self, parser: Any) -> Document:
        event = parser.get_event()  # StreamStart
        event = parser.get_event()
        if isinstance(event, yaml.StreamEndEvent):
            raise self.fail(Node(0, 0), "the file is empty", "write the fields the format needs")
        value, node = self._document(parser)
        parser.get_event()  # DocumentEnd
        event = parser.get_event()
        if isinstance(event, yaml.DocumentStartEvent):
            start = _node_at(event)
            raise self.fail(
                start, "a second YAML document starts here", "keep one document per file"
            )
        for name, where in self.text_anchors.items():
            if name not in self.aliased:
                message = f"unused anchor `&{name}`"
                hint = f"remove it, or use it with `*{name}`"
                self.problems.append(Problem(self.path, where.line, where.column, message, hint))
        return Document(self.path, value, node, self.problems, self.text_scalars)

    def _document(self, parser: Any) -> tuple[Any, Node]:
        stack: list[_Frame] = []
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is yaml.DocumentEndEvent:
                raise self.fail(Node(1, 1), "the file has no content", "write the fields it needs")
            if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                frame = stack.pop()
                value, node, size = frame.value, frame.node, frame.size
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (value, node, size)
            elif kind is yaml.ScalarEvent:
                value, node, size = self._scalar(event, stack), _node_at(event), 1
            elif kind is yaml.AliasEvent:
                value, node, size = self._alias(event)
            else:  # a collection starts
                stack.append(self._open(event, stack))
                continue
            if not stack:
                return value, node
            self._add(stack[-1], value, node, size)

    def _open(self, event: Any, stack: list[_Frame]) -> _Frame:
        node_start = _node_at(event)
        if len(stack) >= self.limits.max_depth:
            raise self.fail(
                node_start,
                f"nesting is deeper than {self.limits.max_depth} levels",
                "flatten the structure; banks need only a few levels",
            )
        self._check_tag(event, node_start)
        name = _name_in(stack[-1]) if stack else ""
        if isinstance(event, yaml.MappingStartEvent):
            return _Frame({}, MapNode(node_start.line, node_start.column), event.anchor, name)
        return _Frame([], SeqNode(node_start.line, node_start.column), event.anchor, name)

    def _add(self, frame: _Frame, value: Any, node: Node, size: int) -> None:
        frame.size += size
        if isinstance(frame.node, SeqNode):
            frame.value.append(value)
            frame.node.items.append(node)
        elif frame.key_node is None:
            self._take_key(frame, value, node)
        else:
            key, key_node = frame.key, frame.key_node
            frame.key = frame.key_node = None
            assert isinstance(frame.node, MapNode) and key is not None
            if key in frame.node.keys:
                first = frame.node.keys[key][0]
                self.problems.append(
                    Problem(
                        self.path,
                        key_node.line,
                        key_node.column,
                        f"duplicate key `{key}` (first given at line {first.line})",
                        "remove one of them; YAML keeps only one",
                    )
                )
                return
            frame.value[key] = value
            frame.node.keys[key] = (key_node, node)

    def _take_key(self, frame: _Frame, value: Any, node: Node) -> None:
        if isinstance(value, dict | list):
            self.problems.append(
                Problem(self.path, node.line, node.column, "a key must be plain text", "")
            )
            value = "?"
        elif isinstance(value, bool):
            value = "true" if value else "false"
        elif not isinstance(value, str):
            value = "null" if value is None else str(value)
        frame.key, frame.key_node = value, node

    def _scalar(self, event: Any, stack: list[_Frame]) -> Any:
        tag = event.tag
        text: str = event.value
        if tag is None or tag == "!":
            # implicit[0]: an untagged plain scalar, the only kind whose type is inferred
            value = scalars.resolve_plain(text) if event.implicit[0] and tag is None else text
        else:
            value = self._tag_value(event, tag, text)
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, _node_at(event), 1)
            self.text_anchors[event.anchor] = _node_at(event)
        if stack:
            # Inline, not a call per scalar: this runs for every scalar of every bank.
            parent, style = stack[-1], event.style or ""
            item = parent.key_node is None
            if item and parent.value.__class__ is dict:
                return value  # a key, not text
            name = parent.name if item else parent.key
            if style == ">" or (not style and name in self.watch):
                self._keep_text(event, style, text, name or "", item)
        return value

    def _keep_text(self, event: Any, style: str, text: str, name: str, item: bool) -> None:
        start, end = event.start_mark, event.end_mark
        self.text_scalars.append(
            TextScalar(style, text, (start.line, start.column), (end.line, end.column), name, item)
        )

    def _tag_value(self, event: Any, tag: str, text: str) -> Any:
        node = _node_at(event)
        if not self._check_tag(event, node):
            return text
        try:
            return scalars.tagged(tag, text)
        except ValueError as error:
            self.problems.append(Problem(self.path, node.line, node.column, str(error), ""))
            return text

    def _check_tag(self, event: Any, node: Node) -> bool:
        tag = event.tag
        if tag is None or tag == "!" or tag in scalars.ALLOWED_TAGS:
            return True
        self.problems.append(
            Problem(
                self.path,
                node.line,
                node.column,
                f"the tag `{tag}` is not allowed",
                "remove the tag: banks hold plain text, numbers, lists and mappings",
            )
        )
        return False

    def _alias(self, event: Any) -> tuple[Any, Node, int]:
        node = _node_at(event)
        name = event.anchor
        if name not in self.anchors:
            raise self.fail(node, f"unknown alias `*{name}`", f"define `&{name}` before using it")
        value, _, size = self.anchors[event.anchor]
        self.aliased.add(name)
        self.alias_nodes += size
        if self.alias_nodes > self.limits.max_alias_nodes:
            raise self.fail(
                node,
                f"aliases expand to more than {self.limits.max_alias_nodes:,} values",
                "write the values out, or use fewer nested aliases",
            )
        return value, node, size


def _node_at(event: Any) -> Node:
    mark = event.start_mark
    return Node(mark.line + 1, mark.column + 1)


# --- files -------------------------------------------------------------------


def read_text(path: Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """A file's text, refusing directories, huge or binary files and bad UTF-8, before parsing."""
    shown = display_path(path)
    try:
        if path.is_dir():
            raise ContentError([Problem(shown, 0, 0, "is a directory, not a file", "")])
        size = path.stat().st_size
        if size > limits.max_bytes:
            message = f"is {_size(size)}, over the limit of {_size(limits.max_bytes)}"
            hint = "a lesson or bank is far smaller; is this a paste gone wrong or a binary file?"
            raise ContentError([Problem(shown, 0, 0, message, hint)])
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise ContentError(
            [Problem(shown, 0, 0, f"cannot be read: {reason.lower()}", "")]
        ) from None
    return decode(raw, shown)


def _size(count: int) -> str:
    return f"{count / 2**20:.1f} MiB" if count >= 2**20 else f"{count:,} bytes"


def decode(raw: bytes, path: str) -> str:
    """UTF-8 text without a byte-order mark; NUL bytes and invalid bytes are pointed at."""
    nul = raw.find(b"\0")
    if nul >= 0:
        line, column = _position(raw, nul)
        raise ContentError(
            [
                Problem(
                    path,
                    line,
                    column,
                    "contains a NUL byte",
                    "is this a binary file? save it as UTF-8 text",
                )
            ]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _position(raw, error.start)
        raise ContentError(
            [
                Problem(
                    path,
                    line,
                    column,
                    f"is not valid UTF-8 (byte 0x{raw[error.start]:02x})",
                    "save the file with UTF-8 encoding",
                )
            ]
        ) from None
    return text.removeprefix("\ufeff")


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", "replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def _name_in(parent: _Frame) -> str:
    """The key a value inside ``parent`` belongs to: the pending key of a mapping, or
    the key a list sits under."""
    if isinstance(parent.node, MapNode):
        return parent.key or ""
    return parent.name


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
        _shift(document, first_line - 1)
    return document


def _parse(text: str, path: str, limits: Limits, watch: frozenset[str]) -> Document:
    builder = _Builder(path, limits, watch)
    parser = _Parser(text)
    # The collector finds no cycles in freshly built values; pausing it during the
    # build makes large files about 2.5x faster (measured in the benchmark).
    collecting = gc.isenabled()
    gc.disable()
    try:
        document = builder.build(parser)
    except yaml.MarkedYAMLError as error:
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
    document.problems = hints.hinted(document.problems, text)
    return document


def load(
    path: Path, *, limits: Limits = DEFAULT_LIMITS, watch: frozenset[str] = frozenset()
) -> Document:
    """Read and parse a YAML file, or raise ContentError naming the file, line and column."""
    return parse(read_text(path, limits), display_path(path), limits=limits, watch=watch)


def _shift(document: Document, lines: int) -> None:
    seen: set[int] = set()
    stack = [document.root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.line += lines
        if isinstance(node, MapNode):
            for key_node, value_node in node.keys.values():
                stack.extend((key_node, value_node))
        elif isinstance(node, SeqNode):
            stack.extend(node.items)
    document.problems = _shifted(document.problems, lines)


def _shifted(problems: Iterable[Problem], lines: int) -> list[Problem]:
    return [
        Problem(p.path, p.line + lines if p.line else 0, p.column, p.message, p.hint)
        for p in problems
    ]
