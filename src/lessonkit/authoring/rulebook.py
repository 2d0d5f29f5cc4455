"""The rule book: every rule lessonkit checks, what it asks and why, and how a course applies it.

`lessonkit validate`, `lessonkit report`, the site build and ``tests/test_content.py``
all call ``check_course`` here, so "validate is clean" and "the content tests pass" mean
the same thing. ``RULES`` lists each rule once; a course's policy (``lessonkit.yml``,
read by ``policy``) sets each rule that is a matter of taste to `error`, `warn`,
`advice` or `off`, with its numbers. `lessonkit rules`, CONTRIBUTING.md and the
pull-request template show the book (a test keeps the documents equal to the code).

Adding a rule: write its check beside the others of its kind, declare a ``Rule`` (and a
``RuleSettings`` model when it has numbers) next to it, and add it to ``RULES`` below.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

from pydantic import Field

from lessonkit.authoring import (
    banktext,
    factchecks,
    figures,
    footnotes,
    framing,
    freshness,
    items,
    keychecks,
    linkchecks,
    markerchecks,
    navigation,
    pagechecks,
    placeholders,
    questionmix,
    readingtime,
    sections,
    sweep,
    waivers,
    yamlstyle,
)
from lessonkit.authoring.policy import Level, Policy, Rule, RuleSettings, Subject, fixed
from lessonkit.authoring.policy import read_policy as _read_policy
from lessonkit.authoring.waivers import Finding, Grant
from lessonkit.bank import limits, yamldoc
from lessonkit.bank.limits import chars
from lessonkit.course.course import Course, read_course
from lessonkit.course.day import today as _today
from lessonkit.course.facts import Scope
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.errors import ContentError, Problem, display_path

# Reserved for documentation (RFC 2606): never a real source, anywhere a reader can see.
_PLACEHOLDER_HOST = re.compile(r"\bexample\.(?:com|org|net)\b", re.IGNORECASE)
_TEXT_SUFFIXES = frozenset({".md", ".yml", ".yaml", ".svg", ".html", ".css", ".txt", ".json"})


class MinQuestions(RuleSettings):
    per_insight: int = Field(2, ge=1, le=100, description="The fewest questions per insight.")


def _min_questions(course: Course, settings: MinQuestions) -> list[Problem]:
    """Too few questions for an insight, pointed at the insight in the lesson's front matter."""
    least = settings.per_insight
    problems: list[Problem] = []
    for slug, bank in course.banks.items():
        lesson = course.lessons.get(bank.lesson)
        if lesson is None or lesson.meta.quiz != slug:
            continue
        counts = Counter(q.insight for q in bank.questions)
        for number in range(1, len(lesson.meta.insights) + 1):
            if counts[number] < least:
                problems.append(
                    lesson.front.problem(
                        ("insights", number - 1),
                        f"insight {number} has {counts[number]} "
                        f"question{'' if counts[number] == 1 else 's'} in "
                        f"quizzes/{Path(course.bank_documents[slug].path).name}; every "
                        f"insight needs at least {least}",
                        f"add questions with `insight: {number}`",
                    )
                )
    return problems


def _yaml_text(course: Course, settings: RuleSettings) -> list[Problem]:
    """Folded Markdown blocks and text cut at ` #`, in every bank and lesson front matter."""
    # The loaders kept the scalars these rules need; only the text is read again here.
    problems: list[Problem] = []
    documents = {parts.document.path: parts.document for parts in course.bank_parts}
    # Only banks this run read: listing and naming 1,000 others cost 25 ms.
    for path in (p for p in course.files_under(course.quizzes_dir) if p.suffix in BANK_SUFFIXES):
        document = documents.get(display_path(path))
        if document is None:
            continue  # a bank that did not load is reported where it is loaded
        text = yamldoc.read_text(path)
        problems += yamlstyle.scalar_problems(document.text_scalars, text, document.path)
    for lesson in course.lessons.values():
        front = yamldoc.read_text(lesson.path).splitlines(keepends=True)[1 : lesson.body_line - 2]
        problems += yamlstyle.scalar_problems(
            lesson.front.text_scalars, "".join(front), display_path(lesson.path), 2
        )
    return problems


def _placeholder_hosts(course: Course, settings: RuleSettings) -> list[Problem]:
    problems: list[Problem] = []
    for folder in (course.content_dir, course.quizzes_dir):
        if not folder.is_dir():
            continue
        for path in course.files_under(folder):
            if not path.is_file() or path.suffix.lower() not in _TEXT_SUFFIXES:
                continue
            try:
                text = yamldoc.read_text(path)
            except ContentError:
                continue  # unreadable files are reported where they are loaded
            # One search of the whole text: banks run to megabytes, and a match is rare.
            # The case-blind regex takes 0.1 s over a 4 MiB bank; this look first, 8 ms.
            if "example." not in text.lower():
                continue
            for match in _PLACEHOLDER_HOST.finditer(text):
                line_start = text.rfind("\n", 0, match.start()) + 1
                problems.append(
                    Problem(
                        display_path(path),
                        text.count("\n", 0, match.start()) + 1,
                        match.start() - line_start + 1,
                        f"`{match.group(0)}` is a placeholder address, never a source",
                        "link to the real page you used",
                    )
                )
    return problems


def _waivers(course: Course, settings: RuleSettings) -> list[Problem]:
    return waivers.check(course, RULES)


MIN_QUESTIONS = Rule(
    "min-questions",
    "Each insight has at least {per_insight} questions.",
    "a quiz samples each insight fairly, and a retry gets new questions",
    default="warn",
    settings=MinQuestions,
    course_check=_min_questions,
    # About how a quiz samples, not whether the site can be built: a preview shows a
    # lesson whose bank is still growing, and `validate` (and so CI) holds the line.
    site=False,
)
PLACEHOLDER_HOST = fixed(
    "placeholder-host",
    "No `example.com`, `example.org` or `example.net` in any file under `content/` or `quizzes/`.",
    "a placeholder is never a source",
    course_check=_placeholder_hosts,
)

RULES: tuple[Rule, ...] = (
    # Rules that keep a course correct; `read_course` applies those without a check.
    fixed("yaml", "Banks, front matter and `lessonkit.yml` are valid YAML in UTF-8, indented "
          "with spaces, without duplicate keys or custom tags, and under 10 MiB.",
          "a file that does not parse cannot be checked or shown"),
    fixed("yaml-text", "Text with a Markdown table, list or code block uses `|` or `|-`, never "
          "the folding `>` or `>-`; plain (unquoted) text holds no ` #`.",
          "YAML would join the lines into one, or cut the text at the `#` as a comment, "
          "without an error", course_check=_yaml_text),
    fixed("format", "Banks, front matter and `lessonkit.yml` follow the format of "
          "`schemas/*.json`: no unknown fields, the right types, exactly one correct option in "
          "`single` questions.", "the quiz and the site read exactly these fields"),
    fixed("text-limits", f"A prompt and an explanation are at most "
          f"{chars(limits.PROMPT_CHARS)}; an option, its feedback and a hint at most "
          f"{chars(limits.OPTION_CHARS)}; an order item, a match side, a distractor or an "
          f"accepted answer at most {chars(limits.ITEM_CHARS)}; options, items and pairs "
          "2 to 10.", limits.REASON),
    fixed("ids", "Question ids are kebab-case and unique across all banks.",
          "learners' history is keyed on them"),
    fixed("pairing", "Every lesson names an existing bank and every bank an existing lesson "
          "that names it back; lessons are listed in their plan's `index.md`.",
          "the quiz and the site find one from the other"),
    fixed("references", "A question's `insight`, `objectives` and `section` exist in its "
          "lesson (`section` is a heading anchor as the site makes it).",
          "a missed question sends the learner back to that section"),
    fixed("answer-key", "The answer key earns full points and some wrong answer earns less.",
          "a key that fails its own question marks every learner wrong"),
    keychecks.BOUND,
    keychecks.PRECISION,
    sweep.PARAMETERS,
    fixed("headings", "Each insight is a `##` heading with the same words, in front-matter "
          "order; heading levels never skip.", "the self-checks and the table of contents "
          "follow the insights"),
    markerchecks.PLACEMENT,
    markerchecks.TITLE,
    linkchecks.LINKS,
    navigation.NAV_FILES,
    footnotes.FOOTNOTES,
    factchecks.FACT_REFERENCES,
    PLACEHOLDER_HOST,
    placeholders.PLACEHOLDERS,
    fixed("waivers", "A waiver names a rule a course can set, and says why.",
          "a reviewer must see each exception and its reason", course_check=_waivers),
    # Matters of taste: each course's policy sets them.
    pagechecks.PAGE_SIZE,
    MIN_QUESTIONS,
    pagechecks.IMAGES,
    figures.FIGURES,
    pagechecks.NO_SCRIPTS,
    markerchecks.MARKERS,
    navigation.NAV,
    navigation.HAND_COUNTS,
    navigation.LINK_BACK,
    framing.FRAMING,
    freshness.REVIEW,
    yamlstyle.SCHEMA_LINE,
    sections.SECTIONS,
    sections.DATED_UPDATES,
    sections.DATED_TABLES,
    readingtime.READING_TIME,
    questionmix.APPLICATION_SHARE,
    questionmix.NUMERIC_DETAILS,
    keychecks.ANSWER_FORMS,
    items.OBJECTIVES,
    items.ANSWER_POSITION,
    items.SHORT_EXPLANATIONS,
    items.CATCH_ALL,
    items.SIMILAR_OPTIONS,
    items.LONG_CORRECT_OPTION,
    banktext.INLINE_TEXT,
    figures.FIGURE_TEXT,
    factchecks.FACT_AGE,
    factchecks.FACT_SOURCE,
    factchecks.MIXED_BASIS,
    factchecks.PREFIX_SLIP,
    factchecks.HAND_TYPED,
)  # fmt: skip
_FIXED = {rule.id for rule in RULES if rule.fixed}


def read_policy(root: Path) -> tuple[Policy, list[Problem]]:
    """The policy of the course at ``root`` for this rule book, and its file's problems."""
    return _read_policy(root, RULES)


def rule(rule_id: str) -> Rule:
    """The rule with this id; KeyError if there is none."""
    return next(r for r in RULES if r.id == rule_id)


# --- applying the rules ---------------------------------------------------------------


@dataclass
class CheckedCourse(Course):
    """A course with what the rule book found: ``problems`` fail (errors), ``findings``
    are warnings and advice, ``waived`` what waivers set aside, ``grants`` the waivers."""

    policy: Policy = field(default_factory=lambda: Policy(""))
    findings: list[Finding] = field(default_factory=list)
    waived: list[Finding] = field(default_factory=list)
    grants: list[Grant] = field(default_factory=list)
    today: dt.date = field(default_factory=_today)  # the day the review rule counted from

    @property
    def warnings(self) -> list[Problem]:
        """What fails only a strict check: `validate --strict` and the strict site build."""
        return [f.problem for f in self.findings if f.level == "warn"]

    def advice(self, lesson: str) -> list[Problem]:
        """Warnings and advice about one lesson, its bank and its figures."""
        return sorted(f.problem for f in self.findings if f.lesson == lesson)


def check_course(
    root: Path,
    extra_banks: Iterable[Path] = (),
    *,
    advice: bool = False,
    site: bool = False,
    today: dt.date | None = None,
    scope: Scope | None = None,
) -> CheckedCourse:
    """The course at ``root`` read and checked against the rule book under its policy.

    Errors are in ``problems``, sorted; warnings (and with ``advice``, the advice that
    only `report` shows) in ``findings``. ``site`` leaves out the rules a preview of the
    site does not wait for. ``today`` is the day the review rule counts from. With a
    ``scope`` only some files are read and checked (see ``course.read_course``); what is
    found is exact for the files the course ``covers``.
    """
    course = read_course(root, extra_banks, scope=scope)
    policy, policy_problems = read_policy(root)
    checked = CheckedCourse(**{f.name: getattr(course, f.name) for f in fields(Course) if f.init})
    checked.policy, checked.today = policy, today or _today()
    checked.problems.extend(policy_problems)
    levels: set[Level] = {"error", "warn", "advice"} if advice else {"error", "warn"}
    found = _run(checked, levels, site=site, today=checked.today)
    kept, checked.waived, checked.grants = waivers.apply(checked, found, _FIXED)
    checked.problems.extend(f.problem for f in kept if f.level == "error")
    checked.findings = sorted(f for f in kept if f.level != "error")
    checked.problems.sort()
    return checked


def _run(course: CheckedCourse, levels: set[Level], *, site: bool, today: dt.date) -> list[Finding]:
    subjects = [
        Subject(
            course,
            lesson,
            course.banks.get(lesson.meta.quiz),
            course.bank_documents.get(lesson.meta.quiz),
            today,
        )
        for lesson in course.lessons.values()
    ]
    found: list[Finding] = []
    for each in RULES:
        level = course.policy.level(each)
        if level not in levels or (site and not each.site):
            continue
        settings = course.policy.settings(each)
        if each.course_check is not None:
            found += [Finding(p, each.id, level) for p in each.course_check(course, settings)]
        if each.lesson_check is not None:
            for subject in subjects:
                found += [
                    Finding(p, each.id, level, subject.lesson.slug)
                    for p in each.lesson_check(subject, settings)
                ]
    # A link to example.com is already reported as a link: report the line once.
    taken = {(p.path, p.line) for p in course.problems}
    taken |= {(f.problem.path, f.problem.line) for f in found if f.rule != PLACEHOLDER_HOST.id}
    return [
        f
        for f in found
        if f.rule != PLACEHOLDER_HOST.id or (f.problem.path, f.problem.line) not in taken
    ]


def load_course(
    root: Path, *, allow_placeholders: bool = False, today: dt.date | None = None
) -> CheckedCourse:
    """The course at ``root`` as the site build checks it; raises ContentError listing
    every problem.

    With ``allow_placeholders``, a course whose only problems are template placeholders
    (a freshly scaffolded draft) loads anyway and keeps them in ``problems``, so that the
    draft can be previewed; any other problem still raises, listing the placeholders too.
    Warnings (a lesson past its review date) are in ``warnings``: a strict build fails
    on them, a preview shows them.
    """
    course = check_course(root, site=True, today=today)
    draft = allow_placeholders and all(placeholders.is_placeholder(p) for p in course.problems)
    if course.problems and not draft:
        raise ContentError(course.problems)
    return course
