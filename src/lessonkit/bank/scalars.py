"""Plain YAML scalars under the YAML 1.2 core schema, and the explicit core tags banks may use.

Only ``true``/``false`` are booleans, so ``no``, ``yes``, ``on`` and ``off`` stay text (the
"Norway problem" cannot happen); ``0x``/``0o`` integers and ``.inf``/``.nan`` are numbers.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ALLOWED_TAGS", "MAYBE_NOT_TEXT", "resolve_plain", "tagged"]

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOATS = {
    ".inf": float("inf"),
    ".Inf": float("inf"),
    ".INF": float("inf"),
    "+.inf": float("inf"),
    "+.Inf": float("inf"),
    "+.INF": float("inf"),
    "-.inf": float("-inf"),
    "-.Inf": float("-inf"),
    "-.INF": float("-inf"),
    ".nan": float("nan"),
    ".NaN": float("nan"),
    ".NAN": float("nan"),
}
# The first characters of every plain scalar that is not text; `composer` tests this inline
# so that most scalars (prose) never call `resolve_plain`.
MAYBE_NOT_TEXT = frozenset("0123456789+-.~nNtTfF")
_CORE = "tag:yaml.org,2002:"
ALLOWED_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))


def resolve_plain(text: str) -> Any:
    """The value of an unquoted scalar under the YAML 1.2 core schema."""
    if text and text[0] not in MAYBE_NOT_TEXT:
        return text
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if _INT.match(text):
        return int(text)
    if text.startswith(("0x", "0o")):
        try:
            return int(text, 0)
        except ValueError:
            return text
    if _FLOAT.match(text):
        return float(text)
    return _SPECIAL_FLOATS.get(text, text)


def tagged(tag: str, text: str) -> Any:
    """Apply an explicit core tag such as ``!!int``; the caller has checked it is allowed."""
    kind = tag.removeprefix(_CORE)
    if kind == "str":
        return text
    value = resolve_plain(text)
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "float" and number:
        return float(value)
    if (
        (kind == "int" and number and isinstance(value, int))
        or (kind == "bool" and isinstance(value, bool))
        or (kind == "null" and value is None)
    ):
        return value
    raise ValueError(f"`{text}` is not a valid !!{kind}")
