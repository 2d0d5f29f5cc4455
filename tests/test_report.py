"""`lessonkit report`: golden output for a bank with every kind of warning, and edge cases."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK as SMALL_BANK
from conftest import FACTS, LESSON, MakeCourse
from lessonkit.authoring import sections
from lessonkit.authoring.readingtime import word_count
from lessonkit.authoring.report import lesson_report, nearly_same, render_text, report_course
from lessonkit.authoring.rulebook import check_course

GOLDEN = Path(__file__).parent / "golden"
LESSONKIT = str(Path(sys.executable).parent / "lessonkit")

# Eight questions: insight 1 has six, insight 2 only two. Of the lesson's three objectives
# (OBJECTIVES), s1 and s4 assess the first, s4 and o1 the second (o1 names it twice, which
# counts once), none the third; five questions name no objective. Single-choice answers sit
# at A, A, A, B (A dominates). Question 3 has a catch-all and a near-duplicate option,
# question 4 a correct option that gives itself away, question 8 a short explanation and
# no tolerance, unit or hint. Tags: 2 of 8 apply (s4 is tagged both kinds, t2 neither), and
# insight 2 has no application question. The lesson's `minutes: 5` is far above its words.
BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.5
questions:
  - id: s1
    type: single
    prompt: Which unit multiplies matrices?
    insight: 1
    objectives: [1]
    tags: [application]
    section: 1-first-idea
    explanation: The matrix unit does; the scalar unit handles control flow.
    options:
      - {text: The matrix unit, correct: true}
      - text: The scalar unit
      - text: The vector unit
  - id: s2
    type: single
    prompt: Which memory is stacked beside the chip?
    insight: 1
    tags: [recall]
    section: 1-first-idea
    explanation: HBM is stacked DRAM packaged beside the processor die.
    options:
      - {text: HBM, correct: true}
      - text: SRAM
  - id: s3
    type: single
    prompt: What limits an input-bound accelerator?
    insight: 1
    tags: [recall]
    section: 1-first-idea
    explanation: The input pipeline cannot feed it fast enough, so it waits.
    options:
      - {text: The input pipeline, correct: true}
      - text: The input pipelines
      - text: All of the above
  - id: s4
    type: single
    prompt: What is cost per unit of useful work?
    insight: 1
    objectives: [1, 2]
    tags: [application, recall]
    section: 1-first-idea
    explanation: Divide the price by throughput that the workload really achieves.
    options:
      - text: Price
      - {text: Price divided by peak throughput times measured utilisation, correct: true}
      - text: Peak
  - id: t1
    type: true_false
    prompt: Peak figures are ceilings.
    insight: 1
    tags: [recall]
    section: a-detail
    explanation: Vendors quote the most a chip can do, never what a workload achieves.
    answer: true
  - id: t2
    type: true_false
    prompt: Sparse peaks equal dense peaks.
    insight: 1
    section: a-detail
    explanation: A sparse peak assumes half the weights are zero, so it doubles the figure.
    answer: false
  - id: o1
    type: order
    prompt: Order the steps.
    insight: 2
    objectives: [2, 2]
    tags: [recall]
    section: 2-second-idea
    explanation: Measure first, then price, then divide, as the lesson shows.
    items: [measure, price, divide]
  - id: n1
    type: numeric
    prompt: What is 6 times 7?
    insight: 2
    tags: [recall]
    section: 2-second-idea
    explanation: Forty-two.
    answer: 42
"""


OBJECTIVES = "objectives: [Explain things, Compare things, Choose things]"


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    lesson = LESSON.replace("objectives: [Explain things]", OBJECTIVES)
    return make_course({"quizzes/lesson-one.yml": BANK, "content/test-plan/lesson-one.md": lesson})


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return subprocess.run(
        [LESSONKIT, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        (["report"], "report-warnings.txt"),
        (["report", "lesson-one", "--format", "github"], "report-github.txt"),
    ],
)
def test_golden_report(course: Path, args: list[str], golden: str) -> None:
    result = run(course, *args)
    assert (result.returncode, result.stderr) == (0, "")
    if os.environ.get("LESSONKIT_UPDATE_GOLDEN"):
        (GOLDEN / golden).write_text(result.stdout, encoding="utf-8")
    expected = (GOLDEN / golden).read_text(encoding="utf-8")
    assert result.stdout == expected


def test_unknown_lesson_is_a_usage_error(course: Path) -> None:
    result = run(course, "report", "lesson-on")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "lessonkit: no lesson `lesson-on`; did you mean `lesson-one`?\n"


def test_too_few_questions_is_a_validate_problem_not_a_warning(make_course: MakeCourse) -> None:
    course = check_course(make_course(), advice=True)
    [report] = report_course(course)
    assert [w.message for w in report.warnings] == [
        "the page has no `## Common misconceptions`, `## Key takeaways`, `## Glossary`, "
        "`## Updates` sections",
        "minutes: 5 is more than 2 times the reading time of 1 min (12 words at 200\u2013230 "
        "words a minute)",
        "objective 1 has no questions",
        # The house policy asks for the tags: a bank without any says so, not nothing.
        "no question is tagged `application` or `recall`, so the application share cannot be "
        "counted",
        "questions[0].explanation is short",
        "questions[1].explanation is short",
    ]


def test_word_count_skips_code_links_and_footnotes(make_course: MakeCourse) -> None:
    body = (
        "\nSee [the guide](https://www.python.org/a-b-c) and `code`.[^1]\n\n"
        "```python\nnot counted at all\n```\n\n[^1]: Not counted either.\n"
    )
    course = check_course(make_course({"content/test-plan/lesson-one.md": LESSON + body}))
    lesson = course.lessons["lesson-one"]
    # Opening text (2), 1 First idea (3), Text (1), A detail (2), 2 Second idea (3), Text (1),
    # See the guide and code (5): link targets, footnotes and the code block are left out.
    assert word_count(lesson) == 17
    assert lesson_report(course, lesson).reading_minutes == 1


def test_word_count_reads_a_figure_pair_once(make_course: MakeCourse) -> None:
    svg = "<svg/>"
    body = (
        '\n![Three alt words](img/a.svg#only-light){ width="420" }\n'
        '![Three alt words](img/a-dark.svg#only-dark){ width="420" }\n'
    )
    files = {f"content/test-plan/img/{n}.svg": svg for n in ("a", "a-dark")}
    course = check_course(make_course({"content/test-plan/lesson-one.md": LESSON + body, **files}))
    # The 12 words of the fixture, the alt text once; the dark twin and `{ width }` skipped.
    assert word_count(course.lessons["lesson-one"]) == 15


@pytest.mark.parametrize(
    ("words", "minutes", "warning"),
    [
        (4600, 20, None),  # 4,600 words: 20 to 23 min
        (4600, 23, None),
        # The reading time is a floor: `minutes` also counts working the numbers through.
        (4600, 35, None),
        (4600, 46, None),
        (4600, 47, "minutes: 47 is more than 2 times the reading time of 20\u201323 min (4,600 "
         "words at 200\u2013230 words a minute) (state what a reader spends, reading and "
         "working the numbers; if it really takes this long, trim the page)"),
        (4600, 19, "minutes: 19 is less than the reading time of 20\u201323 min (4,600 words at "
         "200\u2013230 words a minute) (set `minutes:` to at least 20, plus the time the "
         "worked numbers take)"),
    ],
)  # fmt: skip
def test_minutes_below_the_reading_time_or_far_above_it(
    make_course: MakeCourse, words: int, minutes: int, warning: str | None
) -> None:
    filler = "word " * (words - 12)  # the fixture lesson has 12 words of its own
    lesson = LESSON.replace("minutes: 5", f"minutes: {minutes}") + f"\n{filler}\n"
    course = check_course(make_course({"content/test-plan/lesson-one.md": lesson}), advice=True)
    [report] = report_course(course)
    assert report.words == words
    found = [str(w).split(": ", 1)[1] for w in report.warnings if "minutes:" in w.message]
    assert found == ([warning] if warning else [])


def test_dated_updates_and_appendix_tables(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = (
        "\n## Common misconceptions\n\nText.\n\n## Key takeaways\n\n- Text.\n"
        "\n## Glossary\n\nTerm\n:   Meaning.\n"
        "\n## Appendix: specs\n\n**Chips, as of November 2026**\n\n| a | b |\n|---|---|\n"
        "| 1 | 2 |\n\n**Prices**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
        "\n## Updates\n\n- **2026-11-23:** Dated.\n- 2026-11-22: Dated too.\n- Undated.\n"
    )
    root = make_course({"content/test-plan/lesson-one.md": LESSON + body})
    monkeypatch.chdir(root)
    lesson = check_course(root).lessons["lesson-one"]
    first = len(LESSON.splitlines()) + 1  # the file line of the body's first line
    table = first + body.splitlines().index("**Prices**") + 2  # the table's header row
    undated = first + body.splitlines().index("- Undated.")
    found = sections.undated_tables(lesson) + sections.undated_updates(lesson)
    assert [str(w) for w in found] == [
        f"content/test-plan/lesson-one.md:{table}:1: an appendix table without an `as of` "
        "date (say before the table when its figures applied, e.g. "
        "`**Prices, as of November 2026**`)",
        f"content/test-plan/lesson-one.md:{undated}:1: an Updates item without a date (start "
        "it with the date of the change: `- **2026-11-23:** what changed`)",
    ]


def test_report_runs_on_the_real_course() -> None:
    repo = Path(__file__).resolve().parents[1]
    result = run(repo, "report")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("gpu-vs-tpu: ")
    assert "questions per insight (at least 5):" in result.stdout
    assert "questions per objective (aim for 1 or more):" in result.stdout


def test_report_names_files_it_could_not_read_and_exits_1(make_course: MakeCourse) -> None:
    root = make_course(
        {"content/test-plan/lesson-one.md": LESSON.replace("minutes: 5", "minutes: x")}
    )
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "report"],
        cwd=root, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == (
        "lessonkit: could not report on content/test-plan/lesson-one.md: it does not load; "
        "`lessonkit validate` says why\n"
    )
    assert result.stdout.endswith("note: 1 validation problem; run `lessonkit validate`\n")


def test_report_names_a_bank_that_does_not_load(make_course: MakeCourse) -> None:
    root = make_course({"quizzes/lesson-one.yml": "lesson: [\n"})
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "report", "lesson-one"],
        cwd=root, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        1,
        "lessonkit: could not report on quizzes/lesson-one.yml: it does not load; "
        "`lessonkit validate` says why\n",
    )


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("The input pipeline", "The input pipelines", True),  # a plural
        ("recieve data", "receive data", True),  # a typo
        ("It is faster.", "it is faster", True),  # punctuation and case
        ("Use the GPU", "Use a GPU", True),  # little words
        # deliberate minimal pairs, as the Rust Book writes them
        ("2<sup>127</sup> - 1", "2<sup>128</sup> - 1", False),  # one number
        ("`incr_v1`", "`incr_v2`", False),  # one code token
        ("`s3` has more bytes than `s2`", "`s3` has fewer bytes than `s2`", False),
        ("```\nfn f(v: Vec<f32>);\n```", "```\nfn f(v: &Vec<f32>);\n```", False),
        ("The borrow checker always rejects it", "The borrow checker sometimes rejects it", False),
        ("The TPU", "The GPU", False),
    ],
)
def test_nearly_same_options_spare_deliberate_minimal_pairs(
    first: str, second: str, same: bool
) -> None:
    assert nearly_same(first.casefold(), second.casefold()) is same


def test_the_report_lists_the_facts_a_lesson_and_its_bank_show(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = FACTS.replace(
        "    checked: 2026-11-20\n    kind: price", "    checked: 2026-01-20\n    kind: price"
    )
    root = make_course(
        {
            "facts/chips.yml": stale,
            "content/test-plan/lesson-one.md": LESSON.replace(
                "Opening text.",
                "It costs ((fact tpu-v6e.price)).\n\n<!-- lessonkit:facts h100-sxm.hbm tpu-v6e.price -->",
            ),
            "quizzes/lesson-one.yml": SMALL_BANK.replace(
                "Pick b.", "Pick b, ((fact h100-sxm.hbm))."
            ),
        }
    )
    monkeypatch.chdir(root)
    text = render_text(report_course(check_course(root, advice=True)))
    start = text.index("  facts shown")
    assert text[start:].splitlines()[:3] == [
        "  facts shown (`lessonkit facts`; the longest unchecked first):",
        "    tpu-v6e.price  price  checked  10 months ago  (lines 18, 20)",
        "    h100-sxm.hbm   spec   checked   0 months ago  (line 20; q-single)",
    ]
