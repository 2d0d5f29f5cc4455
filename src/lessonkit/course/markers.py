"""Markers: the comments in a page that say where the site puts a self-check, the call to
action, a plan's lesson list or the install command.

A marker is an HTML comment alone on a line, starting in its first column::

    <!-- lessonkit:check gpu-vs-tpu 1 -->        insight 1's self-check from bank gpu-vs-tpu
    <!-- lessonkit:check gpu-vs-tpu 1 2 3 -->    one review block of insights 1 to 3
    <!-- lessonkit:quiz gpu-vs-tpu -->           "Take the quiz in your terminal"
    <!-- lessonkit:lessons ai-hardware-fundamentals -->   the plan's lessons, in order
    <!-- lessonkit:install -->                   the install command on its own
    <!-- lessonkit:facts h100-sxm.hbm h200.hbm unit=GB -->   a table of the course's facts

An author sees a marker in the source and moves it with the text around it; a reader sees
nothing when no extension reads it. A marker names its bank (or plan) because a Markdown
extension is not always told which page it is rendering.
`lessonkit validate` checks markers against the page; the site's extension renders them.

Markers are a choice, not a duty: a lesson without them gets each self-check at the end of
its insight's `##` section and the call to action before the footnotes (``with_defaults``),
so a course written elsewhere shows every question where a reader expects it. A course
that wants every place written out says so with the `markers` rule of its policy.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import NamedTuple

from lessonkit.errors import LessonkitError

__all__ = ["KINDS", "Marker", "MarkerError", "find", "read", "with_defaults"]

# What follows `lessonkit:`, and what each kind names after it.
KINDS = {"check": "bank", "quiz": "bank", "lessons": "plan", "install": "", "facts": "fact"}
_COMMENT = re.compile(r"^<!--[ \t]*lessonkit:(\S*)(.*?)-->[ \t]*$")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")


class Marker(NamedTuple):
    """One marker: its kind, the bank or plan it names, and the insights it places."""

    kind: str
    name: str  # a bank's slug (check, quiz), a plan's folder (lessons), or "" (install);
    # for facts, its words (fact ids and options), read by ``course.factpages``
    insights: tuple[int, ...]  # check only: in the order written
    text: str  # the comment as written, for messages


class MarkerError(LessonkitError):
    """A comment that starts like a marker but is not a well-formed one."""

    def __init__(self, text: str, message: str, hint: str) -> None:
        self.text, self.message, self.hint = text, message, hint
        super().__init__(f"`{text}`: {message} ({hint})")


def read(line: str) -> Marker | None:
    """The marker on ``line``, or None when the line is not a marker.

    Raises MarkerError for a `<!-- lessonkit:… -->` comment that is not a valid marker.
    """
    found = _COMMENT.match(line)
    if found is None:
        return None
    text = line.strip()
    kind, words = found.group(1), found.group(2).split()
    if kind not in KINDS:
        known = ", ".join(f"`lessonkit:{k}`" for k in KINDS)
        raise MarkerError(text, f"unknown marker `lessonkit:{kind}`", f"use one of {known}")
    what = KINDS[kind]
    if not what:
        if words:
            raise MarkerError(
                text, "this marker takes nothing after it", "write `" + _form(kind) + "`"
            )
        return Marker(kind, "", (), text)
    if kind == "facts":
        if not any("=" not in word for word in words):
            raise MarkerError(text, "the marker names no fact", f"write `{_form(kind)}`")
        return Marker(kind, " ".join(words), (), text)
    # `<!-- lessonkit:check 1 2 -->`, the form before markers named their bank, names none.
    if not words or not _NAME.match(words[0]) or (kind == "check" and words[0].isdigit()):
        raise MarkerError(text, f"the marker names no {what}", f"write `{_form(kind)}`")
    name, rest = words[0], words[1:]
    if kind != "check":
        if rest:
            raise MarkerError(
                text, f"only the {what} follows `lessonkit:{kind}`", f"write `{_form(kind)}`"
            )
        return Marker(kind, name, (), text)
    if not rest or not all(word.isdigit() and int(word) > 0 for word in rest):
        raise MarkerError(
            text,
            "a check marker names the insights it places, by number",
            f"write `<!-- lessonkit:check {name} 1 -->`, or several numbers for a review",
        )
    insights = tuple(int(word) for word in rest)
    if len(set(insights)) != len(insights):
        raise MarkerError(text, "an insight is named twice", "name each insight once")
    return Marker(kind, name, insights, text)


def find(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, Marker | MarkerError]]:
    """Every marker (or malformed marker) among numbered lines, with its line number."""
    for number, line in lines:
        if not line.startswith("<!--"):
            continue
        try:
            marker = read(line)
        except MarkerError as error:
            yield number, error
            continue
        if marker is not None:
            yield number, marker


# What may follow the last section without being part of it: footnote, abbreviation and
# link definitions (a footnote's indented continuation lines go with it), and blank lines.
_DEFINITION = re.compile(r"^(?:\[\^[^\]]+\]|\*\[[^\]]+\]|\[[^\]]+\]):")


def with_defaults(
    lines: Sequence[str], bank: str, insights: Sequence[str], asked: Collection[int]
) -> list[str]:
    """``lines`` (a lesson's body) with a marker line wherever a marker was left out.

    Each insight in ``asked`` (those with questions) that no check marker places gets one
    at the end of its `##` section (the heading with the insight's words, as the headings
    rule asks), and the page gets a call to action before its footnotes when no quiz
    marker stands anywhere. An insight whose heading is missing goes before the call, so
    no question is lost from the page; `lessonkit validate` reports the heading.
    """
    from lessonkit.course.headings import text_headings  # Python-Markdown's slugs: on use

    placed: set[int] = set()
    called = False
    for _, found in find(enumerate(lines, 1)):
        if isinstance(found, Marker):
            placed.update(found.insights)
            called = called or found.kind == "quiz"
    tail = _tail(lines)
    sections = [h for h in text_headings("\n".join(lines)) if h.level <= 2]
    inserts: list[tuple[int, int, str]] = []  # (index to insert before, order, line)
    start = 0
    for number, insight in enumerate(insights, 1):
        at = next((i for i in range(start, len(sections)) if sections[i].title == insight), None)
        if at is None:
            end = tail
        else:
            start = at + 1
            following = sections[at + 1].line - 1 if at + 1 < len(sections) else len(lines)
            end = min(following, tail)
        if number in asked and number not in placed:
            inserts.append((end, number, f"<!-- lessonkit:check {bank} {number} -->"))
    if not called:
        inserts.append((tail, len(insights) + 1, f"<!-- lessonkit:quiz {bank} -->"))
    out = list(lines)
    for index, _, line in sorted(inserts, reverse=True):
        out[index:index] = ["", line, ""]
    return out


def _tail(lines: Sequence[str]) -> int:
    """Where the definitions that end a page begin (the page's length when there are none)."""
    start = len(lines)
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if _DEFINITION.match(line):
            start = index
        elif line.strip() and not line.startswith(("    ", "\t")):
            break
    return start


def _form(kind: str) -> str:
    example = {"check": " BANK 1", "quiz": " BANK", "lessons": " PLAN", "install": ""}.get(
        kind, " FACT-ID FACT-ID unit=UNIT"
    )
    return f"<!-- lessonkit:{kind}{example} -->"
