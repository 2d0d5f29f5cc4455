"""Placement by default: a course written elsewhere, with no markers and none of this
course's conventions, validates clean and builds with every self-check where a reader
expects it, under both engines and in `lessonkit read`.

The course below was written the way an author coming from another tool writes: plain
`##` headings without numbers, a code block quoting a heading, a section after the last
insight, footnotes and an abbreviation at the end, no `lessonkit.yml`, no theme overrides
and a short `mkdocs.yml` of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lessonkit.cli import main
from lessonkit.course import markers
from sitebuilds import build, build_zensical

MKDOCS_YML = """\
site_name: Field statistics
docs_dir: content
theme:
  name: material
  font: false
markdown_extensions:
  - abbr
  - footnotes
  - lessonkit.site.extension
"""

HOME = """\
# Field statistics

Start with [the first plan](basics/index.md).
"""

PLAN = """\
---
title: Basics
summary: Counting and averaging what you measured.
audience: Biologists with a notebook of measurements.
lessons:
  - averages
---

Read [Averages](averages.md) first.
"""

LESSON = """\
---
title: Averages
plan: basics
summary: Mean and median, and when each misleads.
minutes: 4
objectives:
  - Choose between the mean and the median
insights:
  - The mean moves with every value
  - The median resists outliers
key_points:
  - One outlier moves the mean, not the median.
quiz: averages
sources:
  - title: NIST/SEMATECH e-Handbook of Statistical Methods
    url: https://www.itl.nist.gov/div898/handbook/
    accessed: 2026-11-01
reviewed: 2026-11
---

Every field season ends with a notebook of numbers, and the first thing anyone asks is the
typical value. Two summaries answer it, and they disagree more often than people expect.

## The mean moves with every value

The mean adds every value and divides by how many there are.[^nist] In a spreadsheet:

```text
## not a heading: a comment in a code block
=AVERAGE(B2:B40)
```

## The median resists outliers

Sort the values and take the middle one. A single wing length typed as 720 mm instead of
72 mm moves the mean of forty birds by 16 mm and the median by nothing. The SD of the
sample moves too.

## Further reading

The handbook's chapter on measures of location goes further.

[^nist]: NIST/SEMATECH, e-Handbook of Statistical Methods, section 1.3.5.1.

*[SD]: standard deviation
"""

BANK = """\
lesson: averages
title: Averages
pass_mark: 0.7
questions:
  - id: mean-outlier
    type: single
    prompt: One value is typed ten times too large. Which summary moves?
    insight: 1
    section: the-mean-moves-with-every-value
    explanation: The mean uses every value, so a single wrong one shifts it.
    options:
      - text: The mean
        correct: true
      - text: Neither
  - id: median-outlier
    type: true_false
    prompt: A single outlier moves the median of forty values a long way.
    insight: 2
    section: the-median-resists-outliers
    explanation: The median is the middle value, and one outlier only swaps its neighbours.
    answer: false
  - id: mean-of-three
    type: numeric
    prompt: What is the mean of 2, 4 and 9?
    insight: 1
    section: the-mean-moves-with-every-value
    explanation: The three values add up to 15, and 15 divided by 3 is 5.
    answer: 5
  - id: median-of-three
    type: numeric
    prompt: What is the median of 2, 4 and 90?
    insight: 2
    section: the-median-resists-outliers
    explanation: Sorted, the middle one of the three values is 4, whatever the largest is.
    answer: 4
"""

FILES = {
    "mkdocs.yml": MKDOCS_YML,
    "content/index.md": HOME,
    "content/basics/index.md": PLAN,
    "content/basics/averages.md": LESSON,
    "quizzes/averages.yml": BANK,
}


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The course, written into a folder of its own, as its author's working directory."""
    root = tmp_path / "field-statistics"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(tmp_path / "home"))
    return root


def order(page: str) -> list[str]:
    """The headings, self-checks, call to action and footnotes of a built page, in order."""
    found = re.finditer(
        r'<h2 id="([^"]+)"|<h3 id="(check-yourself-\d+)"|(<div class="lk-quiz-call">)'
        r'|(<div class="footnote">)',
        page,
    )
    names = {3: "call to action", 4: "footnotes"}
    return [next(g if i < 3 else names[i] for i, g in enumerate(m.groups(), 1) if g) for m in found]


EXPECTED_ORDER = [
    "the-mean-moves-with-every-value",
    "check-yourself-1",
    "the-median-resists-outliers",
    "check-yourself-2",
    "further-reading",
    "take-the-quiz",
    "call to action",
    "sources",
    "footnotes",
]


def test_a_course_written_elsewhere_validates_clean(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--strict", "--full"]) == 0
    assert capsys.readouterr().out == (
        "checked 1 bank (4 questions) and 1 lesson: no problems found\n"
    )


@pytest.mark.build
def test_a_course_written_elsewhere_builds_every_self_check_with_mkdocs(
    elsewhere: Path, tmp_path: Path
) -> None:
    result = build(elsewhere, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/basics/averages/index.html").read_text(encoding="utf-8")
    assert order(page) == EXPECTED_ORDER
    assert page.count('<li class="lk-question"') == 4
    assert "not a heading" in page and "lessonkit:" not in page and "{ #" not in page


@pytest.mark.build
def test_a_course_written_elsewhere_builds_every_self_check_with_zensical(
    elsewhere: Path,
) -> None:
    result = build_zensical(elsewhere)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (elsewhere / "site/basics/averages/index.html").read_text(encoding="utf-8")
    assert order(page) == EXPECTED_ORDER
    assert page.count('<li class="lk-question"') == 4


def test_read_shows_the_call_to_action_before_the_sources(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["read", "averages"]) == 0
    out = capsys.readouterr().out
    tail = out[out.index("Further reading") :]
    assert tail.index("Take the quiz:") < tail.index("Sources")
    assert out.count("Take the quiz:") == 1


def test_a_marker_that_is_written_wins_and_the_rest_are_placed() -> None:
    lines = [
        "Intro.",
        "## One",
        "Text one.",
        "<!-- lessonkit:check b 1 -->",
        "More text after the check.",
        "## Two",
        "Text two.",
        "## Notes",
        "[^a]: A note",
        "    that goes on.",
        "",
    ]
    assert markers.with_defaults(lines, "b", ["One", "Two", "Three"], {1, 2, 3}) == [
        "Intro.",
        "## One",
        "Text one.",
        "<!-- lessonkit:check b 1 -->",
        "More text after the check.",
        "## Two",
        "Text two.",
        "",
        "<!-- lessonkit:check b 2 -->",  # at the end of its section, before `## Notes`
        "",
        "## Notes",
        "",
        "<!-- lessonkit:check b 3 -->",  # no heading `## Three`: before the call, not lost
        "",
        "",
        "<!-- lessonkit:quiz b -->",
        "",
        "[^a]: A note",
        "    that goes on.",
        "",
    ]


@pytest.mark.build
@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_a_marker_naming_another_bank_stops_either_build(
    elsewhere: Path, tmp_path: Path, engine: str
) -> None:
    lesson = elsewhere / "content/basics/averages.md"
    lesson.write_text(
        lesson.read_text().replace(
            "## The median", "<!-- lessonkit:check other 1 -->\n\n## The median"
        )
    )
    built = build(elsewhere, tmp_path / "site") if engine == "mkdocs" else build_zensical(elsewhere)
    assert built.returncode == 1
    assert (
        "basics/averages.md: `<!-- lessonkit:check other 1 -->` names bank other, but this "
        "lesson's quiz is averages (write `<!-- lessonkit:check averages 1 -->`)"
    ) in built.stdout + built.stderr
