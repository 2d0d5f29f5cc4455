"""GIFT import: Moodle's own documented examples keep each question, or name what is lost."""

from __future__ import annotations

from pathlib import Path

from lessonkit.imports import read

FIXTURES = Path(__file__).parent / "fixtures" / "imports"


def _gift(tmp_path: Path, text: str) -> tuple[list[dict[str, object]], list[str]]:
    path = tmp_path / "quiz.gift.txt"
    path.write_text(text, encoding="utf-8")
    imported = read(path, "gift")
    return [d.fields for d in imported.drafts], [f"{x.question}: {x.what}" for x in imported.losses]


def test_the_documented_multi_line_numeric_keeps_its_answer_and_names_the_partial_credit(
    tmp_path: Path,
) -> None:
    fields, lost = _gift(
        tmp_path, "::Grant::When was Ulysses S. Grant born? {#\n=1822:0\n=%50%1822:2\n}\n"
    )
    assert [(f["type"], f["answer"], f.get("tolerance")) for f in fields] == [
        ("numeric", 1822.0, None)
    ]
    assert lost == ["Grant: partial credit (50%) for 1822 ± 2: lessonkit's numeric answers are "
                    "right or wrong, so these count as wrong"]  # fmt: skip


def test_several_right_answers_keep_one_and_say_which_was_left_out(tmp_path: Path) -> None:
    fields, lost = _gift(tmp_path, "::Primes::Which is a prime? {=2 =3 ~4 ~6}\n")
    assert fields[0]["type"] == "single"
    assert fields[0]["options"] == [{"text": "2", "correct": True}, {"text": "4"}, {"text": "6"}]
    assert lost == ["Primes: several right answers: Moodle gave full marks for any of `2`, `3`, "
                    "but lessonkit's single choice has one right option, so `2` is kept as it "
                    "and `3` left out (as an option, choosing it would be marked wrong)"]  # fmt: skip


def test_a_penalty_and_partial_credit_are_named(tmp_path: Path) -> None:
    fields, lost = _gift(tmp_path, "::Pick::Pick one {=yes ~%-50%no ~%25%maybe}\n")
    assert [o.get("correct", False) for o in fields[0]["options"]] == [True, False, False]  # type: ignore[union-attr]
    assert lost == [
        "Pick: penalty (-50%) for `no`: lessonkit takes no marks off for a wrong option",
        "Pick: partial credit (25%) for `maybe`: lessonkit's single choice gives none, so "
        "choosing it counts as wrong",
    ]


def test_multiple_answers_with_marks_say_how_lessonkit_scores_them(tmp_path: Path) -> None:
    fields, lost = _gift(
        tmp_path, "::Tomb::Who? {~No one ~%50%Grant ~%50%Grant's wife ~Grant's father}\n"
    )
    assert fields[0]["type"] == "multiple"
    assert lost == ["Tomb: option marks (`No one` 0%, `Grant` 50%, `Grant's wife` 50%, "
                    "`Grant's father` 0%): lessonkit scores (right chosen - wrong chosen) ÷ "
                    "right options, so each right option is worth 50% and each wrong one "
                    "costs 50%"]  # fmt: skip
    _, same = _gift(tmp_path, "::Tomb::Who? {~%-50%No one ~%50%Grant ~%50%Wife ~%-50%Father}\n")
    assert same == []  # Moodle's marks are lessonkit's rule: nothing to report


def test_identifiers_and_gaps_come_without_backslashes(tmp_path: Path) -> None:
    fields, _ = _gift(
        tmp_path,
        "::Key::Which column joins `orders` to customers, customer_id or order_id? "
        "{=customer_id ~order_id}\n\n::Gap::SELECT * FROM t gives {=all ~some} rows.\n",
    )
    assert fields[0]["prompt"] == (
        "Which column joins `orders` to customers, customer_id or order_id?"
    )
    assert [o["text"] for o in fields[0]["options"]] == ["customer_id", "order_id"]  # type: ignore[index]
    assert fields[1]["prompt"] == "SELECT * FROM t gives _____ rows."


def test_every_example_in_moodles_gift_documentation_is_kept() -> None:
    imported = read(FIXTURES / "moodle/gift_examples.txt", "gift")
    assert len(imported.drafts) == 43  # every question in the file
    assert not [loss for loss in imported.losses if loss.omitted]
    numeric = next(d.fields for d in imported.drafts if d.name == "Numerical example")
    assert (numeric["answer"], numeric.get("tolerance")) == (1822.0, None)
