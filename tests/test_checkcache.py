"""`lessonkit validate` reading only what changed reports exactly what a full run reports."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import BANK, FULL_BANK, LESSON, PLAN, MakeCourse, quizzing
from lessonkit.authoring import checkcache
from lessonkit.authoring.validate import validate_paths
from lessonkit.course.facts import BankFacts, from_json, to_json

LESSON_TWO = (
    quizzing(LESSON, "lesson-two").replace("title: Lesson one", "title: Lesson two")
    .replace("last_reviewed: 2026-11-20", "last_reviewed: 2026-10")
    .replace("Opening text.", "Opening text, after [the detail](lesson-one.md#a-detail).\n\n"
             "![A chart](img/chart.svg)")
)  # fmt: skip
BANK_TWO = (
    FULL_BANK.replace("lesson: lesson-one", "lesson: lesson-two")
    .replace("id: q-", "id: two-")
    .replace("id: pad-", "id: two-pad-")
)
# A calculation that divides by zero for one of its draws: the sweep reports it.
DRAWN = """\
  - id: q-drawn
    type: numeric
    prompt: "{a} over {b}?"
    insight: 1
    section: 1-first-idea
    explanation: Because.
    params:
      a: {values: [1, 2]}
      b: {values: [2, 1, 0]}
    answer: a / b
    relative_tolerance: 0.01
"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><text>chart</text></svg>\n'


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    """Two lessons in one plan, each with a bank; the second links into the first; and a
    plan of one lesson elsewhere."""
    return make_course(
        {
            "content/test-plan/index.md": PLAN.replace("[lesson-one]", "[lesson-one, lesson-two]"),
            "content/test-plan/lesson-two.md": LESSON_TWO,
            "content/test-plan/img/chart.svg": SVG,
            "quizzes/lesson-one.yml": FULL_BANK,
            "quizzes/lesson-two.yml": BANK_TWO,
            # A plan of its own, which no edit below touches: a partial run never reads it.
            "content/far-plan/index.md": PLAN.replace("[lesson-one]", "[lesson-far]"),
            "content/far-plan/lesson-far.md": quizzing(LESSON, "lesson-far").replace(
                "plan: test-plan", "plan: far-plan"
            ),
            "quizzes/lesson-far.yml": FULL_BANK.replace("lesson: lesson-one", "lesson: lesson-far")
            .replace("id: q-", "id: far-")
            .replace("id: pad-", "id: far-pad-"),
        }
    )


def _edit(name: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _day(iso: str) -> Callable[[Path], None]:
    """Not an edit: the clock moves on to ``iso`` (the test restores it)."""

    def move(root: Path) -> None:
        when = dt.datetime.fromisoformat(iso).replace(tzinfo=dt.UTC)
        os.environ["SOURCE_DATE_EPOCH"] = str(int(when.timestamp()))

    return move


def _write(name: str, text: str | None) -> Callable[[Path], None]:
    def write(root: Path) -> None:
        path = root / name
        if text is None:
            path.unlink()
        else:
            path.write_text(text, encoding="utf-8")

    return write


ONE, TWO = "quizzes/lesson-one.yml", "quizzes/lesson-two.yml"
PAGE_ONE, PAGE_TWO = "content/test-plan/lesson-one.md", "content/test-plan/lesson-two.md"

# Each edit applies to the course as the previous ones left it; `True` where the run
# must read only some files (the others are full runs by design: see checkcache).
EDITS: list[tuple[str, Callable[[Path], None], bool]] = [
    ("nothing changed", lambda root: None, True),
    ("an answer key that fails", _edit(ONE, "      - text: b\n        correct: true",
                                       "      - text: b"), True),
    ("an id used in the other bank", _edit(TWO, "id: two-single", "id: q-order"), True),
    ("the first bank's id renamed", _edit(ONE, "id: q-order", "id: q-ordered"), True),
    ("a section that is no heading", _edit(ONE, "section: a-detail", "section: a-detial"), True),
    ("the bank names the other lesson", _edit(TWO, "lesson: lesson-two", "lesson: lesson-one"),
     True),
    ("back to its own lesson", _edit(TWO, "lesson: lesson-one", "lesson: lesson-two"), True),
    ("a bank that does not parse", _edit(ONE, "pass_mark: 0.5", "pass_mark: [0.5"), True),
    ("the bank parses again", _edit(ONE, "pass_mark: [0.5", "pass_mark: 0.5"), True),
    ("a folded list in a prompt", _edit(TWO, "prompt: Pick b.",
                                        "prompt: >-\n      Steps:\n      - one\n      - two"), True),
    ("prose with a placeholder host", _edit(PAGE_ONE, "Opening text.",
                                            "Opening text, see https://example.com/x."), True),
    ("a heading another page links to", _edit(PAGE_ONE, "### A detail", "### The detail"), False),
    ("a plan page that gives each quiz command", _edit("content/test-plan/index.md",
        "lesson-two]\n---\n",
        "lesson-two]\n---\nTake `lessonkit quiz lesson-one`, then `lessonkit quiz lesson-two`.\n"),
     True),
    ("the lesson names a missing bank", _edit(PAGE_TWO, "quiz: lesson-two", "quiz: lesson-2"),
     True),
    ("its bank again", _edit(PAGE_TWO, "quiz: lesson-2", "quiz: lesson-two"), True),
    ("front matter that does not load", _edit(PAGE_TWO, "minutes: 5", "minutes: many"), False),
    ("front matter that loads", _edit(PAGE_TWO, "minutes: many", "minutes: 5"), False),
    ("a figure with a placeholder host", _write("content/test-plan/img/chart.svg",
                                                SVG.replace("chart<", "example.org<")), True),
    ("the figure removed", _write("content/test-plan/img/chart.svg", None), False),
    ("a plan without the second lesson", _edit("content/test-plan/index.md",
                                               "[lesson-one, lesson-two]", "[lesson-one]"), False),
    ("a plan's title", _edit("content/test-plan/index.md", "title: Test plan",
                             "title: The test plan"), True),
    ("a new bank for no lesson", _write("quizzes/spare.yml", BANK.replace("id: q-", "id: s-")),
     False),
    ("the spare bank edited", _edit("quizzes/spare.yml", "lesson: lesson-one",
                                    "lesson: lesson-three"), True),
    ("a drawn question that divides by zero", _edit(ONE, "questions:\n", "questions:\n" + DRAWN),
     True),
    ("its divisor never zero", _edit(ONE, "b: {values: [2, 1, 0]}", "b: {values: [2, 1]}"), True),
    ("a setting in the course folder", _write("mkdocs.yml", "site_name: Test\n"), False),
    # The day moves on, no file changes: lessons fall due for review (policy: 6 months).
    ("months later, both lessons still fresh", _day("2027-04-10"), True),
    ("lesson two overdue", _day("2027-05-05"), True),
    ("lesson one overdue too", _day("2027-05-21"), True),
    ("later the same month", _day("2027-05-31"), True),
    ("a new month, a new month in each hint", _day("2027-06-01"), True),
    ("a clock set before either review", _day("2026-06-01"), True),
    ("back to today", _day("2026-11-22"), True),
    # The course's policy file: each rule's level and numbers.
    ("the policy asks for more questions", _edit("lessonkit.yml", "per_insight: 5",
                                                 "per_insight: 6"), False),
    ("the policy turns a rule off", _edit("lessonkit.yml", "hand-counts: {level: error}",
                                          "hand-counts: {level: off}"), False),
    ("the review rule turned off", _edit("lessonkit.yml", "review: {level: warn, months: 6}",
                                         "review: {level: off, months: 6}"), False),
    ("a year later, with no review rule", _day("2027-12-01"), True),
    ("the review rule monthly", _edit("lessonkit.yml", "review: {level: off, months: 6}",
                                      "review: {level: warn, months: 1}"), False),
    ("a day later", _day("2027-12-02"), True),
    ("the policy file removed", _write("lessonkit.yml", None), False),
]  # fmt: skip


def _said(root: Path, monkeypatch: pytest.MonkeyPatch, *, full: bool = False) -> list[str]:
    """What `lessonkit validate` says in the course folder."""
    monkeypatch.chdir(root)
    report = validate_paths([], full=full)
    return [*(f"{level}: {problem}" for level, problem in report.lines()), report.summary_line()]


def test_every_edit_is_reported_as_a_full_run_reports_it(
    course: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path_factory.mktemp("full") / "course"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", os.environ["SOURCE_DATE_EPOCH"])  # restored after
    monkeypatch.chdir(course)
    checkcache.check(course)  # the first run is a full one and keeps its result
    found_changes = 0
    for name, edit, partial in EDITS:
        edit(course)
        monkeypatch.chdir(course)
        checked = checkcache.check(course)
        incremental = _said(course, monkeypatch)
        # A full run of a copy with no cache at all, as CI runs it on a fresh checkout.
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(course, copy, ignore=shutil.ignore_patterns(".cache"))
        assert incremental == _said(copy, monkeypatch, full=True), name
        assert (0 < checked.read < len(checked.facts)) == (partial and bool(checked.read)), name
        found_changes += len(incremental) > 1
    assert found_changes > 10  # the edits do make problems, which the runs agree on


def test_full_ignores_and_renews_the_cache(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(course)
    checkcache.check(course)
    cache = course / checkcache.CACHE
    cache.write_text(
        cache.read_text().replace('"problems": []', '"problems": [["x", 1, 1, "m", ""]]')
    )
    assert checkcache.check(course, full=True).problems == []
    assert checkcache.check(course).problems == []


def test_a_broken_or_foreign_cache_means_a_full_run(course: Path) -> None:
    checkcache.check(course)
    (course / checkcache.CACHE).write_text("{not json")
    assert checkcache.check(course).read > 0
    (course / checkcache.CACHE).write_text('{"format": 1, "key": {}, "files": {}}')
    assert checkcache.check(course).read == len(checkcache.check(course, full=True).facts)


def test_a_linked_plan_folder_is_watched_and_a_link_loop_ends(
    course: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "linked-plan"
    (elsewhere / "img").mkdir(parents=True)
    (elsewhere / "img" / "loop").symlink_to(elsewhere)  # a folder that contains itself
    (elsewhere / "index.md").write_text(PLAN.replace("Test plan", "Linked plan"))
    (course / "content" / "linked-plan").symlink_to(elsewhere)
    monkeypatch.chdir(course)
    checkcache.check(course)
    (elsewhere / "index.md").write_text(PLAN.replace("lessons: [lesson-one]", "lessons: []"))
    found = [str(p) for p in checkcache.check(course).problems]
    assert found == [str(p) for p in checkcache.check(course, full=True).problems]
    assert found == ["content/linked-plan/index.md:5:10: lessons: needs at least 1 items, found 0"]


def test_lessons_overdue_are_counted_by_rule_in_every_kind_of_run(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the `review` rule's warnings count as overdue lessons, whatever another rule's
    words: the cache keeps each warning's rule, so a run from the cache counts the same."""
    section = "Notes on when the lesson was due for review by its readers"
    _edit("lessonkit.yml", "level: advice\n    required: [Common misconceptions, Key takeaways, "
          "Glossary, Updates]", f"level: warn\n    required: [{section}]")(course)  # fmt: skip
    _edit(PAGE_TWO, "last_reviewed: 2026-10", "reviewed: 2026-03")(course)
    monkeypatch.chdir(course)
    full = _said(course, monkeypatch, full=True)
    assert sum(f"`## {section}`" in line for line in full) == 3  # every lesson's warning
    assert full[-1].endswith("; 1 lesson overdue for review")
    assert checkcache.check(course).read == 0
    assert _said(course, monkeypatch) == full  # all from the cache
    # A cache of the format before, whose warnings had no rule: ignored, a full run.
    cache = course / checkcache.CACHE
    kept = json.loads(cache.read_text(encoding="utf-8"))
    kept["format"], kept["warnings"] = 2, [row[:5] for row in kept["warnings"]]
    cache.write_text(json.dumps(kept), encoding="utf-8")
    again = checkcache.check(course)
    assert again.read == len(again.facts)
    assert _said(course, monkeypatch) == full
    _edit(ONE, "prompt: Pick b.", "prompt: Pick b, please.")(course)
    assert 0 < checkcache.check(course).read < 6
    assert _said(course, monkeypatch) == full  # some read again, the rest from the cache


def test_a_file_that_changes_while_a_run_reads_it_is_not_kept(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The author saves a typo and undoes it while a run reads the bank: the run saw the
    typo, the file ends as it was hashed, and the next run must not report the typo."""
    monkeypatch.chdir(course)
    checkcache.check(course)
    typo, undo = (
        _edit(ONE, "section: a-detail", "section: a-detial"),
        _edit(ONE, "a-detial", "a-detail"),
    )
    hashes, check_course = checkcache._hashes, checkcache._check_course

    def hashed_then_saved(*args: Any, **kwargs: Any) -> Any:
        found = hashes(*args, **kwargs)
        typo(course)
        return found

    def read_then_undone(*args: Any, **kwargs: Any) -> Any:
        found = check_course(*args, **kwargs)
        undo(course)
        return found

    _edit(ONE, "prompt: Pick b.", "prompt: Pick b, please.")(course)
    monkeypatch.setattr(checkcache, "_hashes", hashed_then_saved)
    monkeypatch.setattr(checkcache, "_check_course", read_then_undone)
    assert any("a-detial" in p.message for p in checkcache.check(course).problems)
    monkeypatch.setattr(checkcache, "_hashes", hashes)
    monkeypatch.setattr(checkcache, "_check_course", check_course)
    assert checkcache.check(course).problems == []


def test_kept_facts_in_another_shape_mean_a_full_run(course: Path) -> None:
    checkcache.check(course)
    cache = course / checkcache.CACHE
    kept = json.loads(cache.read_text(encoding="utf-8"))
    kept["facts"][ONE][-1:] = [[[0, "q-single", 7, 9]]]  # ids as lists, as format 2 kept them
    cache.write_text(json.dumps(kept), encoding="utf-8")
    again = checkcache.check(course)
    assert again.read == len(again.facts)
    assert checkcache.check(course).read == 0


def test_kept_ids_read_back_as_they_were_found() -> None:
    found = BankFacts("b", "l", True, 2, ((0, "q-one", 7, 9), (1, "q-two", 15, 9)))
    kept = from_json(json.loads(json.dumps(to_json(found))))
    assert kept == found and kept.id_names() == ["q-one", "q-two"]
    assert list(kept.ids) == [(0, "q-one", 7, 9), (1, "q-two", 15, 9)]
    empty = BankFacts("b", None, False, 0, ())
    assert from_json(json.loads(json.dumps(to_json(empty)))) == empty


def _both(*edits: Callable[[Path], None]) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        for each in edits:
            each(root)

    return edit


# What a bank's checks read of its lesson (its insights, objectives and heading anchors)
# and what a lesson's checks read of its bank (how many questions each insight has, the
# bank's options), changed on one side, the other, or both. Each applies to the course as
# the previous ones left it; `True` where the run must read only some files.
PAIRED_EDITS: list[tuple[str, Callable[[Path], None], bool]] = [
    ("a question on an insight the lesson lacks", _edit(ONE, "insight: 2\n    section: a-detail\n"
                                                        "    explanation: Alphabetical.",
                                                        "insight: 3\n    section: a-detail\n"
                                                        "    explanation: Alphabetical."), True),
    ("the lesson gains that insight", _both(
        _edit(PAGE_ONE, "  - Second idea\n", "  - Second idea\n  - Third idea\n"),
        _edit(PAGE_ONE, "<!-- lessonkit:quiz", "## 3. Third idea\n\nText.\n\n<!-- lessonkit:quiz"),
    ), False),
    ("an objective the lesson lacks", _edit(ONE, "section: 1-first-idea\n    explanation: Because b.",
                                            "section: 1-first-idea\n    objectives: [1, 2]\n"
                                            "    explanation: Because b."), True),
    ("the lesson gains that objective", _edit(PAGE_ONE, "objectives: [Explain things]",
                                              "objectives: [Explain things, Weigh them]"), True),
    ("and loses it again", _edit(PAGE_ONE, "objectives: [Explain things, Weigh them]",
                                 "objectives: [Explain things]"), True),
    ("a question moved off an insight, leaving it too few", _edit(
        ONE, "insight: 1\n    section: 1-first-idea\n    explanation: Because it is so.",
        "insight: 2\n    section: a-detail\n    explanation: Because it is so."), True),
    ("an insight dropped from the front matter only", _edit(PAGE_ONE, "  - Third idea\n", ""),
     True),
    ("a catch-all option", _edit(ONE, "      - text: a\n", "      - text: All of the above\n"),
     True),
    ("the course's policy warns of them", _edit("lessonkit.yml", "rules:\n",
                                               "rules:\n  catch-all: {level: warn}\n"), False),
    ("a heading renamed so a section no longer resolves",
     _edit(PAGE_ONE, "### A detail", "### The detail"), False),
    ("the bank follows the new heading", _edit(ONE, "section: a-detail", "section: the-detail"),
     True),
    ("both at once: the insight back, the option mended", _both(
        _edit(PAGE_ONE, "  - Second idea\n", "  - Second idea\n  - Third idea\n"),
        _edit(ONE, "      - text: All of the above\n", "      - text: a\n"),
    ), True),
    ("a catch-all again", _edit(ONE, "      - text: a\n", "      - text: None of these\n"), True),
    ("the other lesson's bank names this lesson's sections", _edit(
        TWO, "lesson: lesson-two", "lesson: lesson-one"), True),
]  # fmt: skip


def test_what_a_bank_and_its_lesson_check_of_each_other_is_reported_as_a_full_run_does(
    course: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bank edit re-checks what its lesson says of it, and a lesson edit what its bank
    says of the lesson, as a run that reads everything does."""
    copy = tmp_path_factory.mktemp("full") / "course"
    monkeypatch.chdir(course)
    checkcache.check(course)
    reports: list[list[str]] = []
    for name, edit, partial in PAIRED_EDITS:
        edit(course)
        checked = checkcache.check(course)
        incremental = _said(course, monkeypatch)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(course, copy, ignore=shutil.ignore_patterns(".cache"))
        assert incremental == _said(copy, monkeypatch, full=True), name
        assert (0 < checked.read < len(checked.facts)) == partial, name
        monkeypatch.chdir(course)
        reports.append(incremental)
    # The edits do make the problems they are about, which both kinds of run agree on.
    assert any("insight: 3 does not exist" in line for line in reports[0])
    assert any("objectives[1]: 2 does not exist" in line for line in reports[2])
    assert not any("does not exist" in line for line in reports[3])
    assert any("insight 1 has 4 questions" in line for line in reports[5])
    assert any("is a catch-all" in line for line in reports[8])
    assert any("no heading with anchor `a-detail`" in line for line in reports[9])
    assert not any("is a catch-all" in line for line in reports[11])
    assert any("is a catch-all" in line for line in reports[12])
