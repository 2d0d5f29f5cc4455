"""Checks of a lesson's markers: each one names what it places, and places it once.

A lesson needs no markers: without one, the site puts a self-check at the end of its
insight's section and the call to action before the footnotes
(``lessonkit.course.markers.with_defaults``). A marker that is written must be right,
in every course: one naming another bank or an insight without questions would show the
wrong questions, or none, and the site refuses it. Whether every place must be written
out is the course's choice: the `markers` rule, `off` by default.
"""

from __future__ import annotations

from lessonkit.authoring.pagechecks import on_page
from lessonkit.authoring.policy import Rule, RuleSettings, Subject, fixed
from lessonkit.course import markers
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem, display_path

__all__ = ["MARKERS", "PLACEMENT", "TITLE", "check_markers", "check_placed", "check_title"]


def check_markers(page: LessonPage, course: Course) -> list[Problem]:
    """Each marker well formed and naming this lesson's bank and an insight with questions;
    an insight's self-check and the call to action placed at most once."""
    problems, _, _ = _read_markers(page, course)
    return problems


def check_placed(page: LessonPage, course: Course) -> list[Problem]:
    """Each insight with questions and the call to action placed by a marker of its own."""
    _, placed, called = _read_markers(page, course)
    quiz = page.meta.quiz
    bank = course.banks.get(quiz)
    asked = sorted({q.insight for q in bank.questions}) if bank else []
    shown = display_path(page.path)
    end = page.body_line + max(len(page.body.splitlines()) - 1, 0)
    sections = {h.title: h.line for h in page.headings if h.level == 2}
    problems: list[Problem] = []
    for insight in (n for n in asked if n not in placed):
        titles = page.meta.insights
        line = sections.get(titles[insight - 1], end) if insight <= len(titles) else end
        problems.append(Problem(shown, line, 1,
                f"insight {insight}'s self-check has no marker of its own; this course's "
                "`markers` rule asks for one",
                f"write `<!-- lessonkit:check {quiz} {insight} -->` on a line of its own "
                "where it should appear, usually at the end of its section"))  # fmt: skip
    if not called:
        problems.append(Problem(shown, end, 1,
                "the call to action for the terminal quiz has no marker of its own; this "
                "course's `markers` rule asks for one",
                f"write `<!-- lessonkit:quiz {quiz} -->` on a line of its own, "
                "usually before the footnotes"))  # fmt: skip
    return problems


def _read_markers(page: LessonPage, course: Course) -> tuple[list[Problem], set[int], bool]:
    """The problems of the page's markers, the insights they place, and whether a call to
    action is placed."""
    shown = display_path(page.path)
    quiz = page.meta.quiz
    bank = course.banks.get(quiz)
    asked = sorted({q.insight for q in bank.questions}) if bank else []
    placed: dict[int, int] = {}  # insight → line of its marker
    calls: list[int] = []
    problems: list[Problem] = []

    def problem(line: int, message: str, hint: str) -> None:
        problems.append(Problem(shown, line, 1, message, hint))

    for line, found in markers.find(body_lines(page)):
        if isinstance(found, markers.MarkerError):
            problem(line, f"`{found.text}`: {found.message}", found.hint)
            continue
        if found.kind in ("check", "quiz") and found.name != quiz:
            fixed = found.text.replace(f" {found.name}", f" {quiz}", 1)
            problem(line, f"the marker names bank `{found.name}`, but this lesson's quiz is "
                    f"`{quiz}`", f"write `{fixed}`")  # fmt: skip
            continue
        if found.kind == "quiz":
            if calls:
                problem(
                    line, "the call to action is placed twice", f"keep the one on line {calls[0]}"
                )
            calls.append(line)
        for insight in found.insights:
            if bank is not None and insight not in asked:
                have = ", ".join(str(n) for n in asked)
                problem(line, f"insight {insight} has no questions in the bank",
                        f"name an insight with questions ({have}), or add questions with "
                        f"`insight: {insight}`")  # fmt: skip
            elif insight in placed:
                problem(line, f"insight {insight}'s self-check is placed twice",
                        f"keep the one on line {placed[insight]}")  # fmt: skip
            else:
                placed[insight] = line
    return problems, set(placed), bool(calls)


def check_title(page: LessonPage, course: Course) -> list[Problem]:
    """No `#` heading in a lesson's text: the title comes from the front matter, and the
    site shows it as the page's one top heading, with the lesson's header under it."""
    return [
        Problem(display_path(page.path), heading.line, 1,
                f"`# {heading.text}` is a second title: the page's title is `title:` in the "
                "front matter", "make it a `##` section, or move its words into `title:`")
        for heading in page.headings
        if heading.level == 1
    ]  # fmt: skip


PLACEMENT = fixed(
    "placement",
    "A `<!-- lessonkit:check BANK N -->` or `<!-- lessonkit:quiz BANK -->` marker, where a "
    "lesson has one, names the lesson's own bank and insights with questions, and places "
    "each self-check and the call to action once. Without a marker, a self-check goes at the "
    "end of its insight's section and the call to action before the footnotes.",
    "a marker naming another bank or an insight without questions would show the wrong "
    "questions or none, and the site refuses it",
    lesson_check=on_page(check_markers),
)

TITLE = fixed(
    "title",
    "A lesson has no `#` heading: its title is `title:` in the front matter.",
    "the site shows the title as the page's one top heading, with the lesson's header under it",
    lesson_check=on_page(check_title),
)


def _placed(subject: Subject, settings: RuleSettings) -> list[Problem]:
    return check_placed(subject.lesson, subject.course)


MARKERS = Rule(
    "markers",
    "Each insight with questions has its own `<!-- lessonkit:check BANK N -->` line and each "
    "lesson a `<!-- lessonkit:quiz BANK -->` line, so the source shows where each one goes.",
    "an author who writes every place sees in the source where a learner meets the "
    "questions, and a self-check moved away from the end of its section stays where it was "
    "put",
    default="off",
    lesson_check=_placed,
)
