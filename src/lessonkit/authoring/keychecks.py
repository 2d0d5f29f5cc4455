"""Checks of answer keys that the self-test cannot see: a number's precision, a count's limit.

The answer-key self-test proves that the key scores full marks. It cannot tell that the
key also accepts what its own explanation calls wrong (93 sequences where 92 fit), or
that it turns away an honest rounding of itself (0.333 where the key says 0.3333). The
two rules here, `bound` and `precision`, keep every course correct and fail `lessonkit
validate`; `answer-forms` gives `lessonkit report` the guesses made from a prompt's
wording, which are advice unless a course's policy makes them more.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from lessonkit.authoring.policy import Rule, RuleSettings, Subject, fixed
from lessonkit.bank import yamldoc
from lessonkit.bank.questions import Question
from lessonkit.course.course import Course
from lessonkit.errors import Problem
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import QuestionType
from lessonkit.questiontypes.numeric import Numeric
from lessonkit.questiontypes.text import Text

# An answer looks rounded from a longer value when it has this many significant digits,
# or this many decimal places (with two significant digits: 0.001 is exact, 0.083 not).
ROUNDED_DIGITS = 4
ROUNDED_PLACES = 3
_WRITTEN = re.compile(r"[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?")
# A prompt that invites more than one form of a name.
_TWO_FORMS = re.compile(
    r"\b(abbreviation|acronym|initials|full name|short name|spel(?:led|t) out)\b", re.IGNORECASE
)
# A prompt that asks for a count that is a limit, in one direction or the other.
_COUNT = re.compile(r"\b(how many|number of)\b", re.IGNORECASE)
_AT_MOST = re.compile(r"\b(at most|fits?|maximum|largest number)\b", re.IGNORECASE)
_AT_LEAST = re.compile(r"\b(at least|minimum|smallest number|fewest)\b", re.IGNORECASE)


def _bound_problems(course: Course, settings: RuleSettings) -> list[Problem]:
    """The `bound` problems of every bank that loaded; a question that draws numbers is
    checked on a few draws and reported once."""
    found: list[Problem] = []
    reported: set[tuple[str, int]] = set()
    for document, index, question in _numeric(course, drawn=True, bounded=True):
        if (document.path, index) not in reported and (
            problems := _bound(document, index, question)
        ):
            reported.add((document.path, index))
            found += problems
    return found


def _precision_problems(course: Course, settings: RuleSettings) -> list[Problem]:
    """The `precision` problems of every bank that loaded."""
    found: list[Problem] = []
    lines: dict[str, list[str]] = {}
    # A formula's answer has no written precision: the sweep checks its printed numbers.
    for slug, bank in course.banks.items():
        document = course.bank_documents[slug]
        for index, model in enumerate(bank.questions):
            kind = registry.named(model.type)
            if type(kind).asked_numbers is QuestionType.asked_numbers:
                continue  # asks for no number: not worth its run-time form
            question = registry.runtime(model)
            for path, number in kind.asked_numbers(question):
                if not isinstance(number, Numeric) or number.params:
                    continue  # a formula's answer has no written precision (see above)
                if document.path not in lines:
                    lines[document.path] = _source_lines(document)
                found += _precision(document, (index, *path), number, lines[document.path])
    return found


def _numeric(
    course: Course, *, drawn: bool, bounded: bool = False
) -> Iterator[tuple[yamldoc.Document, int, Numeric]]:
    """Each numeric question, in its run-time form; with ``drawn``, a parameterised one as
    a few of its draws; with ``bounded``, only those with a `bound`."""
    for slug, bank in course.banks.items():
        document = course.bank_documents[slug]
        for index, model in enumerate(bank.questions):
            if model.type != "numeric":  # these rules are about numbers only
                continue
            if bounded and getattr(model, "bound", None) is None:
                continue  # drawing it would cost a third of a large bank's validate
            question = registry.runtime(model)
            assert isinstance(question, Numeric)
            if not question.params:
                yield document, index, question
            elif drawn:
                yield from ((document, index, plain) for plain in _draws(question))


def _draws(question: Numeric) -> list[Numeric]:
    """A parameterised question as the plain questions of a few seeded draws."""
    from lessonkit.bank import variants

    drawn = variants.sample(registry.as_json(question), 5, f"keychecks/{question.id}")
    return [p for v in drawn if isinstance(p := registry.drawn(question, v), Numeric)]


def advice(document: yamldoc.Document, index: int, model: Question) -> list[Problem]:
    """Report warnings: accepted text answers narrower than the prompt, an unmarked limit."""
    if model.type not in ("text", "numeric"):  # the rule is about these two only
        return []
    question = registry.runtime(model)
    if isinstance(question, Text):
        return _narrow_text(document, index, question)
    if isinstance(question, Numeric):
        plain = _draws(question)[:1] if question.params else [question]
        return _unmarked_limit(document, index, plain[0]) if plain else []
    return []


def _answer_forms(subject: Subject, settings: RuleSettings) -> list[Problem]:
    if subject.bank is None or subject.document is None:
        return []
    document = subject.document
    return [p for index, q in enumerate(subject.bank.questions) for p in advice(document, index, q)]


BOUND = fixed(
    "bound",
    "A numeric question with `bound: maximum` (or `minimum`) has a whole-number answer, "
    "and its tolerances accept no larger (or smaller) whole number.",
    "a count that must not be exceeded, such as how many sequences fit, is wrong one "
    "past it, whatever the tolerance says",
    course_check=_bound_problems,
)
PRECISION = fixed(
    "precision",
    f"A numeric answer that looks rounded ({ROUNDED_DIGITS} or more significant digits, "
    f"or {ROUNDED_PLACES} or more decimal places and 2 or more significant digits) has a "
    "tolerance that also accepts it rounded one decimal place sooner (0.3333 accepts "
    "0.333).",
    "such an answer is itself rounded; a learner who rounds one place sooner is not wrong",
    course_check=_precision_problems,
)
ANSWER_FORMS = Rule(
    "answer-forms",
    "A text question whose prompt invites more than one form of a name accepts each of "
    "them; a count whose wording reads like a limit declares `bound`.",
    "a learner who writes the form the prompt invited, or one past a limit, should be "
    "marked as the author meant",
    default="advice",
    lesson_check=_answer_forms,
)


# --- validate ---------------------------------------------------------------------------


def _accepts(question: Numeric, value: float) -> bool:
    """Whether the grader marks ``value`` right: the same rule learners meet."""
    return registry.grade(question, value).correct


def _tolerance_key(question: Numeric) -> str:
    relative = (question.relative_tolerance or 0.0) * abs(question.value())
    return "relative_tolerance" if relative > (question.tolerance or 0.0) else "tolerance"


def _bound(document: yamldoc.Document, index: int, question: Numeric) -> list[Problem]:
    if question.bound is None:
        return []
    where = ("questions", index)
    answer = question.value()
    if answer != math.floor(answer):
        return [
            document.problem(
                (*where, "answer"),
                f"questions[{index}].answer {answer:g} is not a whole number, but "
                f"`bound: {question.bound}` says it is a whole-number limit",
                "write the whole number that is the limit, or remove `bound`",
            )
        ]
    step = 1 if question.bound == "maximum" else -1
    past = answer + step
    if not _accepts(question, past):
        return []
    key = _tolerance_key(question)
    unit = f" {question.unit}" if question.unit else ""
    word = "more" if step > 0 else "fewer"
    return [
        document.problem(
            (*where, key),
            f"questions[{index}].{key} {getattr(question, key):g} accepts {past:g}{unit}, "
            f"{word} than the {question.bound} {answer:g} that `bound: {question.bound}` allows",
            _narrower(question, key, past),
        )
    ]


def _narrower(question: Numeric, key: str, past: float) -> str:
    if key == "tolerance":
        return f"make `tolerance` less than 1, e.g. `tolerance: 0`, so that {past:g} does not count"
    most = 1 / abs(question.value())
    return (
        f"make `relative_tolerance` less than {most:.3g} (1 ÷ {question.answer:g}), or use "
        f"`tolerance: 0`, so that {past:g} does not count"
    )


def _precision(
    document: yamldoc.Document, at: tuple[str | int, ...], question: Numeric, lines: list[str]
) -> list[Problem]:
    """``at``: the question's index and the number's path below it (a cloze's blank)."""
    loc = ("questions", *at, "answer")
    where = "questions" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at)
    written = _written(document, loc, lines) or repr(question.answer)
    try:
        number = Decimal(written.replace("_", ""))
    except InvalidOperation:
        return []
    places = -int(number.as_tuple().exponent)
    digits = len(number.as_tuple().digits)
    looks_rounded = digits >= ROUNDED_DIGITS or (places >= ROUNDED_PLACES and digits >= 2)
    if places < 1 or not looks_rounded:
        return []
    coarser = number.quantize(Decimal(1).scaleb(1 - places), rounding=ROUND_HALF_UP)
    if _accepts(question, float(coarser)):
        return []
    allowed = question.allowed_error()
    said = "with no tolerance" if allowed == 0 else f"with a tolerance of {allowed:g}"
    enough = Decimal(5).scaleb(-places)
    return [
        document.problem(
            loc,
            f"{where}.answer {written} has {places} decimal place"
            f"{'' if places == 1 else 's'}; {said}, a learner who rounds it to "
            f"{coarser} scores 0",
            f"set `tolerance: {enough}` or more, so that {coarser} counts, or round the "
            "answer to the precision you ask for",
        )
    ]


def _source_lines(document: yamldoc.Document) -> list[str]:
    try:
        return yamldoc.read_text(Path(document.path)).splitlines()
    except (OSError, ValueError, LookupError):
        return []


def _written(document: yamldoc.Document, loc: yamldoc.Loc, lines: list[str]) -> str | None:
    """A number as the author wrote it (`3.10`, not 3.1), read back from its position."""
    line, column = document.locate(loc)
    if not 1 <= line <= len(lines):
        return None
    found = _WRITTEN.match(lines[line - 1], column - 1)
    return found.group(0) if found and any(c.isdigit() for c in found.group(0)) else None


# --- report -----------------------------------------------------------------------------


def _narrow_text(document: yamldoc.Document, index: int, question: Text) -> list[Problem]:
    found: list[Problem] = []
    for number, accepted in enumerate(question.accept):
        both = re.fullmatch(r"(.+?) ?\((.+)\)", accepted)
        if both and not question.multiline:
            first, second = (form.strip() for form in both.groups())
            found.append(
                document.problem(
                    ("questions", index, "accept", number),
                    f"questions[{index}].accept[{number}] `{accepted}` puts two forms in one "
                    "answer, so a learner who types either alone scores 0",
                    f"accept `{first}` and `{second}` separately; `{accepted}` then counts too",
                )
            )
    invited = _TWO_FORMS.search(question.prompt)
    if found or invited is None or question.patterns or question.multiline:
        return found  # a packed answer is advice enough: unpacking it gives both forms
    short = [a for a in question.accept if len(a.split()) == 1]
    long = [a for a in question.accept if len(a.split()) > 1]
    if not short or not long:
        has = f"only {'one-word' if short else 'several-word'} forms"
        found.append(
            document.problem(
                ("questions", index, "accept"),
                f'questions[{index}]\'s prompt invites another form ("{invited.group(0)}"), '
                f"but `accept` has {has}: {', '.join(f'`{a}`' for a in question.accept)}",
                "accept each form the prompt allows, e.g. the abbreviation and the full name",
            )
        )
    return found


def _unmarked_limit(document: yamldoc.Document, index: int, question: Numeric) -> list[Problem]:
    answer = question.value()
    counts = _COUNT.search(question.prompt)
    if question.bound is not None or answer != math.floor(answer) or counts is None:
        return []
    for direction, words, step in (("maximum", _AT_MOST, 1), ("minimum", _AT_LEAST, -1)):
        said = words.search(question.prompt)
        if said and _accepts(question, answer + step):
            key = _tolerance_key(question)
            return [
                document.problem(
                    ("questions", index, key),
                    f"questions[{index}] asks for a count that reads like a limit "
                    f'("{said.group(0)}"), and its `{key}` accepts {answer + step:g}',
                    f"if no whole number past {answer:g} is right, set `bound: {direction}` "
                    "and a tolerance below 1; `validate` then keeps it so",
                )
            ]
    return []
