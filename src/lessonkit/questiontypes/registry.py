"""The registry of question types, and the one place the rest of lessonkit asks which
type does what.

Adding a type is adding its module to this folder and one line to ``REGISTERED``
(CONTRIBUTING.md, "Adding a question type"). Consumers never switch on a question's
`type:`; they call ``of(question)`` and the type's method, or the functions below,
which add what every type shares (the common part of the answer-key hash, an empty
response refused, the page's grading key). A type's module is imported when a question
of that type is first met, so a quiz pays at start only for the type it shows first.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from lessonkit.grading.credit import Grade, Response
from lessonkit.questiontypes import base
from lessonkit.questiontypes.base import (
    QuestionType,
    ResponseError,
    RuntimeQuestion,
    TypeIncomplete,
    UnknownType,
)

# One line per type: its `type:` value and its module in this folder, in the order
# `lessonkit new lesson` and the documentation list them.
REGISTERED: Mapping[str, str] = {
    "single": "single",
    "multiple": "multiple",
    "true_false": "truefalse",
    "numeric": "numeric",
    "text": "text",
    "order": "order",
    "match": "match",
    "cloze": "cloze",
}

AnyType: TypeAlias = QuestionType[Any, Any]
_BY_NAME: dict[str, AnyType] = {}  # the types whose modules are imported, by name
_BY_RUNTIME: dict[type[RuntimeQuestion], AnyType] = {}

# What every type's module must say (the methods marked *required* in ``base``).
REQUIRED = (
    "expected_form", "parse", "from_json", "grade", "answer_key", "key_fields", "shown",
    "key_described", "anki", "gift", "moodle", "qti", "widget_key", "widget",
)  # fmt: skip


def decode(data: Mapping[str, Any]) -> RuntimeQuestion:
    """A question's JSON (a validated model's ``model_dump(mode="json")``) as its run-time
    form; ``UnknownType`` when its `type:` is not registered."""
    kind = named(str(data.get("type")))
    try:
        return kind.runtime.from_json(data)
    except TypeError as error:
        # Only a compiled bank that does not fit its own models gets here: a programming
        # error or a damaged cache, which the callers recompile.
        raise ValueError(f"question {data.get('id')!r}: {error}") from None


def decode_all(questions: Sequence[Mapping[str, Any]]) -> list[RuntimeQuestion]:
    """Many questions' JSON at once (``decode`` for each)."""
    return [decode(question) for question in questions]


def runtime(model: Any) -> RuntimeQuestion:
    """A validated pydantic question (``bank.questions``) in its run-time form."""
    return decode(model.model_dump(mode="json"))


def names() -> tuple[str, ...]:
    """Every registered type's `type:` value, in registry order."""
    return tuple(REGISTERED)


def types() -> tuple[AnyType, ...]:
    """Every registered type, in registry order (each module imported)."""
    return tuple(named(name) for name in REGISTERED)


def named(name: str) -> AnyType:
    """The type whose `type:` value is ``name``; ``UnknownType`` (a LessonkitError) if none."""
    found = _BY_NAME.get(name)
    if found is not None:
        return found
    module = REGISTERED.get(name)
    if module is None:
        raise UnknownType(
            f"question type `{name}` is not registered (known: {', '.join(REGISTERED)}); "
            "a new type needs its module in lessonkit/questiontypes/ and a line in "
            "`REGISTERED` (lessonkit/questiontypes/registry.py)"
        )
    kind = getattr(importlib.import_module(f"lessonkit.questiontypes.{module}"), "TYPE", None)
    if not isinstance(kind, QuestionType) or kind.name != name:
        raise TypeIncomplete(
            f"question type `{name}`: lessonkit/questiontypes/{module}.py has no `TYPE` "
            f"named `{name}`; end the module with `TYPE = ...Type()` whose `name` is it"
        )
    _BY_NAME[name], _BY_RUNTIME[kind.runtime] = kind, kind
    return kind


def of(question: RuntimeQuestion) -> AnyType:
    """The type of a run-time question (its class, else its `type:` tag)."""
    found = _BY_RUNTIME.get(type(question))
    return found if found is not None else named(question.type)


def check(kinds: Iterable[AnyType] | None = None) -> list[str]:
    """Every gap in the registered types, as sentences; empty when each is complete.

    A type must name itself and its run-time form consistently and override every
    required method.
    """
    gaps = []
    for kind in types() if kinds is None else kinds:
        name = getattr(kind, "name", None) or type(kind).__name__
        runtime = getattr(kind, "runtime", None)
        if not (isinstance(runtime, type) and issubclass(runtime, RuntimeQuestion)):
            gaps.append(f"question type `{name}` names no run-time form (`runtime`)")
        elif runtime.tag != name:
            gaps.append(f"question type `{name}`: its run-time form is tagged `{runtime.tag}`")
        if getattr(kind, "script", None) != f"{name}.js":
            gaps.append(f"question type `{name}`'s widget script (`script`) is not `{name}.js`")
        if "TODO(lessonkit)" not in (getattr(kind, "example", None) or ""):
            gaps.append(f"question type `{name}` gives no example question (`example`)")
        required = REQUIRED
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
    import hashlib  # OpenSSL's: only when a key is hashed, never before a first question

    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def parse(question: RuntimeQuestion, typed: str, display: Sequence[int]) -> Response:
    """The canonical response for what a learner typed, or ``ResponseError`` saying what
    form is expected (an empty answer included)."""
    from lessonkit.grading.numbers import clean

    kind = of(question)
    if not clean(typed):
        raise ResponseError("Nothing was typed. " + kind.expected_form(question))
    response: Response = kind.parse(question, typed, display)
    return response


def grade(question: RuntimeQuestion, response: Response) -> Grade:
    """Grade ``response`` to ``question``; partial credit follows the type's rule."""
    return of(question).grade(question, response)


def answer_key(question: RuntimeQuestion) -> Response | None:
    """A response earning full marks, or ``None`` when the type has no literal one."""
    key: Response | None = of(question).answer_key(question)
    return key


def wrong_responses(question: RuntimeQuestion) -> list[Response]:
    """A few responses that must score less than full marks."""
    return list(of(question).wrong_responses(question))


def to_json(question: RuntimeQuestion, response: Response) -> Any:
    """A response as JSON, for the history database and `--json`."""
    return of(question).to_json(response)


def from_json(question: RuntimeQuestion, value: Any) -> Response:
    """The response a stored JSON value stands for (the inverse of ``to_json``)."""
    response: Response = of(question).from_json(question, value)
    return response


def widget_key(question: RuntimeQuestion) -> dict[str, Any]:
    """What the page's script needs to grade a response exactly as ``grade`` does."""
    points = question.points  # written as the bank writes it: `1`, not `1.0`
    shown = int(points) if float(points).is_integer() else points
    return {"type": question.type, "points": shown} | of(question).widget_key(question)


# A question as JSON, and one draw of its numbers (see ``base``).
as_json = base.as_json
drawn = base.drawn
