"""Export: the command, determinism, losses and finding banks (formats have their own files).

The fixture banks here are shared with tests/test_export_*.py: `every_type()` holds one
question of each type with the features formats lose, `hostile()` holds text built to
break markup and GIFT.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import MakeCourse
from lessonkit.bank.models import Bank
from lessonkit.cli import main
from lessonkit.export import FORMATS, convert
from lessonkit.export.common import Source, plain_questions
from lessonkit.export.sources import gather, is_plan, modified_time
from lessonkit.questiontypes.base import RuntimeQuestion
from lessonkit.questiontypes.order import MOODLE_LOSS

REPO = Path(__file__).resolve().parents[1]
MODIFIED = 1_790_000_000  # 2026-09-21: a fixed bank time, so bytes can be compared

EVERY_TYPE = """\
lesson: lesson-one
title: Every type
pass_mark: 0.5
questions:
  - id: ex-single
    type: single
    prompt: Which one is **right**?
    insight: 1
    objectives: [1]
    section: 1-first-idea
    explanation: Because b.
    hint: Not a.
    tags: [basics, two words]
    options:
      - text: a
        feedback: No, a is a distractor.
      - text: b
        correct: true
  - id: ex-multiple
    type: multiple
    prompt: Pick the two right ones.
    insight: 1
    section: 1-first-idea
    explanation: x and z.
    points: 3
    options:
      - text: x
        correct: true
      - text: y
        feedback: Not y.
      - text: z
        correct: true
  - id: ex-true-false
    type: true_false
    prompt: The sky is blue.
    insight: 2
    section: 2-second-idea
    explanation: On a clear day.
    answer: true
  - id: ex-numeric
    type: numeric
    prompt: How many bits in a byte?
    insight: 2
    section: 2-second-idea
    explanation: Eight.
    answer: 8
    relative_tolerance: 0.25
    unit: bits
  - id: ex-text
    type: text
    prompt: Name the compiler.
    insight: 2
    section: 2-second-idea
    explanation: XLA.
    accept: [XLA, a*b]
    patterns: ["X\\\\.?L\\\\.?A"]
    case_sensitive: true
  - id: ex-order
    type: order
    prompt: Order them.
    insight: 2
    section: a-detail
    explanation: Alphabetical.
    items: [alpha, beta, gamma]
  - id: ex-match
    type: match
    prompt: Match them.
    insight: 1
    section: 1-first-idea
    explanation: As paired.
    pairs:
      - {left: GPU, right: workshop}
      - {left: TPU, right: factory line}
    distractors: [bakery]
"""

LONG = "A long explanation that goes on. " * 300  # ~10,000 characters

HOSTILE = """\
lesson: lesson-one
title: "Hostile: <b>bank</b> {with} ~specials~"
pass_mark: 0.5
questions:
  - id: hostile-single
    type: single
    prompt: |
      <script>alert('prompt')</script> What is `a = b ~ c # d {e} f: g \\\\ h`?

      ```python
      if a < b and c > d:
          print("<tag> & {braces}")
      ```
    insight: 1
    section: 1-first-idea
    explanation: "Ünïcödé ✓ 日本語 עברית 🚀 and <img src=x onerror=alert(1)>"
    options:
      - text: "=equals ~tilde #hash {open} close} colon: back\\\\slash"
        correct: true
        feedback: "<script>alert('feedback')</script> ~ = # { } :"
      - text: "<b onclick=\\"alert(1)\\">bold</b> -> arrow"
  - id: hostile-match
    type: match
    prompt: Match <i>these</i> {x}.
    insight: 1
    section: 1-first-idea
    explanation: "Pairs: ~=#{}."
    pairs:
      - {left: "a=b", right: "{c}"}
      - {left: "d~e", right: "f#g: h"}
  - id: hostile-text
    type: text
    prompt: "Type = or ~ or #."
    insight: 1
    section: 1-first-idea
    explanation: Any of them.
    accept: ["=", "~", "#", "{}", "a:b", "ü"]
"""

LESSON_META: dict[str, Any] = {
    "slug": "lesson-one",
    "title": "Lesson one",
    "plan": "test-plan",
    "url": "https://courses.test/test-plan/lesson-one/",
    "insights": ["First idea", "Second idea"],
    "sections": {
        "1-first-idea": {"title": "First idea",
                         "url": "https://courses.test/test-plan/lesson-one/#1-first-idea"},
    },
}  # fmt: skip


def make_source(text: str = EVERY_TYPE, *, modified: int = MODIFIED, slug: str = "lesson-one",
                long: bool = False) -> Source:  # fmt: skip
    """A Source from bank YAML; ``long`` gives the last question a ~10,000-character
    explanation (built past the model, whose length limits are not the exporter's business)."""
    bank = Bank.model_validate(yaml.safe_load(text))
    if long:
        last = bank.questions[-1].model_copy(update={"explanation": LONG})
        bank = bank.model_copy(update={"questions": [*bank.questions[:-1], last]})
    return Source(slug, bank, LESSON_META, modified)


def every_type() -> Source:
    return make_source()


def hostile() -> Source:
    return make_source(HOSTILE, long=True)


def exported(source: Source) -> list[RuntimeQuestion]:
    """The questions a format without drawn numbers gets: each parameterised one as its
    fixed variants (``plain_questions``), the others as they are."""
    return plain_questions(source.questions, [], "the format")


def real_bank() -> Source:
    """The course's GPU vs TPU bank as the CLI finds it (its ids and counts are not asserted)."""
    (source,) = gather("gpu-vs-tpu", cwd=REPO)
    return source


# --- determinism ------------------------------------------------------------------


@pytest.mark.parametrize("to", FORMATS)
def test_the_same_bank_gives_the_same_bytes(to: str) -> None:
    first = convert(every_type(), to)
    again = convert(every_type(), to)
    assert first.data == again.data
    assert first.losses == again.losses


@pytest.mark.parametrize("to", ["anki", "qti"])
def test_zip_entries_carry_a_fixed_time_in_sorted_order(to: str) -> None:
    archive = zipfile.ZipFile(BytesIO(convert(every_type(), to).data))
    names = archive.namelist()
    assert names == sorted(names)
    assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_only_the_anki_deck_depends_on_the_bank_time() -> None:
    later = make_source(modified=MODIFIED + 60)
    assert convert(later, "anki").data != convert(every_type(), "anki").data
    for to in ("qti", "moodle", "gift"):
        assert convert(later, to).data == convert(every_type(), to).data


# --- the loss report --------------------------------------------------------------


def test_losses_name_each_question_and_what_it_lost() -> None:
    losses = {to: [str(loss) for loss in convert(every_type(), to).losses] for to in FORMATS}
    assert losses["anki"] == []
    assert losses["qti"] == [
        "ex-single: hint: QTI for Canvas has no hints",
        "ex-multiple: scoring `partial`: Canvas grades multiple answers by its own option; "
        'choose "partial credit with penalty" (lessonkit\'s rule)',
        "ex-text: patterns: Canvas compares exact answers only",
        "ex-text: case_sensitive: Canvas ignores letter case",
        "ex-order: type `order`: Canvas has no ordering question; left out",
    ]
    assert losses["moodle"] == [
        "ex-text: patterns: Moodle short answers take exact answers and `*` wildcards only",
        "ex-order: type `order`: needs Moodle's Ordering question type (qtype_ordering, a "
        "plugin); a Moodle without it refuses this question",
    ]
    assert losses["gift"] == [
        "ex-single: Markdown formatting: GIFT gets plain text",
        "ex-single: hint: GIFT has no hints",
        "ex-multiple: points 3: GIFT has no points",
        "ex-text: patterns: GIFT takes exact answers only",
        "ex-text: case_sensitive: GIFT ignores letter case",
        "ex-order: type `order`: GIFT has no ordering type; left out",
        "ex-match: distractors: GIFT matching has none",
    ]


# --- the command ------------------------------------------------------------------


@pytest.fixture
def course(make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_course({"mkdocs.yml": "site_name: Test\ndocs_dir: content\n",
                        "quizzes/lesson-one.yml": EVERY_TYPE})  # fmt: skip
    monkeypatch.chdir(root)
    monkeypatch.setenv("LESSONKIT_HOME", str(root / "home"))
    return root


def test_export_writes_the_file_and_reports_losses_on_stderr(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "lesson-one", "--to", "moodle", "--out", "out/bank.xml"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "wrote out/bank.xml (7 questions from lesson-one)\n"
    assert captured.err == (
        "lesson-one: ex-text: patterns: Moodle short answers take exact answers and `*` "
        "wildcards only\n"
        "lesson-one: ex-order: type `order`: needs Moodle's Ordering question type "
        "(qtype_ordering, a plugin); a Moodle without it refuses this question\n"
        "lesson-one: Re-read links to the lesson left out: the site's address is unknown (set "
        "SITE_URL, or site_url in mkdocs.yml, to the published site)\n"
        "2 questions exported with losses\n"
    )
    assert (course / "out/bank.xml").read_bytes() == convert(gather("lesson-one")[0], "moodle").data


def test_export_names_the_file_after_the_bank_by_default(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for to, name in [("anki", "lesson-one.apkg"), ("qti", "lesson-one.qti.zip"),
                     ("moodle", "lesson-one.moodle.xml"), ("gift", "lesson-one.gift.txt")]:  # fmt: skip
        assert main(["export", "quizzes/lesson-one.yml", "--to", to]) == 0
        kept = "6 of " if to in ("qti", "gift") else ""  # no ordering questions there
        assert capsys.readouterr().out == f"wrote {name} ({kept}7 questions from lesson-one)\n"
        assert (course / name).stat().st_size > 0


def test_strict_exits_1_and_writes_nothing_when_something_is_lost(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "lesson-one", "--to", "gift", "--strict"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(
        "5 questions exported with losses\n"
        "lessonkit: nothing written (--strict and some questions lost something)\n"
    )
    assert not (course / "lesson-one.gift.txt").exists()


def test_strict_passes_when_nothing_is_lost(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (course / "mkdocs.yml").write_text(
        "site_name: T\ndocs_dir: content\nsite_url: https://courses.test/\n"
    )
    assert main(["export", "lesson-one", "--to", "anki", "--strict"]) == 0
    assert capsys.readouterr().err == "every question exported without loss\n"


def test_a_plan_slug_exports_every_bank_of_the_plan(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "test-plan", "--to", "qti", "--out", "exports"]) == 0
    assert capsys.readouterr().out == (
        "wrote exports/lesson-one.qti.zip (6 of 7 questions from lesson-one)\n"
    )
    assert zipfile.ZipFile(course / "exports/lesson-one.qti.zip").testzip() is None


def test_an_unwritable_place_is_a_usage_error(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (course / "taken").write_text("a file, not a folder", encoding="utf-8")
    assert main(["export", "test-plan", "--to", "gift", "--out", "taken"]) == 2
    assert capsys.readouterr().err.endswith(
        "lessonkit: cannot write taken/lesson-one.gift.txt: File exists\n"
    )


def test_an_unknown_bank_is_a_usage_error(course: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "lesson-on", "--to", "gift"]) == 2
    assert capsys.readouterr().err == (
        "lessonkit: no quiz called `lesson-on` (did you mean `lesson-one`?)\n"
    )


def test_an_invalid_bank_reports_its_problems(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (course / "quizzes/lesson-one.yml").write_text(
        EVERY_TYPE.replace("answer: true", "answer: yes"), encoding="utf-8"
    )
    assert main(["export", "lesson-one", "--to", "gift"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("quizzes/lesson-one.yml:")
    assert "answer: must be true or false, not `yes`" in err


def test_anki_without_genanki_says_how_to_install_it(
    course: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "genanki", None)  # `import genanki` now fails
    assert main(["export", "lesson-one", "--to", "anki"]) == 2
    assert capsys.readouterr().err == (
        'lessonkit: Anki export needs genanki: pip install "lessonkit[export]"\n'
    )


def test_export_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "--to {anki,qti,moodle,gift}" in capsys.readouterr().out


# --- the bank's time ---------------------------------------------------------------


def _git(folder: Path, *args: str, when: str = "") -> None:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(folder), "PATH": "/usr/bin:/bin"}  # fmt: skip
    if when:
        env |= {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def test_the_bank_time_is_its_last_commit_then_its_mtime_once_edited(tmp_path: Path) -> None:
    bank = tmp_path / "quizzes" / "b.yml"
    bank.parent.mkdir()
    bank.write_text("one\n", encoding="utf-8")
    assert modified_time(bank) == int(bank.stat().st_mtime)  # not in git at all
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "first", when="@1700000000 +0000")
    assert modified_time(bank) == 1_700_000_000
    bank.write_text("two\n", encoding="utf-8")
    import os

    os.utime(bank, (1_800_000_000, 1_800_000_000))
    assert modified_time(bank) == 1_800_000_000  # uncommitted edit: newer than the commit
    _git(tmp_path, "commit", "-qam", "second", when="@1750000000 +0000")
    assert modified_time(bank) == 1_750_000_000


def test_the_real_bank_is_found_with_its_lesson() -> None:
    source = real_bank()
    assert source.slug == "gpu-vs-tpu"
    assert source.plan == "ai-hardware-fundamentals"
    assert source.bank.questions


# --- fields other issues add to the question format --------------------------------


def _with(question_id: str, **fields: object) -> Source:
    """every_type() with extra fields set on one question, as a later model may carry them."""
    source = every_type()
    questions = [q.model_copy(update=fields) if q.id == question_id else q
                 for q in source.bank.questions]  # fmt: skip
    bank = source.bank.model_copy(update={"questions": questions})
    return Source(source.slug, bank, source.lesson, source.modified)


def test_all_or_nothing_scoring_is_carried_or_reported() -> None:
    multiple = _with("ex-multiple", scoring="all_or_nothing")
    assert (
        "ex-multiple: scoring `all_or_nothing`: Moodle's multichoice always gives partial "
        "credit" in map(str, convert(multiple, "moodle").losses)
    )
    assert "ex-multiple: scoring `all_or_nothing`: GIFT gives partial credit" in map(
        str, convert(multiple, "gift").losses
    )
    order = _with("ex-order", scoring="all_or_nothing")
    assert b"<gradingtype>ALL_OR_NOTHING</gradingtype>" in convert(order, "moodle").data
    assert [
        str(loss) for loss in convert(order, "moodle").losses if loss.question == "ex-order"
    ] == [f"ex-order: {MOODLE_LOSS}"]


def test_multiline_text_is_reported_where_answers_are_one_line() -> None:
    source = _with("ex-text", multiline=True)
    for to, what in [("qti", "Canvas takes one line"),
                     ("moodle", "Moodle short answers are one line"),
                     ("gift", "GIFT answers are one line")]:  # fmt: skip
        assert f"ex-text: multiline: {what}" in map(str, convert(source, to).losses)


def test_a_pinned_option_order_is_not_shuffled_in_moodle() -> None:
    pinned = convert(_with("ex-single", shuffle=False), "moodle").data.decode()
    assert pinned.count("<shuffleanswers>false</shuffleanswers>") == 1


# --- lesson links and where banks are found (issue 23's export slips) -----------------


@pytest.mark.parametrize("to", ["moodle", "gift", "qti", "anki"])
def test_without_a_site_address_lesson_links_are_left_out_and_reported(
    course: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, to: str
) -> None:
    (course / "mkdocs.yml").write_text(
        "site_name: T\ndocs_dir: content\nsite_url: !ENV [SITE_URL, null]\n"
    )
    monkeypatch.delenv("SITE_URL", raising=False)
    assert main(["export", "lesson-one", "--to", to, "--out", "bank"]) == 0
    assert b"127.0.0.1" not in _unpacked(course / "bank")
    assert (
        "lesson-one: Re-read links to the lesson left out: the site's address is unknown (set SITE_URL"
        in capsys.readouterr().err
    )
    assert main(["export", "lesson-one", "--to", to, "--out", "bank", "--strict"]) == 1
    monkeypatch.setenv("SITE_URL", "https://courses.test/")
    capsys.readouterr()
    assert main(["export", "lesson-one", "--to", to, "--out", "bank"]) == 0
    assert b"courses.test/test-plan/lesson-one/" in _unpacked(course / "bank")
    assert "Re-read links" not in capsys.readouterr().err


def _unpacked(path: Path) -> bytes:
    data = path.read_bytes()
    if data[:2] != b"PK":
        return data
    archive = zipfile.ZipFile(BytesIO(data))
    found = b"".join(archive.read(name) for name in archive.namelist())
    if "collection.anki2" in archive.namelist() or "collection.anki21" in archive.namelist():
        import sqlite3
        import tempfile
        from contextlib import closing

        with tempfile.TemporaryDirectory() as folder:
            name = next(n for n in archive.namelist() if n.startswith("collection.anki2"))
            db = Path(folder) / "c.db"
            db.write_bytes(archive.read(name))
            with closing(sqlite3.connect(db)) as connection:  # Python 3.13 warns if left open
                rows = connection.execute("select flds from notes").fetchall()
            found += "".join(row[0] for row in rows).encode()
    return found


def test_a_plan_is_found_in_every_course_quiz_looks_in(
    make_course: MakeCourse, tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Outside the course folder a plan slug finds the installed course, as a quiz slug does."""
    from lessonkit.course import catalog

    root = make_course({"mkdocs.yml": "site_name: T\ndocs_dir: content\n",
                        "quizzes/lesson-one.yml": EVERY_TYPE})  # fmt: skip
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.setattr(catalog, "PACKAGED", root)  # as if the wheel carried this course
    monkeypatch.setenv("LESSONKIT_HOME", str(elsewhere / "home"))
    assert is_plan("test-plan", cwd=elsewhere)
    assert [s.slug for s in gather("test-plan", cwd=elsewhere)] == ["lesson-one"]


# Words of README's loss table that stand for each kind of loss an exporter reports.
_README_WORDS = {"hint": "hints", "patterns": "patterns", "case_sensitive": "case_sensitive",
                 "type `order`": "`order`", "points": "points", "Markdown formatting": "Markdown",
                 "distractors": "distractors", "scoring": "scoring", "multiline": "multiline"}  # fmt: skip


@pytest.mark.parametrize(("to", "row"), [("qti", "Canvas (QTI 1.2)"), ("moodle", "Moodle XML"),
                                         ("gift", "GIFT")])  # fmt: skip
def test_readmes_loss_table_names_every_loss_the_command_reports(to: str, row: str) -> None:
    table = {line.split("|")[1].strip(): line.split("|")[2]
             for line in (REPO / "README.md").read_text().splitlines() if line.startswith("| ")}  # fmt: skip
    sources = [every_type(), _with("ex-multiple", scoring="all_or_nothing"),
               _with("ex-text", multiline=True)]  # fmt: skip
    kinds = {loss.what.split(":")[0] for s in sources for loss in convert(s, to).losses}
    for kind in kinds:
        word = next(w for k, w in _README_WORDS.items() if kind.startswith(k))
        assert word in table[row], f"README's {row} row does not mention {kind!r}"
    if to == "moodle":
        assert "plugin" in table[row]  # stock Moodle needs qtype_ordering for `order`
