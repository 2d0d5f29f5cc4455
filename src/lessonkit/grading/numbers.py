"""Read a number as people write it: digits grouped in thousands, a decimal point or comma.

``read_number`` is the one reader of typed numbers: the terminal quiz, an answers file
and any later kind of numeric answer call it, and the site's script mirrors it rule for
rule (``tests/grading_cases.json`` holds the two to the same table). It is pure: no
I/O, no locale of the machine, no clock.

What it accepts, after Unicode (NFKC) folding, so full-width digits and the typographic
minus count:

- plain numbers: ``1234``, ``-2.5``, ``.5``, ``1e3``, ``2,5`` (a decimal comma);
- thousands grouped by a comma, a point, a space (also the thin and no-break spaces),
  an apostrophe (``1'000``, Swiss) or an underscore: ``1,000``, ``1.000.000``,
  ``1 000``, with a decimal mark after them: ``1,000.5``, ``1.000,5``, ``1 000,5``;
  Indian grouping too: ``1,00,000``;
- the question's unit after the number (``2.5 TB/s``), a currency sign for a currency
  unit (``$28`` for USD), and ``percent`` for ``%``; the unit as people spell it
  (``25 milliseconds``, ``4.18 dollars``, ``USD 4.18``, ``0.42x``, ``292 flops per
  byte``), said back as the question's unit;
- a word or sign of approximation before the number (``≈ 35``, ``~35``, ``about 35``) and
  a full stop after a unit (``10.5 ms.``).

A unit of the same kind as the question's but another (``0.025 s`` where the question
asks in ms, ``1 PFLOPS`` for TFLOPS) is refused, saying which unit the question asks in;
any other word is named, as the learner wrote it.

Only one thing is truly ambiguous: a lone comma or point followed by exactly three
digits, as in ``1,000`` (one thousand, or 1.0 written with a decimal comma) or
``1.000``. The question's ``decimal_mark`` decides it: ``point`` (English) reads
``1,000`` as 1000 and ``1.000`` as 1, ``comma`` the other way round, and ``either``
refuses the number and asks the learner to write it so that it can only mean one thing.
A question that sets none asks when its answer may have decimals (``unset_mark``): the
prompt invites a decimal comma, so ``2,147`` may well mean 2.147. Every other form means
one number whatever the convention: ``2,5`` cannot be thousands (a group has three
digits), ``1,000.5`` has both marks, ``1 000`` groups with a space.

What it refuses, with a message saying what to type: spaces (or other marks) that do
not group digits in threes, such as ``2 4 1 1``, which is several numbers rather than
2411; two different grouping marks; a mark in the decimals; words.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Literal

from lessonkit.errors import LessonkitError

DecimalMark = Literal["point", "comma", "either"]
DECIMAL_MARKS: tuple[DecimalMark, ...] = ("point", "comma", "either")
PERCENT_UNITS = frozenset({"%", "percent"})

# A learner asked for an amount in USD may well type "$28": the sign for a currency
# unit counts as the unit, before or after the number.
_CURRENCY_SIGNS = {"usd": "$", "eur": "€", "gbp": "£", "jpy": "¥", "cny": "¥", "inr": "₹"}
_UNIT_WORDS = {"%": ("percent", "per cent")}
# Units as learners spell them, each line one unit (after NFKC, casefolded: `µ` is `μ`).
SPELLINGS: tuple[tuple[str, ...], ...] = (
    ("ms", "msec", "millisecond", "milliseconds"),
    ("s", "sec", "second", "seconds"),
    ("μs", "us", "microsecond", "microseconds"),
    ("ns", "nanosecond", "nanoseconds"),
    ("usd", "$", "us$", "dollar", "dollars", "us dollars"),
    ("\u00d7", "x", "times"),  # the multiplication sign
    ("flops/byte", "flop/byte", "flops per byte", "flop per byte", "flops/b", "flop/b"),
    ("%", "percent", "per cent"),
)
# Units of one kind: a number in another of them is not a number in the question's unit.
KINDS: tuple[tuple[str, ...], ...] = (
    ("ns", "μs", "us", "ms", "s", "sec", "min", "h"),
    ("flops", "kflops", "mflops", "gflops", "tflops", "pflops", "eflops"),
    ("b", "kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib"),
    ("b/s", "kb/s", "mb/s", "gb/s", "tb/s", "gib/s", "tib/s"),
    ("usd", "eur", "gbp", "jpy", "cny", "inr", "€", "£", "¥", "₹"),
)
APPROXIMATELY = ("≈", "~", "about ")
# Minus signs and spaces people paste from documents and phones (NFKC leaves these).
_TYPOGRAPHY = str.maketrans({"\u2212": "-", "\u2013": "-", "\u00a0": " ", "\u202f": " "})
_GROUPING = " _'\u2019"  # marks that only ever group digits
_NUMERAL = re.compile(r"[0-9.,_'\u2019 ]+")
_EXPONENT = re.compile(r"^(.+?)e([-+]?[0-9]+)$")


class NumberError(LessonkitError):
    """What was typed is not one number; the message says what to type instead."""


class Number(float):
    """A number a learner typed: its value, plus the text it was read from.

    It is a ``float`` everywhere a number is expected (grading, history, JSON); ``typed``
    and ``read_as`` only serve to tell the learner how the text was read.
    """

    typed: str  # as typed, trimmed
    read_as: str  # e.g. `1000 TFLOPS`, or "" when the text already says exactly that

    def __new__(cls, value: float, typed: str = "", read_as: str = "") -> Number:
        made = super().__new__(cls, value)
        made.typed = typed
        made.read_as = read_as
        return made


def unset_mark(*, decimals: bool) -> DecimalMark:
    """The convention of a question that sets none: ``either`` (ask) when its answer may
    have decimals, for `2,147` may then be 2.147 as well as 2147; else ``point``, as a
    whole-number answer cannot be 2.147."""
    return "either" if decimals else "point"


def read_number(text: str, unit: str | None = None, decimal_mark: DecimalMark = "point") -> Number:
    """The number ``text`` stands for, or NumberError saying how to type one."""
    typed = clean(text)
    shown = _as_typed(text)  # messages quote what was typed, in the learner's own case
    body, respelled = _without_unit(typed, unit)
    written = body
    sign = ""
    if body[:1] in ("-", "+"):
        sign, body = body[0].replace("+", ""), body[1:].lstrip()
    try:
        digits = _digits(body, shown, unit, decimal_mark, sign)
    except NumberError:
        _name_the_word(body, typed, shown, unit)
        raise
    value = float(sign + digits)
    if not math.isfinite(value):
        raise NumberError(f"`{shown}` is too large. Type an ordinary finite number.")
    read = number_text(value)
    said = "" if written == read and not respelled else read + (f" {unit}" if unit else "")
    return Number(value, text.strip(), said)


def _as_typed(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY).strip()


def clean(text: str) -> str:
    """NFKC (full-width digits become ASCII), typographic minus and spaces plain, casefolded."""
    return unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY).strip().casefold()


def number_text(value: float) -> str:
    """A number as JavaScript's ``String(value)`` writes it: the fewest digits that read
    back exactly, positional from 1e-6 to 1e21 (so the page and the terminal agree)."""
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # The decimal exponent of the first significant digit, plus one (JavaScript's `n`).
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    if len(digits) <= point <= 21:
        return sign + digits + "0" * (point - len(digits))
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    rest = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if point > 0 else '-'}{abs(point - 1)}"


def _without_unit(typed: str, unit: str | None) -> tuple[str, bool]:
    """The number's text without its unit, and whether more than the unit's own spelling,
    its currency sign or `percent` was taken off (`25 milliseconds`, `about 25`)."""
    respelled = False
    for word in APPROXIMATELY:
        if typed.startswith(word) and typed[len(word) :].strip():
            typed, respelled = typed[len(word) :].lstrip(), True
            break
    if len(typed) > 1 and typed.endswith(".") and not typed[-2].isdigit():
        typed, respelled = typed[:-1].rstrip(), True  # a sentence's full stop: `10.5 ms.`
    if not unit:
        return typed, respelled
    folded, plain = clean(unit), typed
    for word in (folded, *_UNIT_WORDS.get(folded, ())):
        if typed.endswith(word) and typed != word and not _joined(typed[: -len(word)], word):
            typed = typed[: -len(word)].rstrip()
            break
    sign = _CURRENCY_SIGNS.get(folded)
    if sign and typed.strip(sign) and typed != typed.strip(sign):
        typed = typed.removeprefix(sign).removesuffix(sign).strip()
    if typed != plain:
        return typed, respelled
    spellings = next((line for line in SPELLINGS if folded in line), ())
    for word in sorted(spellings, key=len, reverse=True):
        before = typed[: -len(word)]
        if typed.endswith(word) and before.strip() and not _joined(before, word):
            return before.rstrip(), True
        after = typed[len(word) :]
        if "$" in spellings and typed.startswith(word) and after.strip():
            return after.lstrip(), True  # `USD 4.18`, `US$ 4.18`
    return typed, respelled


def _joined(before: str, word: str) -> bool:
    """``word`` is the end of a longer word, not a unit of its own (`s` in `5ms`)."""
    return word[:1].isalpha() and before[-1:].isalpha()


def _name_the_word(body: str, typed: str, shown: str, unit: str | None) -> None:
    """When a word after the number is the trouble, say so: another unit of the question's
    kind (`0.025 s` where it asks in ms), or a word it does not know, as it was written."""
    found = re.fullmatch(
        r"[-+]?[0-9][0-9.,_'\u2019 ]*(?:e[-+]?[0-9]+)? ?([^\s0-9.,_'\u2019+-]\S*)", body
    )
    if found is None or re.fullmatch(r"e[-+]?[0-9]+", found.group(1)):
        return  # no word after the number, or its exponent: the number's own trouble
    word = found.group(1)
    at = typed.rfind(word)
    as_written = shown[at : at + len(word)] if len(shown) == len(typed) and at >= 0 else word
    folded = clean(unit) if unit else ""
    if any(word in kind and folded in kind for kind in KINDS):
        raise NumberError(
            f"`{shown}` is in {as_written}; this question asks in {unit}. Type the number in "
            f"{unit}."
        )
    after = f", optionally followed by {unit}" if unit else ""
    raise NumberError(
        f"`{as_written}` is not a unit this question knows. Type a number such as `2.5` or "
        f"`2,5`{after}."
    )


def _digits(body: str, shown: str, unit: str | None, mark: DecimalMark, sign: str) -> str:
    """``body`` as Python's float() reads it: digits, at most one point, an exponent."""
    exponent = ""
    found = _EXPONENT.match(body)
    if found and re.fullmatch(r"[0-9.,]+", found.group(1)):
        body, exponent = found.group(1), "e" + found.group(2)
    body = re.sub(r"\s+", " ", body)
    after = f", optionally followed by {unit}" if unit else ""
    not_a_number = f"`{shown}` is not a number. Type digits such as `2.5` or `2,5`{after}."
    if not _NUMERAL.fullmatch(body):
        raise NumberError(not_a_number)
    groups = [""]  # the runs of digits between marks
    marks: list[str] = []
    for char in body:
        if char.isdigit():
            groups[-1] += char
        else:
            marks.append(char)
            groups.append("")
    decimal = _decimal_mark(groups, marks, shown, mark, sign)
    if decimal is not None:
        whole, fraction = groups[:-1], groups[-1]
        marks = marks[:-1]
    else:
        whole, fraction = groups, ""
    if marks:
        _check_grouping(whole, marks, shown)
    elif not whole[0] and (decimal is None or not fraction):
        raise NumberError(not_a_number)
    if exponent and marks:
        raise NumberError(f"`{shown}` groups digits and has an exponent. Type one or the other.")
    return "".join(whole) + ("." + fraction if decimal is not None else "") + exponent


def _decimal_mark(
    groups: list[str], marks: list[str], shown: str, convention: DecimalMark, sign: str
) -> str | None:
    """The mark that separates the decimals (the last one), or None when all group digits."""
    if not marks or marks[-1] not in ".,":
        return None
    last = marks[-1]
    if marks.count(last) > 1:
        return None  # `1,000,000`: a decimal mark comes only once
    if len(marks) > 1:
        return last  # `1,000.5`, `1 000,5`: grouping first, then the decimals
    if len(groups[1]) != 3 or not 1 <= len(groups[0]) <= 3 or groups[0].startswith("0"):
        return last  # `2,5`, `0,125`, `1.25`: no thousands group looks like that
    reads = {"point": ".", "comma": ","}.get(convention)
    if reads is None:
        number = sign + groups[0] + groups[1]
        fraction = f"{sign}{groups[0]}.{groups[1]}".rstrip("0").rstrip(".")
        # Written so that it cannot be read as thousands: `12.3450`, `1.5`, `1`.
        plain = fraction + "0" if len(fraction.partition(".")[2]) == 3 else fraction
        raise NumberError(
            f"`{shown}` could be {number} (with `{last}` grouping thousands) or {fraction} "
            f"(with a decimal `{last}`). Type `{number}` or `{plain}`."
        )
    return last if last == reads else None


def _check_grouping(whole: list[str], marks: list[str], shown: str) -> None:
    """Digits before the decimals grouped in threes (or the Indian 2-2-3), by one mark."""
    kinds = set(marks)
    if len(kinds) > 1:
        raise NumberError(
            f"`{shown}` groups digits with two different marks. Use one, e.g. `1,234,567.5` "
            "or `1 234 567,5`."
        )
    first, *middle, last = whole
    threes = all(len(g) == 3 for g in (*middle, last))
    indian = marks[0] == "," and len(last) == 3 and all(len(g) == 2 for g in middle)
    if 1 <= len(first) <= 3 and (threes or (indian and len(first) <= 2)):
        return
    if marks[0] in _GROUPING:
        name = "space" if marks[0] == " " else f"`{marks[0]}`"
        raise NumberError(
            f"`{shown}` is not one number: a {name} may only group digits in threes, as in "
            f"`12{marks[0]}345`. Type one number."
        )
    raise NumberError(
        f"`{shown}` is not a number: `{marks[0]}` here does not group digits in threes, as "
        f"in `1{marks[0]}234{marks[0]}567`. Type one number, e.g. `1234567`."
    )
