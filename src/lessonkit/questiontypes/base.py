"""The interface every question type implements.

A question type is one module in this folder (``truefalse``, ``single``, …) holding
everything lessonkit knows about that type outside its YAML format:

- its **run-time form**: a subclass of ``RuntimeQuestion`` (``form``), a frozen record
  tagged with the type's ``type:`` value (``class Cloze(RuntimeQuestion, tag="cloze")``;
  a part of it, like an option, subclasses ``frozen.Part``). The compiled bank decodes
  straight into it (``registry.decode``); the quiz, the site and the exporters read it.
  Its fields are the pydantic model's (``bank.questions``), named alike, so the JSON
  of a validated model decodes into it unchanged; a field the run time never reads may
  be left out (``from_json`` skips keys that are not fields).
- one instance of a ``QuestionType`` subclass, named ``TYPE``, whose methods are below.

The pydantic model stays in ``bank.questions``: it is the single source of truth for
what a bank may say and for the JSON Schema. Nothing here imports pydantic or PyYAML,
so a quiz shows its first question without them.

Every method is pure (no files, no clock; randomness only through the ``random.Random``
it is given) and takes the question first. A method a type does not override raises
``TypeIncomplete``, a ``LessonkitError`` naming the type and the method, so a
half-written type gives a clear message, never a traceback; ``registry.check`` finds
every such gap at once (and a test runs it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from lessonkit.errors import LessonkitError
from lessonkit.grading.credit import Grade
from lessonkit.questiontypes.form import DrawnQuestion, Q, RuntimeQuestion, as_json, drawn
from lessonkit.questiontypes.kits import (
    AnkiCard,
    Carried,
    GiftKit,
    HtmlKit,
    MoodleKit,
    PageKit,
    QtiKit,
    Widget,
)

# The kits are part of the interface: a type's module may name them from here.
__all__ = [
    "AnkiCard",
    "Carried",
    "DrawnQuestion",
    "GiftKit",
    "HtmlKit",
    "MoodleKit",
    "PageKit",
    "QtiKit",
    "QuestionType",
    "ResponseError",
    "RuntimeQuestion",
    "TypeIncomplete",
    "UnknownType",
    "Widget",
    "as_json",
    "drawn",
]


class ResponseError(LessonkitError):
    """What the learner typed has the wrong form; the message says the form expected."""


class UnknownType(LessonkitError):
    """A question's `type:` names no registered question type."""


class TypeIncomplete(LessonkitError):
    """A registered question type lacks a method a consumer asked for."""


R = TypeVar("R")  # the type's canonical response (one of ``grading.credit.Response``)


class QuestionType(Generic[Q, R]):
    """One question type: subclass it in the type's module and create ``TYPE`` from it.

    ``name`` is the `type:` value and ``runtime`` the run-time form. The groups below
    follow the path of a learner's answer. Methods marked *required* must be overridden;
    the others have a default that suits types without numbered or lettered parts.

    Response forms: a canonical response refers to the bank's own order, never to the
    order a learner saw; ``display`` is that shown order (the bank indices of the things
    numbered 1, 2, 3… or lettered a, b, c…; ``range(n)`` shows them as the bank lists
    them). Wording is plain text, no Markdown or terminal markup: the quiz styles it.
    """

    name: ClassVar[str]
    runtime: ClassVar[type[RuntimeQuestion]]
    # The type's widget script, site_overrides/assets/lessonkit/types/TYPE.js (named after
    # the type: the page's self-check.js loads `types/<type>.js` on a page that shows the
    # type); it registers the type's share, read, write and mark with the page.
    script: ClassVar[str]
    # An example question of the type as bank YAML, for `lessonkit new lesson`: a list
    # item whose `{{id}}`, `{{insight}}`, `{{section}}` and `{{tags}}` are filled in, and
    # whose every text an author must replace starts with `TODO(lessonkit)`.
    example: ClassVar[str]
    # Moodle XML's `<question type=…>`, and QTI's (Canvas's) `question_type`; ``None``
    # when the format has no such type (``moodle``/``qti`` then say what is lost).
    moodle_type: ClassVar[str | None] = None
    qti_type: ClassVar[str | None] = None
    # How the terminal shows the type's words (``described``): whether they quote the
    # author's Markdown (options, items, pairs) rather than what was typed; what a tick
    # beside a line of a partly right answer means, when more than "this part is right";
    # and the parts named when only the wrong ones of the key are worth showing again
    # ("pairs"), or None to show the whole key.
    authored: ClassVar[bool] = False
    marks_meaning: ClassVar[str | None] = None
    wrong_parts: ClassVar[str | None] = None
    # Whether a terminal lets the learner pick from the listed lines with the arrow keys:
    # one of them, several, or not at all (typing always works).
    picking: ClassVar[Literal["one", "several"] | None] = None

    # -- showing and reading (the quiz) ---------------------------------------------------

    def choices(self, question: Q) -> int:
        """How many numbered or lettered things the learner picks from (0: none)."""
        return 0

    def display(self, question: Q, rng: random.Random, shuffle: bool) -> tuple[int, ...]:
        """The order to show those things in, drawn with ``rng``; ``shuffle`` is the
        bank's `shuffle.options`, which the question's own `shuffle:` overrides. Never an
        order that gives the answer away. Empty when ``choices`` is 0."""
        return ()

    def listing(self, question: Q, display: Sequence[int]) -> list[str]:
        """The lines shown under the prompt to choose from, e.g. `  1. TPU`."""
        return []

    def multiline(self, question: Q) -> bool:
        """Whether the answer is typed over several lines, an empty line ending it."""
        return False

    def expected_form(self, question: Q) -> str:
        """*Required.* One sentence telling the learner what to type."""
        raise self._missing("expected_form")

    def parse(self, question: Q, text: str, display: Sequence[int]) -> R:
        """*Required.* The canonical response for what was typed (already non-empty), or
        ``ResponseError`` whose message says what form is expected."""
        raise self._missing("parse")

    def to_json(self, response: R) -> Any:
        """A response as JSON (history database, attempts file, `--json`); default as is."""
        return response

    def from_json(self, question: Q, value: Any) -> R:
        """*Required.* The response a stored JSON value stands for (inverse of ``to_json``)."""
        raise self._missing("from_json")

    # -- grading (pure) -------------------------------------------------------------------

    def grade(self, question: Q, response: R) -> Grade:
        """*Required.* Points earned for ``response``; a response of the wrong shape is a
        programming error (``TypeError``/``ValueError``), as ``parse`` refuses bad input."""
        raise self._missing("grade")

    def answer_key(self, question: Q) -> R | None:
        """*Required.* A response earning full marks (``None`` when there is no literal
        one, e.g. text with only patterns); the answer-key self-test grades it."""
        raise self._missing("answer_key")

    def shown_key(self, question: Q, *, drawn: bool) -> R | None:
        """The key as the learner is shown it after a miss (``drawn``: the question drew
        its numbers): by default ``answer_key``; a computed number is shown as precise as
        its tolerance needs (0.61, not 0.608273)."""
        return self.answer_key(question)

    def wrong_responses(self, question: Q) -> list[R]:
        """A few responses that must score less than full marks (self-test); may be empty."""
        return []

    def key_fields(self, question: Q) -> dict[str, Any]:
        """*Required.* What makes an answer right, as JSON, for the answer-key hash (the
        registry adds `type` and `points`; include a `scoring` that is not `partial`, and
        for a type that draws numbers its `params`, `derived` and `constraints`).
        History keys on that hash: change what a type contributes and every earlier
        answer to such questions stops counting, so only add fields when they are set."""
        raise self._missing("key_fields")

    # -- words (terminal, history, results) -----------------------------------------------

    def shown(self, question: Q, response: R, display: Sequence[int]) -> str:
        """*Required.* A response as the learner would type it for ``display``, e.g. `1b 2a`."""
        raise self._missing("shown")

    def described(self, question: Q, response: R, display: Sequence[int]) -> list[str]:
        """A response in words, one line per part (options, items, pairs spelled out)."""
        return [self.shown(question, response, display)]

    def in_words(
        self, question: Q, response: R, numbers: Mapping[str, float | str] | None = None
    ) -> str:
        """A stored response in one line, as the history lists it beside the ``numbers``
        the question drew (``None``: as written): the number typed, or the options chosen
        as they read with those numbers."""
        plain = drawn(question, numbers) if numbers else question
        return "; ".join(self.described(plain, response, range(self.choices(plain))))

    def echoed(self, question: Q, typed: str, response: R, display: Sequence[int]) -> list[str]:
        """What the feedback says was answered: ``described``, unless the type repeats
        what was typed (`TRUE` as typed, where `t` is spelled out as `true`)."""
        return self.described(question, response, display)

    def part_marks(self, question: Q, response: R) -> list[bool] | None:
        """Right or wrong for each line ``described`` gives; ``None`` when the answer is
        right or wrong only as a whole."""
        return None

    def key_described(self, question: Q) -> list[str]:
        """*Required.* The answer key in words, one line per part, e.g. `True`."""
        raise self._missing("key_described")

    def chosen_feedback(
        self, question: Q, response: R, display: Sequence[int]
    ) -> list[tuple[str, str]]:
        """The author's feedback on what the learner chose: (`option 2`, text) pairs."""
        return []

    def asked_numbers(self, question: Q) -> list[tuple[tuple[str | int, ...], RuntimeQuestion]]:
        """Each number the question asks for, as a `numeric` question at its path below
        this one (``()`` for the question itself, ``("blanks", 0)`` for a cloze's first
        blank): `validate`'s checks of answer keys (`precision`) read these."""
        return []

    def answer_place(self, question: Q) -> str | None:
        """Where the answer goes in the prompt, for a format that writes it inside the
        text (GIFT's missing word): a marker the prompt holds once. ``None``: after it."""
        return None

    def unit(self, question: Q) -> str | None:
        """The unit answers are given in, which exports add to the prompt (`Answer in W.`)."""
        return None

    def texts(self, question: Q) -> list[str]:
        """Every Markdown text of the type's own fields (options, feedback), for checks
        that read all a learner sees (exports' markup losses)."""
        return []

    # -- class results (``results``) --------------------------------------------------------

    # What results advise when many learners gave the same wrong answer (``wrong_form``);
    # whether an option nobody chose is flagged as a dead distractor (a true/false
    # question's one wrong option is dead exactly when it is too easy, flagged as such).
    wrong_advice: ClassVar[str] = ""
    dead_distractors: ClassVar[bool] = True

    def analysed_options(self, question: Q) -> tuple[tuple[str, ...], frozenset[int]]:
        """What a learner chooses from, as the results' option analysis counts it, and
        which of those are right; empty for types without options to count."""
        return (), frozenset()

    def picked(self, question: Q, value: Any) -> tuple[int, ...]:
        """The options (numbered as ``analysed_options``) a stored JSON response chose;
        empty for a response of another shape."""
        return ()

    def wrong_form(self, question: Q, value: Any) -> str | None:
        """A stored wrong response as grading compares it, so that responses it treats
        alike are counted together (`XLA.` and `xla`); ``None``: the type's wrong answers
        are not listed (choices are counted by ``picked`` instead)."""
        return None

    def exact_key(self, question: Q) -> float | None:
        """The one number the key is, if any: results say when a common wrong number is
        a power of ten off it (a unit slip)."""
        return None

    # -- exports: what each format carries, or the loss to report --------------------------

    def anki(self, question: Q, kit: HtmlKit) -> AnkiCard:
        """*Required.* The card's parts under the prompt; Anki grades nothing, so nothing
        of the answer is lost."""
        raise self._missing("anki")

    def gift(self, question: Q, kit: GiftKit) -> Carried[list[str]]:
        """*Required.* The answer lines inside GIFT's braces, and what GIFT loses."""
        raise self._missing("gift")

    def moodle(self, question: Q, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        """*Required.* Write the body of ``<question type=moodle_type>`` into ``element``
        (the exporter wrote name, text, feedback, grade, hint, tags); the losses."""
        raise self._missing("moodle")

    def qti_answers(self, question: Q) -> int:
        """How many answer idents the QTI item declares (choices, sides of a match)."""
        return 0

    def qti(self, question: Q, kit: QtiKit | None) -> tuple[str, ...]:
        """*Required.* Fill the item's presentation and response processing through
        ``kit``; the losses (the exporter adds the hint's). With ``qti_type`` ``None`` the
        kit is ``None``: the question is left out, and the one loss says why."""
        raise self._missing("qti")

    # -- the site's self-check --------------------------------------------------------------

    def widget_key(self, question: Q) -> dict[str, Any]:
        """*Required.* What the widget script needs to grade exactly as ``grade`` does (the
        registry adds `type` and `points`); it is on the page, inside the collapsed
        answer, and ``tests/grading_cases.json`` holds both to the same verdicts. A type
        whose script grades its parts with other types' scripts lists them under `uses`
        (a cloze's `["numeric", "text"]`), and the page loads those too."""
        raise self._missing("widget_key")

    def widget_answer(self, question: Q) -> tuple[str, float] | None:
        """For one draw of a question with parameters (already drawn): its computed answer
        as the page shows it, and as its script grades it; ``None`` when the type has no
        computed answer (the page then only refills the texts' numbers)."""
        return None

    def widget(self, question: Q, kit: PageKit) -> Widget:
        """*Required.* The widget's controls and its answer, as HTML lines."""
        raise self._missing("widget")

    # --------------------------------------------------------------------------------------

    def _missing(self, method: str) -> TypeIncomplete:
        return TypeIncomplete(
            f"question type `{self.name}` does not implement `{method}`; add it to its "
            'module in lessonkit/questiontypes/ (CONTRIBUTING.md, "Adding a question type")'
        )
