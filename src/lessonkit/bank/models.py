"""The content files as pydantic models: the single source of truth for banks and lessons.

A bank (``quizzes/<slug>.yml``), a lesson's front matter and a plan's front matter; the
questions a bank holds are in ``questions``, and what every model shares in ``fields``.
The JSON Schema that editors use (``schemas/*.schema.json``) is generated from
these classes by ``lessonkit schema``; never edit the schema by hand.
"""

from __future__ import annotations

import datetime as dt

from pydantic import AliasChoices, Field, field_validator, model_validator

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
