"""An attempt summed up: its score, points per insight, what was missed, the lines shown.

Where to re-read for a question (``Section``) is worked out here too, as the feedback on
each answer points there. Works on an ``Attempt`` (see ``session``) and the plain JSON form
of a lesson's metadata (see ``catalog``), so it needs no pydantic. Never prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lessonkit.course.catalog import LOCAL_SITE
from lessonkit.course.invocation import program
from lessonkit.grading import passmark
from lessonkit.quiz.session import Attempt, BankData, Mark

LessonData = Mapping[str, Any]
BREADCRUMB = "\u203a"  # the single right-pointing angle quote between lesson and section


@dataclass(frozen=True)
class Section:
    """Where to re-read: lesson title, section title and the address of that section."""

    lesson_title: str
    title: str
    url: str | None
    read: str | None = None  # `lessonkit read SLUG ANCHOR`: the section offline, anywhere

    def __str__(self) -> str:
        return f"{self.lesson_title} {BREADCRUMB} {self.title}"


@dataclass(frozen=True)
class InsightScore:
    """Points earned on the questions testing one of the lesson's insights."""

    number: int
    text: str
    score: float
    max_score: float
    questions: int


@dataclass(frozen=True)
class Missed:
    """A question not answered fully right, and where to re-read for it."""

    question_id: str
    number: int
    prompt: str
    score: float
    max_score: float
    section: Section
    numbers: str = ""  # the numbers it was asked with, if it draws any


@dataclass(frozen=True)
class Summary:
    """The result of a whole attempt."""

    score: float
    max_score: float
    pass_mark: float
    passed: bool
    insights: tuple[InsightScore, ...]
    missed: tuple[Missed, ...]


def section(bank: BankData, lesson: LessonData | None, anchor: str) -> Section:
    """Where the section ``anchor`` of the bank's lesson is, as far as we know it."""
    if lesson is None:
        return Section(str(bank["title"]), anchor, None)
    found = lesson.get("sections", {}).get(anchor)
    read = f"{program()} read {lesson.get('slug') or bank['lesson']}"
    if found is None:  # the validator reports a missing anchor; still point at the lesson
        return Section(str(lesson["title"]), anchor, lesson.get("url"), read)
    return Section(str(lesson["title"]), str(found["title"]), found.get("url"), f"{read} {anchor}")


def summarise(attempt: Attempt, lesson: LessonData | None) -> Summary:
    """Totals, pass or fail, per-insight points and the questions missed (unanswered count 0)."""
    texts = lesson.get("insights", []) if lesson else []
    by_insight: dict[int, InsightScore] = {}
    missed: list[Missed] = []
    for question_id in attempt.plan.order:
        question = attempt.question(question_id)
        mark = attempt.marks.get(question_id)
        points = question.points
        score = mark.score if mark else 0.0
        number = question.insight
        text = texts[number - 1] if 0 < number <= len(texts) else f"Insight {number}"
        was = by_insight.get(number, InsightScore(number, text, 0.0, 0.0, 0))
        by_insight[number] = InsightScore(
            number, text, was.score + score, was.max_score + points, was.questions + 1
        )
        if mark is None or not mark.correct:
            where = section(attempt.bank, lesson, question.section)
            missed.append(
                Missed(
                    question_id,
                    attempt.number(question_id),
                    question.prompt,
                    score,
                    points,
                    where,
                    _numbers(attempt, question_id, mark),
                )
            )
    scores = tuple(by_insight[n] for n in sorted(by_insight))
    score = sum(s.score for s in scores)
    max_score = sum(s.max_score for s in scores)
    pass_mark = float(attempt.bank["pass_mark"])
    passed = passmark.passes(score, max_score, pass_mark)
    return Summary(score, max_score, pass_mark, passed, scores, tuple(missed))


def _numbers(attempt: Attempt, question_id: str, mark: Mark | None) -> str:
    drawn = mark.numbers if mark and mark.numbers else attempt.plan.numbers.get(question_id)
    if not drawn:
        return ""
    from lessonkit.bank import variants
    from lessonkit.questiontypes.registry import as_json

    return variants.shown_numbers(as_json(attempt.written(question_id)), drawn)


def report(attempt: Attempt, result: Summary) -> dict[str, Any]:
    """The machine-readable result of an attempt (`--json`); unanswered questions score 0."""
    rows = []
    for question_id in attempt.plan.order:
        mark = attempt.marks.get(question_id)
        points = attempt.question(question_id).points
        rows.append(
            {
                "id": question_id,
                "response": mark.response if mark else None,
                "score": mark.score if mark else 0.0,
                "max_score": points,
                "correct": bool(mark and mark.correct),
                **(
                    {"numbers": dict(drawn)}
                    if (drawn := attempt.plan.numbers.get(question_id))
                    else {}
                ),
            }
        )
    return {
        "quiz": attempt.slug,
        "score": result.score,
        "max_score": result.max_score,
        "pass_mark": result.pass_mark,
        "passed": result.passed,
        "questions": rows,
    }


# --- the summary in words ------------------------------------------------------

TICK, CROSS = "\u2713", "\u2717"  # ✓ ✗: pass and fail never rest on colour alone


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def points(score: float, max_score: float) -> str:
    """`1.5 of 2 points`: at most two decimals, no trailing zeros."""
    return f"{_num(score)} of {_num(max_score)} point{'' if max_score == 1 else 's'}"


def percent(share: float) -> str:
    """A pass mark as a percentage: `0.7` as `70%`, `0.725` as `72.5%`."""
    return passmark.mark_percent(share)


def link(where: Section) -> str:
    """The published page of a section, else the command that shows it in the terminal.

    A URL on the local preview site (no `site_url` set) would need `make serve` running,
    which a learner who ran `pip install` does not have.
    """
    if where.url and not where.url.startswith(LOCAL_SITE):
        return where.url
    return where.read or where.url or ""


MISSED_SHOWN = 8  # missed questions listed: even wrapped once each, the summary fits 80x24


def summary_lines(
    title: str, slug: str, result: Summary, *, every: str | None = None
) -> list[tuple[str, str]]:
    """The summary as (kind, line) pairs, each line short; score and verdict come last.

    ``kind`` is `title`, `missed`, `insight`, `next`, `score` or `verdict`, for styling.
    Missed questions are one line each with the command that shows their section; past
    the first few, ``every`` is the command that shows them all (else they are above).
    """
    lines = [("title", f"Summary: {title}")]
    if result.missed:
        lines.append(("next", f"Missed ({len(result.missed)}); "
                              f"`{program()} review {slug}` asks them again:"))  # fmt: skip
        shown = _fitting(result.missed)
        for m in shown:
            where = m.section.read or str(m.section)
            lines.append(("missed", f"  {CROSS} Q{m.number}  {_num(m.score)}/{_num(m.max_score)}"
                                    f"  {where}"))  # fmt: skip
            if m.numbers:
                lines.append(("missed", _clipped(f"      with {m.numbers}")))
        if len(result.missed) > len(shown):
            more = len(result.missed) - len(shown)
            rest = f": `{every}`" if every else ", listed above"
            lines.append(("missed", f"  \u2026 and {more} more{rest}"))
    for i in result.insights:
        lines.append(("insight", f"Insight {i.number}: {_num(i.score)}/{_num(i.max_score)}"
                                 f"  {i.text}"))  # fmt: skip
    if not result.missed:
        lines.append(("next", next_step(slug)))
    verdict = f"{TICK} Passed" if result.passed else f"{CROSS} Not passed"
    share = passmark.percent(result.score, result.max_score, result.pass_mark)
    lines.append(("score", f"Score: {points(result.score, result.max_score)} ({share})"))
    lines.append(("verdict", f"{verdict} (pass mark {percent(result.pass_mark)})"))
    return lines


def _fitting(missed: Sequence[Missed]) -> list[Missed]:
    """Missed questions to list: as many lines as MISSED_SHOWN wrapped once each, a line
    of numbers counting as one more."""
    budget, shown = 2 * MISSED_SHOWN, []
    for m in missed:
        budget -= 2 + bool(m.numbers)
        if budget < 0:
            break
        shown.append(m)
    return shown


def _clipped(line: str, width: int = 79) -> str:
    return line if len(line) <= width else line[: width - 1] + "\u2026"


def next_step(slug: str) -> str:
    """What to do after a quiz."""
    return f"Next: `{program()} review {slug}` asks again what you missed, when it is due."
