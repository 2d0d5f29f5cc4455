"""Light frozen records read from JSON: what a question's run-time form is made of.

``Part`` works like a frozen, keyword-only dataclass (type checkers see it as one, through
``dataclass_transform``) without generating code per class: ``dataclasses`` compiles
an ``__init__``, ``__eq__``, ``__repr__`` and ``__setattr__`` for every class, about a
millisecond each, and a quiz defines a dozen of them before its first question. A
subclass lists its fields as annotations, with defaults as plain values (immutable
ones: a tuple, a string, ``EMPTY``); ``from_json`` reads one from the JSON of a
validated model.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Self, dataclass_transform

EMPTY: Mapping[str, Any] = MappingProxyType({})  # a default for a mapping field


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Part:
    """A frozen record: fields from the annotations, values by keyword, compared by value.

    From JSON (``from_json``): lists become tuples, a field typed ``tuple[SomePart, ...]``
    holds those parts, and a key that is not a field is left out.
    """

    _fields: ClassVar[tuple[str, ...]] = ()
    _hints: ClassVar[Mapping[str, str]] = EMPTY  # each field's annotation, as written
    _defaults: ClassVar[Mapping[str, Any]] = EMPTY
    # As JSON, leave out the fields that hold their default: for a record that stands for
    # one of several models (a cloze's blank: a number's fields or a text's), each of
    # which refuses the other's fields.
    _sparse: ClassVar[bool] = False

    def __init_subclass__(cls, *, sparse: bool | None = None, **how: Any) -> None:
        how.pop("frozen", None), how.pop("kw_only", None)  # always so; accepted for clarity
        super().__init_subclass__(**how)
        if sparse is not None:
            cls._sparse = sparse
        annotations = inspect.get_annotations(cls)  # its own, as written (strings)
        own = [name for name, hint in annotations.items() if "ClassVar" not in str(hint)]
        cls._fields = (*cls._fields, *(name for name in own if name not in cls._fields))
        cls._hints = MappingProxyType({**cls._hints, **{n: str(annotations[n]) for n in own}})
        defaults = {name: cls.__dict__[name] for name in own if name in cls.__dict__}
        cls._defaults = MappingProxyType({**cls._defaults, **defaults})

    def __init__(self, **values: Any) -> None:
        unknown = set(values) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        for name in self._fields:
            if name in values:
                value = values[name]
            elif name in self._defaults:
                value = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__} needs a value for `{name}`")
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make a new one (`replace`)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, name) for name in self._fields)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``."""
        return type(self)(**{**{name: getattr(self, name) for name in self._fields}, **changes})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """One from its JSON; ``TypeError`` when a field it needs is missing."""
        read = _readers(cls)
        return cls(**{name: read[name](value) for name, value in data.items() if name in read})


def as_json(part: Part) -> dict[str, Any]:
    """A record as JSON: nested records as objects, tuples as lists."""
    found: dict[str, Any] = _json(part)
    return found


_NONE = object()  # no default: never equal to a value


def _as_is(value: Any) -> Any:
    return value


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


_READERS: dict[type, dict[str, Callable[[Any], Any]]] = {}


def _readers(cls: type[Part]) -> dict[str, Callable[[Any], Any]]:
    """How each field of ``cls`` is read from JSON, worked out when the class is first
    read (a quiz pays for the types it shows)."""
    found = _READERS.get(cls)
    if found is None:
        found = _READERS[cls] = {name: _reader(cls, cls._hints[name]) for name in cls._fields}
    return found


def _reader(cls: type[Part], hint: str) -> Callable[[Any], Any]:
    # Annotations are read as written (`tuple[Option, ...]`), the names looked up where
    # the class that declared them is: cheaper than evaluating them all.
    if not hint.startswith("tuple["):
        return _as_is
    inner = hint.removeprefix("tuple[").split(",")[0].strip()
    for klass in cls.__mro__:
        found = getattr(sys.modules.get(klass.__module__), inner, None)
        if isinstance(found, type) and issubclass(found, Part):
            part: type[Part] = found
            return lambda value: tuple(part.from_json(v) for v in value)
    return _tuple


def _json(value: Any) -> Any:
    if isinstance(value, Part):
        return {
            name: _json(getattr(value, name))
            for name in value._fields
            if not (value._sparse and getattr(value, name) == value._defaults.get(name, _NONE))
        }
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    return value
