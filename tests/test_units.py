"""The unit table: conversions between compatible units are exact, the rest are refused."""

from __future__ import annotations

import pytest

from lessonkit.bank import units
from lessonkit.bank.units import UnitError


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (80, "GB", "GiB", 74.50580596923828),
        (80, "GiB", "GB", 85.89934592),
        (141, "GB", "GiB", 131.31648302078247),
        (3.35, "TB/s", "GB/s", 3350.0),
        (4.8, "TB/s", "TiB/s", 4.365574568510056),
        (400, "Gbit/s", "GB/s", 50.0),
        (900, "GB/s", "Tbit/s", 7.2),
        (989.4, "TFLOP/s", "PFLOP/s", 0.9894),
        (1979, "TFLOP/s", "GFLOP/s", 1979000.0),
        (2.7, "USD/chip-hour", "USD/chip-day", 64.8),
        (2.7, "USD/chip-hour", "USD/chip-h", 2.7),
        (700, "W", "kW", 0.7),
        (1.5, "ms", "us", 1500.0),
        (2, "min", "s", 120.0),
        (50, "%", "count", 0.5),
        (1, "KiB", "B", 1024.0),
        (1, "kB", "B", 1000.0),
    ],
)
def test_compatible_units_convert_exactly(
    value: float, source: str, target: str, expected: float
) -> None:
    assert units.convert(value, source, target) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("GB", "TB/s"),
        ("TFLOP/s", "TOP/s"),  # floating-point and integer operations are different work
        ("USD/chip-hour", "EUR/chip-hour"),  # no exchange rates in a unit table
        ("USD/GB-month", "USD/GB-hour"),  # clouds count a month differently
        ("W", "J"),
    ],
)
def test_incompatible_units_are_refused(source: str, target: str) -> None:
    with pytest.raises(UnitError) as caught:
        units.convert(1, source, target)
    assert caught.value.message == (
        f"cannot convert `{source}` to `{target}`: they measure different things"
    )
    assert caught.value.hint == f"ask for a unit like `{source}`, or use another fact"


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            "FLOPS",
            "`FLOPS` is ambiguous",
            "write `FLOP/s` for a rate (`TFLOP/s`), `FLOP` for an amount",
        ),
        ("Gb", "`Gb` is ambiguous", "write `Gbit` for gigabits or `GB` for gigabytes"),
        ("GB/", "`GB/`: an empty part around `/`", "write e.g. `TB/s`"),
        ("Gbyte", "unknown unit `Gbyte`", "write `B` for bytes: `GB`"),
        ("TB/sec", "`TB/sec`: unknown unit `sec`", "did you mean `s`? (`lessonkit facts --units`)"),
        ("TFLOPS", "`TFLOPS` is ambiguous", "write `TFLOP/s` for a rate"),
        ("Gbps", "`Gbps` is ambiguous", "write `Gbit/s` for a rate"),
        ("KiW", "unknown unit `KiW`", "did you mean `KiB`? (`lessonkit facts --units`)"),
        ("", "`` is not a unit", "write a unit such as `GB`, `TB/s` or `W`"),
    ],
)
def test_a_unit_not_in_the_table_says_what_to_write(text: str, message: str, hint: str) -> None:
    with pytest.raises(UnitError) as caught:
        units.parse(text)
    assert (caught.value.message, caught.value.hint) == (message, hint)


@pytest.mark.parametrize(
    ("unit", "twin"),
    [("GB", "GiB"), ("GiB", "GB"), ("TB/s", "TiB/s"), ("kB", "KiB"), ("W", None)],
)
def test_each_byte_unit_has_a_twin_on_the_other_basis(unit: str, twin: str | None) -> None:
    assert units.other_basis(unit) == twin


def test_binary_units_know_they_are() -> None:
    assert [units.parse(u).binary for u in ("GiB", "GB", "TiB/s", "TFLOP/s")] == [
        True,
        False,
        True,
        False,
    ]


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("TFLOPS", "TFLOP/s"),
        ("PFLOPS", "PFLOP/s"),
        ("TOPS", "TOP/s"),
        ("GBps", "GB/s"),
        ("Gbps", "Gbit/s"),
        ("Gb/s", "Gbit/s"),
        ("GB", "GB"),  # the table's own spelling, as it is
        ("TFLOPs", "TFLOPs"),  # often an amount: not read as a rate
    ],
)
def test_a_figure_typed_as_datasheets_write_it_is_read_in_the_tables_unit(
    written: str, meant: str
) -> None:
    assert units.from_prose(written) == meant
    if meant != written:
        assert units.parse(meant).text == meant  # a unit the table knows
