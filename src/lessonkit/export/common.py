"""What every export format shares: the bank to export, losses, and text conversion."""

from __future__ import annotations

import hashlib
import html
import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lessonkit.bank import variants
from lessonkit.bank.models import Bank
from lessonkit.bank.richtext import inline_html, safe_html
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import DrawnQuestion, RuntimeQuestion

__all__ = [
    "Export",
    "Loss",
    "Source",
    "deterministic_zip",
    "fixed_variants",
    "has_markup",
    "html_text",
    "inline_html",
    "plain_text",
    "stable_int",
]

# 1980-01-01 is the earliest time a zip entry can carry: every export uses it, so the
# same bank gives the same bytes whenever and wherever it is exported.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Source:
    """One bank ready to export, with what is known of its lesson.

    ``lesson`` is the catalog's metadata (``title``, ``plan``, ``url``, ``insights``,
    ``sections``) or ``None`` when the bank has no lesson file beside it. ``modified``
    is when the bank last changed, in seconds since the epoch: Anki updates a note
    only when the incoming one is newer, so it must grow when the bank changes and
    stay put when it does not. ``questions`` are the bank's in their run-time form, which
    every format reads (made from ``bank`` when not given).
    """

    slug: str
    bank: Bank
    lesson: Mapping[str, Any] | None
    modified: int
    links: bool = True  # False: the site's address is unknown, so no lesson links
    questions: tuple[RuntimeQuestion, ...] = ()

    def __post_init__(self) -> None:
        if not self.questions:
            made = tuple(registry.runtime(q) for q in self.bank.questions)
            object.__setattr__(self, "questions", made)

    def section_url(self, question: RuntimeQuestion) -> str | None:
        """The address of the lesson heading to re-read after a miss, when known."""
        if self.lesson is None or not self.links:
            return None
        section = self.lesson.get("sections", {}).get(question.section)
        return str(section["url"]) if section else f"{self.lesson['url']}#{question.section}"

    def section_title(self, question: RuntimeQuestion) -> str:
        if self.lesson is None:
            return question.section
        section = self.lesson.get("sections", {}).get(question.section)
        return str(section["title"]) if section else question.section

    @property
    def plan(self) -> str | None:
        return None if self.lesson is None else str(self.lesson["plan"])


@dataclass(frozen=True)
class Loss:
    """Something about one question that the target format cannot express."""

    question: str
    what: str
    omitted: bool = False  # the whole question was left out, not just part of it

    def __str__(self) -> str:
        return f"{self.question}: {self.what}"


@dataclass(frozen=True)
class Export:
    """A converted bank: the file's bytes and what was lost on the way."""

    data: bytes
    losses: list[Loss] = field(default_factory=list)

    @property
    def lossy_questions(self) -> int:
        return len({loss.question for loss in self.losses})

    @property
    def omitted(self) -> int:
        """How many questions the format could not hold at all."""
        return len({loss.question for loss in self.losses if loss.omitted})


def html_text(markdown: str, *, inline: bool = False) -> str:
    """Bank Markdown as sanitised HTML: the site's own sanitiser, so no script gets through."""
    return safe_html(markdown, inline=inline)


_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(p|li|pre|blockquote|ul|ol)>|<br\s*/?>")


def plain_text(markdown: str, *, inline: bool = False) -> str:
    """Bank Markdown as one line of plain text: markup dropped, entities decoded;
    ``inline``: an option, item or match side, never read as a block (`>= 100` stays)."""
    rendered = _BLOCK_END.sub(" ", inline_html(markdown) if inline else safe_html(markdown))
    return " ".join(html.unescape(_TAG.sub("", rendered)).split())


def has_markup(markdown: str) -> bool:
    """Whether the text uses Markdown or HTML that plain text would flatten."""
    rendered = safe_html(markdown)
    return rendered != f"<p>{html.escape(markdown.strip(), quote=False)}</p>"


def stable_int(*parts: str, low: int, high: int) -> int:
    """A number in ``[low, high)`` derived from names alone: ids that survive re-exports."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return low + int.from_bytes(digest[:8], "big") % (high - low)


def deterministic_zip(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of ``(name, data)`` with fixed timestamps and permissions, entries sorted."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


# Draws a parameterised question is exported as, where the format cannot draw numbers
# itself: the first draws the lesson page carries, so every copy shows the same numbers.
FIXED_VARIANTS = 5


def fixed_variants(question: RuntimeQuestion) -> list[RuntimeQuestion]:
    """A parameterised question as a few fixed questions, ids `ID-numbers-1`, `-2`…"""
    drawn = variants.sample(registry.as_json(question), FIXED_VARIANTS, f"site/{question.id}")
    return [
        registry.drawn(question, numbers).replace(id=f"{question.id}-numbers-{n}")
        for n, numbers in enumerate(drawn, start=1)
    ]


def plain_questions(
    questions: Iterable[RuntimeQuestion], losses: list[Loss], target: str
) -> list[RuntimeQuestion]:
    """Questions as a format without drawn numbers takes them: each parameterised one as
    fixed variants, with a loss saying so (``target`` names what the format lacks)."""
    found: list[RuntimeQuestion] = []
    for question in questions:
        if not (isinstance(question, DrawnQuestion) and question.params):
            found.append(question)
            continue
        fixed = fixed_variants(question)
        found += fixed
        losses.append(Loss(question.id, f"draws new numbers for each attempt; {target} has no "
                           f"such questions, so it gets {len(fixed)} fixed variants "
                           f"({question.id}-numbers-1 to -{len(fixed)})"))  # fmt: skip
    return found


def number(value: float) -> str:
    """A number as a person writes it: `2`, not `2.0`; no exponent for ordinary values."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


NO_LINKS = (
    "Re-read links to the lesson left out: the site's address is unknown (set SITE_URL, or "
    "site_url in mkdocs.yml, to the published site)"
)


def summary(exports: Sequence[Export]) -> str:
    """`2 questions exported with losses`, or that nothing was lost."""
    count = sum(e.lossy_questions for e in exports)
    if not count:
        return "every question exported without loss"
    return f"{count} question{'' if count == 1 else 's'} exported with losses"


class HtmlWriting:
    """What every HTML-writing format lends a question type (``questiontypes.HtmlKit``):
    Anki, Moodle XML and QTI each extend it with what their own format needs."""

    def html(self, markdown: str, *, inline: bool = False) -> str:
        return html_text(markdown, inline=inline)

    def inline(self, markdown: str) -> str:
        return inline_html(markdown)

    def escape(self, text: str) -> str:
        return html.escape(text)

    def number(self, value: float) -> str:
        return number(value)
