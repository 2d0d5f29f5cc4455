"""`text`: free text, compared as a reader expects (``grading.textmatch``).

Response: ``str``, as typed (trimmed); with `multiline: true`, several lines typed one
by one, blank lines before and after dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessonkit.grading.credit import Grade, full_or_nothing
from lessonkit.grading.textmatch import normalise_text, text_right
from lessonkit.questiontypes.base import (
    AnkiCard,
    Carried,
    GiftKit,
    HtmlKit,
    MoodleKit,
    PageKit,
    QtiKit,
    QuestionType,
    RuntimeQuestion,
    Widget,
)

_AUTO = {"fraction": "100", "format": "moodle_auto_format"}


class Text(RuntimeQuestion, tag="text"):
    """A `text` question at run time (``bank.questions.TextQuestion``)."""

    multiline: bool = False
    accept: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    case_sensitive: bool = False


def multiline_text(text: str) -> str:
    """Several typed lines as one answer: blank lines before and after dropped, ends trimmed."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def matches(question: Text, response: str) -> bool:
    """Whether a response is one of the accepted answers or matches a pattern."""
    case, lines = question.case_sensitive, question.multiline
    return text_right(question.accept, question.patterns, response, case_sensitive=case,
                      multiline=lines)  # fmt: skip


class TextType(QuestionType[Text, str]):
    name = "text"
    runtime = Text
    script = "text.js"
    example = """\
  - id: {{id}}
    type: text
    prompt: "TODO(lessonkit): Ask for a word or a short phrase."
    insight: {{insight}}
    objectives: [{{insight}}]{{tags}}
    section: {{section}}
    explanation: "TODO(lessonkit): Say why this is the answer, and where the lesson says it."
    accept: ["TODO(lessonkit): answer", "TODO(lessonkit): another spelling"]
"""
    moodle_type = "shortanswer"
    qti_type = "short_answer_question"

    def multiline(self, question: Text) -> bool:
        return question.multiline

    def expected_form(self, question: Text) -> str:
        if question.multiline:
            return "Type your answer line by line; an empty line ends it."
        return "Type your answer."

    def parse(self, question: Text, text: str, display: Sequence[int]) -> str:
        return multiline_text(text) if question.multiline else text.strip()

    def from_json(self, question: Text, value: Any) -> str:
        return str(value)

    def grade(self, question: Text, response: str) -> Grade:
        if not isinstance(response, str):
            raise TypeError(f"a text response is a str, not {type(response).__name__}")
        return full_or_nothing(question.points, matches(question, response))

    def answer_key(self, question: Text) -> str | None:
        # A regular expression has no literal answer to give, so a question with only
        # patterns has no key to self-test (the model checks its patterns compile).
        return question.accept[0] if question.accept else None

    def key_fields(self, question: Text) -> dict[str, Any]:
        key: dict[str, Any] = {
            "accept": list(question.accept),
            "patterns": list(question.patterns),
            "case_sensitive": question.case_sensitive,
        }
        return key | ({"multiline": True} if question.multiline else {})

    def shown(self, question: Text, response: str, display: Sequence[int]) -> str:
        return str(response)

    def described(self, question: Text, response: str, display: Sequence[int]) -> list[str]:
        return response.splitlines() or [response]

    def key_described(self, question: Text) -> list[str]:
        key = self.answer_key(question)
        return [] if key is None else self.described(question, key, ())

    wrong_advice = (
        "marked wrong: if it is right, add it to `accept`; if not, word the question so "
        "that it is clearly not"
    )

    def wrong_form(self, question: Text, value: Any) -> str | None:
        case = question.case_sensitive
        lines = [normalise_text(line, case_sensitive=case) for line in str(value).splitlines()]
        return " / ".join(line for line in lines if line) or "(nothing)"

    def anki(self, question: Text, kit: HtmlKit) -> AnkiCard:
        accepted = [f"<q>{kit.escape(a)}</q>" for a in question.accept]
        patterns = [f"<code>{kit.escape(p)}</code>" for p in question.patterns]
        parts = []
        if accepted:
            parts.append("<b>Accepted answers:</b> " + ", ".join(accepted))
        if patterns:
            parts.append("<b>Or any answer matching:</b> " + ", ".join(patterns))
        return AnkiCard("", "<br>".join(parts))

    def gift(self, question: Text, kit: GiftKit) -> Carried[list[str]]:
        # `*` is a wildcard in Moodle's short answers; `\*` is a literal star.
        lines = ["=" + kit.escape(a).replace("*", "\\*") for a in question.accept]
        losses = []
        if question.patterns:
            losses.append("patterns: GIFT takes exact answers only")
        if question.case_sensitive:
            losses.append("case_sensitive: GIFT ignores letter case")
        if question.multiline:
            losses.append("multiline: GIFT answers are one line")
        return Carried(lines, tuple(losses))

    def moodle(self, question: Text, element: Any, kit: MoodleKit) -> tuple[str, ...]:
        kit.sub(element, "usecase", "1" if question.case_sensitive else "0")
        for accepted in question.accept:
            # `*` is Moodle's wildcard in short answers; a literal one is written `\*`.
            answer = kit.sub(element, "answer", attributes=_AUTO)
            kit.sub(answer, "text", accepted.replace("*", "\\*"))
        losses = []
        if question.patterns:
            losses.append(
                "patterns: Moodle short answers take exact answers and `*` wildcards only"
            )
        if question.multiline:
            losses.append("multiline: Moodle short answers are one line")
        return tuple(losses)

    def qti(self, question: Text, kit: QtiKit | None) -> tuple[str, ...]:
        assert kit is not None  # qti_type is set
        losses = []
        if question.patterns:
            losses.append("patterns: Canvas compares exact answers only")
        if question.case_sensitive:
            losses.append("case_sensitive: Canvas ignores letter case")
        if question.multiline:
            losses.append("multiline: Canvas takes one line")
        kit.blank(numeric=False)

        def any_of(parent: Any) -> None:
            for accepted in question.accept:
                kit.equal("response1", accepted)(parent)

        if question.accept:
            kit.condition(any_of, score=("Set", "100"), more=False)
        else:
            losses.append("patterns only: no accepted answer Canvas could compare with")
        return tuple(losses)

    def widget_key(self, question: Text) -> dict[str, Any]:
        key: dict[str, Any] = {"accept": list(question.accept), "patterns": list(question.patterns)}
        if question.case_sensitive:
            key["case_sensitive"] = True
        if question.multiline:
            key["multiline"] = True
        return key

    def widget(self, question: Text, kit: PageKit) -> Widget:
        if question.multiline:
            control = (
                '<textarea id="{id}" rows="4" autocomplete="off" spellcheck="false"></textarea>'
            )
            lead = "Answer on several lines, one per line."
        else:
            control = '<input type="text" id="{id}" autocomplete="off" spellcheck="false">'
            lead = "Answer in a word or a short phrase."
        inputs = [
            f'<p class="lk-instruction">{lead}</p>',
            *kit.field(question, "Your answer", control),
        ]
        if not question.accept:
            return Widget(inputs, [])  # only patterns: a regular expression is no answer to show
        accepted = ", ".join(f"<q>{kit.text(a)}</q>" for a in question.accept)
        return Widget(inputs, [f"<p><strong>Accepted answers:</strong> {accepted}</p>"])


TYPE = TextType()
