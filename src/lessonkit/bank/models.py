"""The content files as pydantic models: the single source of truth for banks and lessons.

A bank (``quizzes/<slug>.yml``), a lesson's front matter, a plan's front matter and a
course's facts file (``facts/<topic>.yml``, whose run-time form is ``factbook``); the
questions a bank holds are in ``questions``, and what every model shares in ``fields``.
The JSON Schema that editors use (``schemas/*.schema.json``) is generated from
these classes by ``lessonkit schema``; never edit the schema by hand.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AliasChoices, Field, field_validator, model_validator

from lessonkit.bank import units
from lessonkit.bank.factbook import ID_PATTERN, KEY_PATTERN, Fact, Kind, Publication
from lessonkit.bank.fields import WAIVE_DESCRIPTION, Slug, Strict, Text, Waiver
from lessonkit.bank.questions import DECIMAL_MARK_DESCRIPTION, DecimalMark, Question

REVIEWED_PATTERN = r"^\d{4}-\d{2}(-\d{2})?$"  # a month or a day


# --- question banks -------------------------------------------------------


class Shuffle(Strict):
    """How a quiz shuffles; a learner's `--seed` reproduces an attempt exactly."""

    questions: bool = Field(True, description="Shuffle the order of the questions.")
    options: bool = Field(
        True, description="Shuffle options of `single` and `multiple`, and `match` answers."
    )


class Bank(Strict):
    """A lesson's question bank: `quizzes/<slug>.yml`."""

    lesson: Slug = Field(description="Slug of the lesson this bank belongs to (its file name).")
    title: Text = Field(description="Title shown at the top of the quiz.")
    pass_mark: float = Field(
        ge=0, le=1, description="Share of points needed to pass, from 0 to 1, e.g. `0.7`."
    )
    shuffle: Shuffle = Field(default_factory=Shuffle, description="Shuffling settings.")
    decimal_mark: DecimalMark | None = Field(None, description=DECIMAL_MARK_DESCRIPTION)
    questions: list[Question] = Field(min_length=1, description="The questions.")

    @model_validator(mode="before")
    @classmethod
    def _questions_follow_the_bank(cls, data: object) -> object:
        """A bank's `decimal_mark` becomes each numeric question's, unless it sets its own:
        a question is then read alike by the quiz, the site and the exporters."""
        if not isinstance(data, dict) or data.get("decimal_mark") not in (
            "point",
            "comma",
            "either",
        ):
            return data
        questions = data.get("questions")
        if not isinstance(questions, list):
            return data
        mark = data["decimal_mark"]
        return data | {
            "questions": [
                q | {"decimal_mark": mark}
                if isinstance(q, dict) and q.get("type") == "numeric" and "decimal_mark" not in q
                else q
                for q in questions
            ]
        }

    @field_validator("pass_mark", mode="before")
    @classmethod
    def _a_fraction(cls, value: object) -> object:
        # `pass_mark: 70` is a percentage where a fraction belongs: say what to write,
        # rather than only that 70 is more than 1.
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 1:
            write = (
                f"write `pass_mark: {value / 100:g}` for {value:g} %"
                if 10 <= value <= 100
                else "e.g. `pass_mark: 0.7` for 70 %"
            )
            raise ValueError(
                f"{value:g} is more than 1: the pass mark is a fraction of the points, from 0 "
                f"to 1; {write}"
            )
        return value


# --- lessons and learning plans --------------------------------------------


class Source(Strict):
    """A source the lesson relies on; cite it from the text with a footnote."""

    title: Text = Field(description="Title of the page or paper.")
    url: str = Field(pattern=r"^https://[^\s/$.?#][^\s]*$", description="An `https://` address.")
    accessed: dt.date = Field(strict=False, description="When you last checked it, `YYYY-MM-DD`.")
    publisher: str | None = Field(None, min_length=1, description="Who published it.")


class Lesson(Strict):
    """Front matter of a lesson: `content/<plan>/<slug>.md`."""

    title: Text = Field(description="The lesson title.")
    plan: Slug = Field(description="Slug of the learning plan (the folder the lesson is in).")
    summary: Text = Field(description="One or two sentences on what the lesson covers.")
    minutes: int = Field(ge=1, le=240, description="Reading time in minutes.")
    objectives: list[Text] = Field(
        min_length=1, description="What the learner can do afterwards, each starting with a verb."
    )
    insights: list[Text] = Field(
        min_length=1,
        max_length=9,
        description="The lesson's insights in order; each is also the text of a `##` heading.",
    )
    key_points: list[Text] = Field(min_length=1, description="Points to remember.")
    quiz: Slug = Field(description="Slug of the question bank, `quizzes/<quiz>.yml`.")
    sources: list[Source] = Field(min_length=1, description="Sources for facts and figures.")
    reviewed: str = Field(
        pattern=REVIEWED_PATTERN,
        validation_alias=AliasChoices("reviewed", "last_reviewed"),
        description="When the lesson was last checked against its sources: the month, "
        "`YYYY-MM`, or the day, `YYYY-MM-DD` (`last_reviewed:` is read too, as before).",
    )
    review_months: int | None = Field(
        None,
        ge=1,
        le=120,
        description="Months until the lesson is due for review again; unset: the course's "
        "policy (`review` in lessonkit.yml).",
    )
    framing: list[Text] = Field(
        default_factory=list,
        description="Words of the lesson's framing metaphor (e.g. `[workshop, factory line]`): "
        "each is set up in the opening, before the first `##`, and used again in the section "
        "of the last insight.",
    )
    waive: list[Waiver] = Field(default_factory=list, description=WAIVE_DESCRIPTION)

    @field_validator("reviewed", mode="before")
    @classmethod
    def _a_month_or_day(cls, value: object) -> object:
        if isinstance(value, dt.date):
            return value.isoformat()  # a date YAML or a caller already parsed
        if not isinstance(value, str):
            raise ValueError(
                f"write the month or the day of the review, `YYYY-MM` or `YYYY-MM-DD`, not "
                f"{value!r}"
            )
        return value

    @field_validator("reviewed")
    @classmethod
    def _a_real_date(cls, value: str) -> str:
        reviewed_on(value)  # raises ValueError for 2026-13 or 2026-02-30
        return value

    def reviewed_by(self) -> dt.date:
        """The last day the review covers: the day given, or the end of the month given."""
        return reviewed_on(self.reviewed)


def reviewed_on(text: str) -> dt.date:
    """`2026-11-23` as that day; `2026-11` as the month's last day (the most it can mean)."""
    parts = [int(part) for part in text.split("-")]
    if len(parts) == 3:
        try:
            return dt.date(*parts)
        except ValueError:
            raise ValueError(f"`{text}` is not a date") from None
    year, month = parts
    if not 1 <= month <= 12:
        raise ValueError(f"`{text}` is not a month: write `YYYY-MM`, e.g. `2026-11`")
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    return following - dt.timedelta(days=1)


class Plan(Strict):
    """Front matter of a learning plan: `content/<plan>/index.md`."""

    title: Text = Field(description="The plan title.")
    summary: Text = Field(description="What the plan covers.")
    audience: Text = Field(description="Who the plan is for.")
    lessons: list[Slug] = Field(min_length=1, description="Lesson slugs in reading order.")


# --- a course's facts ----------------------------------------------------------------

FactId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN,
        max_length=120,
        description="A stable id: lower-case words joined by dots and hyphens, e.g. "
        "`h100-sxm.bf16-dense`. Lessons and questions name it; never reuse one.",
    ),
]
# Not strict: YAML 1.2 reads `2026-11-27` as text, which is how an author writes a day.
Day = Annotated[dt.date, Field(strict=False, description="A day, written `YYYY-MM-DD`.")]


class FactSource(Strict):
    """Where a figure comes from, and whether that is its origin or a copy."""

    url: str = Field(pattern=r"^https://[^\s/$.?#][^\s]*$", description="An `https://` address.")
    title: Text = Field(description="The page's or document's title.")
    publisher: Text = Field(description="Who published it, e.g. `NVIDIA`, `Google Cloud`.")
    primary: bool = Field(
        description="`true` when the publisher is the figure's origin (the vendor's datasheet "
        "or price list); `false` for a copy, a report or a third party's table."
    )


class FactRecord(Strict):
    """One figure: its value and unit, what it means, when it applied, and its source."""

    id: FactId
    label: Text | None = Field(
        None,
        max_length=120,
        description="How a table names the fact, e.g. `H100 SXM, BF16 dense`; the id if unset.",
    )
    value: float = Field(description="The number, in `unit`, as the source gives it.")
    unit: str = Field(
        min_length=1,
        max_length=40,
        description="Its unit with an explicit prefix: `GB` or `GiB`, `TB/s`, `Gbit/s`, "
        "`TFLOP/s`, `USD/chip-hour`, `W`. `lessonkit facts --units` lists the table.",
    )
    qualifiers: dict[Annotated[str, Field(pattern=KEY_PATTERN)], Text] = Field(
        default_factory=dict,
        max_length=12,
        description="What changes the figure's meaning: `{precision: bf16, sparsity: dense}`, "
        "`{region: us-central1, commitment: on-demand}`. A table mixing two values of one "
        "qualifier is flagged.",
    )
    as_of: Day = Field(description="The day the value applies to, e.g. a launch or price date.")
    checked: Day = Field(description="The day someone last checked it against the source.")
    kind: Kind = Field(
        description="`spec`, `price` or `other`; the course's policy sets how old each may be."
    )
    source: FactSource = Field(
        description="Where the figure comes from: address, title, publisher."
    )
    note: Text | None = Field(None, description="Anything a reader of the figure should know.")

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, text: str) -> str:
        try:
            units.parse(text)
        except units.UnitError as error:
            raise ValueError(f"{error.message} ({error.hint})") from None
        return text

    def runtime(self) -> Fact:
        """The fact as every layer uses it (``factbook.Fact``)."""
        return Fact(
            self.id, self.label, self.value, self.unit, dict(self.qualifiers), self.as_of,
            self.checked, self.kind, Publication(**self.source.model_dump()), self.note,
        )  # fmt: skip


class FactFile(Strict):
    """A file of facts: `facts/<topic>.yml` in a course."""

    facts: list[FactRecord] = Field(min_length=1, description="The facts, each with a unique id.")
