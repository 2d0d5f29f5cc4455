"""Checks of a lesson's markers: every self-check and the call to action have a place.

The site renders a self-check only where a `<!-- lessonkit:check BANK N -->` marker stands
(``lessonkit.course.markers``), so a missing or mistyped marker would leave questions off
the page without a word. These checks say so at the marker's line, before any build.
"""

from __future__ import annotations

from lessonkit.authoring.pagechecks import on_page
from lessonkit.authoring.policy import fixed
from lessonkit.course import markers
from lessonkit.course.course import Course
from lessonkit.course.lessons import LessonPage, body_lines
from lessonkit.errors import Problem, display_path

__all__ = ["MARKERS", "check_markers", "check_title"]


def check_markers(page: LessonPage, course: Course) -> list[Problem]:
    """Each marker well formed and naming this lesson's bank; each insight with questions
    placed exactly once; the call to action placed once."""
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
    end = page.body_line + max(len(page.body.splitlines()) - 1, 0)
    sections = {h.title: h.line for h in page.headings if h.level == 2}
    for insight in (n for n in asked if n not in placed):
        titles = page.meta.insights
        line = sections.get(titles[insight - 1], end) if insight <= len(titles) else end
        problem(line, f"insight {insight}'s self-check has no place on the page",
                f"write `<!-- lessonkit:check {quiz} {insight} -->` on a line of its own "
                "where it should appear, usually at the end of its section")  # fmt: skip
    if not calls:
        problem(end, "the lesson has no call to action for its terminal quiz",
                f"write `<!-- lessonkit:quiz {quiz} -->` on a line of its own, "
                "usually before the footnotes")  # fmt: skip
    return problems


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


MARKERS = fixed(
    "markers",
    "Each insight with questions has one `<!-- lessonkit:check BANK N -->` line and each "
    "lesson one `<!-- lessonkit:quiz BANK -->`, naming the lesson's own bank; a lesson has no "
    "`#` heading (its title is `title:`).",
    "the site shows a self-check and the call to action only where their marker is, under "
    "MkDocs and Zensical alike",
    lesson_check=on_page(check_markers, check_title),
)
