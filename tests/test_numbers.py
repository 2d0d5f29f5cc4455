"""Numbers as people write them: grouped thousands, either decimal mark, and the one
ambiguity, settled by the question's declared convention."""

from __future__ import annotations

import re

import pytest

from lessonkit.grading.numbers import (
    DECIMAL_MARKS,
    DecimalMark,
    NumberError,
    number_text,
    read_number,
)

READ: list[tuple[str, DecimalMark, float, str]] = [
    # typed, convention, value, how it was read ("" when the text says exactly that)
    ("1000", "point", 1000, ""),
    ("1,000", "point", 1000, "1000"),
    ("1,000", "comma", 1, "1"),
    ("1.000", "point", 1, "1"),
    ("1.000", "comma", 1000, "1000"),
    ("1 000", "point", 1000, "1000"),
    ("1 000", "comma", 1000, "1000"),
    ("1\u202f000", "either", 1000, "1000"),  # the narrow no-break space French uses
    ("1\u2009000", "either", 1000, "1000"),  # a thin space
    ("1'000", "either", 1000, "1000"),
    ("1\u2019000", "either", 1000, "1000"),
    ("1_000", "either", 1000, "1000"),
    ("1,000.5", "comma", 1000.5, "1000.5"),
    ("1.000,5", "point", 1000.5, "1000.5"),
    ("1 000,5", "point", 1000.5, "1000.5"),
    ("1 000.25", "comma", 1000.25, "1000.25"),
    ("1,234,567", "either", 1234567, "1234567"),
    ("1.234.567", "point", 1234567, "1234567"),
    ("1.234.567,89", "either", 1234567.89, "1234567.89"),
    ("1,00,000", "point", 100000, "100000"),  # Indian grouping
    ("12,34,567.5", "point", 1234567.5, "1234567.5"),
    ("2,5", "point", 2.5, "2.5"),  # a group has three digits: this is a decimal comma
    ("2,50", "either", 2.5, "2.5"),
    ("1234,567", "point", 1234.567, "1234.567"),  # 1234 is no group of thousands
    ("0,125", "point", 0.125, "0.125"),  # nor is 0
    ("-1,000", "point", -1000, "-1000"),
    ("\u22121 000", "point", -1000, "-1000"),
    ("- 3", "point", -3, "-3"),
    ("+3", "point", 3, "3"),
    (".5", "point", 0.5, "0.5"),
    ("5.", "point", 5, "5"),
    ("1e3", "point", 1000, "1000"),
    ("1,5e3", "point", 1500, "1500"),
    ("\uff11\uff0c\uff10\uff10\uff10", "point", 1000, "1000"),  # full-width
]


@pytest.mark.parametrize(("typed", "mark", "value", "read_as"), READ)
def test_read_number(typed: str, mark: DecimalMark, value: float, read_as: str) -> None:
    number = read_number(typed, decimal_mark=mark)
    assert (number, number.read_as) == (value, read_as)
    assert number.typed == typed.strip()


def test_how_a_number_was_read_names_the_unit() -> None:
    assert read_number("1,000 TFLOPS", "TFLOPS").read_as == "1000 TFLOPS"
    assert read_number("$1,200.50", "USD").read_as == "1200.5 USD"
    assert read_number("21 percent", "%").read_as == ""
    assert read_number("21 per cent", "%") == 21


REFUSED: list[tuple[str, DecimalMark, str]] = [
    (
        "2 4 1 1",
        "point",
        "`2 4 1 1` is not one number: a space may only group digits in threes, as in "
        "`12 345`. Type one number.",
    ),
    (
        "12 34",
        "point",
        "`12 34` is not one number: a space may only group digits in threes, as in `12 345`. "
        "Type one number.",
    ),
    (
        "2 .5",
        "point",
        "`2 .5` is not one number: a space may only group digits in threes, as in `12 345`. "
        "Type one number.",
    ),
    (
        "1,000",
        "either",
        "`1,000` could be 1000 (with `,` grouping thousands) or 1 (with a decimal `,`). "
        "Type `1000` or `1`.",
    ),
    (
        "12.345",
        "either",
        "`12.345` could be 12345 (with `.` grouping thousands) or 12.345 (with a decimal "
        "`.`). Type `12345` or `12.3450`.",
    ),
    (
        "1,2,3",
        "point",
        "`1,2,3` is not a number: `,` here does not group digits in threes, as in "
        "`1,234,567`. Type one number, e.g. `1234567`.",
    ),
    (
        "1,5.000",
        "point",
        "`1,5.000` is not a number: `,` here does not group digits in threes, as in "
        "`1,234,567`. Type one number, e.g. `1234567`.",
    ),
    (
        "1 000,000.5",
        "point",
        "`1 000,000.5` groups digits with two different marks. Use one, e.g. `1,234,567.5` "
        "or `1 234 567,5`.",
    ),
    ("1,000e3", "point", "`1,000e3` groups digits and has an exponent. Type one or the other."),
    ("1.5.", "point", "`1.5.` is not a number: `.` here does not group digits in threes, as "
     "in `1.234.567`. Type one number, e.g. `1234567`."),
    (".", "point", "`.` is not a number. Type digits such as `2.5` or `2,5`."),
    ("\u0663", "point", "`\u0663` is not a number. Type digits such as `2.5` or `2,5`."),
    ("1e999", "point", "`1e999` is too large. Type an ordinary finite number."),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "mark", "message"), REFUSED)
def test_not_one_number_is_refused_with_what_to_type(
    typed: str, mark: DecimalMark, message: str
) -> None:
    with pytest.raises(NumberError) as caught:
        read_number(typed, decimal_mark=mark)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1000.0, "1000"),
        (2.5, "2.5"),
        (-0.25, "-0.25"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e-6, "0.000001"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (123456789012345680000.0, "123456789012345680000"),
        (1e21, "1e+21"),
        (1.25e22, "1.25e+22"),
        (5e-324, "5e-324"),
    ],
)
def test_number_text_writes_numbers_as_javascript_does(value: float, text: str) -> None:
    assert number_text(value) == text


def test_the_bank_format_offers_the_conventions_the_reader_knows() -> None:
    from typing import get_args

    from lessonkit.bank.questions import DecimalMark as Declared

    assert get_args(Declared) == DECIMAL_MARKS


def test_a_bank_decimal_mark_is_each_numeric_question_s_unless_it_sets_its_own() -> None:
    from lessonkit.bank.models import Bank

    base = {"prompt": "P?", "insight": 1, "section": "s", "explanation": "Because."}
    bank = Bank.model_validate(
        {
            "lesson": "x",
            "title": "X",
            "pass_mark": 0.5,
            "decimal_mark": "comma",
            "questions": [
                {"id": "a", "type": "numeric", "answer": 1, **base},
                {"id": "b", "type": "numeric", "answer": 1, "decimal_mark": "point", **base},
                {"id": "c", "type": "true_false", "answer": True, **base},
            ],
        }
    )
    marks = [q.model_dump().get("decimal_mark") for q in bank.questions]
    assert marks == ["comma", "point", None]


@pytest.mark.parametrize("typed", ["1,000", "1.000", "12.345", "1,500", "999.990", "-100,250"])
def test_what_an_ambiguous_number_asks_for_can_only_mean_one_thing(typed: str) -> None:
    with pytest.raises(NumberError) as caught:
        read_number(typed, decimal_mark="either")
    thousands, decimals = re.findall(r"`([^`]*)`", str(caught.value))[-2:]
    sign = -1 if typed.startswith("-") else 1
    digits = typed.lstrip("-")
    assert read_number(thousands, decimal_mark="either") == sign * float(re.sub("[.,]", "", digits))
    assert read_number(decimals, decimal_mark="either") == sign * float(digits.replace(",", "."))
