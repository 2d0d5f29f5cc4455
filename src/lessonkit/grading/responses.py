"""Turn what a learner typed into a canonical response for the grader, per question type.

Questions here are the plain JSON form of the models (``question.model_dump(mode="json")``),
so the quiz can parse and describe input before pydantic is even imported. ``display``
is the order things were shown in: for ``single``/``multiple`` the bank indices of the
options numbered 1, 2, 3…; for ``order`` the bank indices of the items numbered 1, 2, 3…;
for ``match`` the bank indices of the right-hand items lettered a, b, c… (left-hand
items are always numbered in bank order). ``range(n)`` shows things as the bank lists them.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lessonkit.errors import LessonkitError
from lessonkit.grading import numbers

if TYPE_CHECKING:  # the grader imports pydantic; this module must stay light
    from lessonkit.grading.credit import Response

QuestionData = Mapping[str, Any]

_TRUE = frozenset({"t", "true", "y", "yes"})
_FALSE = frozenset({"f", "false", "n", "no"})
_SEPARATORS = re.compile(r"[\s,;]+")
_PAIR = re.compile(r"(\d+)\s*[-:=.)]?\s*([a-z])")
LETTERS = string.ascii_lowercase


class ResponseError(LessonkitError):
    """What the learner typed has the wrong form; the message says the form expected."""


def choices(question: QuestionData) -> int:
    """How many numbered or lettered things the learner picks from."""
    kind = question["type"]
    if kind in ("single", "multiple"):
        return len(question["options"])
    if kind == "order":
        return len(question["items"])
    if kind == "match":
        return len(question["pairs"]) + len(question["distractors"])
    return 0


def expected_form(question: QuestionData) -> str:
    """One line telling the learner what to type, e.g. `Type one number from 1 to 4`."""
    kind = question["type"]
    count = choices(question)
    if kind == "single":
        return f"Type one number from 1 to {count}."
    if kind == "multiple":
        return f"Type every number that applies, from 1 to {count}, e.g. `1,3` or `1 3`."
    if kind == "true_false":
        return "Type t (true) or f (false)."
    if kind == "numeric":
        unit = question.get("unit")
        where = f", optionally followed by {unit}" if unit else ""
        if unit in numbers.PERCENT_UNITS:
            return f"Type a percentage (decimal point or comma), e.g. `50` for half{where}."
        return f"Type a number (decimal point or comma){where}."
    if kind == "text":
        if question.get("multiline"):
            return "Type your answer line by line; an empty line ends it."
        return "Type your answer."
    if kind == "order":
        return f"Type the numbers 1 to {count} in the right order, e.g. `{_example(count)}`."
    left = len(question["pairs"])
    return (
        f"Match each of 1 to {left} with a letter from a to {LETTERS[count - 1]}, "
        f"e.g. `{_pairs_example(left)}`."
    )


def listing(question: QuestionData, display: Sequence[int]) -> list[str]:
    """The numbered (and, for ``match``, lettered) lines a question shows to choose from."""
    kind = question["type"]
    if kind in ("single", "multiple"):
        return [f"  {n}. {question['options'][i]['text']}" for n, i in enumerate(display, 1)]
    if kind == "order":
        return [f"  {n}. {question['items'][i]}" for n, i in enumerate(display, 1)]
    if kind == "match":
        rights = [p["right"] for p in question["pairs"]] + list(question["distractors"])
        lefts = [f"  {n}. {p['left']}" for n, p in enumerate(question["pairs"], 1)]
        letters = [f"  {LETTERS[n]}. {rights[i]}" for n, i in enumerate(display)]
        return [*lefts, "  with", *letters]
    return []


def parse(question: QuestionData, text: str, display: Sequence[int]) -> Response:
    """The canonical response for ``text``, or ResponseError saying what form is expected."""
    kind = question["type"]
    # NFKC turns full-width digits and letters into ASCII ones; casefold makes `T` count.
    typed = numbers.clean(text)
    if not typed:
        raise ResponseError("Nothing was typed. " + expected_form(question))
    if kind == "single":
        return display[_pick(typed, choices(question)) - 1]
    if kind == "multiple":
        return frozenset(display[n - 1] for n in _numbers(typed, choices(question)))
    if kind == "true_false":
        return _truth(typed)
    if kind == "numeric":
        return _number(text, question)
    if kind == "text":
        return multiline_text(text) if question.get("multiline") else text.strip()
    if kind == "order":
        return tuple(display[n - 1] for n in _sequence(typed, choices(question)))
    return _matches(typed, len(question["pairs"]), display)


def multiline_text(text: str) -> str:
    """Several typed lines as one answer: blank lines before and after dropped, ends trimmed."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def to_json(response: Response) -> Any:
    """A JSON-able form of a response, for the history database and `--json`."""
    if isinstance(response, frozenset):
        return sorted(response)
    if isinstance(response, tuple):
        return list(response)
    return response


def from_json(question: QuestionData, value: Any) -> Response:
    """The response a stored JSON value stands for (the inverse of ``to_json``)."""
    kind = question["type"]
    if kind == "multiple":
        return frozenset(int(v) for v in value)
    if kind in ("order", "match"):
        return tuple(int(v) for v in value)
    if kind == "numeric":
        return float(value)
    if kind == "single":
        return int(value)
    if kind == "true_false":
        return bool(value)
    return str(value)


def shown(question: QuestionData, response: Response, display: Sequence[int]) -> str:
    """A response written as the learner would type it for this display, e.g. `1b 2a`."""
    kind = question["type"]
    place = {index: at + 1 for at, index in enumerate(display)}
    if kind == "single" and isinstance(response, int):
        return str(place[response])
    if isinstance(response, frozenset):
        return ",".join(str(n) for n in sorted(place[i] for i in response))
    if kind == "order" and isinstance(response, tuple):
        return " ".join(str(place[i]) for i in response)
    if kind == "match" and isinstance(response, tuple):
        return " ".join(f"{n}{LETTERS[place[i] - 1]}" for n, i in enumerate(response, start=1))
    if isinstance(response, bool):
        return "true" if response else "false"
    if isinstance(response, float):
        unit = question.get("unit")
        return numbers.number_text(response) + (f" {unit}" if unit else "")
    return str(response)


def described(question: QuestionData, response: Response, display: Sequence[int]) -> list[str]:
    """A response in words, one line per part: options, items and pairs spelled out.

    Numbers and letters are those the learner saw, so `2. TPU` means the second option shown.
    """
    kind = question["type"]
    place = {index: at + 1 for at, index in enumerate(display)}
    if kind == "single" and isinstance(response, int):
        return [f"{place[response]}. {question['options'][response]['text']}"]
    if kind == "multiple" and isinstance(response, frozenset):
        chosen = sorted(response, key=place.__getitem__)
        return [f"{place[i]}. {question['options'][i]['text']}" for i in chosen] or ["nothing"]
    if kind == "order" and isinstance(response, tuple):  # numbered as shown, so as typed
        return [f"{place[i]}. {question['items'][i]}" for i in response]
    if kind == "match" and isinstance(response, tuple):
        rights = [p["right"] for p in question["pairs"]] + list(question["distractors"])
        return [
            f"{n}. {pair['left']} \u2192 {LETTERS[place[i] - 1]}. {rights[i]}"
            for n, (pair, i) in enumerate(zip(question["pairs"], response, strict=True), 1)
        ]
    if isinstance(response, str):
        return response.splitlines() or [response]
    if isinstance(response, numbers.Number) and response.read_as:
        return [f"{response.typed} (read as {response.read_as})"]
    return [shown(question, response, display)]


def part_marks(question: QuestionData, response: Response) -> list[bool] | None:
    """Right or wrong for each line ``described`` gives: each pair of a ``match``, and each
    item of an ``order`` (the first when it is the right first, every other when it comes
    right after the item it should follow, as partial credit counts neighbours). None for
    other types, whose answer is right or wrong as a whole.
    """
    if not isinstance(response, tuple):
        return None
    if question["type"] == "match":
        return [chosen == n for n, chosen in enumerate(response)]
    if question["type"] == "order" and response:
        follows = [after == before + 1 for before, after in itertools.pairwise(response)]
        return [response[0] == 0, *follows]
    return None


def chosen_feedback(
    question: QuestionData, response: Response, display: Sequence[int]
) -> list[tuple[str, str]]:
    """The author's feedback on each option the learner chose: (`option 2`, text) pairs."""
    if question["type"] not in ("single", "multiple"):
        return []
    place = {index: at + 1 for at, index in enumerate(display)}
    chosen = (
        [response]
        if isinstance(response, int)
        else sorted(response if isinstance(response, frozenset) else (), key=place.__getitem__)
    )
    options = question["options"]
    return [
        (f"option {place[i]}", str(options[i]["feedback"]))
        for i in chosen
        if options[i].get("feedback")
    ]


def _example(count: int) -> str:
    return " ".join(str(n) for n in [*range(2, count + 1), 1])


def _pairs_example(count: int) -> str:
    return " ".join(f"{n}{LETTERS[(n) % count]}" for n in range(1, min(count, 3) + 1))


def _pick(typed: str, count: int) -> int:
    if not typed.isdigit():
        raise ResponseError(f"`{typed}` is not a number. Type one number from 1 to {count}.")
    return _in_range(int(typed), count)


def _in_range(number: int, count: int) -> int:
    if not 1 <= number <= count:
        raise ResponseError(f"There is no {number}. Choose from 1 to {count}.")
    return number


def _numbers(typed: str, count: int) -> list[int]:
    parts = [p for p in _SEPARATORS.split(typed) if p]
    wrong = [p for p in parts if not p.isdigit()]
    if wrong:
        raise ResponseError(
            f"`{wrong[0]}` is not a number. Type numbers from 1 to {count} separated by "
            "commas or spaces, e.g. `1,3`."
        )
    numbers = [_in_range(int(p), count) for p in parts]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise ResponseError(
            f"{_listed(repeated)} {'is' if len(repeated) == 1 else 'are'} "
            "typed twice. Type each number once, e.g. `1,3`."
        )
    return sorted(numbers)


def _truth(typed: str) -> bool:
    if typed in _TRUE:
        return True
    if typed in _FALSE:
        return False
    raise ResponseError(f"`{typed}` is neither true nor false. Type t (true) or f (false).")


def _number(text: str, question: QuestionData) -> numbers.Number:
    try:
        return numbers.read_number(text, question.get("unit"), _decimal_mark(question))
    except numbers.NumberError as error:
        raise ResponseError(str(error)) from None


def _decimal_mark(question: QuestionData) -> numbers.DecimalMark:
    mark = question.get("decimal_mark")
    return mark if mark in numbers.DECIMAL_MARKS else "point"


def _sequence(typed: str, count: int) -> list[int]:
    parts = [p for p in _SEPARATORS.split(typed) if p]
    if len(parts) == 1 and count < 10 and parts[0].isdigit() and len(parts[0]) == count:
        parts = list(parts[0])  # `312` is a fine way to type `3 1 2` when items are 1-9
    if not all(p.isdigit() for p in parts):
        raise ResponseError(
            f"Type the numbers 1 to {count} separated by spaces, e.g. `{_example(count)}`."
        )
    numbers = [_in_range(int(p), count) for p in parts]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    missing = sorted(set(range(1, count + 1)) - set(numbers))
    if repeated or missing:
        said = []
        if repeated:
            said.append(f"{_listed(repeated)} appear{'s' if len(repeated) == 1 else ''} twice")
        if missing:
            said.append(f"{_listed(missing)} {'is' if len(missing) == 1 else 'are'} missing")
        raise ResponseError(f"{'; '.join(said).capitalize()}. Use each of 1 to {count} once.")
    return numbers


def _listed(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _matches(typed: str, left: int, display: Sequence[int]) -> tuple[int, ...]:
    letters = LETTERS[: len(display)]
    example = _pairs_example(left)
    rest = _PAIR.sub(" ", typed)
    if rest.strip(" ,;"):
        raise ResponseError(f"Type pairs of a number and a letter, e.g. `{example}`.")
    chosen: dict[int, int] = {}
    for number_text, letter in _PAIR.findall(typed):
        number = int(number_text)
        if not 1 <= number <= left:
            raise ResponseError(f"There is no {number} on the left. Use 1 to {left}.")
        if letter not in letters:
            raise ResponseError(f"There is no {letter} on the right. Use a to {letters[-1]}.")
        if number in chosen:
            raise ResponseError(f"{number} is matched twice. Give each number one letter.")
        if display[letters.index(letter)] in chosen.values():
            raise ResponseError(f"{letter} is used twice. Give each letter to one number at most.")
        chosen[number] = display[letters.index(letter)]
    missing = [n for n in range(1, left + 1) if n not in chosen]
    if missing:
        verb = "has" if len(missing) == 1 else "have"
        raise ResponseError(
            f"{_listed(missing)} {verb} no letter. "
            f"Match every number from 1 to {left}, e.g. `{example}`."
        )
    return tuple(chosen[n] for n in range(1, left + 1))
