"""`order`: reading, grading by the fewest items to move, words, the hash, exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.bank.questions import OrderQuestion
from lessonkit.export import convert
from lessonkit.imports import read
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from lessonkit.questiontypes.order import MOODLE_CREDIT, MOODLE_LOSS, Order, in_order
from test_export_common import every_type

DATA = {"id": "steps", "type": "order", "prompt": "Order the steps.", "insight": 1,
        "section": "s", "explanation": "Because so.",
        "items": ["write", "compile", "run", "profile"]}  # fmt: skip


def question(**changes: object) -> Order:
    model = OrderQuestion.model_validate(DATA | changes)
    return Order.from_json(model.model_dump(mode="json"))


@pytest.mark.parametrize(
    ("response", "moves", "share"),
    [
        ((0, 1, 2, 3), 0, 1.0),  # the key
        ((0, 2, 1, 3), 1, 2 / 3),  # the two middle items swapped
        ((1, 0, 2, 3), 1, 2 / 3),  # the first two swapped
        ((1, 2, 3, 0), 1, 2 / 3),  # the first item moved last: still one move
        ((3, 0, 1, 2), 1, 2 / 3),  # the last item moved first
        ((2, 3, 0, 1), 2, 1 / 3),  # the halves swapped
        ((1, 0, 3, 2), 2, 1 / 3),  # two pairs swapped
        ((3, 2, 1, 0), 3, 0.0),  # reversed: everything but one item moves
    ],
)
def test_credit_is_one_minus_moves_over_n_minus_1(
    response: tuple[int, ...], moves: int, share: float
) -> None:
    assert in_order(response).count(False) == moves
    grade = registry.grade(question(points=3), response)
    assert grade.score == pytest.approx(3 * share)
    assert grade.correct is (moves == 0)


def test_the_middle_swap_scores_more_than_the_reversal() -> None:
    middle = registry.grade(question(), (0, 2, 1, 3)).score
    assert middle > registry.grade(question(), (3, 2, 1, 0)).score == 0.0


def test_all_or_nothing_gives_nothing_for_one_move() -> None:
    assert registry.grade(question(scoring="all_or_nothing"), (0, 2, 1, 3)).score == 0.0


@pytest.mark.parametrize(
    ("placed", "kept"),
    [
        # Of the two longest runs, (1, 2, 3) and (0, 2, 3), the one taking the earliest
        # placings: read first to last, 0 comes too late after 1.
        ((1, 0, 2, 3), [True, False, True, True]),
        ((0, 2, 1, 3), [True, True, False, True]),
        ((2, 0, 3, 1), [True, False, True, False]),
        ((4, 0, 1, 2, 3), [False, True, True, True, True]),
        ((), []),
    ],
)
def test_ties_keep_the_earliest_placings(placed: tuple[int, ...], kept: list[bool]) -> None:
    assert in_order(placed) == kept


def test_parse_reads_the_shown_numbers() -> None:
    q = question()
    assert registry.parse(q, "2 1 3 4", (1, 0, 2, 3)) == (0, 1, 2, 3)
    assert registry.parse(q, "1324", range(4)) == (0, 2, 1, 3)
    with pytest.raises(ResponseError, match=r"^2 appears twice; 4 is missing\. Use each of 1"):
        registry.parse(q, "1 2 2 3", range(4))


def test_words_mark_the_items_out_of_place() -> None:
    q, kind = question(), registry.of(question())
    response = (1, 2, 3, 0)
    assert kind.described(q, response, range(4)) == [
        "2. compile", "3. run", "4. profile", "1. write"]  # fmt: skip
    assert kind.part_marks(q, response) == [True, True, True, False]
    assert kind.marks_meaning == "in the right order with each other; \u2717 out of place"
    assert kind.key_described(q) == ["1. write", "2. compile", "3. run", "4. profile"]


def test_the_answer_key_hash_did_not_change_with_the_rule() -> None:
    # A golden value from before the rule counted moves: which order is right did not
    # change, so learners' earlier answers keep counting (order.py's docstring says why).
    assert registry.key_hash(question()) == "713e9b2be087"


def test_exports_carry_it_or_say_what_is_lost() -> None:
    source = every_type()
    moodle = convert(source, "moodle")
    assert b"<gradingtype>LONGEST_ORDERED_SUBSET</gradingtype>" in moodle.data
    order_losses = [loss.what for loss in moodle.losses if loss.question == "ex-order"]
    assert order_losses == [MOODLE_LOSS, MOODLE_CREDIT]
    for to, lost in [("qti", "Canvas has no ordering question"), ("gift", "GIFT has no ordering")]:
        assert any(
            lost in loss.what for loss in convert(source, to).losses if loss.question == "ex-order"
        )
    assert convert(source, "anki").losses == []


def test_moodles_grading_types_read_back_with_what_differs(tmp_path: Path) -> None:
    exported = tmp_path / "bank.xml"
    exported.write_bytes(convert(every_type(), "moodle").data)
    imported = read(exported, "moodle")
    (order,) = (d.fields for d in imported.drafts if d.fields["type"] == "order")
    assert "scoring" not in order  # partial, as written
    assert [loss.what for loss in imported.losses if loss.question == "ex-order"] == [
        "grading by the longest ordered subset: lessonkit scores it (length - 1) out of "
        "(items - 1), not length out of items"
    ]
    neighbours = exported.read_text().replace(
        "LONGEST_ORDERED_SUBSET", "RELATIVE_NEXT_EXCLUDE_LAST"
    )
    exported.write_text(neighbours)
    assert [loss.what for loss in read(exported, "moodle").losses
            if loss.question == "ex-order"] == [
        "grading type RELATIVE_NEXT_EXCLUDE_LAST: lessonkit grades by the longest subset of "
        "items in the right order"]  # fmt: skip
