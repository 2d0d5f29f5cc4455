"""Reading attempts files one at a time: every line checked, edited or cut-short files refused.

Which files the paths name is ``sources``'s to say. A file is read whole into memory (a
learner's file is small; the limits below bound it), checked line by line against the
format's models, then against itself: one learner, attempts numbered in order, each
answer under its attempt, and the end line's counts and checksum. A refused file
contributes nothing, so a half-read or doctored file never skews a class's results.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from typing import IO

from pydantic import TypeAdapter, ValidationError

from lessonkit.errors import LessonkitError
from lessonkit.results.records import FORMAT, VERSION, Answer, Attempt, End, Header, Line
from lessonkit.results.sources import Source

MAX_LINE_BYTES = 64 * 1024  # far above any real line: the longest text answer is 4,000 chars
MAX_FILE_BYTES = 64 * 1024 * 1024  # thousands of attempts; a bigger "attempts file" is not one
BOM = b"\xef\xbb\xbf"  # what Windows editors put before UTF-8 text they save

_LINE: TypeAdapter[Header | Attempt | Answer | End] = TypeAdapter(Line)
# Nearly every line is an answer, and validating one as an Answer is about a third faster
# than through the union; lines the exporter wrote start with this.
_ANSWER: TypeAdapter[Answer] = TypeAdapter(Answer)
ANSWER_START = b'{"record":"answer",'


class Refused(LessonkitError):
    """A file that is not a whole, unedited attempts file; the message says where and why."""

    def __init__(self, name: str, line: int, message: str) -> None:
        self.name, self.line, self.message = name, line, message
        super().__init__(f"{name}:{line}: {message}" if line else f"{name}: {message}")

    def __reduce__(self) -> tuple[type[Refused], tuple[str, int, str]]:
        return Refused, (self.name, self.line, self.message)  # from a reading process


@dataclass
class LearnerFile:
    """One learner's file, checked: its header, attempts and answers in file order."""

    name: str
    header: Header
    attempts: list[Attempt] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    digest: str = ""  # of the file's bytes: the same file given twice is read once


def read(source: Source) -> LearnerFile:
    """One attempts file, checked whole; Refused names the file and line of the first fault."""
    if source.size > MAX_FILE_BYTES:
        raise Refused(source.name, 0, f"is {source.size:,} bytes, more than an attempts file "
                      f"can be ({MAX_FILE_BYTES:,}); is it the right file?")  # fmt: skip
    try:
        with source.open() as stream:
            return _Reader(source.name).read(_whole(stream, source.size))
    except OSError as error:
        raise Refused(source.name, 0, f"cannot be read: {error.strerror or error}") from None
    except zipfile.BadZipFile as error:
        raise Refused(source.name, 0, f"cannot be unpacked: {error}") from None


def _whole(stream: IO[bytes], expected: int) -> bytes:
    """What the stream holds, up to one byte past the limit. Asked for the limit at once,
    Python sets aside all 64 MiB before reading each small file; the expected size is
    asked for first, and only a file that turns out longer is read on."""
    first = min(max(expected, 0), MAX_FILE_BYTES) + 1
    data = stream.read(first)
    if len(data) == first:
        data += stream.read(MAX_FILE_BYTES + 1 - first)
    return data


class _Reader:
    """The checks that span lines: one learner, attempts in order, counts and checksum."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.number = 0
        self.attempt: Attempt | None = None
        self.asked: set[str] = set()

    def refuse(self, message: str) -> Refused:
        return Refused(self.name, self.number, message)

    def read(self, data: bytes) -> LearnerFile:
        if not data:
            raise Refused(self.name, 0, "is empty; an attempts file starts with its header line")
        if len(data) > MAX_FILE_BYTES:
            raise Refused(self.name, 0, f"is more than an attempts file can be "
                          f"({MAX_FILE_BYTES:,} bytes); is it the right file?")  # fmt: skip
        lines = data.split(b"\n")
        if not lines[-1]:
            lines.pop()  # the newline that ends the last line
        if b"\r" in data:  # a download that turned line ends into \r\n
            lines = [line.removesuffix(b"\r") for line in lines]
        self.number = 1
        found = LearnerFile(self.name, self._header(self._sized(lines[0])))
        found.digest = hashlib.sha256(data).hexdigest()
        return self._body(lines, found)

    def _body(self, lines: list[bytes], found: LearnerFile) -> LearnerFile:
        """Every line after the header. The common case, an answer that follows the one
        before it in its attempt, is checked inline; any other line takes ``_line``, which
        names what is wrong."""
        answer = _ANSWER.validator.validate_json  # the core validator: no wrapper per line
        learner, keep = found.header["learner"], found.answers.append
        # What the next answer line must repeat of its attempt; None before the first.
        under: tuple[int, str, str | None] | None = None
        asked, room = self.asked, 0
        for number, raw in enumerate(lines[1:], 2):
            record = None
            if under is not None and raw.startswith(ANSWER_START) and len(raw) <= MAX_LINE_BYTES:
                try:
                    record = answer(raw)
                except ValidationError as error:
                    self.number = number
                    raise self.refuse(_described(error, "answer")) from None
                question = record["question"]
                if (
                    (record["attempt"], record["bank"], record["bank_version"]) == under
                    and record["learner"] == learner
                    and question not in asked
                    and len(asked) < room
                    and record["score"] <= record["max_score"] * (1 + 1e-9)
                ):
                    asked.add(question)
                    keep(record)
                    continue
            self.number = number
            if self._line(raw, record, found, lines):
                return found
            if self.attempt is not None:
                attempt = self.attempt
                under = (attempt["attempt"], attempt["bank"], attempt["bank_version"])
                asked, room = self.asked, attempt["questions"]
        self.number = len(lines)
        raise self.refuse(
            "the file ends without its end line: it was cut short; export it again, or "
            "download it again"
        )

    def _line(
        self, raw: bytes, record: Line | None, found: LearnerFile, lines: list[bytes]
    ) -> bool:
        """Any line but an answer in its place: checked, placed, or refused with the reason;
        True for the end line."""
        if record is None:
            self._sized(raw)
            quick = raw.startswith(ANSWER_START)
            try:
                record = _ANSWER.validate_json(raw) if quick else _LINE.validate_json(raw)
            except ValidationError as error:
                if not raw.strip():
                    raise self.refuse(
                        "an empty line; every line of an attempts file is a record"
                    ) from None
                raise self.refuse(_described(error, "answer" if quick else None)) from None
        if record["record"] == "end":
            self._end(record, found, lines)
            return True
        self._place(record, found)
        return False

    def _sized(self, raw: bytes) -> bytes:
        if len(raw) > MAX_LINE_BYTES:
            raise self.refuse(f"a line longer than {MAX_LINE_BYTES:,} bytes; no real one is")
        return raw

    def _header(self, raw: bytes) -> Header:
        if raw.startswith(BOM):
            raise self.refuse(
                "starts with a byte-order mark: an editor saved the file again after it was "
                "exported; ask the learner for the file as `lessonkit history --export` wrote it"
            )
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise self.refuse(
                "this is not a lessonkit attempts file: its first line should be the header "
                "that `lessonkit history --export` writes"
            ) from None
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise self.refuse(
                f"written in attempts format {version} by a newer lessonkit; this one reads "
                f"format {VERSION}: upgrade lessonkit"
            )
        try:
            record = _LINE.validate_json(raw)
        except ValidationError as error:
            raise self.refuse(_described(error)) from None
        assert record["record"] == "header"  # the format field above is only a header's
        return record

    def _place(self, record: Header | Attempt | Answer, found: LearnerFile) -> None:
        if record["record"] == "header":
            raise self.refuse(
                "a second header: two attempts files were joined into one; keep each "
                "learner's file as it was exported"
            )
        learner = found.header["learner"]
        if record["learner"] != learner:
            raise self.refuse(
                f"learner `{record['learner']}` is not the header's `{learner}`: "
                "lines from different files were put together"
            )
        if record["record"] == "attempt":
            self._attempt(record, found)
        else:
            self._answer(record, found)

    def _attempt(self, record: Attempt, found: LearnerFile) -> None:
        number, before = record["attempt"], len(found.attempts)
        if number != before + 1:
            raise self.refuse(
                f"attempt {number} follows attempt {before}: attempts are numbered 1, 2, 3… "
                "in the order exported"
            )
        if record["bank"] not in found.header["banks"]:
            raise self.refuse(f"quiz `{record['bank']}` is not among the header's `banks`")
        finished = record["finished"]
        if finished is not None and finished < record["started"]:
            raise self.refuse("the attempt finished before it started")
        self.attempt, self.asked = record, set()
        found.attempts.append(record)

    def _answer(self, record: Answer, found: LearnerFile) -> None:
        attempt, number = self.attempt, record["attempt"]
        if attempt is None or number != attempt["attempt"]:
            above = "no attempt" if attempt is None else f"attempt {attempt['attempt']}"
            raise self.refuse(
                f"an answer to attempt {number}, but the line above it belongs to {above}: "
                "every answer follows its own attempt line"
            )
        if record["bank"] != attempt["bank"] or record["bank_version"] != attempt["bank_version"]:
            raise self.refuse(
                f"an answer to quiz `{record['bank']}` (version {record['bank_version']}) "
                f"under an attempt at `{attempt['bank']}` (version {attempt['bank_version']})"
            )
        if record["question"] in self.asked:
            raise self.refuse(f"a second answer to `{record['question']}` in attempt {number}")
        if len(self.asked) >= attempt["questions"]:
            raise self.refuse(
                f"more answers than the {attempt['questions']} questions attempt {number} asked"
            )
        if record["score"] > record["max_score"] * (1 + 1e-9):
            raise self.refuse(
                f"score {record['score']} is more than max_score {record['max_score']}"
            )
        self.asked.add(record["question"])
        found.answers.append(record)

    def _end(self, end: End, found: LearnerFile, lines: list[bytes]) -> None:
        counted = (len(found.attempts), len(found.answers))
        if (end["attempts"], end["answers"]) != counted:
            raise self.refuse(
                f"the end line counts {end['attempts']} attempts and {end['answers']} answers, but "
                f"the file has {counted[0]} and {counted[1]}: lines were added or removed"
            )
        above = lines[: self.number - 1]
        if end["sha256"] != hashlib.sha256(b"\n".join(above) + b"\n").hexdigest():
            raise self.refuse(
                "the file was changed after it was exported (its checksum does not match the "
                "end line); ask the learner for the file as `lessonkit history --export` "
                "wrote it"
            )
        if len(lines) > self.number:
            self.number += 1
            raise self.refuse("a line after the end line; nothing may follow it")


def _described(error: ValidationError, record: str | None = None) -> str:
    """The first problem pydantic found in a line, in words with the field it is in;
    ``record`` names the line's kind when it was validated as that kind alone."""
    detail = error.errors(include_url=False)[0]
    kind, message, loc = detail["type"], detail["msg"], detail["loc"]
    if record is not None:
        loc = (record, *loc)
    if kind == "json_invalid":
        return f"not valid JSON ({message.removeprefix('Invalid JSON: ')})"
    if kind == "union_tag_not_found":
        return "a line without `record` (it is header, attempt, answer or end in each line)"
    if kind == "union_tag_invalid":
        return "`record` is not one of header, attempt, answer or end"
    if not loc:  # the line as a whole: a number, a list, a string
        return "a line that is not a JSON object; every line of an attempts file is one"
    what = f"{loc[0]} line" if loc else "line"
    fields = ".".join(str(part) for part in loc[1:] if not str(part).startswith("function-"))
    where = f": `{fields}`" if fields else ""
    return f"{what}{where}: {message[0].lower()}{message[1:]}"
