"""The question types as pydantic models: what one question of a bank may say.

A question is a discriminated union on its explicit `type:`; the bank (``models``)
holds a list of them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Annotated, Literal, get_args

from pydantic import Discriminator, Field, Tag, TypeAdapter, field_validator, model_validator

from lessonkit.bank import limits, parameters, variants
from lessonkit.bank.fields import (
    ANCHOR_PATTERN,
    INLINE_NOTE,
    SLUG_PATTERN,
    WAIVE_DESCRIPTION,
    Line,
    Markdown,
    Strict,
    Text,
    Waiver,
)
from lessonkit.bank.limits import chars
from lessonkit.bank.parameters import Formula, NumberFormat, Parameterised


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
        description=f"What the learner sees; at most {chars(limits.OPTION_CHARS)}. {INLINE_NOTE}",
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


def _folded(value: str) -> str:
    """A text as two that say the same are compared: case and spacing aside."""
    return " ".join(value.casefold().split())


def _distinct(values: list[str], what: str) -> list[str]:
    seen: set[str] = set()
    for value in values:
        key = _folded(value)
        if key in seen:
            raise ValueError(f"{what} {value!r} appears twice; make every {what} different")
        seen.add(key)
    return values


Scoring = Literal["partial", "all_or_nothing"]
DecimalMark = Literal["point", "comma", "either"]
DECIMAL_MARK_DESCRIPTION = (
    "How a typed number with one `,` or `.` before three digits is read: `point` reads "
    "`1,000` as a thousand and `1.000` as one; `comma` the other way round; `either` asks "
    "the learner to type it unambiguously. Unset (the default), it is `either` when the "
    "answer may have decimals (it is not a whole number, or its tolerance is 1 or more) and "
    "`point` for a whole-number answer (a `bound`, or no tolerance). Every other form means "
    "one number anyway (`2,5`, `1,000.5`, `1.000,5`, `1 000`). Unset on a question follows "
    "the bank."
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


class Tolerance(Strict):
    """How a typed number is read and how far it may be from the answer: shared by
    `numeric` questions and the number blanks of a `cloze`."""

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


class NumericQuestion(Parameterised, QuestionBase, Tolerance):
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


class TextForms(Strict):
    """What a typed text is compared with: shared by `text` questions and the text blanks
    of a `cloze`."""

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
    def _something_accepted(self) -> TextForms:
        if not self.accept and not self.patterns:
            raise ValueError("give at least one accepted answer in `accept` or `patterns`")
        return self


class TextQuestion(QuestionBase, TextForms):
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


class OrderQuestion(QuestionBase):
    """Put items in order.

    Partial credit counts the fewest items the learner must move: those outside one
    longest run of items already in the right order among themselves (not necessarily
    next to each other). Credit is 1 - moves ÷ (items - 1), times `points`: two
    neighbours swapped in four items earn 2/3, a full reversal 0.
    """

    type: Literal["order"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)
    items: list[Line] = Field(
        min_length=2,
        max_length=10,
        description=f"The items, written in their correct order: 2 to 10. {INLINE_NOTE}",
    )

    @field_validator("items")
    @classmethod
    def _items_distinct(cls, items: list[str]) -> list[str]:
        return _distinct(items, "item")


class Pair(Strict):
    """One left-hand item and the right-hand item it matches."""

    left: Line = Field(description=f"Shown numbered: 1, 2, 3… {INLINE_NOTE}")
    right: Line = Field(
        description="Shown lettered: a, b, c…. Several pairs may share one right-hand "
        "item (frog and newt: amphibian): write it the same way in each, and it is shown "
        f"once. {INLINE_NOTE}"
    )


class MatchQuestion(QuestionBase):
    """Match each left-hand item to its right-hand partner.

    Several left-hand items may share a right-hand item; it is shown once, and the
    learner may then give one letter to several numbers. Partial credit: the share of
    left-hand items matched correctly, times `points`.
    """

    type: Literal["match"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)
    shuffle: bool | None = Field(None, description=SHUFFLE_DESCRIPTION)
    pairs: list[Pair] = Field(
        min_length=2,
        max_length=10,
        description="The correct pairs: 2 to 10. A right-hand item may repeat.",
    )
    distractors: list[Line] = Field(
        default_factory=list,
        max_length=10,
        description=f"Extra right-hand items that match nothing; at most 10. {INLINE_NOTE}",
    )

    @field_validator("pairs")
    @classmethod
    def _pairs_distinct(cls, pairs: list[Pair]) -> list[Pair]:
        _distinct([p.left for p in pairs], "left-hand item")
        # A shared answer is one right-hand item written alike in each pair; written
        # differently (case, spacing) it would show as two that say the same.
        spelled: dict[str, str] = {}
        for pair in pairs:
            first = spelled.setdefault(_folded(pair.right), pair.right)
            if first != pair.right:
                raise ValueError(
                    f"right-hand item {pair.right!r} is written {first!r} in another pair; "
                    "write an answer several items share the same way each time"
                )
        return pairs

    @model_validator(mode="after")
    def _distractors_match_nothing(self) -> MatchQuestion:
        answers = {_folded(pair.right) for pair in self.pairs}
        _distinct(self.distractors, "distractor")
        for distractor in self.distractors:
            if _folded(distractor) in answers:
                raise ValueError(
                    f"distractor {distractor!r} is also a pair's right-hand item; a "
                    "distractor matches no item, so leave it out of `distractors`"
                )
        if len(answers) + len(self.distractors) < 2:
            raise ValueError(
                f"every item has the answer {self.pairs[0].right!r}, so there is nothing to "
                "choose; give an item another answer, or add a distractor"
            )
        return self


# A blank in a `cloze` prompt: `[[1]]`, `[[2]]`… Double brackets are neither Markdown
# (a link is `[text](url)` or `[text][ref]`) nor a parameter (`{name}`), and mkdocs-quiz
# authors know them. Spaces inside are caught here so that they get a clear message.
BLANK_MARKER = re.compile(r"\[\[\s*([^\[\]\n]*?)\s*\]\]")


class TextBlank(TextForms):
    """A blank answered with a word or a short phrase, compared as a `text` question
    compares (`accept`, `patterns`, `case_sensitive`)."""


class NumberBlank(Tolerance):
    """A blank answered with a number, right within a tolerance as in a `numeric`
    question (`answer`, `tolerance`, `relative_tolerance`, `unit`, `decimal_mark`)."""

    answer: float = Field(description="The correct value; a blank with `answer` takes a number.")


def _blank_kind(value: object) -> str:
    # A blank with an `answer` is a number; one with `accept` or `patterns` is text.
    if isinstance(value, dict):
        return "number" if "answer" in value else "text"
    return "number" if isinstance(value, NumberBlank) else "text"


Blank = Annotated[
    Annotated[NumberBlank, Tag("number")] | Annotated[TextBlank, Tag("text")],
    Discriminator(_blank_kind),
]


class ClozeQuestion(QuestionBase):
    """Several blanks in one prompt, each a short text or a number.

    The prompt marks each blank where it goes, `[[1]]`, `[[2]]`… in reading order (every
    such marker is a blank, in code too), and `blanks` gives each one's answer in the same
    order. Partial credit: the share of blanks answered right, times `points`. In the
    terminal the learner types every blank's answer on one line, separated by `;` (`\\;`
    for a semicolon inside an answer); on the page each blank is a field in the sentence.
    """

    type: Literal["cloze"] = Field(description="Question type.")
    scoring: Scoring = Field("partial", description=SCORING_DESCRIPTION)
    blanks: list[Blank] = Field(
        min_length=1,
        max_length=10,
        description=(
            "Each blank's answer, in the order of `[[1]]`, `[[2]]`… in the prompt: 1 to 10. "
            "A number blank has `answer` (and `tolerance`, `relative_tolerance`, `unit`, "
            "`decimal_mark`); a text blank has `accept` and/or `patterns` (and "
            "`case_sensitive`)."
        ),
    )

    @model_validator(mode="after")
    def _markers_match_blanks(self) -> ClozeQuestion:
        check_blank_markers(self.prompt, len(self.blanks))
        return self


def check_blank_markers(prompt: str, count: int) -> None:
    """That ``prompt`` marks ``count`` blanks, `[[1]]` to `[[count]]`, each once and in
    reading order; a ``parameters`` problem pointing at the marker otherwise."""
    found = list(BLANK_MARKER.finditer(prompt))
    numbered = [m for m in found if m.group(1).isdigit()]
    example = ", ".join(f"`[[{n}]]`" for n in range(1, min(count, 3) + 1))
    if not numbered:
        if found:
            word = found[0].group(1)
            raise parameters.problem(
                f"`{found[0].group(0)}` is not a numbered blank",
                f"write `[[1]]` where the blank goes and give `{word}` as the first "
                "blank's `accept` under `blanks:`",
                ("prompt",),
                found[0].start(),
            )
        raise parameters.problem(
            "the prompt marks no blank",
            f"write {example} where the blanks go, in reading order",
            ("prompt",),
        )
    for number, marker in enumerate(numbered, start=1):
        written, shown = int(marker.group(1)), marker.group(0)
        if shown != f"[[{written}]]":
            hint = f"write `[[{written}]]`, without spaces"
            raise parameters.problem(f"`{shown}` has spaces", hint, ("prompt",), marker.start())
        if written == number:
            continue
        if written > count or written < 1:
            message = f"`{shown}` has no blank: `blanks` lists {count}"
            hint = f"add its answer to `blanks`, or number the blanks {example}…"
        elif written < number:
            message = f"`{shown}` appears twice"
            hint = "give each blank its own number, in reading order"
        else:
            message = f"`{shown}` comes before `[[{number}]]`"
            hint = "number the blanks in reading order: the first one in the prompt is `[[1]]`"
        raise parameters.problem(message, hint, ("prompt",), marker.start())
    if len(numbered) < count:
        missing = len(numbered) + 1
        raise parameters.problem(
            f"the prompt has no `[[{missing}]]` for blank {missing} of {count}",
            f"write `[[{missing}]]` where that blank goes, or remove its answer from `blanks`",
            ("blanks", missing - 1),
        )


Question = Annotated[
    SingleQuestion
    | MultipleQuestion
    | TrueFalseQuestion
    | NumericQuestion
    | TextQuestion
    | OrderQuestion
    | MatchQuestion
    | ClozeQuestion,
    Field(discriminator="type"),
]
# The `type:` values, read from the union so that a new model is a new type here too.
QUESTION_TYPES: tuple[str, ...] = tuple(
    get_args(model.model_fields["type"].annotation)[0] for model in get_args(get_args(Question)[0])
)


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
