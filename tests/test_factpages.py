"""Facts in lesson pages: references and tables made Markdown, and where each fact is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BANK, FACTS, LESSON, MakeCourse
from lessonkit.bank.loader import read_facts
from lessonkit.course import factpages
from lessonkit.course.factpages import Use

NOTES = [
    "[^fact-h100-sxm.hbm]: NVIDIA, [NVIDIA H100 Tensor Core GPU]"
    "(https://www.nvidia.com/en-us/data-center/h100/); the figure as of 21 March 2023, "
    "checked 20 November 2026.",
    "[^fact-h200.hbm]: NVIDIA, [NVIDIA H200 Tensor Core GPU]"
    "(https://www.nvidia.com/en-us/data-center/h200/); the figure as of 18 November 2024, "
    "checked 20 November 2026.",
]


@pytest.fixture
def facts(tmp_path: Path) -> dict[str, object]:
    (tmp_path / "facts").mkdir()
    (tmp_path / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    return dict(read_facts(tmp_path).facts)


def test_a_reference_becomes_its_value_with_a_footnote_to_its_source(facts: dict) -> None:
    page = factpages.expand(
        ["An H100 holds ((fact h100-sxm.hbm)), or ((fact h100-sxm.hbm unit=GiB)).", ""], facts
    )
    assert page.problems == []
    assert page.markdown == [
        "An H100 holds 80 GB[^fact-h100-sxm.hbm], or 74.5 GiB[^fact-h100-sxm.hbm].",
        "",
        "",
        NOTES[0],
    ]


def test_an_unmarked_reference_shows_its_value_without_a_mark(facts: dict) -> None:
    """Inside a sum a mark reads as an exponent (`80[^1] * 0.9`); the fact is marked once
    nearby instead, and its source is listed once."""
    page = factpages.expand(
        [
            "An H100 holds ((fact h100-sxm.hbm)): ((fact h100-sxm.hbm bare unmarked)) * 0.9 = 72.",
            "",
        ],
        facts,
    )
    assert page.problems == []
    assert page.markdown == [
        "An H100 holds 80 GB[^fact-h100-sxm.hbm]: 80 * 0.9 = 72.",
        "",
        "",
        NOTES[0],
    ]


def test_a_facts_marker_becomes_a_table_with_an_as_of_column(facts: dict) -> None:
    page = factpages.expand(["<!-- lessonkit:facts h100-sxm.hbm h200.hbm unit=GiB -->"], facts)
    assert page.problems == []
    assert page.markdown == [
        "",
        "| Figure | Value | As of |",
        "| --- | ---: | --- |",
        "| H100 SXM memory | 74.5 GiB[^fact-h100-sxm.hbm] | 21 March 2023 |",
        "| H200 memory | 131 GiB[^fact-h200.hbm] | 18 November 2024 |",
        "",
        "",
        *NOTES,
    ]


def test_a_copy_says_so_in_its_footnote(tmp_path: Path) -> None:
    (tmp_path / "facts").mkdir()
    copied = FACTS.replace("primary: true", "primary: false", 1)
    (tmp_path / "facts" / "chips.yml").write_text(copied, encoding="utf-8")
    page = factpages.expand(["((fact h100-sxm.hbm))"], read_facts(tmp_path).facts)
    assert (
        "(https://www.nvidia.com/en-us/data-center/h100/) (not the primary source);"
        in page.notes[0]
    )


def test_quoted_references_are_left_as_written(facts: dict) -> None:
    lines = ["Write `((fact h100-sxm.hbm))` in text:", "```markdown", "((fact nope))", "```"]
    page = factpages.expand(lines, facts)
    assert (page.markdown, page.problems) == (lines, [])


def test_what_cannot_be_shown_is_reported_at_its_line_and_column(facts: dict) -> None:
    page = factpages.expand(
        [
            "Fine: ((fact h100-sxm.hbm)).",
            "Wrong: ((fact h100-sxm.hbm unit=TB/s)) and ((fact h300.hbm)).",
            "<!-- lessonkit:facts h100-sxm.hbm h300.hbm units=GB -->",
        ],
        facts,
        first_line=10,
    )
    assert [(p.line, p.column, p.message, p.hint) for p in page.problems] == [
        (11, 8, "fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure different "
         "things", "ask for a unit like `GB`, or use another fact"),
        (11, 44, "unknown fact `h300.hbm`", "did you mean `h200.hbm`?"),
        (12, 35, "unknown fact `h300.hbm`", "did you mean `h200.hbm`?"),
        (12, 44, "`units=GB` is not an option of a facts table",
         "options: `unit=GB`, `decimals=N` or `significant=N`"),
    ]  # fmt: skip
    # What cannot be shown stays as written; what can is shown.
    assert page.lines[1:] == [
        "Wrong: ((fact h100-sxm.hbm unit=TB/s)) and ((fact h300.hbm)).",
        "<!-- lessonkit:facts h100-sxm.hbm h300.hbm units=GB -->",
    ]


def test_every_place_a_fact_is_shown_is_listed_lessons_first(make_course: MakeCourse) -> None:
    root = make_course(
        {
            "facts/chips.yml": FACTS,
            "content/test-plan/lesson-one.md": LESSON.replace(
                "Opening text.",
                "Opening text: ((fact h100-sxm.hbm)).\n\n"
                "<!-- lessonkit:facts h100-sxm.hbm h200.hbm -->",
            ),
            "quizzes/lesson-one.yml": BANK.replace(
                "prompt: Pick b.", "prompt: Pick b, not ((fact h200.hbm))."
            ),
        }
    )
    found = factpages.course_uses(root)
    assert found == [
        Use("h100-sxm.hbm", str(root / "content/test-plan/lesson-one.md"), 18, 15, "text"),
        Use("h100-sxm.hbm", str(root / "content/test-plan/lesson-one.md"), 20, 22, "table",
            ("h100-sxm.hbm", "h200.hbm")),
        Use("h200.hbm", str(root / "content/test-plan/lesson-one.md"), 20, 35, "table",
            ("h100-sxm.hbm", "h200.hbm")),
        Use("h200.hbm", str(root / "quizzes/lesson-one.yml"), 7, 13, "question q-single"),
    ]  # fmt: skip


def test_a_reference_in_a_footnote_is_its_value_without_a_mark_of_its_own(facts: dict) -> None:
    """The footnote is the figure's source already: a mark inside it would send the reader
    from one source to another. A continuation line belongs to the footnote too."""
    page = factpages.expand(
        [
            "Memory.[^nv] And ((fact h200.hbm)).",
            "",
            "[^nv]: NVIDIA lists ((fact h100-sxm.hbm)) for the SXM part,",
            "which is ((fact h100-sxm.hbm unit=GiB decimals=1))",
            "",
            "    and ((fact h200.hbm)) for the H200.",
            "",
            "After the note: ((fact h100-sxm.hbm)).",
        ],
        facts,
    )
    assert page.problems == []
    assert page.lines == [
        "Memory.[^nv] And 141 GB[^fact-h200.hbm].",
        "",
        "[^nv]: NVIDIA lists 80 GB for the SXM part,",
        "which is 74.5 GiB",
        "",
        "    and 141 GB for the H200.",
        "",
        "After the note: 80 GB[^fact-h100-sxm.hbm].",
    ]
    assert page.used == ["h200.hbm", "h100-sxm.hbm"]


def test_a_reference_in_a_footnote_that_cannot_be_shown_is_reported_there(facts: dict) -> None:
    page = factpages.expand(
        [
            "Text.[^nv]",
            "",
            "[^nv]: NVIDIA lists ((fact h100-sxm.hbm unit=TB/s)),",
            "    and ((fact h300.hbm)).",
        ],
        facts,
        first_line=20,
    )
    assert [(p.line, p.column, p.message) for p in page.problems] == [
        (22, 21, "fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure different things"),
        (23, 9, "unknown fact `h300.hbm`"),
    ]  # fmt: skip
    assert page.notes == []


ALT_PROBLEM = (
    "a fact reference in alt text: the picture's own figures do not follow the fact",
    "type the figure as the picture shows it, and redraw the picture and its alt text "
    "together when the fact changes",
)


def test_a_reference_in_alt_text_is_refused_where_it_is(facts: dict) -> None:
    """The picture's figures stay as drawn when a fact changes: alt text that followed the
    fact would tell a reader who cannot see the picture something it does not show."""
    line = '![H100: ((fact h100-sxm.hbm))](a.svg) <img alt="H200: ((fact h200.hbm))" src="b.svg">'
    page = factpages.expand([line], facts, first_line=5)
    assert [(p.line, p.column, p.message, p.hint) for p in page.problems] == [
        (5, 9, *ALT_PROBLEM),
        (5, 55, *ALT_PROBLEM),
    ]
    assert (page.lines, page.notes) == ([line], [])
    # Beside a picture, or in a link's text, a reference is text as any other.
    near = "![A chart](a.svg) holds ((fact h100-sxm.hbm)); [see ((fact h200.hbm))](#x)"
    assert factpages.expand([near], facts).lines == [
        "![A chart](a.svg) holds 80 GB[^fact-h100-sxm.hbm]; [see 141 GB[^fact-h200.hbm]](#x)"
    ]
