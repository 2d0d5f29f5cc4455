"""`lessonkit read`: a lesson or one section, from a checkout, without MkDocs or a server."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FACTS, WAIT, LearnerCourse
from lessonkit.errors import UsageError
from lessonkit.quiz.reader import lesson_path, lesson_text, read_command

MKDOCS = "site_name: Test\ndocs_dir: content\n"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LESSON_WITH_CODE = """\
---
title: Lesson one
plan: test-plan
summary: A lesson for tests.
minutes: 5
objectives: [Explain things]
insights: [First idea, Second idea]
key_points: [Things matter]
quiz: lesson-one
sources:
  - {title: A source, url: "https://www.python.org/", accessed: 2026-11-01}
last_reviewed: 2026-11-20
---
Opening text.

## 1. First idea

Use **bold** words and `code`.

!!! note "Mind the gap"
    Inside a note.

```python
print("hi")
```

### A detail { #a-detail }

Detail text.

<!-- lessonkit:check lesson-one 1 -->

## 2. Second idea

Second text.

<!-- lessonkit:check lesson-one 2 -->

<!-- lessonkit:quiz lesson-one -->
"""


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    root = learner_course(
        (Path(__file__).parent / "test_runner.py")
        .read_text(encoding="utf-8")
        .split('BANK = """\\\n')[1]
        .split('"""')[0],
        MKDOCS,
    )
    (root / "content/test-plan/lesson-one.md").write_text(LESSON_WITH_CODE, encoding="utf-8")
    return root


def test_a_section_runs_to_the_next_heading_of_its_level(course: Path) -> None:
    text = lesson_text(lesson_path("lesson-one"), "1-first-idea")
    assert text.startswith("# Lesson one\n\n## 1. First idea\n")
    assert "### A detail\n\nDetail text." in text  # its subsections come with it
    assert "Second text" not in text and "Opening text" not in text
    assert "**Mind the gap**\n\nInside a note." in text  # an admonition reads as text


def test_read_prints_plain_text_when_not_on_a_terminal(course: Path) -> None:
    out = io.StringIO()
    assert read_command("lesson-one", "a-detail", stdout=out) == 0
    assert out.getvalue() == "Lesson one\n\nA detail\n\nDetail text.\n"


def test_a_whole_lesson_without_front_matter_or_markup(course: Path) -> None:
    out = io.StringIO()
    read_command("lesson-one", stdout=out)
    assert out.getvalue().startswith(
        "Lesson one\n\nOpening text.\n\n1. First idea\n\nUse bold words and code."
    )
    assert '    print("hi")' in out.getvalue()
    assert "title:" not in out.getvalue() and "```" not in out.getvalue()


def test_the_sites_markers_are_not_read_out(course: Path) -> None:
    out = io.StringIO()
    read_command("lesson-one", stdout=out)
    assert "lessonkit:" not in out.getvalue() and "<!--" not in out.getvalue()
    assert out.getvalue().rstrip().endswith("Take the quiz: lessonkit quiz lesson-one")


def test_unknown_lesson_or_section_says_what_there_is(course: Path) -> None:
    with pytest.raises(
        UsageError, match=r"no lesson called `lesson-on` \(did you mean `lesson-one`\?\)"
    ):
        lesson_path("lesson-on")
    with pytest.raises(
        UsageError, match=r"no section `a-detale` in Lesson one \(did you mean `a-detail`\?\)"
    ):
        lesson_text(lesson_path("lesson-one"), "a-detale")


def test_read_through_the_cli_in_a_terminal_renders_markdown(course: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "LESSONKIT_HOME": str(course / "home")}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "lessonkit", "read", "lesson-one", "1-first-idea"],
        cwd=str(course),
        env=env,
        encoding="utf-8",
        timeout=WAIT,
        dimensions=(40, 80),
    )
    child.expect(pexpect.EOF)
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    assert "Use bold words and code." in screen
    assert 'print("hi")' in screen
    assert "```" not in screen and "**" not in screen
    assert "Second text" not in screen


def test_read_usage_errors_exit_2(course: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lessonkit", "read", "lesson-one", "nope"],
        cwd=course,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("lessonkit: no section `nope` in Lesson one (")


def test_help_lists_the_learner_commands_first() -> None:
    from lessonkit.cli import build_parser

    help_text = build_parser().format_help()
    order = [
        help_text.index(f"    {name} ")
        for name in ("quiz", "read", "review", "history", "list", "validate", "schema")
    ]
    assert order == sorted(order)


# --- everything the site shows, in words: figures, footnotes, abbreviations, links, tabs --

LESSON_WITH_EXTRAS = LESSON_WITH_CODE.replace(
    "Second text.\n",
    """Second text uses an ASIC[^maker], read with [the first idea](#1-first-idea) and
[lesson two](lesson-two.md#setup), or [the plan](index.md). An ASIC again[^maker][^other].

<figure markdown>
  ![Two boxes joined by a line.](img/boxes.svg#only-light){ width="420" }
  ![Two boxes joined by a line.](img/boxes-dark.svg#only-dark){ width="420" }
  <figcaption>Boxes, joined.</figcaption>
</figure>

=== "GPU"

    On a GPU.

[^maker]: The maker, *Its book*, 2026. <https://www.python.org/>
[^other]: Another source,
    over two lines. <https://docs.python.org/>

*[ASIC]: Application-specific integrated circuit
""",
)


@pytest.fixture
def rich_course(course: Path) -> Path:
    (course / "content/test-plan/lesson-one.md").write_text(LESSON_WITH_EXTRAS, encoding="utf-8")
    (course / "content/test-plan/lesson-two.md").write_text(
        LESSON_WITH_CODE.replace("title: Lesson one", "title: Lesson two"), encoding="utf-8"
    )
    return course


def test_piped_read_keeps_figures_footnotes_abbreviations_and_links(rich_course: Path) -> None:
    out = io.StringIO()
    read_command("lesson-one", "2-second-idea", stdout=out)
    assert out.getvalue() == (
        "Lesson one\n\n"
        "2. Second idea\n\n"
        "Second text uses an ASIC (Application-specific integrated circuit)[1], read with the "
        "first idea (lessonkit read lesson-one 1-first-idea) and lesson two (lessonkit read "
        "lesson-two setup), or the plan. An ASIC again[1][2].\n\n"
        "Figure 1. Boxes, joined.\n\n"
        "The picture: Two boxes joined by a line.\n\n"
        "Image file: content/test-plan/img/boxes.svg\n\n"
        "GPU\n\n"
        "On a GPU.\n\n"
        "Take the quiz: lessonkit quiz lesson-one\n\n"
        "Sources\n\n"
        "1. The maker, Its book, 2026. https://www.python.org/\n"
        "2. Another source, over two lines. https://docs.python.org/\n"
    )


def test_read_in_a_terminal_shows_the_figure_and_the_sources(rich_course: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "LESSONKIT_HOME": str(rich_course)}
    child = pexpect.spawn(sys.executable, ["-m", "lessonkit", "read", "lesson-one", "2-second-idea"],
                          cwd=str(rich_course), env=env, encoding="utf-8", timeout=WAIT,
                          dimensions=(60, 80))  # fmt: skip
    child.expect(pexpect.EOF)
    screen = [line.rstrip() for line in ANSI.sub("", child.before).splitlines()]
    assert screen[0].strip() == "Lesson one"  # the title, centred as rich draws a heading
    assert "\u258c Figure 1. Boxes, joined." in screen
    assert "\u258c Image file: content/test-plan/img/boxes.svg" in screen
    assert " 1 The maker, Its book, 2026. https://www.python.org/" in screen
    text = "\n".join(screen)
    assert "<figure" not in text and "*[" not in text and "[^" not in text and "===" not in text
    assert "lesson-two.md" not in text and text.count("https://www.python.org/") == 1


def test_a_sections_facts_read_as_on_the_site_with_their_sources(course: Path) -> None:
    (course / "facts").mkdir()
    (course / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    lesson = course / "content/test-plan/lesson-one.md"
    text = lesson.read_text(encoding="utf-8").replace(
        "Detail text.",
        "An H100 holds ((fact h100-sxm.hbm unit=GiB decimals=1)).\n\n"
        "<!-- lessonkit:facts h100-sxm.hbm h200.hbm -->",
    )
    lesson.write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert read_command("lesson-one", "a-detail", stdout=out) == 0
    assert out.getvalue() == (
        "Lesson one\n\nA detail\n\nAn H100 holds 74.5 GiB[1].\n\n"
        "Figure           Value      As of\n"
        "---------------  ---------  ----------------\n"
        "H100 SXM memory  80 GB[1]   21 March 2023\n"
        "H200 memory      141 GB[2]  18 November 2024\n\n"
        "Sources\n\n"
        "1. NVIDIA, NVIDIA H100 Tensor Core GPU (https://www.nvidia.com/en-us/data-center/h100/); "
        "the figure as of 21 March 2023, checked 20 November 2026.\n"
        "2. NVIDIA, NVIDIA H200 Tensor Core GPU (https://www.nvidia.com/en-us/data-center/h200/); "
        "the figure as of 18 November 2024, checked 20 November 2026.\n"
    )


def test_a_fact_in_a_footnote_reads_as_its_value_in_the_sources(course: Path) -> None:
    (course / "facts").mkdir()
    (course / "facts" / "chips.yml").write_text(FACTS, encoding="utf-8")
    lesson = course / "content/test-plan/lesson-one.md"
    text = lesson.read_text(encoding="utf-8").replace(
        "Detail text.", "Detail text.[^nv] An H200 holds ((fact h200.hbm))."
    )
    text += "\n[^nv]: NVIDIA lists ((fact h100-sxm.hbm)) for the SXM part.\n"
    lesson.write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert read_command("lesson-one", "a-detail", stdout=out) == 0
    assert out.getvalue() == (
        "Lesson one\n\nA detail\n\nDetail text.[1] An H200 holds 141 GB[2].\n\n"
        "Sources\n\n"
        "1. NVIDIA lists 80 GB for the SXM part.\n"
        "2. NVIDIA, NVIDIA H200 Tensor Core GPU (https://www.nvidia.com/en-us/data-center/h200/); "
        "the figure as of 18 November 2024, checked 20 November 2026.\n"
    )


# --- choosing a section as a learner names it -------------------------------------------


@pytest.mark.parametrize(
    ("wanted", "shown", "not_shown"),
    [
        ("2", "Second text", "bold"),  # `## 2. Second idea`
        ("1", "bold", "Second text"),
        ("second", "Second text", "bold"),  # the start of its name
        ("Second Idea", "Second text", "bold"),  # as it reads
        ("detail", "Detail text", "bold"),  # the start of a word in it
    ],
)
def test_a_section_is_chosen_by_its_number_or_the_start_of_its_name(
    course: Path, wanted: str, shown: str, not_shown: str
) -> None:
    text = lesson_text(lesson_path("lesson-one"), wanted)
    assert shown in text and not_shown not in text


def test_a_section_name_that_fits_several_says_which(course: Path) -> None:
    with pytest.raises(
        UsageError,
        match=r"^section `idea` could be any of `1-first-idea`, `2-second-idea` in Lesson one: "
        r"give more of it$",
    ):
        lesson_text(lesson_path("lesson-one"), "idea")


def test_a_section_that_is_not_there_lists_the_top_sections(course: Path) -> None:
    with pytest.raises(
        UsageError,
        match=r"^no section `9` in Lesson one \(sections: 1-first-idea, 2-second-idea; a number "
        r"or the start of a name will do\)$",
    ):
        lesson_text(lesson_path("lesson-one"), "9")
