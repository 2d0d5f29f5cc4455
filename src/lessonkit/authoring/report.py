"""`lessonkit report`: the quality of each lesson's questions, as numbers and item-writing warnings.

Warnings are advice for the author and the reviewer, not errors: a lesson with
warnings still validates and builds. Rules that fail a pull request (such as the
minimum of questions per insight) are `lessonkit validate` problems (``rulebook``).
Coverage is counted per insight (every question names one) and per objective
(questions name theirs in `objectives:`; a question may assess several, or none).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from lessonkit.authoring import figures, questionmix, readingtime, sections
from lessonkit.authoring.rulebook import MIN_QUESTIONS_PER_INSIGHT as MIN_PER_INSIGHT
from lessonkit.bank import yamldoc
from lessonkit.bank.models import QUESTION_TYPES, Bank, ChoiceQuestion, Question, SingleQuestion
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage
from lessonkit.errors import Problem, UsageError, display_path

# One question proves an objective is assessed at all; how many a quiz samples is the
# insight count's job, so asking for more here would double the same advice.
MIN_PER_OBJECTIVE = 1
OBJECTIVE_WIDTH = 60  # objectives are sentences; the table shows their start
# Two options are "nearly the same" when they differ only in spelling (a plural, a typo),
# punctuation or little words. A contrast of whole words, numbers or code is a deliberate
# minimal pair: `Vec<T>` vs `&Vec<T>`, "127" vs "128", "always" vs "sometimes". Tuned on
# the Rust Book's 141 multiple-choice questions (cognitive-engineering-lab/rust-book):
# difflib's ratio ≥ 0.85 alone flagged 112 option pairs there, every one deliberate.
SAME_SPELLING = 0.8  # two words this alike (difflib ratio) are one word spelled twice
_LITTLE_WORDS = frozenset(
    {"a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "and", "or", "is", "are"}
    | {"it", "its", "this", "that"}
)
_TOKEN = re.compile(r"`[^`]*`|\w+|[^\w\s]")
LONG_CORRECT = 1.5  # a correct option this many times its distractors' average length…
LONG_CORRECT_CHARS = 20  # …and at least this many characters longer gives itself away
SHORT_EXPLANATION_WORDS = 6
DOMINANT_SHARE = 0.5  # one position holding more than this share of the correct answers
DOMINANT_MIN_QUESTIONS = 4  # fewer single-choice questions than this say nothing

_CATCH_ALL = re.compile(
    r"\b(all|none|both|neither) of (the )?(above|these|those)\b|\bboth [a-d] and [a-d]\b",
    re.IGNORECASE,
)


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
    # Per insight, questions tagged `application` and `recall`; empty if the bank has none.
    kinds: tuple[Counter[str], ...] = ()

    @property
    def reading_minutes(self) -> int:
        """Minutes for a slow reader (the upper end of ``reading_range``)."""
        return self.reading_range[1]

    @property
    def reading_range(self) -> tuple[int, int]:
        """Minutes at the quicker and the slower reading speed."""
        return readingtime.minutes(self.words)


def report_course(course: Course, slug: str | None = None) -> list[LessonReport]:
    """A report for every lesson with a bank, or for the one named; UsageError if unknown."""
    if slug is not None and slug not in course.lessons:
        close = difflib.get_close_matches(slug, list(course.lessons), n=1)
        hint = f"did you mean `{close[0]}`?" if close else _known(course)
        raise UsageError(f"no lesson `{slug}`; {hint}")
    slugs = [slug] if slug is not None else sorted(course.lessons)
    reports = []
    for name in slugs:
        lesson = course.lessons[name]
        bank = course.banks.get(lesson.meta.quiz)
        if bank is not None:
            reports.append(lesson_report(lesson, bank, course.bank_documents[lesson.meta.quiz]))
    return reports


def unreported(course: Course, slug: str | None = None) -> list[str]:
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


def _known(course: Course) -> str:
    names = ", ".join(f"`{s}`" for s in sorted(course.lessons)) or "none"
    return f"lessons: {names}"


def lesson_report(lesson: LessonPage, bank: Bank, document: yamldoc.Document) -> LessonReport:
    """Counts and warnings for one lesson and its bank."""
    insights = lesson.meta.insights
    counts = Counter(q.insight for q in bank.questions)
    per_insight = tuple((text, counts[n]) for n, text in enumerate(insights, start=1))
    # set(): a question that lists an objective twice still assesses it once.
    assessed = Counter(n for q in bank.questions for n in set(q.objectives))
    per_objective = tuple(
        (text, assessed[n]) for n, text in enumerate(lesson.meta.objectives, start=1)
    )
    positions = Counter(
        next(i for i, o in enumerate(q.options) if o.correct)
        for q in bank.questions
        if isinstance(q, SingleQuestion)
    )
    warnings = _objective_warnings(lesson, per_objective)
    warnings += _position_warnings(document, positions)
    for index, question in enumerate(bank.questions):
        warnings += item_warnings(document, index, question)
    warnings += questionmix.kind_warnings(lesson, bank, document)
    warnings += figures.svg_text_warnings(lesson)
    warnings += sections.page_warnings(lesson)
    uses_kinds = questionmix.uses_kinds(bank)
    report = LessonReport(
        slug=lesson.slug,
        title=lesson.meta.title,
        files=(display_path(lesson.path), document.path),
        words=readingtime.word_count(lesson),
        minutes=lesson.meta.minutes,
        per_insight=per_insight,
        per_objective=per_objective,
        untagged=sum(not q.objectives for q in bank.questions),
        types=Counter(q.type for q in bank.questions),
        positions=positions,
        warnings=warnings,
        kinds=questionmix.kinds_per_insight(bank, len(insights)) if uses_kinds else (),
    )
    warnings += readingtime.minutes_warnings(lesson, report.words)
    warnings.sort()
    return report


# --- warnings -------------------------------------------------------------------------


def _objective_warnings(
    lesson: LessonPage, per_objective: tuple[tuple[str, int], ...]
) -> list[Problem]:
    return [
        lesson.front.problem(
            ("objectives", number),
            f"objective {number + 1} has no questions",
            f"add `{number + 1}` to the `objectives:` of the questions that assess it, "
            "or write one that does",
        )
        for number, (_, count) in enumerate(per_objective)
        if count < MIN_PER_OBJECTIVE
    ]


def _position_warnings(document: yamldoc.Document, positions: Counter[int]) -> list[Problem]:
    total = sum(positions.values())
    if total < DOMINANT_MIN_QUESTIONS:
        return []
    position, count = max(positions.items(), key=lambda item: (item[1], -item[0]))
    if count / total <= DOMINANT_SHARE:
        return []
    return [
        document.problem(
            ("questions",),
            f"the correct option is {_letter(position)} in {count} of {total} single-choice "
            "questions",
            "vary where the right answer sits; learners on the site see the written order",
            key=True,
        )
    ]


def item_warnings(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """Item-writing problems in one question."""
    loc = ("questions", index)
    found: list[Problem] = []
    if len(question.explanation.split()) < SHORT_EXPLANATION_WORDS:
        found.append(
            document.problem(
                (*loc, "explanation"),
                f"questions[{index}].explanation is short",
                "say why the answer is right and what the common wrong answer misses",
            )
        )
    if isinstance(question, ChoiceQuestion):
        found += _option_warnings(document, index, question)
    found += questionmix.numeric_warnings(document, index, question)
    return found


def _option_warnings(
    document: yamldoc.Document, index: int, question: ChoiceQuestion
) -> list[Problem]:
    loc = ("questions", index, "options")
    texts = [" ".join(o.text.casefold().split()) for o in question.options]
    found: list[Problem] = []
    for number, text in enumerate(texts):
        where = (*loc, number, "text")
        catch_all = _CATCH_ALL.search(text)
        if catch_all:
            found.append(
                document.problem(
                    where,
                    f'questions[{index}].options[{number}] is a catch-all ("{catch_all.group(0)}")',
                    "write a real answer; catch-alls test reading strategy, not the lesson",
                )
            )
        for other in range(number):
            if question.options[number].value is not None and question.options[other].value:
                continue  # their numbers differ, draw by draw: validate's sweep checks them
            if nearly_same(texts[other], text):
                ratio = difflib.SequenceMatcher(None, texts[other], text).ratio()
                found.append(
                    document.problem(
                        where,
                        f"questions[{index}].options[{number}] is nearly the same as "
                        f"options[{other}] ({ratio:.0%} alike)",
                        "make each option a different answer",
                    )
                )
    if isinstance(question, SingleQuestion):
        found += _long_correct(document, index, question)
    return found


def nearly_same(first: str, second: str) -> bool:
    """Whether two options differ only in spelling, punctuation or little words."""
    before, after = _TOKEN.findall(first.casefold()), _TOKEN.findall(second.casefold())
    if "```" in first or "```" in second:
        return False  # code blocks: every difference is meant
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed = before[i1:i2] + after[j1:j2]
        if all(_trivial(token) for token in changed):
            continue
        if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
            old, new = before[i1], after[j1]
            if _word(old) and _word(new) and _spelled_alike(old, new):
                continue
        return False
    return True


def _trivial(token: str) -> bool:
    return token in _LITTLE_WORDS or not (token[0].isalnum() or token[0] in "`_")


def _word(token: str) -> bool:
    return token.isalpha()


def _spelled_alike(old: str, new: str) -> bool:
    return difflib.SequenceMatcher(None, old, new).ratio() >= SAME_SPELLING


def _long_correct(
    document: yamldoc.Document, index: int, question: SingleQuestion
) -> list[Problem]:
    right = next(i for i, o in enumerate(question.options) if o.correct)
    length = len(question.options[right].text)
    others = [len(o.text) for o in question.options if not o.correct]
    average = sum(others) / len(others)
    if length < LONG_CORRECT * average or length - average < LONG_CORRECT_CHARS:
        return []
    return [
        document.problem(
            ("questions", index, "options", right, "text"),
            f"questions[{index}]: the correct option is {length / average:.1f} times as long "
            "as the others",
            "learners pick the longest option; trim it or give the distractors the same detail",
        )
    ]


def _letter(position: int) -> str:
    return chr(ord("A") + position)


# --- output -------------------------------------------------------------------------------


def render_text(reports: list[LessonReport]) -> str:
    """The report as an author reads it in a terminal."""
    blocks = [_render_one(report) for report in reports]
    warnings = sum(len(r.warnings) for r in reports)
    lessons = f"{len(reports)} lesson{'' if len(reports) == 1 else 's'}"
    blocks.append(f"{lessons}, {warnings} warning{'' if warnings == 1 else 's'}")
    return "\n\n".join(blocks) + "\n"


def _render_one(report: LessonReport) -> str:
    lines = [
        f"{report.slug}: {report.title}",
        f"  files: {', '.join(report.files)}",
        f"  reading: about {readingtime.span(report.reading_range)} at {readingtime.speeds()} "
        f"words a minute (front matter: {report.minutes} min)",
        f"    {report.words:,} words counted: {readingtime.COUNTED}",
        f"  questions per insight (at least {MIN_PER_INSIGHT}):",
    ]
    lines += _table(report.per_insight, MIN_PER_INSIGHT, "too few")
    lines.append("  questions per objective (aim for 1 or more):")
    objectives = [(_shorten(text, OBJECTIVE_WIDTH), count) for text, count in report.per_objective]
    lines += _table(tuple(objectives), MIN_PER_OBJECTIVE, "none")
    if report.untagged:
        many = report.untagged != 1
        lines.append(
            f"    ({report.untagged} question{'s' if many else ''} name{'' if many else 's'} "
            "no objective)"
        )
    if report.kinds:
        lines.append("  application and recall questions per insight (at least half apply):")
        lines += [
            f"    {number}. " + ", ".join(f"{kind} {counts[kind]}" for kind in questionmix.KINDS)
            for number, counts in enumerate(report.kinds, start=1)
        ]
    mix = ", ".join(f"{t} {report.types[t]}" for t in QUESTION_TYPES if report.types[t])
    lines.append(f"  question types: {mix}")
    singles = sum(report.positions.values())
    if singles:
        spread = ", ".join(
            f"{_letter(p)} {report.positions[p]}" for p in range(max(report.positions) + 1)
        )
        lines.append(f"  correct option in single-choice questions ({singles}): {spread}")
    lines.append(f"  warnings: {len(report.warnings) or 'none'}")
    lines += [f"    {warning}" for warning in report.warnings]
    return "\n".join(lines)


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
