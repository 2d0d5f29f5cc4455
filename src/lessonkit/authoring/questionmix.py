"""A bank's mix: calculation questions and the application/recall tags (two rules).

Under the `application-share` rule each question is tagged `application` (it applies an
idea to new numbers or a new situation) or `recall` (it asks what the lesson states);
`lessonkit report` counts them per insight, and the rule asks for a share of application
questions and one in every insight. A course that does not tag switches the rule off.
"""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.bank import yamldoc
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import NumericQuestion, Question
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import Problem

APPLICATION, RECALL = "application", "recall"
KINDS = (APPLICATION, RECALL)
MIN_APPLICATION_SHARE = 0.5  # at least half the questions apply an idea


def uses_kinds(bank: Bank) -> bool:
    """Whether any question of the bank is tagged `application` or `recall`."""
    return any(tag in KINDS for q in bank.questions for tag in q.tags)


def kinds_per_insight(bank: Bank, insights: int) -> tuple[Counter[str], ...]:
    """For each insight (1 first), how many questions carry each kind tag."""
    counts: tuple[Counter[str], ...] = tuple(Counter() for _ in range(insights))
    for question in bank.questions:
        if 1 <= question.insight <= insights:
            counts[question.insight - 1].update(t for t in set(question.tags) if t in KINDS)
    return counts


def kind_warnings(
    lesson: LessonPage,
    bank: Bank,
    document: yamldoc.Document,
    share: float = MIN_APPLICATION_SHARE,
) -> list[Problem]:
    """Untagged or doubly tagged questions, too few application questions, and insights
    without one; one problem for a bank that tags no question at all."""
    if not uses_kinds(bank):
        return [
            document.problem(
                ("questions",),
                "no question is tagged `application` or `recall`, so the application share "
                "cannot be counted",
                "tag each question with one: `application` when it applies an idea to new "
                "numbers or a new situation, `recall` when it asks what the lesson states",
                key=True,
            )
        ]
    found: list[Problem] = []
    for index, question in enumerate(bank.questions):
        kinds = [k for k in KINDS if k in question.tags]
        if len(kinds) != 1:
            tagged = "both " if kinds else "neither "
            tagged += "`application` and `recall`" if kinds else "`application` nor `recall`"
            found.append(
                document.problem(
                    ("questions", index, "tags"),
                    f"questions[{index}] ({question.id}) is tagged {tagged}",
                    "tag it with exactly one: `application` when it applies an idea to new "
                    "numbers or a new situation, `recall` when it asks what the lesson states",
                )
            )
    total = len(bank.questions)
    applied = sum(APPLICATION in q.tags for q in bank.questions)
    if applied < share * total:
        fewer = "fewer than half" if share == MIN_APPLICATION_SHARE else f"fewer than {share:.0%}"
        found.append(
            document.problem(
                ("questions",),
                f"{applied} of {total} questions are tagged `application`, {fewer}",
                "turn recall questions into ones that apply an idea to new numbers or a new "
                "situation",
                key=True,
            )
        )
    for number, counts in enumerate(kinds_per_insight(bank, len(lesson.meta.insights)), 1):
        if not counts[APPLICATION]:
            found.append(
                lesson.front.problem(
                    ("insights", number - 1),
                    f"insight {number} has no `application` question",
                    f"add one with `insight: {number}` and `tags: [application]` that applies "
                    "the insight to new numbers or a new situation",
                )
            )
    return found


def numeric_warnings(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """A calculation without a tolerance, a unit or a hint."""
    if not isinstance(question, NumericQuestion):
        return []
    loc = ("questions", index)
    found: list[Problem] = []
    if question.tolerance is None and question.relative_tolerance is None:
        found.append(
            document.problem(
                (*loc, "answer"),
                f"questions[{index}] accepts only the exact number: it has no `tolerance` or "
                "`relative_tolerance`",
                "accept honest rounding: add `tolerance: 0.5` (absolute) or "
                "`relative_tolerance: 0.02` (±2 %)",
            )
        )
    if question.unit is None:
        found.append(
            document.problem(
                (*loc, "answer"),
                f"questions[{index}] gives no `unit`",
                "add `unit:`, e.g. GB/s, ms or chips, so the learner knows what the number counts",
            )
        )
    if not question.hint:
        found.append(
            document.problem(
                (*loc, "prompt"),
                f"questions[{index}] is a calculation without a `hint`",
                "add a `hint:` that names the formula or the first step",
            )
        )
    return found


class ApplicationShare(RuleSettings):
    share: float = Field(
        MIN_APPLICATION_SHARE,
        ge=0,
        le=1,
        description="The least share of a bank's questions tagged `application`, e.g. `0.5`.",
    )


def _application_share(subject: Subject, settings: ApplicationShare) -> list[Problem]:
    if subject.bank is None or subject.document is None:
        return []
    return kind_warnings(subject.lesson, subject.bank, subject.document, settings.share)


def _numeric_details(subject: Subject, settings: RuleSettings) -> list[Problem]:
    if subject.bank is None or subject.document is None:
        return []
    document = subject.document
    return [
        p
        for index, q in enumerate(subject.bank.questions)
        for p in numeric_warnings(document, index, q)
    ]


APPLICATION_SHARE = Rule(
    "application-share",
    "Each question is tagged `application` or `recall`; at least {share:.0%} of a bank's "
    "questions, and one in every insight, are `application`.",
    "applying an idea to new numbers or a new situation shows it was understood; recall "
    "only shows it was read",
    default="off",
    settings=ApplicationShare,
    lesson_check=_application_share,
)
NUMERIC_DETAILS = Rule(
    "numeric-details",
    "A calculation (`numeric`) question has a `unit`, a `tolerance` or `relative_tolerance` "
    "for honest rounding, and a `hint` that names the first step.",
    "a learner must know what the number counts, honest rounding must not score 0, and a "
    "stuck learner needs a way in",
    default="advice",
    lesson_check=_numeric_details,
)
