"""YAML parser events composed into plain values, each with the position it came from.

Values are built from the parser's event stream rather than PyYAML's constructors, so
no tag can ever construct a Python object, nesting depth and alias expansion are bounded
while parsing (libyaml's own composer recurses and crashes on deep nesting), duplicate
keys are caught, and every value keeps the position it came from.

Scalars follow the YAML 1.2 core schema (see ``scalars``): only ``true``/``false``
are booleans, so ``no``, ``yes``, ``on`` and ``off`` stay text.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import yaml

from lessonkit.bank import scalars
from lessonkit.errors import ContentError, Problem


class Node:
    """Where a value starts (1-based); collections also know where their children are."""

    __slots__ = ("column", "line")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


# A scalar's position is a bare `(line, column)` tuple: a bank has hundreds of thousands
# of scalars, and a tuple costs a fifth of a Node to make.
Position = Node | tuple[int, int]


class MapNode(Node):
    __slots__ = ("keys",)

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        # key -> (position of the key itself, position of its value)
        self.keys: dict[str, tuple[Position, Position]] = {}


class SeqNode(Node):
    __slots__ = ("items",)

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        self.items: list[Position] = []


class TextScalar(NamedTuple):
    """A folded (`>`) or plain scalar as the author wrote it, for checks of its style.

    Marks are libyaml's: 0-based line and column, before any front-matter shift.
    """

    style: str  # ">" folded, "" plain
    value: str
    start: tuple[int, int]
    end: tuple[int, int]
    name: str  # the key it is the value of, or the key its list is under
    item: bool  # an item of a list rather than the value of a key


# --- building values from events ---------------------------------------------

_SCALAR, _ALIAS = yaml.ScalarEvent, yaml.AliasEvent
# Keys such as `text`, `type` and `feedback` start as `true` and `false` do, and values
# repeat (`1`, `true`): each text resolved once, 8 % of a 10,000-question bank's parse.
_resolve = lru_cache(maxsize=4096)(scalars.resolve_plain)
_MAP_START, _MAP_END = yaml.MappingStartEvent, yaml.MappingEndEvent
_SEQ_START, _SEQ_END = yaml.SequenceStartEvent, yaml.SequenceEndEvent


class Builder:
    """Turns one parser's events into values and positions, collecting problems as it goes.

    The loop in ``_root`` runs once per event of every bank, so it is written for speed:
    state in local variables, no call for the common cases, a plain ``(line, column)``
    tuple for each scalar's position and a global count of values built instead of a
    size per collection. Rare events (tags, anchors, aliases, odd keys) get methods.
    """

    def __init__(
        self,
        path: str,
        max_depth: int,
        max_alias_nodes: int,
        watch: frozenset[str] = frozenset(),
    ) -> None:
        self.path = path
        self.max_depth = max_depth
        self.max_alias_nodes = max_alias_nodes
        self.watch = watch
        self.text_scalars: list[TextScalar] = []
        self.problems: list[Problem] = []
        # anchor -> (value, position, how many values it expands to)
        self.anchors: dict[str, tuple[Any, Position, int]] = {}
        # Anchors on text that no alias uses: mostly text that starts with `&` unquoted,
        # which YAML cuts off silently (`&nbsp; and more` reads as "and more").
        self.text_anchors: dict[str, Position] = {}
        self.aliased: set[str] = set()
        self.alias_values = 0

    def fail(self, at: Position, message: str, hint: str = "") -> ContentError:
        line, column = line_column(at)
        return ContentError([*self.problems, Problem(self.path, line, column, message, hint)])

    def note(self, at: Position, message: str, hint: str = "") -> None:
        """A problem that does not stop the parse."""
        line, column = line_column(at)
        self.problems.append(Problem(self.path, line, column, message, hint))

    def build(self, parser: Any) -> tuple[Any, Position]:
        """The document's value and its root's position; problems gather in ``problems``."""
        event = parser.get_event()  # StreamStart
        event = parser.get_event()
        if isinstance(event, yaml.StreamEndEvent):
            raise self.fail(Node(0, 0), "the file is empty", "write the fields the format needs")
        value, root = self._root(parser)
        parser.get_event()  # DocumentEnd
        event = parser.get_event()
        if isinstance(event, yaml.DocumentStartEvent):
            raise self.fail(
                _at(event), "a second YAML document starts here", "keep one document per file"
            )
        for name, where in self.text_anchors.items():
            if name not in self.aliased:
                self.note(where, f"unused anchor `&{name}`", f"remove it, or use it with `*{name}`")
        return value, root

    def _root(self, parser: Any) -> tuple[Any, Position]:
        get, resolve, maybe = parser.get_event, _resolve, scalars.MAYBE_NOT_TEXT
        watch, keep, max_depth = self.watch, self.text_scalars.append, self.max_depth
        # The collection being built and what surrounds it; `stack` holds the outer ones.
        current: Any = None  # its dict or list
        node: Any = None  # its MapNode or SeqNode
        is_map = False
        name = ""  # the key it is the value of, or the key its list is under
        key: str | None = None  # a mapping's key waiting for its value
        key_at: Position = (0, 0)
        anchor: str | None = None
        start = 0  # `count` when it opened: its size is `count - start` when it closes
        count = 0  # values built so far, aliases counted as what they expand to
        stack: list[tuple[Any, ...]] = []
        while True:
            event = get()
            kind = event.__class__
            if kind is _SCALAR:
                mark = event.start_mark
                at: Position = (mark.line + 1, mark.column + 1)
                text = event.value
                if event.tag is not None:
                    value = self._tagged(event, at)
                elif event.implicit[0] and (not text or text[0] in maybe):
                    value = resolve(text)  # only plain text that may be a number, bool or null
                else:
                    value = text
                if event.anchor is not None:
                    self._anchor_text(event.anchor, value, at)
                count += 1
                if key is not None or (stack and not is_map):  # a value or an item, not a key
                    style = event.style
                    field = key if is_map else name
                    if style == ">" or (not style and field in watch):
                        end = event.end_mark
                        keep(
                            TextScalar(style or "", text, (mark.line, mark.column),
                                       (end.line, end.column), field or "", not is_map)
                        )  # fmt: skip
            elif kind is _MAP_END or kind is _SEQ_END:
                value, at = current, node
                if anchor is not None:
                    self.anchors[anchor] = (value, at, count - start)
                current, node, is_map, name, key, key_at, anchor, start = stack.pop()
                if not stack:
                    return value, at
            elif kind is _MAP_START or kind is _SEQ_START:
                mark = event.start_mark
                if len(stack) >= max_depth:
                    raise self.fail(
                        (mark.line + 1, mark.column + 1),
                        f"nesting is deeper than {max_depth} levels",
                        "flatten the structure; banks need only a few levels",
                    )
                if event.tag is not None:
                    self._check_tag(event, (mark.line + 1, mark.column + 1))
                stack.append((current, node, is_map, name, key, key_at, anchor, start))
                if is_map:
                    name = key or ""
                anchor, start = event.anchor, count
                count += 1
                is_map = kind is _MAP_START
                current = {} if is_map else []
                node = (MapNode if is_map else SeqNode)(mark.line + 1, mark.column + 1)
                key = None
                continue
            elif kind is _ALIAS:
                value, at, size = self._alias(event)
                count += size
            else:  # the document ends before any value
                raise self.fail(Node(1, 1), "the file has no content", "write the fields it needs")
            if not stack:
                return value, at  # the document is one scalar
            # Add the value to the collection being built.
            if not is_map:
                current.append(value)
                node.items.append(at)
            elif key is None:
                key, key_at = (value, at) if value.__class__ is str else self._key(value, at)
            else:
                if key in current:
                    self._duplicate(node, key, key_at)
                else:
                    current[key] = value
                    node.keys[key] = (key_at, at)
                key = None

    def _key(self, value: Any, at: Position) -> tuple[str, Position]:
        """A key that is not plain text, as the text the format will look it up by."""
        if isinstance(value, dict | list):
            self.note(at, "a key must be plain text")
            return "?", at
        if isinstance(value, bool):
            return ("true" if value else "false"), at
        return ("null" if value is None else str(value)), at

    def _duplicate(self, node: MapNode, key: str, at: Position) -> None:
        first, _ = node.keys[key]
        self.note(
            at,
            f"duplicate key `{key}` (first given at line {line_column(first)[0]})",
            "remove one of them; YAML keeps only one",
        )

    def _anchor_text(self, name: str, value: Any, at: Position) -> None:
        self.anchors[name] = (value, at, 1)
        self.text_anchors[name] = at

    def _tagged(self, event: Any, at: Position) -> Any:
        """The value of a scalar with a tag: `!` keeps it text, a core tag applies."""
        tag, text = event.tag, event.value
        if tag == "!" or not self._check_tag(event, at):
            return text
        try:
            return scalars.tagged(tag, text)
        except ValueError as error:
            self.note(at, str(error))
            return text

    def _check_tag(self, event: Any, at: Position) -> bool:
        tag = event.tag
        if tag is None or tag == "!" or tag in scalars.ALLOWED_TAGS:
            return True
        self.note(
            at,
            f"the tag `{tag}` is not allowed",
            "remove the tag: banks hold plain text, numbers, lists and mappings",
        )
        return False

    def _alias(self, event: Any) -> tuple[Any, Position, int]:
        at = _at(event)
        name = event.anchor
        if name not in self.anchors:
            raise self.fail(at, f"unknown alias `*{name}`", f"define `&{name}` before using it")
        value, _, size = self.anchors[name]
        self.aliased.add(name)
        self.alias_values += size
        if self.alias_values > self.max_alias_nodes:
            raise self.fail(
                at,
                f"aliases expand to more than {self.max_alias_nodes:,} values",
                "write the values out, or use fewer nested aliases",
            )
        return value, at, size


def _at(event: Any) -> Position:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1)


def line_column(at: Position) -> tuple[int, int]:
    return (at.line, at.column) if isinstance(at, Node) else at
