"""`cloze`: several blanks in one prompt, each a short text or a number.

The prompt marks each blank `[[1]]`, `[[2]]`… in reading order (``bank.questions``
checks that they match `blanks`). Each blank is read, graded, described and keyed by
the `text` or `numeric` type itself: ``parts`` makes each blank a small question of
that type, so a blank is marked exactly as a question of its kind would be.

Response: a tuple with one entry per blank, in order: what the `text` or `numeric` type
reads from it (``str``, ``float``), or ``None`` for a blank left empty. Typed on one
line with `;` between the blanks' answers: `;` is on every keyboard without a modifier,
is never part of a number (unlike `,`, a decimal comma, or a space, which groups
digits), and rarely of a short answer; `\\;` types a semicolon inside an answer. With
one blank the whole line is its answer. Partial credit: the share of blanks right.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, TypeAlias

from lessonkit.grading.credit import Grade, scored
from lessonkit.questiontypes import frozen, numeric, text
from lessonkit.questiontypes.base import (
    AnkiCard,
    Carried,
    GiftKit,
    HtmlKit,
    MoodleKit,
    PageKit,
    QtiKit,
    QuestionType,
    ResponseError,
    RuntimeQuestion,
    Widget,
)

Answer: TypeAlias = str | float | None
ClozeResponse: TypeAlias = tuple[Answer, ...]
BlankQuestion: TypeAlias = text.Text | numeric.Numeric

_SPLIT = re.compile(r"(?<!\\);")
# Characters Moodle's embedded answers give a meaning to, escaped in an answer's text.
_MOODLE_SPECIAL = re.compile(r"([\\}#~/\"])")


class Blank(frozen.Part, sparse=True):
    """One blank (``bank.questions.NumberBlank`` or ``TextBlank``): a number when it
    has an ``answer``, else text. As JSON it keeps only what is set, so it reads back
    as the one model or the other."""

    answer: float | None = None
    tolerance: float | None = None
    relative_tolerance: float | None = None
    unit: str | None = None
    decimal_mark: str | None = None
    accept: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    case_sensitive: bool = False


class Cloze(RuntimeQuestion, tag="cloze"):
    """A `cloze` question at run time (``bank.questions.ClozeQuestion``)."""

    blanks: tuple[Blank, ...]
    scoring: str = "partial"


def marker(number: int) -> str:
    """How the prompt marks blank ``number`` (from 1)."""
    return f"[[{number}]]"


@functools.lru_cache(maxsize=256)
def parts(question: Cloze) -> tuple[BlankQuestion, ...]:
    """Each blank as a question of its own type, worth one point, for that type to read,
    grade and describe."""
    return tuple(_part(question, blank) for blank in question.blanks)


def _part(question: Cloze, blank: Blank) -> BlankQuestion:
    asked: dict[str, Any] = {f: getattr(question, f) for f in _ASKED}
    if blank.answer is not None:
        return numeric.Numeric(**asked, **{f: getattr(blank, f) for f in _NUMBER})
    return text.Text(**asked, **{f: getattr(blank, f) for f in _TEXT})


_ASKED = ("id", "prompt", "explanation", "section", "insight")
_NUMBER = ("answer", "tolerance", "relative_tolerance", "unit", "decimal_mark")
_TEXT = ("accept", "patterns", "case_sensitive")


def _kind(part: BlankQuestion) -> QuestionType[Any, Any]:
    return numeric.TYPE if isinstance(part, numeric.Numeric) else text.TYPE


def split(typed: str) -> list[str]:
    """A typed line cut at each `;` that is not written `\\;`, each answer trimmed."""
    return [piece.replace("\\;", ";").strip() for piece in _SPLIT.split(typed)]


def typed_line(answers: Sequence[str]) -> str:
    """What was typed in each blank as one line, as the terminal reads it (``split``)."""
    if len(answers) == 1:
        return answers[0]
    return "; ".join(answer.replace(";", "\\;") for answer in answers)


def _what(part: BlankQuestion) -> str:
    if isinstance(part, numeric.Numeric):
        return f"a number in {part.unit}" if part.unit else "a number"
    return "a word or phrase"


class ClozeType(QuestionType[Cloze, ClozeResponse]):
    name = "cloze"
    runtime = Cloze
    script = "cloze.js"
    example = """\
  - id: {{id}}
    type: cloze
    prompt: "TODO(lessonkit): A sentence with a word left out, [[1]], and a number, [[2]] GB."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say why each blank takes its answer."
    blanks:
      - accept: ["TODO(lessonkit): the word", "TODO(lessonkit): another spelling"]
      - answer: 80
        tolerance: 1
        unit: GB
"""
    moodle_type = "multianswer"
    qti_type = "fill_in_multiple_blanks_question"
    marks_meaning = "blank right"

    # -- showing and reading -----------------------------------------------------------

    def expected_form(self, question: Cloze) -> str:
        found = parts(question)
        if len(found) == 1:
            return _kind(found[0]).expected_form(found[0])
        each = ", ".join(f"{marker(n)} {_what(p)}" for n, p in enumerate(found, 1))
        return (
            f"Type the {len(found)} blanks in order on one line, separated by `;` ({each}); "
            "leave one empty to skip it."
        )

    def parse(self, question: Cloze, text: str, display: Sequence[int]) -> ClozeResponse:
        found = parts(question)
        typed = [text.strip()] if len(found) == 1 else split(text)
        if len(typed) != len(found):
            example = typed_line(["…"] * len(found))
            raise ResponseError(
                f"That is {len(typed)} answer{'s' if len(typed) != 1 else ''} for "
                f"{len(found)} blanks. Separate them with `;`, e.g. `{example}` "
                "(`\\;` for a semicolon inside an answer)."
            )
        if not any(typed):
            raise ResponseError("Nothing was typed in any blank. " + self.expected_form(question))
        read: list[Answer] = []
        for number, (part, answer) in enumerate(zip(found, typed, strict=True), 1):
            if not answer:
                read.append(None)
                continue
            try:
                read.append(_kind(part).parse(part, answer, ()))
            except ResponseError as error:
                where = f"{marker(number)}: " if len(found) > 1 else ""
                raise ResponseError(f"{where}{error}") from None
        return tuple(read)

    def to_json(self, response: ClozeResponse) -> Any:
        return [None if r is None else float(r) if isinstance(r, float) else r for r in response]

    def from_json(self, question: Cloze, value: Any) -> ClozeResponse:
        return tuple(
            None if v is None else _kind(p).from_json(p, v)
            for p, v in zip(parts(question), value, strict=True)
        )

    # -- grading -----------------------------------------------------------------------

    def _graded(self, question: Cloze, response: ClozeResponse) -> list[Grade | None]:
        if not isinstance(response, tuple):
            raise TypeError(f"a cloze response is a tuple, not {type(response).__name__}")
        found = parts(question)
        if len(response) != len(found):
            raise ValueError(f"a cloze response has one entry per blank: {len(found)}")
        return [
            None if answer is None else _kind(part).grade(part, answer)
            for part, answer in zip(found, response, strict=True)
        ]

    def grade(self, question: Cloze, response: ClozeResponse) -> Grade:
        graded = self._graded(question, response)
        right = sum(1 for g in graded if g is not None and g.correct)
        several = len(graded) > 1
        notes = tuple(
            f"{marker(n)}: {note}" if several else note
            for n, g in enumerate(graded, 1)
            if g is not None
            for note in g.feedback
        )
        return scored(question.scoring, question.points, right / len(graded), notes)

    def answer_key(self, question: Cloze) -> ClozeResponse | None:
        keys = [_kind(p).answer_key(p) for p in parts(question)]
        # A blank with only patterns has no literal answer, so the question has no key.
        return None if any(k is None for k in keys) else tuple(keys)

    def wrong_responses(self, question: Cloze) -> list[ClozeResponse]:
        empty: ClozeResponse = (None,) * len(question.blanks)
        key = self.answer_key(question)
        if key is None or len(key) == 1:
            return [empty]
        return [empty, (None, *key[1:])]

    def key_fields(self, question: Cloze) -> dict[str, Any]:
        key: dict[str, Any] = {"blanks": [_kind(p).key_fields(p) for p in parts(question)]}
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    # -- words -------------------------------------------------------------------------

    def shown(self, question: Cloze, response: ClozeResponse, display: Sequence[int]) -> str:
        found = parts(question)
        typed = [
            "" if r is None else _kind(p).shown(p, r, ())
            for p, r in zip(found, response, strict=True)
        ]
        return typed_line(typed)

    def described(
        self, question: Cloze, response: ClozeResponse, display: Sequence[int]
    ) -> list[str]:
        lines = []
        for number, (part, answer) in enumerate(zip(parts(question), response, strict=True), 1):
            said = (
                "(left empty)" if answer is None else _said(_kind(part).described(part, answer, ()))
            )
            lines.append(f"{marker(number)} {said}")
        return lines

    def part_marks(self, question: Cloze, response: ClozeResponse) -> list[bool] | None:
        return [g is not None and g.correct for g in self._graded(question, response)]

    def key_described(self, question: Cloze) -> list[str]:
        return [f"{marker(n)} {_key_words(p)}" for n, p in enumerate(parts(question), 1)]

    def texts(self, question: Cloze) -> list[str]:
        return []

    def asked_numbers(self, question: Cloze) -> list[tuple[tuple[str | int, ...], RuntimeQuestion]]:
        found = enumerate(parts(question))
        return [(("blanks", n), p) for n, p in found if isinstance(p, numeric.Numeric)]

    # -- class results -----------------------------------------------------------------

    wrong_advice = (
        "marked wrong: if a blank's answer is right, add it to that blank's `accept` (or "
        "widen its tolerance); if not, word the sentence so that it is clearly not"
    )

    def wrong_form(self, question: Cloze, value: Any) -> str | None:
        # Each blank as its own type compares it; a right one is only ticked, so answers
        # that differ in a right blank's spelling are counted together.
        try:
            response = self.from_json(question, value)
        except (TypeError, ValueError):
            return str(value)
        forms = []
        for number, (part, answer) in enumerate(zip(parts(question), response, strict=True), 1):
            kind = _kind(part)
            if answer is None:
                said = "(empty)"
            elif kind.grade(part, answer).correct:
                said = "✓"
            else:
                said = kind.wrong_form(part, kind.to_json(answer)) or str(answer)
            forms.append(f"{marker(number)} {said}")
        return "; ".join(forms)

    # -- exports -----------------------------------------------------------------------

    def anki(self, question: Cloze, kit: HtmlKit) -> AnkiCard:
        items = "".join(f"<li>{kit.escape(line)}</li>" for line in self.key_described(question))
        return AnkiCard("Fill in the blanks.", f"<b>Answers:</b><ol>{items}</ol>")

    def answer_place(self, question: Cloze) -> str | None:
        return marker(1) if len(question.blanks) == 1 else None

    def gift(self, question: Cloze, kit: GiftKit) -> Carried[list[str]]:
        found = parts(question)
        if len(found) > 1:
            return Carried(None, ("several blanks: GIFT's missing word holds one blank",))
        carried = _kind(found[0]).gift(found[0], kit)
        return Carried(carried.body, carried.losses)

    def moodle(self, question: Cloze, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        # Moodle's embedded answers live in the question text: each [[n]] becomes
        # {1:NUMERICAL:=32:0.5} or {1:SHORTANSWER:=a~=b}, each blank worth one mark.
        losses: list[str] = []
        embedded = [_embedded(p, kit, losses) for p in parts(question)]
        prompt = element.find("questiontext/text")
        if prompt is not None and prompt.text:
            for number, answer in enumerate(embedded, 1):
                prompt.text = prompt.text.replace(marker(number), answer, 1)
        if question.scoring != "partial" and len(question.blanks) > 1:
            losses.append("all_or_nothing: Moodle's cloze gives credit blank by blank")
        return tuple(dict.fromkeys(losses))

    def qti(self, question: Cloze, kit: QtiKit | None) -> tuple[str, ...]:
        # Canvas's fill-in-multiple-blanks: [blank1] in the text, one response_lid per
        # blank listing the answers it accepts, each blank an equal share of the score.
        assert kit is not None  # qti_type is set
        losses: list[str] = []
        for mattext in kit.presentation.iter("mattext"):
            for number in range(1, len(question.blanks) + 1):
                if mattext.text:
                    mattext.text = mattext.text.replace(marker(number), f"[blank{number}]")
        # Equal shares that add up to exactly 100: the last blank takes what rounding left.
        count = len(question.blanks)
        shares = [round(100 / count, 4)] * (count - 1)
        shares.append(round(100 - sum(shares), 4))
        for number, part in enumerate(parts(question), 1):
            share = kit.number(shares[number - 1])
            name = f"blank{number}"
            lid = kit.sub(kit.presentation, "response_lid", {"ident": f"response_{name}"})
            kit.material(lid, name, "text/plain")
            choice = kit.sub(lid, "render_choice")
            idents = []
            for answer in _canvas_answers(part, kit, losses):
                ident = kit.ident(question.id, name, answer)
                label = kit.sub(choice, "response_label", {"ident": ident})
                kit.material(label, kit.escape(answer), "text/plain")
                idents.append(ident)

            def any_of(parent: Any, idents: list[str] = idents, name: str = name) -> None:
                for ident in idents:
                    kit.equal(f"response_{name}", ident)(parent)

            if idents:
                kit.condition(any_of, score=("Add", share))
        if question.scoring != "partial" and len(question.blanks) > 1:
            losses.append("all_or_nothing: Canvas gives credit blank by blank")
        return tuple(dict.fromkeys(losses))

    # -- the site's self-check ---------------------------------------------------------

    def widget_key(self, question: Cloze) -> dict[str, Any]:
        blanks = [{"type": p.type, "points": 1.0} | _kind(p).widget_key(p) for p in parts(question)]
        # `uses`: the page's script loads these types' scripts too; each grades its blanks.
        uses = sorted({part.type for part in parts(question)})
        key: dict[str, Any] = {"blanks": blanks, "uses": uses}
        return key | ({"scoring": question.scoring} if question.scoring != "partial" else {})

    def widget(self, question: Cloze, kit: PageKit) -> Widget:
        # Fields below the prompt, each labelled with its marker; the widget's script
        # moves each into the prompt where its marker stands. `lk-field`: the page's
        # script loads typed answers' grading for them, and Enter in one checks.
        rows = []
        for number, part in enumerate(parts(question), 1):
            ident = f"lk-{question.id}-blank-{number}"
            decimal = ' inputmode="decimal" size="10"' if isinstance(part, numeric.Numeric) else ""
            unit = getattr(part, "unit", None)
            after = f' <span class="lk-unit">{kit.text(unit)}</span>' if unit else ""
            entry = (
                f'<input type="text" id="{ident}" data-blank="{number - 1}" autocomplete="off" '
                f'spellcheck="false"{decimal}>{after}'
            )
            label = f'<label for="{ident}">{marker(number)}</label>'
            rows.append(f'<li>{label} <span class="lk-entry lk-field">{entry}</span></li>')
        inputs = [
            '<p class="lk-instruction">Fill in each blank.</p>',
            f'<ol class="lk-blanks">{"".join(rows)}</ol>',
        ]
        answers = "".join(f"<li>{kit.text(line)}</li>" for line in self.key_described(question))
        return Widget(inputs, [f'<p><strong>Answer:</strong></p><ol class="lk-key">{answers}</ol>'])


def _said(lines: list[str]) -> str:
    return " ".join(lines)


def _key_words(part: BlankQuestion) -> str:
    if isinstance(part, numeric.Numeric):
        return numeric.TYPE.key_described(part)[0]
    if part.accept:
        return " or ".join(part.accept)
    return "any answer matching " + " or ".join(f"`{p}`" for p in part.patterns)


def _embedded(part: BlankQuestion, kit: MoodleKit, losses: list[str]) -> str:
    if isinstance(part, numeric.Numeric):
        value, margin = kit.number(part.value()), kit.number(part.allowed_error())
        return f"{{1:NUMERICAL:={value}:{margin}}}"
    if part.patterns:
        losses.append("patterns: Moodle's cloze takes exact answers and `*` wildcards only")
    if not part.accept:
        losses.append("a blank with only patterns: Moodle has no answer to mark right there")
    kind = "SHORTANSWER_C" if part.case_sensitive else "SHORTANSWER"
    # The answers stand in the question's HTML; `*` is Moodle's wildcard in short answers
    # (a literal one is written `\*`) and `}#~/"\` are its cloze syntax.
    answers = [_MOODLE_SPECIAL.sub(r"\\\1", kit.escape(a)).replace("*", "\\*") for a in part.accept]
    return f"{{1:{kind}:{'~'.join('=' + a for a in answers)}}}"


def _canvas_answers(part: BlankQuestion, kit: QtiKit, losses: list[str]) -> list[str]:
    if isinstance(part, numeric.Numeric):
        if part.allowed_error():
            losses.append(
                "tolerance: Canvas's blanks compare text, so only the exact number counts"
            )
        return [kit.number(part.value())]
    if part.patterns:
        losses.append("patterns: Canvas compares exact answers only")
    if part.case_sensitive:
        losses.append("case_sensitive: Canvas ignores letter case")
    if not part.accept:
        losses.append("a blank with only patterns: Canvas has no answer to mark right there")
    return list(part.accept)


TYPE = ClozeType()
