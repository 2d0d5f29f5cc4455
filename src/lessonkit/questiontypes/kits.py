"""What each export format and the site lend a question type, and what the type gives back.

An exporter or the site implements one of these protocols with its own helpers and
passes it to the type's method (``QuestionType.anki``, ``gift``, ``moodle``, ``qti``,
``widget``); the type writes its part through it, so it needs neither the XML nor the
HTML conventions of every format. Structural: an implementation never imports this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from lessonkit.questiontypes.form import RuntimeQuestion

T = TypeVar("T")


class Carried(NamedTuple, Generic[T]):
    """What an export format carries of a question: ``body`` (``None`` when the format
    cannot carry the type at all, and the question is left out) and ``losses``, each a
    short phrase naming what is lost and why, e.g. ``"patterns: GIFT takes exact answers
    only"``. The exporter adds the question id and counts them for the author."""

    body: T | None
    losses: tuple[str, ...] = ()


class AnkiCard:
    """The type's parts of an Anki card, as HTML: under the prompt, and the answer."""

    __slots__ = ("answer", "options")

    def __init__(self, options: str, answer: str) -> None:
        self.options, self.answer = options, answer


class Widget:
    """The type's parts of a self-check on the page, as lines of HTML: the controls a
    reader answers with (an instruction first), and the answer inside the collapsed block."""

    __slots__ = ("answer", "inputs")

    def __init__(self, inputs: list[str], answer: list[str]) -> None:
        self.inputs, self.answer = inputs, answer


class HtmlKit(Protocol):
    """What an HTML-writing format lends a type (Anki, Moodle XML, QTI)."""

    def html(self, markdown: str, *, inline: bool = False) -> str:
        """Bank Markdown as sanitised HTML (``inline``: no paragraph around it)."""
        ...

    def escape(self, text: str) -> str:
        """Plain text (an item, a unit) escaped for HTML."""
        ...

    def number(self, value: float) -> str:
        """A number as every export writes it (no float noise: `0.1`, `2000`)."""
        ...


class GiftKit(Protocol):
    """What the GIFT exporter lends a type (``export.gift``)."""

    def text(self, markdown: str) -> str:
        """Bank Markdown flattened to one escaped line of plain text."""
        ...

    def escape(self, text: str) -> str:
        """Plain text with GIFT's special characters escaped."""
        ...

    def feedback(self, markdown: str | None) -> str:
        """`#feedback` after an answer, or nothing."""
        ...

    def weight(self, share: float) -> str:
        """A share of the points as GIFT's `%50%` weight (without the percent signs)."""
        ...

    def number(self, value: float) -> str: ...


class MoodleKit(HtmlKit, Protocol):
    """What the Moodle XML exporter lends a type (``export.moodle``): it writes the
    question's common elements; the type adds its body to ``element``."""

    def sub(
        self,
        parent: Any,
        tag: str,
        text: str | None = None,
        attributes: dict[str, str] | None = None,
    ) -> Any:
        """A child element (an ``xml.etree.ElementTree.Element``), with text if given."""
        ...

    def html_element(self, parent: Any, tag: str, markup: str) -> Any:
        """A child with ``format="html"`` holding ``<text>markup</text>``."""
        ...

    def answer(self, parent: Any, fraction: str, markup: str, feedback: str | None = None) -> None:
        """An ``<answer fraction=…>`` with its text and optional Markdown feedback."""
        ...

    def fraction(self, share: float) -> str:
        """A share of the points as Moodle's percentage fraction, e.g. `33.33333`."""
        ...

    def shuffle(self, question: RuntimeQuestion) -> str:
        """`true` or `false`: whether Moodle shuffles this question's answers."""
        ...


class QtiKit(HtmlKit, Protocol):
    """What the QTI (Canvas) exporter lends a type (``export.qti``): the item's
    ``presentation`` and ``resprocessing`` elements, one answer ident per answer the
    type counted (``QuestionType.qti_answers``), the item's feedback blocks by ident
    (the type may add some), and the exporter's helpers for response conditions."""

    presentation: Any
    processing: Any
    answers: list[str]
    feedbacks: dict[str, str]

    def sub(self, parent: Any, tag: str, attributes: dict[str, str] | None = None) -> Any:
        """A child element (an ``xml.etree.ElementTree.Element``)."""
        ...

    def material(self, parent: Any, markup: str, kind: str = "text/html") -> None:
        """``<material><mattext texttype=kind>markup</mattext></material>`` in ``parent``."""
        ...

    def ident(self, *parts: str) -> str:
        """An ident derived from ``parts``: the same on every export."""
        ...

    def condition(
        self,
        conditions: Any,
        *,
        score: tuple[str, str] | None = None,
        feedback: str | None = None,
        more: bool = True,
    ) -> None:
        """A ``respcondition`` in the processing: ``conditions`` is a function that fills
        its ``conditionvar``; ``score`` an (action, value) on SCORE, e.g. ("Set", "100");
        ``feedback`` the ident of a feedback block to show; ``more``: go on testing."""
        ...

    def equal(self, respident: str, value: str) -> Any:
        """Conditions (for ``condition``): the response ``respident`` equals ``value``."""
        ...

    def choices(self, labels: Sequence[tuple[str, str]], cardinality: str, ident: str) -> None:
        """A ``response_lid`` with one ``response_label`` per (answer ident, HTML) pair."""
        ...

    def blank(self, *, numeric: bool) -> None:
        """A fill-in-the-blank response named `response1` (numeric: ``fibtype=Decimal``)."""
        ...


class PageKit(Protocol):
    """What the site lends a type to draw its self-check widget (``site.selfcheck``)."""

    def html(self, markdown: str, *, inline: bool = False) -> str: ...

    def text(self, plain: str) -> str:
        """Plain text escaped for HTML."""
        ...

    def number(self, value: float) -> str: ...

    def letter(self, index: int) -> str:
        """`a`, `b`, `c`… for the ``index``-th thing shown."""
        ...

    def order(self, question: RuntimeQuestion, count: int, *, shuffle: bool = True) -> list[int]:
        """The order the page shows ``count`` things in: the same on every build."""
        ...

    def shuffles(self, question: RuntimeQuestion) -> bool:
        """Whether this question's options are shuffled (its own `shuffle:`, else the bank's)."""
        ...

    def choices(self, question: RuntimeQuestion, kind: str,
                labels: Sequence[tuple[int, str]]) -> list[str]:  # fmt: skip
        """A fieldset of ``kind`` (`radio`/`checkbox`) inputs, one per (value, label)."""
        ...

    def field(self, question: RuntimeQuestion, label: str, control: str) -> list[str]:
        """A labelled text control; ``{id}`` in ``control`` becomes its id."""
        ...

    def shown_answer(self, question: RuntimeQuestion) -> str | None:
        """For a question that draws numbers, its computed answer as the page shows it
        (a slot the page's script refills); ``None`` otherwise."""
        ...
