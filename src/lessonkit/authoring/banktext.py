"""Option, order item and match text that Markdown would read as a block.

Such text is one line of inline Markdown (``bank.inline``): `>= 100` is shown as
written, not as a quote. An author who wrote it may have meant either, so `validate`
points it out at the text's line and column, says what learners see, and where a real
block goes. (Links and footnotes in question text: ``linkchecks`` and ``footnotes``.)
"""

from __future__ import annotations

from lessonkit.authoring.linkchecks import bank_texts
from lessonkit.authoring.policy import Rule, RuleSettings
from lessonkit.bank import inline
from lessonkit.bank.fields import INLINE_FIELDS
from lessonkit.course.course import Course
from lessonkit.errors import Problem


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def _blocks(course: Course, settings: RuleSettings) -> list[Problem]:
    problems: list[Problem] = []
    for document, loc, text, _ in bank_texts(course):
        if loc[-1] not in INLINE_FIELDS and loc[-2] not in INLINE_FIELDS:
            continue  # a list's items sit one step below its key
        kind = inline.block(text)
        if kind is None:
            continue
        shown = _short(" ".join(text.split()))  # as the one line it is shown as
        problems.append(
            document.problem(
                loc,
                f"`{_short(text)}` would read as {kind} in Markdown; an option, an item or a "
                f"match side is one line of inline text, so learners see `{shown}`",
                "nothing to change if that is what learners should see; for a real "
                f"{kind.removeprefix('a ').removeprefix('an ')}, put it in the prompt "
                "(`prompt: |` keeps its lines) and refer to it here",
            )
        )
    return problems


INLINE_TEXT = Rule(
    "inline-text",
    "Option, order item and match text that Markdown would read as a block (`>= 100` as a "
    "quote, `- 100` as a list, `1. first` as a numbered list, `# all` as a heading) is "
    "pointed out; it is shown as written.",
    "an option is one line after its letter: shown as written on the page and in the "
    "terminal, it may not be what the author meant",
    default="warn",
    course_check=_blocks,
)
