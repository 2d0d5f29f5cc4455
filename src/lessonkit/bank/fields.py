"""What every content model shares: the strict base, slug and text fields, and waivers."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from lessonkit.bank import limits
from lessonkit.bank.limits import chars

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
ANCHOR_PATTERN = r"^[\w-]+$"
# Keys whose values are prose in banks and front matter (lists of them included): the
# loaders keep these scalars' styles and marks so that author checks can see how the text
# was written without parsing the file again.
PROSE_FIELDS = frozenset(
    {"prompt", "explanation", "text", "feedback", "hint", "title", "summary", "audience"}
    | {"publisher", "objectives", "insights", "key_points", "items", "accept", "distractors"}
    | {"left", "right"}
)

# Option, item and match text: one line of inline Markdown after a letter or number, never
# a block (``bank.inline``); `lessonkit validate` points out text that looks like one.
INLINE_FIELDS = frozenset({"text", "items", "left", "right", "distractors"})
INLINE_NOTE = "Inline Markdown, shown as written on one line: `>= 100` is not a quote."

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
