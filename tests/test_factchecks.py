"""The checks that keep facts honest: each gives the policy's message at file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BANK, FACTS, FULL_BANK, HOUSE_POLICY, LESSON, MakeCourse
from lessonkit.authoring.rulebook import check_course
from lessonkit.authoring.validate import validate_paths

LESSON_FILE = "content/test-plan/lesson-one.md"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"></svg>\n'
FACT_RULES = {"fact-age", "fact-source", "mixed-basis", "prefix-slip", "hand-typed-figure"}
# Two more facts: one in GiB, and a sparse figure beside a dense one.
MORE_FACTS = """\
  - id: tpu-v6e.hbm
    value: 32
    unit: GiB
    as_of: 2024-10-01
    checked: 2026-11-20
    kind: spec
    source: {url: https://cloud.google.com/tpu/docs/v6e, title: TPU v6e, publisher: Google Cloud, primary: true}
  - id: h100-sxm.bf16-sparse
    value: 1979
    unit: TFLOP/s
    qualifiers: {sparsity: sparse}
    as_of: 2023-03-21
    checked: 2026-11-20
    kind: spec
    source: {url: https://www.nvidia.com/en-us/data-center/h100/, title: H100, publisher: NVIDIA, primary: true}
  - id: h100-sxm.bf16-dense
    value: 989.4
    unit: TFLOP/s
    qualifiers: {sparsity: dense}
    as_of: 2023-03-21
    checked: 2026-11-20
    kind: spec
    source: {url: https://www.nvidia.com/en-us/data-center/h100/, title: H100, publisher: NVIDIA, primary: true}
"""


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as an author in the course sees them


def findings(root: Path) -> list[tuple[str, str, str]]:
    """The fact rules' warnings and advice, as (rule, level, `file:line:col: message`)."""
    course = check_course(root, advice=True)
    return [(f.rule, f.level, str(f.problem)) for f in course.findings if f.rule in FACT_RULES]


def with_text(text: str) -> str:
    return LESSON.replace("Opening text.", text)


def test_a_stale_fact_warns_at_its_record_naming_where_it_is_shown(
    make_course: MakeCourse,
) -> None:
    stale = FACTS.replace(
        "    checked: 2026-11-20\n    kind: price", "    checked: 2026-04-30\n    kind: price"
    )
    root = make_course(
        {
            "facts/chips.yml": stale,
            LESSON_FILE: with_text("A chip-hour costs ((fact tpu-v6e.price))."),
            "quizzes/lesson-one.yml": BANK.replace("Pick b.", "Pick b at ((fact tpu-v6e.price))."),
        }
    )
    assert findings(root) == [
        (
            "fact-age",
            "warn",
            "facts/chips.yml:27:5: fact `tpu-v6e.price` (price) was last checked on 2026-04-30, "
            "more than 6 months ago; shown at content/test-plan/lesson-one.md:18, "
            "quizzes/lesson-one.yml:7 (question q-single) (check it against its source, then "
            "set `checked:` (and `value:` and `as_of:` if it changed))",
        )
    ]
    # A course that keeps prices for a year sees nothing.
    policy = HOUSE_POLICY + "  fact-age: {price_months: 12}\n"
    (root / "lessonkit.yml").write_text(policy, encoding="utf-8")
    assert findings(root) == []


def test_a_copy_and_a_host_the_policy_does_not_list_are_flagged(make_course: MakeCourse) -> None:
    copied = FACTS.replace(
        "      primary: true\n  - id: h200.hbm", "      primary: false\n  - id: h200.hbm"
    )
    policy = HOUSE_POLICY + "  fact-source: {primary_hosts: [nvidia.com]}\n"
    root = make_course({"facts/chips.yml": copied, "lessonkit.yml": policy})
    assert findings(root) == [
        (
            "fact-source",
            "warn",
            "facts/chips.yml:3:5: fact `h100-sxm.hbm` rests on a copy (NVIDIA, nvidia.com), not "
            "its origin; shown nowhere yet (find the figure where it was first published and "
            "cite that)",
        ),
        (
            "fact-source",
            "warn",
            "facts/chips.yml:27:5: fact `tpu-v6e.price`: its source's host cloud.google.com is "
            "not among the policy's primary hosts; shown nowhere yet (cite the vendor's own "
            "page, or add the host to `primary_hosts` in lessonkit.yml)",
        ),
    ]


def test_a_table_that_mixes_bases_is_flagged(make_course: MakeCourse) -> None:
    text = (
        "<!-- lessonkit:facts h100-sxm.bf16-dense h100-sxm.bf16-sparse -->\n\n"
        "<!-- lessonkit:facts h100-sxm.hbm tpu-v6e.hbm -->\n\n"
        "<!-- lessonkit:facts h100-sxm.hbm tpu-v6e.hbm unit=GB -->\n\n"
        "Sparse ((fact h100-sxm.bf16-sparse)) is twice dense ((fact h100-sxm.bf16-dense)).\n\n"
        "Dense ((fact h100-sxm.bf16-dense)) and memory ((fact h100-sxm.hbm)) are fine."
    )
    root = make_course({"facts/chips.yml": FACTS + MORE_FACTS, LESSON_FILE: with_text(text)})
    hint = (
        "compare like with like: choose facts on one basis, or say `unit=` to show every "
        "value in one unit"
    )
    assert findings(root) == [
        ("mixed-basis", "warn", f"{LESSON_FILE}:18:1: this table mixes sparsity: dense with sparse ({hint})"),
        ("mixed-basis", "warn", f"{LESSON_FILE}:20:1: this table mixes units: GB with GiB ({hint})"),
        ("mixed-basis", "warn", f"{LESSON_FILE}:24:1: this line sets figures side by side on "
         f"different bases: sparsity: dense with sparse ({hint})"),
    ]  # fmt: skip


def test_a_prefix_slip_warns_and_a_hand_typed_figure_is_advice(make_course: MakeCourse) -> None:
    text = "It holds 80 GiB, that is 85.9 GB. It holds 80 GB. Code: `80 GiB`. ((fact h100-sxm.hbm))"
    root = make_course({"facts/chips.yml": FACTS, LESSON_FILE: with_text(text)})
    assert findings(root) == [
        (
            "prefix-slip",
            "warn",
            f"{LESSON_FILE}:18:10: `80 GiB` reads fact `h100-sxm.hbm` (80 GB) as 80 GiB; in "
            "GiB it is 74.5 (write `((fact h100-sxm.hbm unit=GiB))`)",
        ),
        (
            "prefix-slip",
            "warn",
            f"{LESSON_FILE}:18:26: `85.9 GB` reads fact `h100-sxm.hbm` (80 GB) as 80 GiB; in "
            "GB it is 80 (write `((fact h100-sxm.hbm unit=GB))`)",
        ),
        (
            "hand-typed-figure",
            "advice",
            f"{LESSON_FILE}:18:44: `80 GB` is fact `h100-sxm.hbm` typed by hand; it will not "
            "follow the fact (write `((fact h100-sxm.hbm unit=GB))`)",
        ),
    ]


def test_a_figure_typed_as_vendors_write_units_is_found(make_course: MakeCourse) -> None:
    text = "Dense BF16 runs at 989 TFLOPS, sparse at 1,979 TFLOPS; 80 GBps is no fact."
    root = make_course({"facts/chips.yml": FACTS + MORE_FACTS, LESSON_FILE: with_text(text)})
    assert findings(root) == [
        (
            "hand-typed-figure",
            "advice",
            f"{LESSON_FILE}:18:20: `989 TFLOPS` is fact `h100-sxm.bf16-dense` typed by hand; it "
            "will not follow the fact (write `((fact h100-sxm.bf16-dense unit=TFLOP/s))`)",
        ),
        (
            "hand-typed-figure",
            "advice",
            f"{LESSON_FILE}:18:42: `1,979 TFLOPS` is fact `h100-sxm.bf16-sparse` typed by hand; "
            "it will not follow the fact (write `((fact h100-sxm.bf16-sparse unit=TFLOP/s))`)",
        ),
    ]


def test_alt_text_is_no_place_for_a_reference_and_its_figures_are_typed(
    make_course: MakeCourse,
) -> None:
    """Alt text says what the picture shows, and the picture's figures do not follow a fact:
    a figure typed there is as it should be, but a slip of prefix is still a slip."""
    image = "![Bars: the H100 holds 80 GB, or 80 GiB]({name}.svg)"
    text = f"{image.format(name='a')} ![H100: ((fact h100-sxm.hbm))](b.svg)"
    root = make_course(
        {
            "facts/chips.yml": FACTS,
            LESSON_FILE: with_text(text),
            "quizzes/lesson-one.yml": FULL_BANK,
            "content/test-plan/a.svg": SVG,
            "content/test-plan/b.svg": SVG,
        }
    )
    assert findings(root) == [
        (
            "prefix-slip",
            "warn",
            f"{LESSON_FILE}:18:34: `80 GiB` reads fact `h100-sxm.hbm` (80 GB) as 80 GiB; in "
            "GiB it is 74.5 (write `((fact h100-sxm.hbm unit=GiB))`)",
        ),
    ]
    assert [str(p) for p in check_course(root).problems] == [
        f"{LESSON_FILE}:18:57: a fact reference in alt text: the picture's own figures do not "
        "follow the fact (type the figure as the picture shows it, and redraw the picture and "
        "its alt text together when the fact changes)"
    ]


def test_an_unknown_fact_or_unit_fails_validate_at_its_place(make_course: MakeCourse) -> None:
    text = (
        "It holds ((fact h100-sxm.hbm unit=TB/s)), and ((fact h300.hbm)).\n\n"
        "## Memory of ((fact h100-sxm.hbm))"
    )
    bank = BANK.replace("Pick b.", "Pick b at ((fact tpu-v6e.prices)).")
    root = make_course(
        {"facts/chips.yml": FACTS, LESSON_FILE: with_text(text), "quizzes/lesson-one.yml": bank}
    )
    report = validate_paths([], cwd=root, full=True)
    assert [str(p) for p in report.problems] == [
        f"{LESSON_FILE}:18:10: fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure "
        "different things (ask for a unit like `GB`, or use another fact)",
        f"{LESSON_FILE}:18:47: unknown fact `h300.hbm` (did you mean `h200.hbm`?)",
        f"{LESSON_FILE}:20:14: a fact reference in a heading: its anchor, and the links to it, "
        "would change with the figure (name the thing in the heading and give the figure in "
        "the text below it)",
        "quizzes/lesson-one.yml:7:23: questions[0].prompt: unknown fact `tpu-v6e.prices` (did "
        "you mean `tpu-v6e.price`?)",
    ]


def test_a_reference_in_a_footnote_is_checked_at_its_place(make_course: MakeCourse) -> None:
    text = (
        "Memory.[^nv]\n\n"
        "[^nv]: NVIDIA lists ((fact h100-sxm.hbm unit=TB/s)),\n"
        "    and ((fact h300.hbm))."
    )
    root = make_course(
        {
            "facts/chips.yml": FACTS,
            LESSON_FILE: with_text(text),
            "quizzes/lesson-one.yml": FULL_BANK,
        }
    )
    report = validate_paths([], cwd=root, full=True)
    assert [str(p) for p in report.problems] == [
        f"{LESSON_FILE}:20:21: fact `h100-sxm.hbm`: cannot convert `GB` to `TB/s`: they measure "
        "different things (ask for a unit like `GB`, or use another fact)",
        f"{LESSON_FILE}:21:9: unknown fact `h300.hbm` (did you mean `h200.hbm`?)",
    ]


def test_a_course_without_facts_is_checked_as_before(make_course: MakeCourse) -> None:
    text = with_text("It holds 80 GiB, or 85.9 GB, or 80 GB.")
    root = make_course({LESSON_FILE: text, "quizzes/lesson-one.yml": FULL_BANK})
    assert findings(root) == []
    assert validate_paths([], cwd=root, full=True).problems == ()


def test_a_banks_texts_are_read_too_and_a_rough_figure_is_not_a_fact(
    make_course: MakeCourse,
) -> None:
    bank = BANK.replace("Pick b.", "An H100 holds 80 GB, not 85.9 GB; links run at 4 TB/s.")
    root = make_course({"facts/chips.yml": FACTS, "quizzes/lesson-one.yml": bank})
    assert findings(root) == [
        (
            "hand-typed-figure",
            "advice",
            "quizzes/lesson-one.yml:7:27: `80 GB` is fact `h100-sxm.hbm` typed by hand; it will "
            "not follow the fact (write `((fact h100-sxm.hbm unit=GB))`)",
        ),
        (
            "prefix-slip",
            "warn",
            "quizzes/lesson-one.yml:7:38: `85.9 GB` reads fact `h100-sxm.hbm` (80 GB) as 80 GiB; "
            "in GB it is 80 (write `((fact h100-sxm.hbm unit=GB))`)",
        ),
    ]


def test_validate_reads_again_when_a_fact_changes_or_a_day_passes(
    make_course: MakeCourse,
) -> None:
    import datetime as dt

    from lessonkit.authoring import checkcache

    root = make_course({"facts/chips.yml": FACTS, "quizzes/lesson-one.yml": FULL_BANK})
    day = dt.date(2026, 11, 22)
    assert checkcache.check(root, today=day).warnings == []
    assert checkcache.check(root, today=day).read == 0  # nothing changed: all from the cache
    # A broken record is found without --full, at its line.
    facts = root / "facts" / "chips.yml"
    facts.write_text(FACTS.replace("unit: GB\n", "unit: GBs\n", 1), encoding="utf-8")
    assert [str(p) for p in checkcache.check(root, today=day).problems] == [
        "facts/chips.yml:6:11: facts[0].unit: unknown unit `GBs` (did you mean `GB`? "
        "(`lessonkit facts --units`))"
    ]
    facts.write_text(FACTS, encoding="utf-8")
    assert checkcache.check(root, today=day).problems == []
    # Seven months on, the price is stale: the cache does not hide it.
    later = checkcache.check(root, today=dt.date(2027, 6, 22))
    assert [rule for _, rule in later.warned] == ["review", "fact-age"]  # the lesson too


def test_a_facts_file_opens_with_its_schema_line_as_a_bank_does(make_course: MakeCourse) -> None:
    policy = HOUSE_POLICY.replace("schema-line: {level: off}", "schema-line: {level: warn}")
    facts = FACTS.split("\n", 1)[1]  # without its first line
    bank = "# yaml-language-server: $schema=../schemas/quiz-bank.schema.json\n" + FULL_BANK
    root = make_course(
        {"facts/chips.yml": facts, "lessonkit.yml": policy, "quizzes/lesson-one.yml": bank}
    )
    warned = [str(f.problem) for f in check_course(root).findings if f.rule == "schema-line"]
    assert warned == [
        "facts/chips.yml:1:1: the facts file's first line does not point editors at the schema "
        "(make it `# yaml-language-server: $schema=../schemas/facts.schema.json`: editors then "
        "complete fields and underline mistakes as you type)"
    ]
