"""A compiled bank as a quiz reads it: settings and question ids at once, each question
when first asked for.

A bank of 10,000 questions compiles to 9 MB of JSON; parsing it whole took ~170 ms,
more than a small quiz's whole start-up. So the cache file (``cachefile.write_listed``)
puts first what a quiz needs before its first question (the bank's settings, its ids in
bank order, the ids of the questions that draw numbers, the answer-key hashes) and then
the questions, each at a recorded offset: starting a quiz parses the head and the
questions it shows. The file is still one JSON object, for anything that wants it whole.

This is the one reader of a question's JSON: each question read is decoded at once into
its typed, immutable run-time form (``questiontypes``), which every layer above shares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from lessonkit.course import cachefile
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion

Recover = Callable[[], Mapping[str, Any]]  # the bank compiled again, for a damaged file


class CompiledBank(Mapping[str, Any]):
    """A bank's JSON form (``Bank.model_dump(mode="json")``), read as it is used.

    ``ids`` are the question ids in bank order and ``drawn`` those of the questions that
    draw numbers, both known without reading a question; ``question(id)`` reads one, in
    its run-time form; ``bank["questions"]`` reads them all. The bank's other settings
    are its JSON as written.
    """

    def __init__(
        self,
        settings: Mapping[str, Any],
        ids: Sequence[str],
        drawn: Sequence[str],
        questions: cachefile.Listed | Sequence[RuntimeQuestion],
        recover: Recover | None = None,
    ) -> None:
        self.ids, self.drawn = tuple(ids), tuple(drawn)
        self._settings, self._recover = settings, recover
        self._listed: cachefile.Listed | None = None
        self._all: list[RuntimeQuestion] | None = None
        self._read: dict[str, RuntimeQuestion] = {}  # by id: those read so far, or all
        self._where: dict[str, int] | None = None
        if isinstance(questions, cachefile.Listed):
            self._listed = questions
        else:
            self._all = list(questions)
            self._read = {q.id: q for q in self._all}

    def question(self, question_id: str) -> RuntimeQuestion:
        """The question with this id; KeyError when the bank has none."""
        found = self._read.get(question_id)
        if found is None:
            found = self._one(question_id)
            self._read[question_id] = found
        return found

    def _one(self, question_id: str) -> RuntimeQuestion:
        if self._listed is not None:
            if self._where is None:  # once: a bank of thousands is not searched per question
                self._where = {q: i for i, q in enumerate(self.ids)}
            try:
                found = self._listed.item(self._where[question_id])
            except ValueError:
                found = None
            if isinstance(found, dict) and found.get("id") == question_id:
                decoded = _decoded(found)
                if decoded is not None:
                    return decoded
        self.questions()  # every question read at once, or the bank compiled again
        return self._read[question_id]

    def questions(self) -> list[RuntimeQuestion]:
        """Every question, in bank order: one parse of the file's list."""
        if self._all is None:
            try:
                found = self._listed.items() if self._listed is not None else None
            except ValueError:
                found = None
            decoded = None
            if found is not None and _ids(found) == list(self.ids):
                decoded = [_decoded(q) for q in found]
            if decoded is None or None in decoded:
                decoded = self._recovered()
            self._all, self._listed = [q for q in decoded if q is not None], None
            self._read = {q.id: q for q in self._all}
        return self._all

    def _recovered(self) -> list[RuntimeQuestion | None]:
        # A cache damaged after its head was read: the bank from its source, as a cache
        # that fails to load at all is (`catalog.load`). Never a traceback mid-quiz.
        if self._recover is None:
            raise ValueError("a damaged compiled bank with no source to compile")
        return list(_runtime(self._recover()["questions"]))

    def __getitem__(self, key: str) -> Any:
        return self.questions() if key == "questions" else self._settings[key]

    def __iter__(self) -> Iterator[str]:
        yield from self._settings
        yield "questions"

    def __len__(self) -> int:
        return len(self._settings) + 1


def of(bank: Mapping[str, Any]) -> CompiledBank:
    """A plain bank (a fresh compile, a test's) with what ``CompiledBank`` knows at once;
    its questions in JSON form or already in their run-time form."""
    if isinstance(bank, CompiledBank):
        return bank
    questions = _runtime(bank["questions"])
    settings = {key: value for key, value in bank.items() if key != "questions"}
    drawn = [q.id for q in questions if getattr(q, "params", None)]
    return CompiledBank(settings, [q.id for q in questions], drawn, questions)


def _runtime(questions: Sequence[Any]) -> list[RuntimeQuestion]:
    return [q if isinstance(q, RuntimeQuestion) else registry.decode(q) for q in questions]


def _decoded(question: Mapping[str, Any]) -> RuntimeQuestion | None:
    """A question's JSON in its run-time form; ``None`` for JSON that does not fit it (a
    damaged cache, compiled again). A type no longer registered is a clear error."""
    try:
        return registry.decode(question)
    except ValueError:
        return None


def _ids(questions: Sequence[Any]) -> list[Any]:
    return [q.get("id") if isinstance(q, dict) else None for q in questions]


def _drawn(questions: Sequence[Mapping[str, Any]]) -> list[str]:
    return [q["id"] for q in questions if q.get("params")]


def save(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``catalog.compile_bank``'s result so that ``read`` reads each question alone."""
    questions = list(data["bank"]["questions"])
    head = {key: value for key, value in data.items() if key != "bank"}
    head["bank"] = {key: value for key, value in data["bank"].items() if key != "questions"}
    head["ids"] = [q["id"] for q in questions]
    head["drawn"] = _drawn(questions)
    cachefile.write_listed(path, head, questions)


def read(path: Path, recover: Recover | None = None) -> dict[str, Any] | None:
    """What ``save`` wrote, its ``bank`` a ``CompiledBank`` reading questions as asked for;
    ``None`` when the file is missing, damaged or in another layout."""
    listed = cachefile.read_listed(path)
    if listed is None:
        return None
    head = dict(listed.head)
    try:
        ids, drawn, settings = head.pop("ids"), head.pop("drawn"), head["bank"]
        sound = len(ids) == len(listed) and isinstance(settings, dict)
        sound = sound and all(isinstance(q, str) for q in (*ids, *drawn))
    except (KeyError, TypeError):
        return None
    if not sound:
        return None
    head["bank"] = CompiledBank(settings, ids, drawn, listed, recover)
    return head
