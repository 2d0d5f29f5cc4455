"""A course's facts files: the format, and every problem at file:line:col with a hint."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from conftest import FACTS
from lessonkit.bank.factbook import Place
from lessonkit.bank.loader import read_facts


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course sees them


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_course_without_facts_has_none(tmp_path: Path) -> None:
    book = read_facts(tmp_path)
    assert (list(book.facts), book.problems, book.files) == ([], [], ())


def test_facts_load_with_where_each_is_written(tmp_path: Path) -> None:
    book = read_facts(write(tmp_path, {"facts/chips.yml": FACTS}))
    assert book.problems == []
    assert list(book.facts) == ["h100-sxm.hbm", "h200.hbm", "tpu-v6e.price"]
    assert book.places["h200.hbm"] == Place("facts/chips.yml", 15, 5)
    price = book.facts["tpu-v6e.price"]
    assert (price.value, price.unit, price.kind) == (2.7, "USD/chip-hour", "price")
    assert price.qualifiers == {"region": "us-east1", "commitment": "on-demand"}
    assert (price.as_of, price.checked) == (dt.date(2026, 10, 1), dt.date(2026, 11, 20))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "    unit: GB\n    as_of: 2023-03-21",
            "    unit: FLOPS\n    as_of: 2023-03-21",
            "facts/chips.yml:6:11: facts[0].unit: `FLOPS` is ambiguous (write `FLOP/s` for a "
            "rate (`TFLOP/s`), `FLOP` for an amount)",
        ),
        (
            "    as_of: 2023-03-21",
            "    as_of: March 2023",
            "facts/chips.yml:7:12: facts[0].as_of: `March 2023` is not a date (write the day, "
            "e.g. `2023-03-01` for a day in that month)",
        ),
        (
            "  - id: h100-sxm.hbm",
            "  - id: H100_SXM",
            "facts/chips.yml:3:9: facts[0].id: `H100_SXM` is not in the expected form (use "
            "lower-case words joined by dots and hyphens, e.g. `h100-sxm.hbm`)",
        ),
        (
            "    kind: spec\n    source:\n      url: https://www.nvidia.com/en-us/data-center/h100/",
            "    kind: datasheet\n    source:\n      url: https://www.nvidia.com/en-us/data-center/h100/",
            "facts/chips.yml:9:11: facts[0].kind: `datasheet` is not allowed (use 'spec', "
            "'price' or 'other')",
        ),
        (
            "      primary: true\n  - id: h200.hbm",
            "      primary: true\n    sauce: oops\n  - id: h200.hbm",
            "facts/chips.yml:15:5: facts[0].sauce: unknown field `sauce` (did you mean `source`?)",
        ),
    ],
)
def test_a_bad_record_is_reported_where_it_is_and_the_rest_still_load(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    assert old in FACTS
    book = read_facts(write(tmp_path, {"facts/chips.yml": FACTS.replace(old, new, 1)}))
    assert [str(p) for p in book.problems] == [expected]
    assert list(book.facts) == ["h200.hbm", "tpu-v6e.price"]


def test_an_id_defined_twice_names_the_first(tmp_path: Path) -> None:
    second = FACTS.split("  - id: h200.hbm")[0].replace("80", "81")
    book = read_facts(write(tmp_path, {"facts/chips.yml": FACTS, "facts/more.yml": second}))
    assert [str(p) for p in book.problems] == [
        "facts/more.yml:3:5: fact `h100-sxm.hbm` is already defined at facts/chips.yml:3 "
        "(give each fact its own id)"
    ]
    assert book.facts["h100-sxm.hbm"].value == 80


def test_a_file_that_is_not_yaml_is_reported_at_its_line(tmp_path: Path) -> None:
    book = read_facts(write(tmp_path, {"facts/chips.yml": "facts:\n  - id: [x\n"}))
    assert len(book.problems) == 1
    assert str(book.problems[0]).startswith("facts/chips.yml:3:1: ")
    assert book.facts == {}
