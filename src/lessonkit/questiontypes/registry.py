"""The registry of question types, and the one place the rest of lessonkit asks which
type does what.

Adding a type is adding its module to this folder and one line to ``REGISTERED``
(CONTRIBUTING.md, "Adding a question type"). Consumers never switch on a question's
`type:`; they call ``of(question)`` and the type's method, or the functions below,
which add what every type shares (the common part of the answer-key hash, an empty
response refused, the page's grading key).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, TypeAlias

from lessonkit.questiontypes import truefalse
from lessonkit.questiontypes.base import (
    QuestionType,
    RuntimeQuestion,
    TypeIncomplete,
    UnknownType,
)

# One line per type, in the order `lessonkit new lesson` and the documentation list them.
REGISTERED: tuple[QuestionType[Any, Any], ...] = (truefalse.TYPE,)

AnyType: TypeAlias = QuestionType[Any, Any]
_BY_NAME: dict[str, AnyType] = {kind.name: kind for kind in REGISTERED}
_BY_RUNTIME: dict[type[RuntimeQuestion], AnyType] = {kind.runtime: kind for kind in REGISTERED}

# What every type's module must say (the methods marked *required* in ``base``).
REQUIRED = (
    "expected_form", "parse", "from_json", "grade", "answer_key", "key_fields", "shown",
    "key_described", "anki", "gift", "moodle", "widget_key", "widget",
)  # fmt: skip


def names() -> tuple[str, ...]:
    """Every registered type's `type:` value, in registry order."""
    return tuple(_BY_NAME)


def named(name: str) -> AnyType:
    """The type whose `type:` value is ``name``; ``UnknownType`` (a LessonkitError) if none."""
    found = _BY_NAME.get(name)
    if found is None:
        raise UnknownType(
            f"question type `{name}` is not registered (known: {', '.join(_BY_NAME)}); a "
            "new type needs its module in lessonkit/questiontypes/ and a line in "
            "`REGISTERED` (lessonkit/questiontypes/registry.py)"
        )
    return found


def of(question: RuntimeQuestion) -> AnyType:
    """The type of a run-time question (its class, else its `type:` tag)."""
    found = _BY_RUNTIME.get(type(question))
    return found if found is not None else named(question.type)


def check(kinds: Iterable[AnyType] = REGISTERED) -> list[str]:
    """Every gap in the registered types, as sentences; empty when each is complete.

    A type must name itself and its run-time form consistently and override every
    required method; a `qti_type` needs `qti`.
    """
    gaps = []
    for kind in kinds:
        name = getattr(kind, "name", None) or type(kind).__name__
        runtime = getattr(kind, "runtime", None)
        if not (isinstance(runtime, type) and issubclass(runtime, RuntimeQuestion)):
            gaps.append(f"question type `{name}` names no run-time form (`runtime`)")
        elif runtime.__struct_config__.tag != name:
            tag = runtime.__struct_config__.tag
            gaps.append(f"question type `{name}`: its run-time form is tagged `{tag}`")
        if not getattr(kind, "script", None):
            gaps.append(f"question type `{name}` names no widget script (`script`)")
        required = [*REQUIRED, *(["qti"] if getattr(kind, "qti_type", None) else [])]
        gaps += [
            f"question type `{name}` does not implement `{method}`"
            for method in required
            if getattr(type(kind), method, None) is getattr(QuestionType, method)
        ]
    return gaps


def complete() -> None:
    """Raise ``TypeIncomplete`` listing every gap, if any (``check``)."""
    gaps = check()
    if gaps:
        raise TypeIncomplete("; ".join(gaps) + " (see lessonkit/questiontypes/base.py)")


def key_hash(question: RuntimeQuestion) -> str:
    """A short, stable hash of what makes an answer right, and of the points.

    History keys on question id plus this hash, so earlier answers stop counting when
    the key changes. Prompt, hint, explanation and feedback are left out on purpose:
    rewording them does not change which answers are right.
    """
    # Numbers go through float() so that `points: 1` and `points: 1.0` hash alike.
    key: dict[str, Any] = {"type": question.type, "points": float(question.points)}
    key |= of(question).key_fields(question)
    blob = json.dumps(key, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]
