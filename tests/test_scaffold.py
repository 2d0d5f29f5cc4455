"""`lessonkit new lesson` and `new plan`: the files they write, what they refuse, and that
the result builds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.authoring.placeholders import PLACEHOLDER, is_placeholder
from lessonkit.authoring.scaffold import template, yaml_text
from lessonkit.authoring.validate import validate_paths
from lessonkit.bank import yamldoc
from lessonkit.bank.models import Lesson
from lessonkit.questiontypes import registry

REPO = Path(__file__).resolve().parents[1]
LESSONKIT = str(Path(sys.executable).parent / "lessonkit")

NAV = """\
site_name: test
docs_dir: content
# Page tree
nav:
  - Test plan:
      - test-plan/index.md
      - Lesson one: test-plan/lesson-one.md   # the first lesson
# after the nav
"""


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real console script, as an author runs it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [LESSONKIT, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def fill_placeholders(text: str) -> str:
    """What an author does, mechanically: delete the template's YAML comments (the bank's,
    and those in the lesson's front matter), keep the example text, drop the markers."""
    kept, yaml_part = [], not text.startswith("---")
    for number, line in enumerate(text.split("\n")):
        if line == "---":
            yaml_part = number == 0
        if yaml_part and line.lstrip().startswith(f"# {PLACEHOLDER}"):
            continue
        if yaml_part:
            line = re.sub(rf"\s+# {re.escape(PLACEHOLDER)}.*$", "", line)
        kept.append(line)
    text = "\n".join(kept).replace(f"https://{PLACEHOLDER}/", "https://www.python.org/")
    return re.sub(re.escape(PLACEHOLDER) + r":\s*", "", text).replace("todolessonkit-", "")


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    return make_course({"mkdocs.yml": NAV, "quizzes/lesson-one.yml": FULL_BANK})


def test_new_lesson_writes_four_files(course: Path) -> None:
    result = run(course, "new", "lesson", "second", "--plan", "test-plan", "--title", "Two: more")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "created content/test-plan/second.md",
        "created quizzes/second.yml",
        "updated content/test-plan/index.md",
        "updated mkdocs.yml",
        "next: replace every TODO(lessonkit) placeholder, then run `lessonkit validate` "
        "and `lessonkit report second`",
    ]
    assert "lessons: [lesson-one, second]\n" in (course / "content/test-plan/index.md").read_text()
    assert (course / "mkdocs.yml").read_text() == NAV.replace(
        "   # the first lesson\n",
        "   # the first lesson\n      - test-plan/second.md\n",
    )
    bank = (course / "quizzes/second.yml").read_text()
    assert bank.startswith("# yaml-language-server: $schema=../schemas/quiz-bank.schema.json\n")
    # Every type once, and as many per insight as the course's `min-questions` asks (5).
    types = re.findall(r"^    type: (\w+)$", bank, re.MULTILINE)
    assert types[: len(registry.names())] == list(registry.names())
    assert re.findall(r"^    insight: (\d)$", bank, re.MULTILINE) == [
        str(n) for n in (1, 2, 3) for _ in range(5)
    ]
    # Tagged as CONTRIBUTING asks: at least half `application`, some in every insight.
    tags = re.findall(r"^    tags: \[(\w+)\]$", bank, re.MULTILINE)
    assert tags == (["application"] * 3 + ["recall"] * 2) * 3
    lesson = (course / "content/test-plan/second.md").read_text()
    assert 'title: "Two: more"\n' in lesson
    assert "{{" not in lesson + bank


def test_fresh_lesson_has_only_placeholder_problems(course: Path) -> None:
    run(course, "new", "lesson", "second", "--plan", "test-plan", "--title", "Second")
    report = validate_paths([], cwd=course)
    assert report.problems, "the template's placeholders must be flagged"
    assert all(is_placeholder(p) for p in report.problems), report.problems
    assert {Path(p.path).name for p in report.problems} == {"second.md", "second.yml"}
    for name in ("content/test-plan/second.md", "quizzes/second.yml"):
        path = course / name
        path.write_text(fill_placeholders(path.read_text()))
    # The draft passes the course's own policy, warnings included, once it is filled in:
    # enough questions per insight, tags, a link back to the lesson before it.
    filled = validate_paths([], cwd=course, strict=True)
    assert (filled.problems, filled.warnings, filled.failed) == ((), (), False)
    lesson = (course / "content/test-plan/second.md").read_text()
    assert "This lesson builds on [Lesson one](lesson-one.md)" in lesson


def test_a_fresh_draft_lists_real_problems_first_and_placeholders_once_per_file(
    course: Path,
) -> None:
    run(course, "new", "lesson", "second", "--plan", "test-plan", "--title", "Second")
    bank = course / "quizzes/second.yml"
    bank.write_text(bank.read_text().replace("answer: false", "answer: maybe", 1))
    result = run(course, "validate")
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert (
        lines[0].startswith("quizzes/second.yml:") and ".answer: must be true or false" in lines[0]
    )
    assert [line.split(": ", 1)[1].split(";")[0] for line in lines[1:3]] == [
        "32 placeholders left from the template",
        "69 placeholders left from the template",
    ]
    assert lines[3] == "1 problem and 101 placeholders in 2 files"
    assert len(lines) == 4


def test_block_list_in_plan_keeps_its_indent(make_course: MakeCourse) -> None:
    plan = "---\ntitle: T\nsummary: S\naudience: A\nlessons:\n    - lesson-one  # first\n---\nB\n"
    root = make_course({"content/test-plan/index.md": plan})
    assert run(root, "new", "lesson", "two", "--plan", "test-plan", "--title", "T").returncode == 0
    assert (root / "content/test-plan/index.md").read_text() == plan.replace(
        "# first\n", "# first\n    - two\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["lesson-one", "--plan", "test-plan"],
            "the slug `lesson-one` is taken: content/test-plan/lesson-one.md, "
            "quizzes/lesson-one.yml already exist; choose another",
        ),
        (
            ["Lesson_Two", "--plan", "test-plan"],
            "`Lesson_Two` is not a valid slug: use lower-case letters and digits joined by "
            "single hyphens, e.g. `lesson-two`",
        ),
        (
            ["two", "--plan", "no-plan"],
            "unknown plan `no-plan`: choose one of `test-plan`, or start it with "
            '`lessonkit new plan no-plan --title "…" --lesson two`',
        ),
        (
            ["two", "--plan", "../test-plan"],
            "unknown plan `../test-plan`: choose one of `test-plan`, or start it with "
            '`lessonkit new plan PLAN --title "…" --lesson two`',
        ),
    ],
)
def test_refusals_change_nothing(course: Path, args: list[str], message: str) -> None:
    before = snapshot(course)
    result = run(course, "new", "lesson", *args, "--title", "Title")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"lessonkit: {message}\n"
    assert snapshot(course) == before


def test_plan_missing_from_nav_changes_nothing(make_course: MakeCourse) -> None:
    root = make_course({"mkdocs.yml": "site_name: t\nnav:\n  - Home: index.md\n"})
    before = snapshot(root)
    result = run(root, "new", "lesson", "two", "--plan", "test-plan", "--title", "T")
    assert result.returncode == 2
    assert result.stderr.startswith("lessonkit: mkdocs.yml: the plan `test-plan` is not in `nav`")
    assert snapshot(root) == before


def test_new_plan_writes_a_plan_with_its_first_lesson(course: Path) -> None:
    result = run(course, "new", "plan", "statistics", "--title", "Statistics: the basics",
                 "--lesson", "averages")  # fmt: skip
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "created content/statistics/index.md",
        "created content/statistics/averages.md",
        "created quizzes/averages.yml",
        "updated mkdocs.yml",
        "next: replace every TODO(lessonkit) placeholder, link the plan from the home page, "
        "then run `lessonkit validate`",
    ]
    assert (course / "mkdocs.yml").read_text() == NAV.replace(
        "# after the nav\n",
        '# after the nav\n  - "Statistics: the basics":\n      - statistics/index.md\n'
        "      - statistics/averages.md\n",
    )
    lesson = (course / "content/statistics/averages.md").read_text()
    assert "title: Averages\n" in lesson and "builds on" not in lesson  # the plan's first
    # Valid as written but for its placeholders, one line per file.
    report = validate_paths([], cwd=course)
    assert all(is_placeholder(p) for p in report.problems), report.problems
    assert sorted({Path(p.path).name for p in report.problems}) == [
        "averages.md", "averages.yml", "index.md"]  # fmt: skip
    for name in ("content/statistics/index.md", "content/statistics/averages.md",
                 "quizzes/averages.yml"):  # fmt: skip
        (course / name).write_text(fill_placeholders((course / name).read_text()))
    filled = validate_paths([], cwd=course, strict=True)
    assert (filled.problems, filled.warnings) == ((), ())
    # A second lesson joins the new plan and links back to the first.
    assert run(course, "new", "lesson", "medians", "--plan", "statistics", "--title", "Medians"
               ).returncode == 0  # fmt: skip
    medians = (course / "content/statistics/medians.md").read_text()
    assert "This lesson builds on [Averages](averages.md)" in medians


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["test-plan", "--lesson", "two"], "the plan `test-plan` exists already: content/test-plan/ "
         "is there; add a lesson to it with `lessonkit new lesson SLUG --plan test-plan`"),
        (["stats", "--lesson", "lesson-one"], "the slug `lesson-one` is taken: "
         "content/test-plan/lesson-one.md, quizzes/lesson-one.yml already exist; choose another"),
        (["Stats", "--lesson", "two"], "`Stats` is not a valid plan name: use lower-case letters "
         "and digits joined by single hyphens, e.g. `stats`"),
    ],
)  # fmt: skip
def test_new_plan_refusals_change_nothing(course: Path, args: list[str], message: str) -> None:
    before = snapshot(course)
    result = run(course, "new", "plan", *args, "--title", "Title")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"lessonkit: {message}\n")
    assert snapshot(course) == before


def test_a_lesson_the_plan_lists_already_is_not_listed_twice(make_course: MakeCourse) -> None:
    # The author listed the lesson before making it: it joins where they put it.
    plan = "---\ntitle: T\nsummary: S\naudience: A\nlessons:\n  - lesson-one\n  - two\n---\nB\n"
    root = make_course({"content/test-plan/index.md": plan})
    assert run(root, "new", "lesson", "two", "--plan", "test-plan", "--title", "T").returncode == 0
    assert (root / "content/test-plan/index.md").read_text() == plan
    lesson = (root / "content/test-plan/two.md").read_text()
    assert "This lesson builds on [Lesson one](lesson-one.md)" in lesson


def test_a_lesson_listed_twice_in_a_plan_is_an_error(make_course: MakeCourse) -> None:
    plan = "---\ntitle: T\nsummary: S\naudience: A\nlessons: [lesson-one, lesson-one]\n---\nB\n"
    root = make_course({"content/test-plan/index.md": plan})
    result = run(root, "validate")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "content/test-plan/index.md:5:23: lessons[1]: `lesson-one` is listed twice (first as "
        "lessons[0]) (keep one entry, where the lesson comes in the reading order)"
    )


# Optional fields the template leaves out: the course's policy sets the review interval,
# and a framing metaphor or a waiver is the author's own decision.
NOT_IN_TEMPLATE = ("review_months", "framing", "waive")


def test_template_has_every_front_matter_field() -> None:
    text = template("lesson.md")
    fields = re.findall(r"^(\w+):", text.split("\n---\n")[0], re.MULTILINE)
    assert fields == [name for name in Lesson.model_fields if name not in NOT_IN_TEMPLATE]


@pytest.mark.parametrize(
    ("text", "scalar"),
    [
        ("GPU vs TPU", "GPU vs TPU"),
        ("CPUs: a primer", '"CPUs: a primer"'),
        ("#1 rule", '"#1 rule"'),
        ('Say "hi"', '"Say \\"hi\\""'),
        ("yes", "yes"),  # YAML 1.2 core schema: plain `yes` is text
        ("Ünïcode", '"Ünïcode"'),
    ],
)
def test_yaml_text_round_trips(text: str, scalar: str) -> None:
    assert yaml_text(text) == scalar
    assert yamldoc.parse(f"k: {scalar}\n", "t.yml").data == {"k": text}


@pytest.mark.slow
@pytest.mark.usefixtures("real_calendar")
def test_scaffold_validate_and_strict_build_in_a_copy(tmp_path: Path) -> None:
    """The whole author path on a copy of the real repository, ending in a strict build."""
    for name in ("content", "quizzes", "facts", "site_overrides", "hooks", "schemas"):
        shutil.copytree(REPO / name, tmp_path / name)
    for name in ("mkdocs.yml", "lessonkit.yml"):
        shutil.copy(REPO / name, tmp_path / name)
    (tmp_path / "src/lessonkit").mkdir(parents=True)  # mkdocs.yml watches it
    plan = next(p.parent.name for p in (tmp_path / "content").glob("*/index.md"))

    made = run(tmp_path, "new", "lesson", "trial-lesson", "--plan", plan, "--title", "Trial")
    assert made.returncode == 0, made.stderr
    checked = run(tmp_path, "validate")
    assert checked.returncode == 1
    problems = checked.stdout.splitlines()[:-1]
    assert len(problems) == 2
    assert all("placeholders left from the template" in p for p in problems)

    for path in (
        tmp_path / f"content/{plan}/trial-lesson.md",
        tmp_path / "quizzes/trial-lesson.yml",
    ):
        path.write_text(fill_placeholders(path.read_text()))
    # The house policy, strictly: the filled draft is ready to publish.
    strict = run(tmp_path, "validate", "--strict")
    assert (strict.returncode, strict.stdout.splitlines()[-1].endswith("no problems found")) == (
        0,
        True,
    ), strict.stdout

    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = str(Path(sys.executable).parent / "mkdocs")
    build = subprocess.run(
        [mkdocs, "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    page = (tmp_path / f"site/{plan}/trial-lesson/index.html").read_text()
    assert "State the first insight" in page
    # The markers `new lesson` wrote put each insight's self-check and the call on the page.
    for anchor in ("check-yourself-1", "check-yourself-2", "check-yourself-3", "take-the-quiz"):
        assert f'id="{anchor}"' in page
