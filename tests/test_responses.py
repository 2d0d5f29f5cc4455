"""What learners type, turned into canonical responses; wrong forms refused with a reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lessonkit.errors import ContentError
from lessonkit.grading.credit import Response
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError, RuntimeQuestion
from lessonkit.quiz.answers import read_answers

# The tables below give only what each case needs; a question also has these.
_COMMON = {"prompt": "P?", "explanation": "E.", "section": "s", "insight": 1}
_NEEDED: dict[str, dict[str, Any]] = {"true_false": {"answer": True}, "numeric": {"answer": 1}}


def question_of(data: dict[str, Any]) -> RuntimeQuestion:
    return registry.decode({**_COMMON, **_NEEDED.get(data["type"], {}), **data})


def parse(data: dict[str, Any], text: str, display: Any) -> Response:
    return registry.parse(question_of(data), text, display)


def expected_form(data: dict[str, Any]) -> str:
    question = question_of(data)
    return registry.of(question).expected_form(question)


def shown(data: dict[str, Any], response: Any, display: Any) -> str:
    question = question_of(data)
    return registry.of(question).shown(question, response, display)


def described(data: dict[str, Any], response: Any, display: Any) -> list[str]:
    question = question_of(data)
    return registry.of(question).described(question, response, display)


def part_marks(data: dict[str, Any], response: Any) -> list[bool] | None:
    question = question_of(data)
    return registry.of(question).part_marks(question, response)


def chosen_feedback(data: dict[str, Any], response: Any, display: Any) -> list[tuple[str, str]]:
    question = question_of(data)
    return registry.of(question).chosen_feedback(question, response, display)


OPTIONS = [{"text": t, "correct": t == "B"} for t in "ABCD"]
SINGLE = {"id": "s", "type": "single", "options": OPTIONS}
MULTIPLE = {"id": "m", "type": "multiple", "options": OPTIONS}
TRUE_FALSE = {"id": "tf", "type": "true_false"}
NUMERIC = {"id": "n", "type": "numeric", "unit": "GB/s"}
BARE_NUMERIC = {"id": "b", "type": "numeric", "unit": None}
DOLLARS = {"id": "d", "type": "numeric", "unit": "USD"}
POUNDS = {"id": "p", "type": "numeric", "unit": "GBP"}
PERCENT = {"id": "pc", "type": "numeric", "unit": "%"}
TEXT = {"id": "t", "type": "text"}
ORDER = {"id": "o", "type": "order", "items": ["w", "x", "y", "z"]}
MATCH = {
    "id": "mt",
    "type": "match",
    "pairs": [
        {"left": "1", "right": "r1"},
        {"left": "2", "right": "r2"},
        {"left": "3", "right": "r3"},
    ],
    "distractors": ["r4"],
}
# Shown orders: option 1 on screen is bank option 2, and so on.
SHUFFLED = (2, 0, 3, 1)

PARSED: list[tuple[str, dict[str, Any], str, Any]] = [
    ("single", SINGLE, "1", 2),
    ("single stray whitespace", SINGLE, "  4 \n", 1),
    ("single full-width digit", SINGLE, "\uff13", 3),
    ("multiple commas", MULTIPLE, "1,3", frozenset({2, 3})),
    ("multiple spaces", MULTIPLE, "1 3", frozenset({2, 3})),
    ("multiple mixed separators", MULTIPLE, "3, 1;4", frozenset({1, 2, 3})),
    ("true t", TRUE_FALSE, "t", True),
    ("true word any case", TRUE_FALSE, " TRUE ", True),
    ("yes", TRUE_FALSE, "y", True),
    ("false f", TRUE_FALSE, "f", False),
    ("no", TRUE_FALSE, "No", False),
    ("numeric point", NUMERIC, "3.5", 3.5),
    ("numeric comma", NUMERIC, "3,5", 3.5),
    ("numeric with unit", NUMERIC, "900 GB/s", 900.0),
    ("numeric unit without space, other case", NUMERIC, "900gb/s", 900.0),
    ("numeric negative with a typographic minus", BARE_NUMERIC, "\u22122.5", -2.5),
    ("numeric exponent", BARE_NUMERIC, "1e3", 1000.0),
    ("numeric currency sign first", DOLLARS, "$28", 28.0),
    ("numeric currency sign last", DOLLARS, "28 $", 28.0),
    ("numeric currency sign and unit", DOLLARS, "$15.8 usd", 15.8),
    ("numeric other currency, decimal comma", POUNDS, "£4,50", 4.5),
    ("numeric full-width", BARE_NUMERIC, "\uff13\uff0c\uff15", 3.5),
    ("numeric leading point", BARE_NUMERIC, ".5", 0.5),
    ("numeric thousands and decimals", BARE_NUMERIC, "1,000.5", 1000.5),
    ("numeric thousands twice", BARE_NUMERIC, "1,000,000", 1_000_000.0),
    ("numeric thousands by spaces", NUMERIC, "1 000 GB/s", 1000.0),
    ("numeric lone comma, English by default", BARE_NUMERIC, "1,000", 1000.0),
    ("numeric lone comma, decimal comma", {**BARE_NUMERIC, "decimal_mark": "comma"}, "1,000", 1.0),
    ("text kept as typed, trimmed", TEXT, "  Systolic  array ", "Systolic  array"),
    ("order", ORDER, "3 1 2 4", (3, 2, 0, 1)),
    ("order commas", ORDER, "3,1,2,4", (3, 2, 0, 1)),
    ("order compact", ORDER, "3124", (3, 2, 0, 1)),
    ("match", MATCH, "1b 2a 3c", (0, 2, 3)),
    ("match any order and separators", MATCH, "3-C, 1b 2:a", (0, 2, 3)),
]


@pytest.mark.parametrize(
    ("question", "text", "expected"), [c[1:] for c in PARSED], ids=[c[0] for c in PARSED]
)
def test_parse(question: dict[str, Any], text: str, expected: Any) -> None:
    assert parse(question, text, SHUFFLED) == expected


REFUSED: list[tuple[dict[str, Any], str, str]] = [
    (SINGLE, "", "Nothing was typed. Type one number from 1 to 4."),
    (SINGLE, "   ", "Nothing was typed. Type one number from 1 to 4."),
    (SINGLE, "5", "There is no 5. Choose from 1 to 4."),
    (SINGLE, "0", "There is no 0. Choose from 1 to 4."),
    (SINGLE, "b", "`b` is not a number. Type one number from 1 to 4."),
    (SINGLE, "1,2", "`1,2` is not a number. Type one number from 1 to 4."),
    (
        MULTIPLE,
        "1 x",
        "`x` is not a number. Type numbers from 1 to 4 separated by commas or spaces, e.g. `1,3`.",
    ),
    (MULTIPLE, "1,9", "There is no 9. Choose from 1 to 4."),
    (TRUE_FALSE, "maybe", "`maybe` is neither true nor false. Type t (true) or f (false)."),
    (
        NUMERIC,
        "nan",
        "`nan` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by GB/s.",
    ),
    (BARE_NUMERIC, "inf", "`inf` is not a number. Type digits such as `2.5` or `2,5`."),
    (BARE_NUMERIC, "$28", "`$28` is not a number. Type digits such as `2.5` or `2,5`."),
    (
        DOLLARS,
        "$",
        "`$` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by USD.",
    ),
    (
        DOLLARS,
        "$$28",
        "`$$28` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by USD.",
    ),
    (
        POUNDS,
        "$28",
        "`$28` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by GBP.",
    ),
    (BARE_NUMERIC, "Infinity", "`infinity` is not a number. Type digits such as `2.5` or `2,5`."),
    (BARE_NUMERIC, "1e999", "`1e999` is too large. Type an ordinary finite number."),
    (
        BARE_NUMERIC,
        "2 4 1 1",
        "`2 4 1 1` is not one number: a space may only group digits in threes, as in "
        "`12 345`. Type one number.",
    ),
    (
        {**BARE_NUMERIC, "decimal_mark": "either"},
        "1,000",
        "`1,000` could be 1000 (with `,` grouping thousands) or 1 (with a decimal `,`). "
        "Type `1000` or `1`.",
    ),
    (
        NUMERIC,
        "900 MB/s",
        "`900 mb/s` is not a number. Type digits such as `2.5` or `2,5`, "
        "optionally followed by GB/s.",
    ),
    (
        NUMERIC,
        "GB/s",
        "`gb/s` is not a number. Type digits such as `2.5` or `2,5`, optionally followed by GB/s.",
    ),
    (TEXT, " \t", "Nothing was typed. Type your answer."),
    (ORDER, "1 2 3", "4 is missing. Use each of 1 to 4 once."),
    (ORDER, "1 1 2 3", "1 appears twice; 4 is missing. Use each of 1 to 4 once."),
    (ORDER, "1 2 3 5", "There is no 5. Choose from 1 to 4."),
    (ORDER, "a b c d", "Type the numbers 1 to 4 separated by spaces, e.g. `2 3 4 1`."),
    (MATCH, "1b 2a", "3 has no letter. Match every number from 1 to 3, e.g. `1b 2c 3a`."),
    (MATCH, "1b 1a 3c", "1 is matched twice. Give each number one letter."),
    (MATCH, "1a 2a 3b", "a is used twice. Give each letter to one number at most."),
    (MULTIPLE, "1 1", "1 is typed twice. Type each number once, e.g. `1,3`."),
    (MATCH, "1e 2a 3b", "There is no e on the right. Use a to d."),
    (MATCH, "4a 1b 2c 3d", "There is no 4 on the left. Use 1 to 3."),
    (MATCH, "b a c", "Type pairs of a number and a letter, e.g. `1b 2c 3a`."),
]


@pytest.mark.parametrize(
    ("question", "text", "message"), REFUSED, ids=[f"{q['type']}:{t!r}" for q, t, _ in REFUSED]
)
def test_parse_refuses_with_the_expected_form(
    question: dict[str, Any], text: str, message: str
) -> None:
    with pytest.raises(ResponseError) as caught:
        parse(question, text, SHUFFLED)
    assert str(caught.value) == message


def test_expected_forms() -> None:
    assert [
        expected_form(q)
        for q in (SINGLE, MULTIPLE, TRUE_FALSE, NUMERIC, BARE_NUMERIC, PERCENT, TEXT, ORDER, MATCH)
    ] == [
        "Type one number from 1 to 4.",
        "Type every number that applies, from 1 to 4, e.g. `1,3` or `1 3`.",
        "Type t (true) or f (false).",
        "Type a number (decimal point or comma), optionally followed by GB/s.",
        "Type a number (decimal point or comma).",
        "Type a percentage (decimal point or comma), e.g. `50` for half, optionally followed by %.",
        "Type your answer.",
        "Type the numbers 1 to 4 in the right order, e.g. `2 3 4 1`.",
        "Match each of 1 to 3 with a letter from a to d, e.g. `1b 2c 3a`.",
    ]


@pytest.mark.parametrize(
    ("question", "response", "typed"),
    [
        (SINGLE, 2, "1"),
        (MULTIPLE, frozenset({2, 3}), "1,3"),
        (ORDER, (3, 2, 0, 1), "3 1 2 4"),
        (MATCH, (0, 2, 3), "1b 2a 3c"),
        (TRUE_FALSE, False, "false"),
        (NUMERIC, 3.5, "3.5 GB/s"),
        (TEXT, "HBM", "HBM"),
    ],
)
def test_shown_is_what_parse_reads_back(
    question: dict[str, Any], response: Any, typed: str
) -> None:
    assert shown(question, response, SHUFFLED) == typed
    assert parse(question, typed, SHUFFLED) == response
    runtime = question_of(question)
    assert registry.from_json(runtime, registry.to_json(runtime, response)) == response


@pytest.mark.parametrize(
    ("question", "typed", "said"),
    [
        (NUMERIC, "1,000", "1,000 (read as 1000 GB/s)"),
        (NUMERIC, " 1 000 gb/s ", "1 000 gb/s (read as 1000 GB/s)"),
        (BARE_NUMERIC, "1.000,5", "1.000,5 (read as 1000.5)"),
        (BARE_NUMERIC, "1,234,567", "1,234,567 (read as 1234567)"),
        (BARE_NUMERIC, "2,5", "2,5 (read as 2.5)"),
        (NUMERIC, "900 GB/s", "900 GB/s"),
        (BARE_NUMERIC, "42", "42"),
    ],
)
def test_a_number_is_described_with_how_it_was_read(
    question: dict[str, Any], typed: str, said: str
) -> None:
    assert described(question, parse(question, typed, ()), ()) == [said]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "answers.yml"
    path.write_text(text, encoding="utf-8")
    return path


QUESTIONS = [SINGLE, MULTIPLE, TRUE_FALSE, NUMERIC, ORDER, MATCH]


def test_read_answers_takes_typed_and_native_values(tmp_path: Path) -> None:
    path = write(tmp_path, 's: 2\nm: "1,3"\ntf: false\nn: 3,5\no: [4, 3, 2, 1]\nmt: "1a 2b 3c"\n')
    got = {k: v[0] for k, v in read_answers(path, [question_of(q) for q in QUESTIONS]).items()}
    # Numbers in an answers file follow the bank's own order: no shuffling.
    assert got == {
        "s": 1,
        "m": frozenset({0, 2}),
        "tf": False,
        "n": 3.5,
        "o": (3, 2, 1, 0),
        "mt": (0, 1, 2),
    }


def test_read_answers_reports_every_problem_with_positions(tmp_path: Path) -> None:
    path = write(tmp_path, "s: 7\ntff: 1\nm: {a: 1}\nn: .nan\n")
    with pytest.raises(ContentError) as caught:
        read_answers(path, [question_of(q) for q in QUESTIONS])
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:1:4: s: There is no 7. Choose from 1 to 4.",
        f"{path}:2:1: no question `tff` in this quiz (did you mean `tf`?)",
        f'{path}:3:4: m: write the answer as text or a number, e.g. `2`, `"1,3"` or `"1b 2a"`',
        f"{path}:4:4: n: `nan` is not a number. Type digits such as `2.5` or `2,5`, "
        "optionally followed by GB/s.",
    ]


def test_read_answers_needs_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        read_answers(write(tmp_path, "- 1\n- 2\n"), [question_of(q) for q in QUESTIONS])
    assert "an answers file is a mapping" in str(caught.value)


MULTILINE = {"id": "ml", "type": "text", "multiline": True}
FEEDBACK = [
    {"text": t, "correct": t == "B", "feedback": f"Not {t}." if t != "B" else None} for t in "ABCD"
]


def test_several_lines_are_one_answer_without_the_blank_lines_around_it() -> None:
    assert parse(MULTILINE, "\n\n  a = 1  \nb  \n\n", ()) == "  a = 1\nb"
    assert expected_form(MULTILINE) == "Type your answer line by line; an empty line ends it."


@pytest.mark.parametrize(
    ("question", "response", "words"),
    [
        (SINGLE, 2, ["1. C"]),
        (MULTIPLE, frozenset({1, 2}), ["1. C", "4. B"]),
        (MULTIPLE, frozenset(), ["nothing"]),
        (TRUE_FALSE, False, ["false"]),
        (NUMERIC, 2.5, ["2.5 GB/s"]),
        (TEXT, "matmul", ["matmul"]),
        (MULTILINE, "1\n2", ["1", "2"]),
        # In the order placed, each numbered as shown (and so as typed: `3 2 4 1`).
        (ORDER, (3, 0, 1, 2), ["3. z", "2. w", "4. x", "1. y"]),
        (MATCH, (2, 0, 3), ["1. 1 \u2192 a. r3", "2. 2 \u2192 b. r1", "3. 3 \u2192 c. r4"]),
    ],
)
def test_answers_are_described_in_words_with_the_numbers_shown(
    question: dict[str, Any], response: Any, words: list[str]
) -> None:
    # For match, the right-hand items are shown as a=r3, b=r1, c=r4, d=r2.
    display = (2, 0, 3, 1)
    assert described(question, response, display) == words


@pytest.mark.parametrize(
    ("question", "response", "marks"),
    [
        (MATCH, (0, 1, 2), [True, True, True]),
        (MATCH, (2, 1, 3), [False, True, False]),
        (ORDER, (0, 1, 2, 3), [True, True, True, True]),
        # w first is right; y after x is right (a neighbour pair kept), the rest are not.
        (ORDER, (0, 3, 1, 2), [True, False, False, True]),
        (SINGLE, 1, None),
        (TRUE_FALSE, True, None),
    ],
)
def test_each_pair_and_placing_is_marked(
    question: dict[str, Any], response: Any, marks: list[bool] | None
) -> None:
    assert part_marks(question, response) == marks


def test_feedback_is_given_for_each_chosen_option_by_its_number_on_screen() -> None:
    single = {**SINGLE, "options": FEEDBACK}
    multiple = {**MULTIPLE, "options": FEEDBACK}
    assert chosen_feedback(single, 0, SHUFFLED) == [("option 2", "Not A.")]
    assert chosen_feedback(single, 1, SHUFFLED) == []
    assert chosen_feedback(multiple, frozenset({0, 1, 2}), SHUFFLED) == [
        ("option 1", "Not C."),
        ("option 2", "Not A."),
    ]
    assert chosen_feedback(ORDER, (0, 1, 2, 3), SHUFFLED) == []
