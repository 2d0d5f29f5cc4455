"""The run-time form of a question: what every layer above reads of it.

``RuntimeQuestion`` is what every question has, ``DrawnQuestion`` one that may draw
numbers; each type's module subclasses them with its own fields
(``class Cloze(RuntimeQuestion, tag="cloze")``). The compiled bank decodes each question
into its type's form once (``registry.decode``); ``as_json`` and ``drawn`` go back to the
bank's JSON, for the formula engine and the models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from lessonkit.questiontypes import frozen
from lessonkit.questiontypes.frozen import EMPTY, Part


class RuntimeQuestion(Part):
    """What every question has at run time, whatever its type (see ``QuestionBase``).

    Subclasses add their own fields and name their `type:` value with a class keyword,
    ``class Cloze(RuntimeQuestion, tag="cloze")``. Lists are tuples, so the whole object
    is immutable and can be shared between attempts.
    """

    tag: ClassVar[str] = ""

    def __init_subclass__(cls, *, tag: str | None = None, **how: Any) -> None:
        super().__init_subclass__(**how)
        if tag is not None:
            cls.tag = tag

    id: str
    prompt: str
    explanation: str
    section: str
    insight: int
    points: float = 1.0
    objectives: tuple[int, ...] = ()
    hint: str | None = None
    tags: tuple[str, ...] = ()
    difficulty: str | None = None

    @property
    def type(self) -> str:
        """The `type:` value, as the bank writes it."""
        return self.tag


class DrawnQuestion(RuntimeQuestion):
    """A question that may draw numbers (`params:`): the parameters stay as the bank's JSON
    has them (``bank.variants`` reads them) until a draw renders a plain question."""

    params: Mapping[str, Any] = EMPTY
    derived: Mapping[str, Any] = EMPTY
    constraints: tuple[Any, ...] = ()
    numbers_before: Mapping[str, Any] | None = None

    def parameters_key(self) -> dict[str, Any]:
        """The drawn parameters' part of the answer-key hash (empty without ``params``)."""
        if not self.params:
            return {}
        return {"parameters": {"params": dict(self.params), "derived": dict(self.derived),
                               "constraints": list(self.constraints)}}  # fmt: skip


Q = TypeVar("Q", bound=RuntimeQuestion)


def as_json(question: RuntimeQuestion) -> dict[str, Any]:
    """A run-time question as its JSON form (what ``bank.variants`` and the models read)."""
    return {"type": question.type, **frozen.as_json(question)}


def drawn(question: Q, numbers: Mapping[str, float | str], **how: Any) -> Q:
    """The plain question one draw of a question's parameters makes of it (``how``:
    ``bank.variants.render``'s options). Raises ``EvaluationError`` when a formula fails."""
    from lessonkit.bank import variants  # the formula engine, only for questions that draw

    plain = variants.render(as_json(question), dict(numbers), **how)
    return type(question).from_json(plain)
