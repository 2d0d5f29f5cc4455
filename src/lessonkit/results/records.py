"""The attempts file: JSON Lines that a learner exports and a teacher or author collects.

Line 1 is a ``header`` saying what the file is and what it holds; then each quiz
attempt as an ``attempt`` line followed by its ``answer`` lines; the last line is an
``end`` with the counts and a SHA-256 of every line before it, so a file cut short or
edited by hand is refused. Every answer line repeats the learner, bank and attempt, so
the files load as one table in DuckDB, BigQuery or Spark.

Each kind of line is a TypedDict validated by pydantic, the single source of truth: the
JSON Schema in ``schemas/attempts-file.schema.json`` is generated from them. TypedDicts
rather than models because a class's files hold a million answers, and validating into
a dict takes about half the time of building a model instance.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, RootModel, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from lessonkit.bank.fields import SLUG_PATTERN
from lessonkit.history.rows import PSEUDONYM

FORMAT = "lessonkit-attempts"
VERSION = 1
SCHEMA_NAME = "attempts-file.schema.json"
HASH = r"^[0-9a-f]{12}$"
# Every line: unknown fields are refused and JSON types taken as written.
STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


Slug = Annotated[str, Field(pattern=SLUG_PATTERN, max_length=80)]
Learner = Annotated[
    str,
    Field(pattern=PSEUDONYM, description="The learner's random pseudonym, as in the header."),
]
Version = Annotated[
    str | None,
    Field(
        pattern=HASH,
        description="The bank's version when the attempt started: a hash of its questions' "
        "ids and answer keys (null for an attempt from before versions were recorded).",
    ),
]
Moment = Annotated[datetime, Field(description="A moment in UTC, ISO 8601.")]
Texts = Annotated[list[Annotated[str, Field(max_length=500)]], Field(max_length=20)]
# What a learner answered, as grading reads it (each type's `from_json`, lessonkit.questiontypes).
# A list holds one entry per part a type numbers (options, items, pairs, blanks): an
# index, or what was typed in a part (a number, a text, null for a part left empty).
Part = int | float | Annotated[str, Field(max_length=500)] | None
Response = Annotated[
    bool
    | int
    | float
    | Annotated[str, Field(max_length=4000)]
    | Annotated[list[Part], Field(max_length=20)],
    Field(
        description="What the learner answered, as the grader reads it: an option's index "
        "(from 0, in the bank's order), a list of indices, true/false, a number or text; a "
        "cloze's list holds what was read from each blank, null for one left empty."
    ),
]
Scalar = bool | int | float | Annotated[str, Field(max_length=200)]
Params = Annotated[
    dict[Annotated[str, Field(max_length=80)], Scalar] | None,
    Field(
        max_length=50,
        description="The numbers a parameterised question drew for this attempt; null for a "
        "question without parameters.",
    ),
]


@with_config(STRICT)
class Header(TypedDict):
    """Line 1: what the file is, whose pseudonym it carries, and what is and isn't in it."""

    record: Annotated[Literal["header"], Field(description="Always `header`: the first line.")]
    format: Annotated[Literal["lessonkit-attempts"], Field(description="What this file is.")]
    version: Annotated[
        Literal[1], Field(description="The format's version; a reader refuses newer.")
    ]
    about: Annotated[str, Field(max_length=2000, description="What the file is, in words.")]
    learner: Learner
    learner_note: Annotated[
        str, Field(max_length=2000, description="What the learner id is, in words.")
    ]
    contains: Annotated[Texts, Field(description="What the file holds, in words.")]
    omits: Annotated[Texts, Field(description="What the file never holds, in words.")]
    exported: Moment
    lessonkit: Annotated[
        str, Field(max_length=40, description="The lessonkit version that wrote it.")
    ]
    banks: Annotated[
        list[Slug], Field(max_length=1000, description="The quizzes it has attempts at.")
    ]


@with_config(STRICT)
class Attempt(TypedDict):
    """One quiz attempt; its answers follow it."""

    record: Annotated[Literal["attempt"], Field(description="Always `attempt`.")]
    learner: Learner
    bank: Annotated[Slug, Field(description="The quiz's slug (its bank is `quizzes/<bank>.yml`).")]
    bank_version: Version
    attempt: Annotated[int, Field(ge=1, description="The attempt's number in this file, from 1.")]
    questions: Annotated[int, Field(ge=1, le=10_000, description="How many questions it asked.")]
    started: Moment
    finished: Annotated[
        datetime | None, Field(description="When it was finished; null if it was not.")
    ]


@with_config(STRICT)
class Answer(TypedDict):
    """One counted answer to one question (answers the learner took back are left out)."""

    record: Annotated[Literal["answer"], Field(description="Always `answer`.")]
    learner: Learner
    bank: Annotated[Slug, Field(description="The quiz's slug, as in its attempt.")]
    bank_version: Version
    attempt: Annotated[int, Field(ge=1, description="The number of the attempt it belongs to.")]
    question: Annotated[Slug, Field(description="The question's id in the bank.")]
    key_hash: Annotated[
        str, Field(pattern=HASH, description="A hash of the question's answer key.")
    ]
    response: Response
    score: Annotated[float, Field(ge=0, le=100, description="Points earned, at most `max_score`.")]
    max_score: Annotated[float, Field(gt=0, le=100, description="Points for a fully right answer.")]
    seconds: Annotated[
        float | None,
        Field(ge=0, description="Seconds the question was on screen; null when not recorded."),
    ]
    hints: Annotated[
        int | None,
        Field(ge=0, le=1000, description="Times the hint was asked for; null when not recorded."),
    ]
    params: Params
    answered: Moment


@with_config(STRICT)
class End(TypedDict):
    """The last line: counts and a checksum of every line before it."""

    record: Annotated[Literal["end"], Field(description="Always `end`: the last line.")]
    attempts: Annotated[int, Field(ge=0, description="How many attempt lines the file has.")]
    answers: Annotated[int, Field(ge=0, description="How many answer lines the file has.")]
    sha256: Annotated[
        str,
        Field(
            pattern=r"^[0-9a-f]{64}$",
            description="SHA-256 of every line before this one, each ended by one `\\n`.",
        ),
    ]


Line = Annotated[Header | Attempt | Answer | End, Field(discriminator="record")]


class AttemptsLine(RootModel[Line]):
    """One line of a lessonkit attempts file (JSON Lines), as `lessonkit history --export`
    writes it and `lessonkit results` reads it."""
