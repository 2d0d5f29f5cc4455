"""The rule book: every rule that can fail a pull request, and the checks that apply them.

`lessonkit validate`, the site build and ``tests/test_content.py`` all call
``check_course`` here, so "validate is clean" and "the content tests pass" mean the
same thing. ``RULES`` lists each rule with its reason; CONTRIBUTING.md and the
pull-request template show that list (a test keeps them equal to ``rules_markdown()``).
Advice that never fails anything is in ``report``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lessonkit.authoring import figures, pagechecks, yamlstyle
from lessonkit.bank import limits, yamldoc
from lessonkit.bank.limits import chars
from lessonkit.course.course import BANK_SUFFIXES, Course, Scope, read_course
from lessonkit.errors import ContentError, Problem, display_path

MIN_QUESTIONS_PER_INSIGHT = 5
# Reserved for documentation (RFC 2606): never a real source, anywhere a reader can see.
_PLACEHOLDER_HOST = re.compile(r"\bexample\.(?:com|org|net)\b", re.IGNORECASE)
_TEXT_SUFFIXES = frozenset({".md", ".yml", ".yaml", ".svg", ".html", ".css", ".txt", ".json"})


@dataclass(frozen=True)
class Rule:
    """One rule of the book: a short id, what it asks, and why."""

    id: str
    text: str
    reason: str


RULES: tuple[Rule, ...] = (
    Rule("yaml", "Banks and front matter are valid YAML in UTF-8, indented with spaces, "
         "without duplicate keys or custom tags, and under 10 MiB.",
         "a file that does not parse cannot be checked or shown"),
    Rule("yaml-text", "Text with a Markdown table, list or code block uses `|` or `|-`, "
         "never the folding `>` or `>-`; plain (unquoted) text holds no ` #`.",
         "YAML would join the lines into one, or cut the text at the `#` as a comment, "
         "without an error"),
    Rule("format", "Banks and front matter follow the format of `schemas/*.json`: no unknown "
         "fields, the right types, exactly one correct option in `single` questions.",
         "the quiz and the site read exactly these fields"),
    Rule("text-limits", f"A prompt and an explanation are at most "
         f"{chars(limits.PROMPT_CHARS)}; an option, its feedback and a hint at most "
         f"{chars(limits.OPTION_CHARS)}; an order item, a match side, a distractor or an "
         f"accepted answer at most {chars(limits.ITEM_CHARS)}; options, items and pairs "
         "2 to 10.", limits.REASON),
    Rule("page-size", f"A lesson page is at most {limits.PAGE_BYTES:,} bytes of Markdown "
         "(about 18,000 words).", "twice a long chapter; a page a reader can finish"),
    Rule("ids", "Question ids are kebab-case and unique across all banks.",
         "learners' history is keyed on them"),
    Rule("pairing", "Every lesson names an existing bank and every bank an existing lesson "
         "that names it back; lessons are listed in their plan's `index.md`.",
         "the quiz and the site find one from the other"),
    Rule("references", "A question's `insight`, `objectives` and `section` exist in its "
         "lesson (`section` is a heading anchor as the site makes it).",
         "a missed question sends the learner back to that section"),
    Rule("answer-key", "The answer key earns full points and some wrong answer earns less.",
         "a key that fails its own question marks every learner wrong"),
    Rule("min-questions", f"Each insight has at least {MIN_QUESTIONS_PER_INSIGHT} "
         "questions.", "a quiz samples each insight fairly, and a retry gets new questions"),
    Rule("headings", "Each insight is a `##` heading with the same words, in front-matter "
         "order; heading levels never skip.", "the self-checks and the table of contents "
         "follow the insights"),
    Rule("images", "Every image has alt text.", "screen readers read it, and it shows when "
         "the image fails"),
    Rule("figures", "A figure is placed as a pair: `![alt](img/NAME.svg#only-light)` then "
         "`![alt](img/NAME-dark.svg#only-dark)`.", "each colour scheme shows one of the "
         "two; an unpaired variant leaves the other scheme without the figure"),
    Rule("links", "Relative links and `#anchors` resolve; external links and sources use "
         "`https` on a real host (no `example.com`, `localhost`, `*.test`…).",
         "readers follow them"),
    Rule("placeholder-host", "No `example.com`, `example.org` or `example.net` in any file "
         "under `content/` or `quizzes/`.", "a placeholder is never a source"),
    Rule("no-scripts", "No `mermaid` blocks.", "the theme would fetch mermaid from a CDN; "
         "the site loads nothing from another host"),
    Rule("placeholders", "No `TODO(lessonkit)` left from the templates.",
         "the template's text is not a lesson"),
)  # fmt: skip


def rules_markdown() -> str:
    """The rule book as a Markdown list, as CONTRIBUTING.md and the PR template show it."""
    return "".join(f"- **{r.id}**: {r.text} *Why:* {r.reason}.\n" for r in RULES)


# --- applying the rules ---------------------------------------------------------------


def check_course(
    root: Path,
    extra_banks: Iterable[Path] = (),
    *,
    coverage: bool = True,
    scope: Scope | None = None,
) -> Course:
    """The course at ``root`` read and checked against every rule; problems sorted.

    ``coverage=False`` leaves out `min-questions`, which is about how a quiz samples,
    not about whether the site can be built: the site build previews a lesson whose
    bank is still growing, and `validate` (and so CI) holds the line. With a ``scope``
    only some files are read and checked (see ``course.read_course``); the problems
    found are exact for the files the course ``covers``.
    """
    course = read_course(root, extra_banks, scope=scope)
    for lesson in course.lessons.values():
        for check in (*pagechecks.CHECKS, figures.check_figure_pairs):
            course.problems.extend(check(lesson, course))
    course.problems.extend(_yaml_text(course))
    if coverage:
        course.problems.extend(_min_questions(course))
    # A link to example.com is already reported as a link; report the line once.
    linked = {(p.path, p.line) for p in course.problems}
    course.problems.extend(p for p in _placeholder_hosts(course) if (p.path, p.line) not in linked)
    course.problems.sort()
    return course


def load_course(root: Path, *, allow_placeholders: bool = False) -> Course:
    """The course at ``root``, fully checked; raises ContentError listing every problem.

    With ``allow_placeholders``, a course whose only problems are template placeholders
    (a freshly scaffolded draft) loads anyway and keeps them in ``problems``, so that the
    draft can be previewed; any other problem still raises, listing the placeholders too.
    """
    course = check_course(root, coverage=False)
    draft = allow_placeholders and all(pagechecks.is_placeholder(p) for p in course.problems)
    if course.problems and not draft:
        raise ContentError(course.problems)
    return course


def _min_questions(course: Course) -> list[Problem]:
    """Too few questions for an insight, pointed at the insight in the lesson's front matter."""
    problems: list[Problem] = []
    for slug, bank in course.banks.items():
        lesson = course.lessons.get(bank.lesson)
        if lesson is None or lesson.meta.quiz != slug:
            continue
        counts = Counter(q.insight for q in bank.questions)
        for number in range(1, len(lesson.meta.insights) + 1):
            if counts[number] < MIN_QUESTIONS_PER_INSIGHT:
                problems.append(
                    lesson.front.problem(
                        ("insights", number - 1),
                        f"insight {number} has {counts[number]} "
                        f"question{'' if counts[number] == 1 else 's'} in "
                        f"quizzes/{Path(course.bank_documents[slug].path).name}; every "
                        "insight needs at least "
                        f"{MIN_QUESTIONS_PER_INSIGHT}",
                        f"add questions with `insight: {number}`",
                    )
                )
    return problems


def _yaml_text(course: Course) -> list[Problem]:
    """Folded Markdown blocks and text cut at ` #`, in every bank and lesson front matter."""
    # The loaders kept the scalars these rules need; only the text is read again here.
    problems: list[Problem] = []
    documents = {parts.document.path: parts.document for parts in course.bank_parts}
    banks = course.quizzes_dir.glob("*") if course.quizzes_dir.is_dir() else iter(())
    for path in sorted(p for p in banks if p.suffix in BANK_SUFFIXES):
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


def _placeholder_hosts(course: Course) -> list[Problem]:
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
