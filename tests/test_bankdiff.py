"""`lessonkit diff`: bank changes between git revisions, as Markdown, in a throwaway repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BANK, FACTS, MakeCourse

GOLDEN = Path(__file__).parent / "golden"
LESSONKIT = str(Path(sys.executable).parent / "lessonkit")
BANK_PATH = "quizzes/lesson-one.yml"

EXTRA = """\
  - id: q-gone
    type: true_false
    prompt: This question is removed.
    insight: 1
    section: 1-first-idea
    explanation: It goes.
    answer: true
"""

# Every kind of change: q-single's key (b → a is correct) and points, q-order reworded,
# q-gone removed, q-new added, and the pass mark raised.
CHANGED = (
    BANK.replace("pass_mark: 0.5", "pass_mark: 0.6")
    .replace("    prompt: Pick b.\n", "    prompt: Pick a.\n    points: 2\n")
    .replace("      - text: a\n      - text: b\n        correct: true\n",
             "      - text: a\n        correct: true\n      - text: b\n")
    .replace("prompt: Order them.", "prompt: Put them in order.")
    + """\
  - id: q-new
    type: numeric
    prompt: How many?
    insight: 2
    section: 2-second-idea
    explanation: Three.
    answer: 3
"""
)  # fmt: skip


def git(root: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@localhost", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LESSONKIT, *args], cwd=cwd, capture_output=True, text=True, check=False, env=os.environ
    )


@pytest.fixture
def repo(make_course: MakeCourse) -> Path:
    """A course in a git repository: tag `v1` has the old bank, `v2` the changed one."""
    root = make_course({BANK_PATH: BANK + EXTRA})
    git(root, "init", "--quiet", "--initial-branch=main")
    git(root, "add", ".")
    git(root, "commit", "--quiet", "-m", "first")
    git(root, "tag", "v1")
    (root / BANK_PATH).write_text(CHANGED)
    git(root, "commit", "--quiet", "-am", "second")
    git(root, "tag", "v2")
    return root


def test_golden_diff_between_two_commits(repo: Path) -> None:
    result = run(repo, "diff", "v1", "v2")
    assert (result.returncode, result.stderr) == (0, "")
    golden = GOLDEN / "diff-changes.md"
    if os.environ.get("LESSONKIT_UPDATE_GOLDEN"):
        golden.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_head_defaults_to_the_working_tree(repo: Path) -> None:
    assert run(repo, "diff", "v2").stdout == (
        "## Question bank changes: `v2` → `working tree`\n\nNo question changed (3 compared).\n"
    )
    (repo / BANK_PATH).write_text(CHANGED.replace("Put them in order.", "Order the letters."))
    result = run(repo, "diff", "v2")
    assert result.returncode == 0
    assert result.stdout.endswith(
        "### Reworded or re-filed (1)\n\n- `lesson-one` · `q-order`\n"
        "  - prompt: ~~Put them in order.~~ **Order the letters.**\n"
    )


def test_works_from_a_course_inside_a_bigger_repository(repo: Path) -> None:
    sub = repo / "course"
    sub.mkdir()
    git(repo, "mv", "content", "quizzes", "course/")
    git(repo, "commit", "--quiet", "-m", "move")
    bank = sub / BANK_PATH
    bank.write_text(bank.read_text().replace("answer: 3", "answer: 4"))
    git(repo, "commit", "--quiet", "-am", "new answer")
    result = run(sub, "diff", "HEAD~1", "HEAD")
    assert result.returncode == 0
    assert "- `lesson-one` · `q-new`\n  - answer: `3` → `4`\n" in result.stdout


def test_unknown_revision(repo: Path) -> None:
    result = run(repo, "diff", "no-such-tag")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "lessonkit: unknown revision `no-such-tag`: give a branch, tag or commit, "
        "e.g. `origin/main` or `HEAD~1`\n"
    )


def test_outside_a_git_repository(make_course: MakeCourse) -> None:
    root = make_course()
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(root.parent)}
    result = subprocess.run(
        [LESSONKIT, "diff", "HEAD"], cwd=root, capture_output=True, text=True, env=env, check=False
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"lessonkit: {root} is not inside a git repository; `lessonkit diff` needs one\n"
    )


def test_a_broken_bank_at_a_revision_names_revision_file_and_line(repo: Path) -> None:
    (repo / BANK_PATH).write_text(BANK.replace("pass_mark: 0.5", "pass_mark: lots"))
    git(repo, "commit", "--quiet", "-am", "broken")
    result = run(repo, "diff", "v2", "HEAD")
    assert result.returncode == 1
    assert result.stderr.startswith("HEAD:quizzes/lesson-one.yml:3:12: pass_mark: ")


def _section(output: str, title: str) -> list[str]:
    """The list under a heading that, like "Answer key…", has one paragraph before it."""
    return output.split(f"### {title}")[1].split("\n\n")[2].splitlines()


def test_swapped_order_items_show_their_positions(repo: Path) -> None:
    (repo / BANK_PATH).write_text(CHANGED.replace("items: [a, b, c]", "items: [b, a, c]"))
    result = run(repo, "diff", "v2")
    assert _section(result.stdout, "Answer key or points changed (1)") == [
        "- `lesson-one` · `q-order`",
        "  - items reordered: `b` 2 → 1, `a` 1 → 2",
    ]


def test_options_added_removed_and_rekeyed_are_named(repo: Path) -> None:
    bank = CHANGED.replace(
        "      - text: a\n        correct: true\n      - text: b\n",
        "      - text: b\n        correct: true\n      - text: c\n",
    )
    (repo / BANK_PATH).write_text(bank)
    result = run(repo, "diff", "v2")
    assert _section(result.stdout, "Answer key or points changed (1)") == [
        "- `lesson-one` · `q-single`",
        "  - option removed: `a`",
        "  - option added: `c`",
        "  - option `b` now correct",
    ]


def test_a_duplicate_id_is_reported_as_such(repo: Path) -> None:
    (repo / BANK_PATH).write_text(CHANGED.replace("id: q-new", "id: q-order"))
    result = run(repo, "diff", "v2")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "quizzes/lesson-one.yml:23:9: questions[2].id: `q-order` is already used in "
        "quizzes/lesson-one.yml, questions[1] (ids are unique across all banks; give this "
        "question a new id)\n"
    )


def test_an_invalid_bank_exits_1_with_the_validate_messages(repo: Path) -> None:
    (repo / BANK_PATH).write_text(CHANGED.replace("pass_mark: 0.6", "pass_mark: 2"))
    result = run(repo, "diff", "v2")
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "quizzes/lesson-one.yml:3:12: pass_mark: 2 is more than 1: the pass mark is a fraction "
        "of the points, from 0 to 1; e.g. `pass_mark: 0.7` for 70 %\n",
    )


def test_markdown_special_characters_in_reworded_text_are_escaped(repo: Path) -> None:
    (repo / BANK_PATH).write_text(CHANGED.replace("Put them in order.", "Put *them* | in order."))
    result = run(repo, "diff", "v2")
    assert "  - prompt: Put ~~them~~ **\\*them\\* \\|** in order.\n" in result.stdout


def test_a_changed_fact_shows_as_a_changed_key_with_the_facts_of_each_revision(
    make_course: MakeCourse,
) -> None:
    bank = BANK + (
        "  - id: q-price\n"
        "    type: numeric\n"
        "    prompt: '{hours} chip-hours at {price} USD each cost how much?'\n"
        "    insight: 1\n"
        "    section: 1-first-idea\n"
        "    explanation: Hours times the price.\n"
        "    params:\n"
        "      price: {values: ['((fact tpu-v6e.price))']}\n"
        "      hours: {values: [24, 48]}\n"
        "    answer: hours * price\n"
        "    relative_tolerance: 0.01\n"
    )
    root = make_course({BANK_PATH: bank, "facts/chips.yml": FACTS})
    git(root, "init", "--quiet", "--initial-branch=main")
    git(root, "add", ".")
    git(root, "commit", "--quiet", "-m", "first")
    (root / "facts" / "chips.yml").write_text(FACTS.replace("value: 2.7", "value: 3.1"))
    result = run(root, "diff", "HEAD")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith(
        "- `lesson-one` · `q-price`\n  - params.price.values: `[2.7]` → `[3.1]`\n"
    )
    assert run(root, "diff", "HEAD", "HEAD").stdout.endswith("No question changed (3 compared).\n")
