"""A learner's attempts written as an attempts file, to share on purpose (`history --export`).

The file carries a random pseudonym and never a name, a machine id or a path; its first
line says so in words, for whoever opens it. Writing is all or nothing: the file appears
complete under its name, or not at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lessonkit import __version__
from lessonkit.course.bankversion import bank_version
from lessonkit.errors import UsageError
from lessonkit.history.rows import SharedAttempt
from lessonkit.history.store import Store
from lessonkit.results.records import FORMAT, VERSION

ABOUT = (
    "Quiz attempts exported on purpose with `lessonkit history --export`, for a teacher or "
    "a course author to analyse with `lessonkit results`. JSON Lines: this header, each "
    "attempt followed by its answers, and an end line with a checksum of the lines above."
)
LEARNER_NOTE = (
    "`learner` is a random pseudonym made on the learner's own computer, not derived from "
    "any name or device. The learner can replace it with `lessonkit history "
    "--reset-pseudonym`; files exported after that cannot be linked to this one by it."
)
CONTAINS = [
    "each quiz attempt: the quiz, the bank's version, when it started and finished",
    "each counted answer: question id, answer-key hash, response, score, seconds on "
    "screen, hints asked for, and a parameterised question's numbers",
]
OMITS = [
    "the learner's name, user name or e-mail",
    "any machine name or id, IP address or file path",
    "answers the learner took back, and review sessions",
]


@dataclass(frozen=True)
class Shared:
    """What an export holds: shown to the learner after writing it."""

    learner: str
    banks: tuple[str, ...]
    attempts: int
    answers: int


def export_history(
    store: Store, bank: str | None, path: Path | None, *, now: datetime
) -> tuple[Shared, str | None]:
    """Write the learner's quiz attempts (at ``bank``, or all) to ``path``.

    With ``path`` None nothing is written and the file's text is returned instead (for
    `--export -`). Raises UsageError when the file cannot be written.
    """
    learner = store.pseudonym()
    attempts = store.shared_attempts(bank)
    shared = Shared(
        learner,
        tuple(sorted({a.bank for a in attempts})),
        len(attempts),
        sum(len(a.answers) for a in attempts),
    )
    text = "".join(line + "\n" for line in file_lines(learner, attempts, exported=now))
    if path is None:
        return shared, text
    write_atomically(path, text)
    return shared, None


def file_lines(
    learner: str, attempts: Sequence[SharedAttempt], *, exported: datetime
) -> Iterator[str]:
    """Every line of an attempts file, the end line with its checksum last."""
    digest = hashlib.sha256()
    counts = {"attempt": 0, "answer": 0}
    for record in _records(learner, attempts, exported):
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        digest.update(line.encode() + b"\n")
        counts[record["record"]] = counts.get(record["record"], 0) + 1
        yield line
    end = {
        "record": "end",
        "attempts": counts["attempt"],
        "answers": counts["answer"],
        "sha256": digest.hexdigest(),
    }
    yield json.dumps(end, separators=(",", ":"))


def _records(
    learner: str, attempts: Sequence[SharedAttempt], exported: datetime
) -> Iterator[dict[str, Any]]:
    yield {
        "record": "header",
        "format": FORMAT,
        "version": VERSION,
        "about": ABOUT,
        "learner": learner,
        "learner_note": LEARNER_NOTE,
        "contains": CONTAINS,
        "omits": OMITS,
        "exported": _moment(exported),
        "lessonkit": __version__,
        "banks": sorted({a.bank for a in attempts}),
    }
    for number, attempt in enumerate(attempts, start=1):
        version = attempt.bank_version or _derived_version(attempt)
        common = {"learner": learner, "bank": attempt.bank, "bank_version": version}
        yield {
            "record": "attempt",
            **common,
            "attempt": number,
            "questions": max(1, len(attempt.order)),
            "started": _moment(attempt.started),
            "finished": None if attempt.finished is None else _moment(attempt.finished),
        }
        for answer in attempt.answers:
            yield {
                "record": "answer",
                **common,
                "attempt": number,
                "question": answer.question_id,
                "key_hash": answer.key_hash,
                "response": answer.response,
                "score": float(answer.score),
                "max_score": float(answer.max_score),
                "seconds": answer.seconds,
                "hints": answer.hints,
                "params": answer.params,
                "answered": _moment(answer.answered),
            }


def _derived_version(attempt: SharedAttempt) -> str | None:
    """The version of an attempt from before versions were recorded, when its answers
    cover every question it asked: each answer carries its question's key hash."""
    keys = {a.question_id: a.key_hash for a in attempt.answers}
    if not attempt.order or set(keys) != set(attempt.order):
        return None
    return bank_version(keys)


def _moment(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it, then rename."""
    folder = path.parent if str(path.parent) else Path()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
            Path(temporary).chmod(0o666 & ~_umask())  # mkstemp's 0600 as open() would
            Path(temporary).replace(path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
