"""The content formats as pydantic models: the single source of truth for banks and lessons.

The JSON Schema that editors use (``schemas/*.schema.json``) is generated from
these classes by ``lessonkit schema``; never edit the schema by hand.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from lessonkit.bank import limits, parameters, variants
from lessonkit.bank.limits import chars
from lessonkit.bank.parameters import Formula, NumberFormat, Parameterised

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
ANCHOR_PATTERN = r"^[\w-]+$"
REVIEWED_PATTERN = r"^\d{4}-\d{2}(-\d{2})?$"  # a month or a day
# Keys whose values are prose in banks and front matter (lists of them included): the
# loaders keep these scalars' styles and marks so that author checks can see how the text
# was written without parsing the file again.
PROSE_FIELDS = frozenset(
    {"prompt", "explanation", "text", "feedback", "hint", "title", "summary", "audience"}
    | {"publisher", "objectives", "insights", "key_points", "items", "accept", "distractors"}
    | {"left", "right"}
)

Slug = Annotated[
    str,
    Field(
        pattern=SLUG_PATTERN,
        max_length=80,
        description="Lower-case words joined by hyphens, e.g. `gpu-vs-tpu`.",
    ),
]
Text = Annotated[str, Field(min_length=1, description="Non-empty text.")]
Markdown = Annotated[str, Field(min_length=1, description="Markdown text.")]
# One line of an answer: order items, match sides, distractors, accepted answers.
Line = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.ITEM_CHARS,
        description=f"Non-empty text, at most {chars(limits.ITEM_CHARS)}.",
    ),
]


class Strict(BaseModel):
    """Base for every model: unknown fields are errors and YAML types are taken as written."""

    # strict: `points: "2"` or `correct: "yes"` is an error rather than a silent guess;
    # frozen: content is a value, and graders and sessions may share it safely;
    # defer_build: base classes are never validated directly, so never build their schemas.
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, allow_inf_nan=False, defer_build=True
    )


# --- question banks -------------------------------------------------------


class Shuffle(Strict):
    """How a quiz shuffles; a learner's `--seed` reproduces an attempt exactly."""

    questions: bool = Field(True, description="Shuffle the order of the questions.")
    options: bool = Field(
        True, description="Shuffle options of `single` and `multiple`, and `match` answers."
    )


class Waiver(Strict):
    """One rule of the course's policy that does not apply here, and why."""

    rule: str = Field(
        pattern=SLUG_PATTERN,
        max_length=80,
        description="The id of the rule, as `lessonkit rules` lists it, e.g. `similar-options`.",
    )
    reason: Text = Field(description="Why the rule does not apply here; reviewers read it.")


WAIVE_DESCRIPTION = (
    "Rules of the course's policy this one does not follow, each with the reason, e.g. "
    "`[{rule: similar-options, reason: the two spellings are the point}]`. Rules that keep "
    "a course correct cannot be waived; `lessonkit report` lists every waiver."
)


class QuestionBase(Strict):
    """Fields every question has, whatever its type."""

    id: str = Field(
        pattern=SLUG_PATTERN,
        max_length=80,
        description=(
            "Stable kebab-case identifier, unique across all banks. Learner history keys on "
            "it: never renumber or reuse one; give a rewritten question a new id."
        ),
    )
    prompt: Markdown = Field(
        max_length=limits.PROMPT_CHARS,
        description=f"The question, in Markdown; at most {chars(limits.PROMPT_CHARS)}.",
    )
    points: float = Field(1, gt=0, le=100, description="Points for a fully correct answer.")
    insight: int = Field(
        ge=1,
        description="Which of the lesson's insights (1 = first in its front matter) this tests.",
    )
    objectives: list[Annotated[int, Field(ge=1)]] = Field(
        default_factory=list,
        description=(
            "Which of the lesson's objectives (1 = first in its front matter) this question "
            "assesses, e.g. `[2, 3]`; `lessonkit report` counts questions per objective."
        ),
    )
    section: str = Field(
        pattern=ANCHOR_PATTERN,
        description=(
            "Anchor of the lesson heading to re-read after a miss, as the site makes it: "
            "`## 2. Where TPUs are strongest` becomes `2-where-tpus-are-strongest`."
        ),
    )
    explanation: Markdown = Field(
        max_length=limits.EXPLANATION_CHARS,
        description="Why the answer is right; shown after answering. At most "
        f"{chars(limits.EXPLANATION_CHARS)}.",
    )
    hint: str | None = Field(
        None,
        min_length=1,
        max_length=limits.HINT_CHARS,
        description=f"Shown when the learner types `?`; at most {chars(limits.HINT_CHARS)}.",
    )
    tags: list[Text] = Field(default_factory=list, description="Free-form topic labels.")
    difficulty: Literal["easy", "medium", "hard"] | None = Field(
        None, description="The author's estimate of difficulty."
    )
    waive: list[Waiver] = Field(default_factory=list, description=WAIVE_DESCRIPTION)


class Option(Strict, NumberFormat):
    """One choice of a `single` or `multiple` question."""

    text: Markdown = Field(
        max_length=limits.OPTION_CHARS,
        description=f"What the learner sees; at most {chars(limits.OPTION_CHARS)}.",
    )
    correct: bool = Field(False, description="Whether choosing this option is right.")
    feedback: str | None = Field(
        None,
        min_length=1,
        max_length=limits.FEEDBACK_CHARS,
        description="Shown after answering when the learner chose this option; at most "
        f"{chars(limits.FEEDBACK_CHARS)}.",
    )
    value: Formula | None = Field(
        None,
        description="In a question with `params`: the number this option stands for, as a "
        "formula (a distractor computes a real mistake); the text shows it as `{value}`, "
        "written with `decimals`, `significant` and `separators`.",
    )


def _distinct(values: list[str], what: str) -> list[str]:
    seen: set[str] = set()
    for value in values:
        key = " ".join(value.casefold().split())
        if key in seen:
            raise ValueError(f"{what} {value!r} appears twice; make every {what} different")
        seen.add(key)
    return values


Scoring = Literal["partial", "all_or_nothing"]
DecimalMark = Literal["point", "comma", "either"]
DECIMAL_MARK_DESCRIPTION = (
    "How a typed number with one `,` or `.` before three digits is read: `point` (the "
    "default) reads `1,000` as a thousand and `1.000` as one; `comma` the other way round; "
    "`either` asks the learner to type it unambiguously. Every other form means one number "
    "anyway (`2,5`, `1,000.5`, `1.000,5`, `1 000`). Unset on a question follows the bank."
)
SHUFFLE_DESCRIPTION = (
    "Shuffle this question's options: `false` keeps them in the written order (for options "
    "that refer to each other, or code listed in order); unset follows the bank's "
    "`shuffle.options`."
)
SCORING_DESCRIPTION = (
    "`partial` (default) gives partial credit by the rule above; `all_or_nothing` gives the "
    "full points only for a fully right answer, else 0."
)


class ChoiceQuestion(Parameterised, QuestionBase):
    """Shared by `single` and `multiple`."""

    options: list[Option] = Field(
        min_length=2, max_length=10, description="The choices: 2 to 10, one screen in a terminal."
    )
    shuffle: bool | None = Field(None, description=SHUFFLE_DESCRIPTION)

    @field_validator("options")
    @classmethod
    def _options_distinct(cls, options: list[Option]) -> list[Option]:
        # Options with a value differ by it; `validate` checks them draw by draw.
        _distinct([o.text for o in options if o.value is None], "option")
        return options

    @model_validator(mode="after")
    def _parameters(self) -> ChoiceQuestion:
        parameters.check(self)
        return self


class SingleQuestion(ChoiceQuestion):
    """Pick exactly one option. Full points for the correct one, none otherwise."""

    type: Literal["single"] = Field(description="Question type.")

    @field_validator("options")
    @classmethod
    def _exactly_one(cls, options: list[Option]) -> list[Option]:
        found = sum(o.correct for o in options)
        if found != 1:
            raise ValueError(
                f"found {found} correct options; mark exactly one with `correct: true`"
                + (" (or use `type: multiple`)" if found > 1 else "")
            )
        return options


class MultipleQuestion(ChoiceQuestion):
    """Pick every correct option.

    Partial credit: (correct options chosen - wrong options chosen) / correct options,
    floored at 0, times `points`. Choosing everything therefore earns nothing extra.
    """

    type: Literal["multiple"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)

    @field_validator("options")
    @classmethod
    def _at_least_one(cls, options: list[Option]) -> list[Option]:
        if not any(o.correct for o in options):
            raise ValueError("no option is marked `correct: true`; mark at least one")
        if all(o.correct for o in options):
            raise ValueError("every option is correct; add at least one wrong option")
        return options


class TrueFalseQuestion(QuestionBase):
    """A statement that is true or false."""

    type: Literal["true_false"] = Field(description="Question type.")
    answer: bool = Field(description="`true` if the statement in the prompt is true.")


class NumericQuestion(Parameterised, QuestionBase):
    """A number, right within a tolerance.

    A response is right when it is within `tolerance` (absolute) or within
    `relative_tolerance` (a fraction of `answer`) of `answer`; with neither set it
    must match exactly. Learners may type a decimal comma and the unit.
    """

    type: Literal["numeric"] = Field(description="Question type.")
    # Text is checked as a formula by `parameters.check`, which knows the names declared.
    answer: float | str = Field(
        description="The correct value; with `params`, the formula that computes it, e.g. "
        "`flops / bandwidth`."
    )
    tolerance: float | None = Field(None, ge=0, description="Absolute tolerance, e.g. `0.05`.")
    relative_tolerance: float | None = Field(
        None, ge=0, le=1, description="Relative tolerance as a fraction: `0.02` means ±2 %."
    )
    unit: str | None = Field(
        None,
        min_length=1,
        max_length=20,
        description="Unit shown to and accepted from the learner.",
    )
    decimal_mark: DecimalMark | None = Field(None, description=DECIMAL_MARK_DESCRIPTION)
    bound: Literal["maximum", "minimum"] | None = Field(
        None,
        description=(
            "The answer is a whole-number limit. `maximum`: the largest whole number that "
            "works (how many sequences fit), so any larger one is wrong; `minimum`: the "
            "smallest that suffices (how many chips are needed), so any smaller one is wrong. "
            "`lessonkit validate` checks that the answer is whole and that the tolerances "
            "accept no whole number past it."
        ),
    )

    def allowed_error(self) -> float:
        """How far from `answer` a response may be and still be right: the larger of the
        two tolerances (0 with neither)."""
        return max(self.tolerance or 0.0, (self.relative_tolerance or 0.0) * abs(self.value()))

    def value(self) -> float:
        """The answer as a number; a question with `params` has one per variant, so
        render a variant (``bank.variants``) first."""
        if isinstance(self.answer, str):
            raise TypeError(f"{self.id}: the answer is a formula; render a variant first")
        return self.answer

    @model_validator(mode="after")
    def _parameters(self) -> NumericQuestion:
        parameters.check(self)
        return self


class TextQuestion(QuestionBase):
    """Free text, compared after Unicode (NFKC), case and whitespace normalisation.

    A single-line answer is also right with sentence punctuation at its end (`XLA.`),
    in quotes, after a leading `the`, `a` or `an`, and as two accepted forms written
    `XLA (Accelerated Linear Algebra)`. Extra words are not ignored: accept
    `XLA compiler` yourself, or write a pattern, if it should count.

    With `multiline: true` the answer is several lines (e.g. a program's output), typed
    line by line and compared line by line; blank lines before and after are ignored.
    """

    type: Literal["text"] = Field(description="Question type.")
    multiline: bool = Field(
        False,
        description=(
            "The answer is several lines: each accepted answer is a block of lines, and the "
            "response is right only if every line matches (after the same normalisation); "
            "`patterns` match the whole answer with lines joined by a newline."
        ),
    )
    accept: list[Line] = Field(default_factory=list, description="Accepted answers.")
    patterns: list[Line] = Field(
        default_factory=list,
        description="Regular expressions (Python syntax) that must match the whole answer.",
    )
    case_sensitive: bool = Field(False, description="Compare letter case too.")

    @field_validator("patterns")
    @classmethod
    def _patterns_compile(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ValueError(
                    f"regular expression {pattern!r} does not compile: {error}"
                ) from None
        return patterns

    @model_validator(mode="after")
    def _something_accepted(self) -> TextQuestion:
        if not self.accept and not self.patterns:
            raise ValueError("give at least one accepted answer in `accept` or `patterns`")
        return self


class OrderQuestion(QuestionBase):
    """Put items in order.

    Partial credit: the share of neighbouring pairs of the correct order that the
    learner also placed next to each other in that order, times `points`.
    """

    type: Literal["order"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)
    items: list[Line] = Field(
        min_length=2,
        max_length=10,
        description="The items, written in their correct order: 2 to 10.",
    )

    @field_validator("items")
    @classmethod
    def _items_distinct(cls, items: list[str]) -> list[str]:
        return _distinct(items, "item")


class Pair(Strict):
    """One left-hand item and the right-hand item it matches."""

    left: Line = Field(description="Shown numbered: 1, 2, 3…")
    right: Line = Field(description="Shown lettered: a, b, c…")


class MatchQuestion(QuestionBase):
    """Match each left-hand item to its right-hand partner.

    Partial credit: the share of left-hand items matched correctly, times `points`.
    """

    type: Literal["match"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)
    shuffle: bool | None = Field(None, description=SHUFFLE_DESCRIPTION)
    pairs: list[Pair] = Field(
        min_length=2, max_length=10, description="The correct pairs: 2 to 10."
    )
    distractors: list[Line] = Field(
        default_factory=list,
        max_length=10,
        description="Extra right-hand items that match nothing; at most 10.",
    )

    @model_validator(mode="after")
    def _sides_distinct(self) -> MatchQuestion:
        _distinct([p.left for p in self.pairs], "left-hand item")
        _distinct([p.right for p in self.pairs] + self.distractors, "right-hand item")
        return self


Question = Annotated[
    SingleQuestion
    | MultipleQuestion
    | TrueFalseQuestion
    | NumericQuestion
    | TextQuestion
    | OrderQuestion
    | MatchQuestion,
    Field(discriminator="type"),
]
QUESTION_TYPES = ("single", "multiple", "true_false", "numeric", "text", "order", "match")


@functools.cache
def question_adapter() -> TypeAdapter[Question]:
    """Validates one question of any type (built once, on first use)."""
    return TypeAdapter(Question)


def instantiate(question: Question, variant: Mapping[str, float | str]) -> Question:
    """The plain question one draw of a parameterised question stands for.

    Raises ``expressions.EvaluationError`` when a formula fails for this draw.
    """
    plain = variants.render(question.model_dump(mode="json"), dict(variant))
    return question_adapter().validate_python(plain)


class Bank(Strict):
    """A lesson's question bank: `quizzes/<slug>.yml`."""

    lesson: Slug = Field(description="Slug of the lesson this bank belongs to (its file name).")
    title: Text = Field(description="Title shown at the top of the quiz.")
    pass_mark: float = Field(
        ge=0, le=1, description="Share of points needed to pass, from 0 to 1, e.g. `0.7`."
    )
    shuffle: Shuffle = Field(default_factory=Shuffle, description="Shuffling settings.")
    decimal_mark: DecimalMark = Field("point", description=DECIMAL_MARK_DESCRIPTION)
    questions: list[Question] = Field(min_length=1, description="The questions.")

    @model_validator(mode="before")
    @classmethod
    def _questions_follow_the_bank(cls, data: object) -> object:
        """A bank's `decimal_mark` becomes each numeric question's, unless it sets its own:
        a question is then read alike by the quiz, the site and the exporters."""
        if not isinstance(data, dict) or data.get("decimal_mark") not in ("comma", "either"):
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
