"""`lessonkit report`: the quality of each lesson's questions, as numbers and warnings.

The numbers are counts a reviewer reads (questions per insight and per objective, the
type mix, where the right answers sit, words and reading time, the age of dated
figures). The warnings are what the rule book found at the `warn` and `advice` levels of
the course's policy (``rulebook``): advice never fails anything; a warning fails only a
strict check. Every waiver is listed with its reason, so a reviewer sees each exception.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections import Counter
from dataclasses import dataclass, field

from lessonkit.authoring import freshness, items, questionmix, readingtime
from lessonkit.authoring.items import MIN_PER_OBJECTIVE, nearly_same
from lessonkit.authoring.policy import Subject
from lessonkit.authoring.rulebook import MIN_QUESTIONS, CheckedCourse, rule
from lessonkit.authoring.waivers import Grant
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import Problem, UsageError, display_path
from lessonkit.questiontypes import registry

__all__ = ["LessonReport", "lesson_report", "nearly_same", "render_text", "report_course"]

OBJECTIVE_WIDTH = 60  # objectives are sentences; the table shows their start


@dataclass(frozen=True)
class LessonReport:
    """Everything `report` says about one lesson."""

    slug: str
    title: str
    files: tuple[str, ...]
    words: int
    minutes: int  # what the front matter says
    per_insight: tuple[tuple[str, int], ...]
    per_objective: tuple[tuple[str, int], ...]
    untagged: int  # questions that name no objective
    types: Counter[str]
    positions: Counter[int]  # 0-based position of the correct option in `single` questions
    warnings: list[Problem] = field(default_factory=list)
    # Per insight, questions tagged `application` and `recall`; None when the course's
    # policy does not ask for the tags.
    kinds: tuple[Counter[str], ...] | None = None
    speeds: tuple[int, int] = readingtime.WORDS_PER_MINUTE
    least_per_insight: int | None = None  # None: the course does not count them
    share: float = questionmix.MIN_APPLICATION_SHARE
    reviewed: str = ""
    due: dt.date | None = None  # the last day the review covers; None: not checked
    ages: tuple[freshness.Dated, ...] = ()
    today: dt.date = dt.date(1970, 1, 1)
    grants: tuple[Grant, ...] = ()

    @property
    def reading_minutes(self) -> int:
        """Minutes for a slow reader (the upper end of ``reading_range``)."""
        return self.reading_range[1]

    @property
    def reading_range(self) -> tuple[int, int]:
        """Minutes at the quicker and the slower reading speed."""
        return readingtime.minutes(self.words, self.speeds)


def report_course(course: CheckedCourse, slug: str | None = None) -> list[LessonReport]:
    """A report for every lesson with a bank, or for the one named; UsageError if unknown.

    ``course`` comes from ``check_course(root, advice=True)``, which found the warnings.
    """
    if slug is not None and slug not in course.lessons:
        close = difflib.get_close_matches(slug, list(course.lessons), n=1)
        hint = f"did you mean `{close[0]}`?" if close else _known(course)
        raise UsageError(f"no lesson `{slug}`; {hint}")
    slugs = [slug] if slug is not None else sorted(course.lessons)
    return [
        lesson_report(course, course.lessons[name])
        for name in slugs
        if course.lessons[name].meta.quiz in course.banks
    ]


def unreported(course: CheckedCourse, slug: str | None = None) -> list[str]:
    """Lesson and bank files the report had to leave out, because they did not load."""
    lessons = {lesson.path.resolve() for lesson in course.lessons.values()}
    missing: list[str] = []
    if slug is None and course.content_dir.is_dir():
        pages = sorted(p for p in course.content_dir.glob("*/*.md") if p.name != "index.md")
        missing += [display_path(p) for p in pages if p.resolve() not in lessons]
    for name in [slug] if slug is not None else sorted(course.lessons):
        quiz = course.lessons[name].meta.quiz
        if quiz not in course.banks:
            found = [course.quizzes_dir / f"{quiz}{s}" for s in (".yml", ".yaml")]
            bank = next((p for p in found if p.is_file()), found[0])
            missing.append(display_path(bank))
    return missing


def _known(course: CheckedCourse) -> str:
    names = ", ".join(f"`{s}`" for s in sorted(course.lessons)) or "none"
    return f"lessons: {names}"


def lesson_report(course: CheckedCourse, lesson: LessonPage) -> LessonReport:
    """Counts and warnings for one lesson and its bank."""
    bank = course.banks[lesson.meta.quiz]
    document = course.bank_documents[lesson.meta.quiz]
    policy = course.policy
    insights = lesson.meta.insights
    counts = Counter(q.insight for q in bank.questions)
    # set(): a question that lists an objective twice still assesses it once.
    assessed = Counter(n for q in bank.questions for n in set(q.objectives))
    subject = Subject(course, lesson, bank, document, dt.date(1970, 1, 1))
    mix = rule("application-share")
    reading = policy.settings(readingtime.READING_TIME)
    assert isinstance(reading, readingtime.ReadingTime)
    files = (display_path(lesson.path), document.path)
    return LessonReport(
        slug=lesson.slug,
        title=lesson.meta.title,
        files=files,
        words=readingtime.word_count(lesson),
        minutes=lesson.meta.minutes,
        per_insight=tuple((text, counts[n]) for n, text in enumerate(insights, start=1)),
        per_objective=tuple(
            (text, assessed[n]) for n, text in enumerate(lesson.meta.objectives, start=1)
        ),
        untagged=sum(not q.objectives for q in bank.questions),
        types=Counter(q.type for q in bank.questions),
        positions=items.correct_positions(subject),
        warnings=course.advice(lesson.slug),
        kinds=questionmix.kinds_per_insight(bank, len(insights))
        if policy.level(mix) != "off"
        else None,
        speeds=reading.wpm,
        least_per_insight=_least(course),
        share=float(policy.settings(mix).values()["share"]),
        reviewed=lesson.meta.reviewed,
        due=_due(course, lesson),
        ages=tuple(freshness.figure_ages(lesson)),
        today=course.today,
        grants=tuple(g for g in course.grants if g.path in files),
    )


def _least(course: CheckedCourse) -> int | None:
    if course.policy.level(MIN_QUESTIONS) == "off":
        return None
    return int(course.policy.settings(MIN_QUESTIONS).values()["per_insight"])


def _due(course: CheckedCourse, lesson: LessonPage) -> dt.date | None:
    review = freshness.REVIEW
    if course.policy.level(review) == "off":
        return None
    settings = course.policy.settings(review)
    assert isinstance(settings, freshness.Review)
    return freshness.due(lesson, settings)[0]


# --- output -------------------------------------------------------------------------------


def render_text(reports: list[LessonReport]) -> str:
    """The report as an author reads it in a terminal."""
    blocks = [_render_one(report) for report in reports]
    warnings = sum(len(r.warnings) for r in reports)
    lessons = f"{len(reports)} lesson{'' if len(reports) == 1 else 's'}"
    blocks.append(f"{lessons}, {warnings} warning{'' if warnings == 1 else 's'}")
    return "\n\n".join(blocks) + "\n"


def _render_one(report: LessonReport) -> str:
    least = report.least_per_insight
    lines = [
        f"{report.slug}: {report.title}",
        f"  files: {', '.join(report.files)}",
        f"  reading: about {readingtime.span(report.reading_range)} at "
        f"{readingtime.speeds(report.speeds)} words a minute (front matter: {report.minutes} min)",
        f"    {report.words:,} words counted: {readingtime.COUNTED}",
        f"  questions per insight{f' (at least {least})' if least else ''}:",
    ]
    lines += _table(report.per_insight, least or 0, "too few")
    lines.append("  questions per objective (aim for 1 or more):")
    objectives = [(_shorten(text, OBJECTIVE_WIDTH), count) for text, count in report.per_objective]
    lines += _table(tuple(objectives), MIN_PER_OBJECTIVE, "none")
    if report.untagged:
        many = report.untagged != 1
        lines.append(
            f"    ({report.untagged} question{'s' if many else ''} name{'' if many else 's'} "
            "no objective)"
        )
    lines += _kinds(report)
    mix = ", ".join(f"{t} {report.types[t]}" for t in registry.names() if report.types[t])
    lines.append(f"  question types: {mix}")
    singles = sum(report.positions.values())
    if singles:
        spread = ", ".join(
            f"{items.letter(p)} {report.positions[p]}" for p in range(max(report.positions) + 1)
        )
        lines.append(f"  correct option in single-choice questions ({singles}): {spread}")
    lines += _freshness(report)
    if report.grants:
        lines.append(f"  waivers: {len(report.grants)}")
        lines += [f"    {grant}" for grant in report.grants]
    lines.append(f"  warnings: {len(report.warnings) or 'none'}")
    lines += [f"    {warning}" for warning in report.warnings]
    return "\n".join(lines)


def _kinds(report: LessonReport) -> list[str]:
    if report.kinds is None:
        return []
    share = "half" if report.share == questionmix.MIN_APPLICATION_SHARE else f"{report.share:.0%}"
    lines = [f"  application and recall questions per insight (at least {share} apply):"]
    if not any(report.kinds):
        return [*lines, "    none tagged: tag each question `application` or `recall`"]
    return lines + [
        f"    {number}. " + ", ".join(f"{kind} {counts[kind]}" for kind in questionmix.KINDS)
        for number, counts in enumerate(report.kinds, start=1)
    ]


def _freshness(report: LessonReport) -> list[str]:
    lines = []
    if report.due is not None:
        late = " (overdue)" if report.today > report.due else ""
        lines.append(
            f"  reviewed: {report.reviewed}; due for review by {report.due.isoformat()}{late}"
        )
    if report.ages:
        lines.append('  figures by age ("as of" in the text, oldest first):')
        width = max(len(dated.label()) for dated in report.ages)
        for dated in report.ages:
            age = max(0, freshness.months_between(dated.month, report.today))
            where = ", ".join(str(line) for line in dated.lines)
            noun = "line" if len(dated.lines) == 1 else "lines"
            months = "month " if age == 1 else "months"
            lines.append(
                f"    {dated.label().ljust(width)}  {age:>3} {months} old  ({noun} {where})"
            )
    return lines


def _table(rows: tuple[tuple[str, int], ...], minimum: int, flag: str) -> list[str]:
    width = max(len(text) for text, _ in rows)
    return [
        f"    {number}. {text.ljust(width)}  {count:>3}"
        + (f"  < {flag}" if count < minimum else "")
        for number, (text, count) in enumerate(rows, start=1)
    ]


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def github_annotations(reports: list[LessonReport]) -> list[str]:
    """Each warning as a GitHub Actions annotation, shown on the pull request's diff."""
    return [w.github("warning") for report in reports for w in report.warnings]
