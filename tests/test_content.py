"""The gate for real content: the repository's course checked by the same code as `validate`.

Every rule that can fail an author's pull request is a rule of the book
(``lessonkit.authoring.rulebook``), so `lessonkit validate` reports it at file:line:col
with a fix. This file only calls that code: "validate --strict is clean" and "these tests
pass" are the same statement. The last test keeps it so: a test elsewhere that reads the
course's own lessons or banks to assert something about them fails here, unless it is
listed below as a test of what lessonkit does with them.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lessonkit.authoring.rulebook import check_course

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

# `path:line:column: message` is how every validation problem is printed.
PROBLEM_LINE = re.compile(r"^\S+:\d+:\d+: ", re.MULTILINE)

# Tests that read the real course to know what lessonkit must show, not to judge the
# course: (file, function, or "<module>" for a module-level name) and why.
READS_THE_COURSE = {
    ("test_browser.py", "<module>"): "the page must show the lesson's own insights as headings",
    ("test_lessons.py", "<module>"): "lessonkit's anchors must be the site's, on real pages too",
    ("test_lesson_rounding.py", "<module>"): (
        "every lesson's keys must accept its own three-figure rounding in every draw; "
        "the convention is this course's, not a rule for every course"
    ),
    ("test_markup.py", "course_texts"): (
        "the terminal draws every text of the course's banks as rich's Markdown would"
    ),
    ("test_site.py", "test_real_plan_lists_its_lessons_in_order"): (
        "the site's generated list must follow the plan's `lessons:`"
    ),
    ("test_wheel.py", "test_a_learner_install_has_no_mkdocs_and_reads_a_section"): (
        "`lessonkit read` is asked for a section the lesson really has"
    ),
    ("test_wheel.py", "test_wheel_contains_banks_and_lessons"): "the wheel carries the course",
    ("test_wheel.py", "test_wheel_carries_each_bank_compiled"): "the wheel compiles each bank",
    ("test_wheel.py", "test_installed_wheel_reads_class_results_outside_a_checkout"): (
        "`lessonkit results` names each flagged question's line in the wheel's copy of the bank"
    ),
    ("test_import_moodle.py", "<module>"): (
        "the course's own banks, exported to Moodle and imported into a new course, come back"
    ),
    ("test_order_start.py", "test_the_course_s_own_order_questions_start_well_mixed_on_the_page"): (
        "the page's start order is drawn per build; the course's own order questions were the "
        "ones found starting one swap from their key"
    ),
    ("test_self_check_fairness.py", "bank_hints"): (
        "the page offers each hint the bank gives, counted on the real lesson's page"
    ),
}


pytestmark = pytest.mark.usefixtures("real_calendar")


def test_the_course_has_lessons_and_banks() -> None:
    course = check_course(ROOT)
    assert len(course.lessons) >= 2 and len(course.banks) == len(course.lessons)


def test_the_course_follows_the_rule_book_strictly() -> None:
    course = check_course(ROOT)
    found = [*course.problems, *course.warnings]
    assert not found, "fix these (`lessonkit validate --strict` lists the same):\n" + "\n".join(
        map(str, found)
    )


def test_validate_strict_reports_no_problems() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "lessonkit", "validate", "--strict"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"`lessonkit validate` exited {result.returncode}:\n{output}"
    assert not PROBLEM_LINE.search(output), f"`lessonkit validate` reported problems:\n{output}"
    assert "no problems found" in result.stdout, f"unexpected validate output:\n{output}"


# --- no content rule outside the rule book ------------------------------------------------


def _root_names(tree: ast.Module) -> set[str]:
    """Module-level names bound to the repository's root (`Path(__file__)…parents[1]`)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            text = ast.unparse(node.value)
            if "__file__" in text and ("parents[1]" in text or "parent.parent" in text):
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    names.add(target.id)
    return names


def _reads_course(node: ast.AST, roots: set[str]) -> bool:
    """`ROOT / "content…"`, `ROOT / "quizzes…"` or `ROOT.glob("content/…")`."""

    def course_path(value: ast.AST) -> bool:
        return isinstance(value, ast.Constant) and str(value.value).startswith(
            ("content", "quizzes")
        )

    def at_root(value: ast.AST) -> bool:
        return isinstance(value, ast.Name) and value.id in roots

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return at_root(node.left) and course_path(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return (
            at_root(node.func.value)
            and node.func.attr in ("glob", "rglob")
            and any(course_path(arg) for arg in node.args)
        )
    return False


def _readers(path: Path) -> set[str]:
    """The functions (or "<module>") of a test file that read the real course."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = _root_names(tree)
    found = set()
    for top in tree.body:
        where = top.name if isinstance(top, ast.FunctionDef | ast.ClassDef) else "<module>"
        if any(_reads_course(node, roots) for node in ast.walk(top)):
            found.add(where)
    return found


def test_no_content_assertion_outside_the_rule_book() -> None:
    found = {
        (path.name, where) for path in sorted(TESTS.glob("test_*.py")) for where in _readers(path)
    }
    unexplained = sorted(found - set(READS_THE_COURSE))
    assert not unexplained, (
        "these tests read the course's own lessons or banks: a rule about content belongs in "
        "the rule book (src/lessonkit/authoring/rulebook.py), where `lessonkit validate` "
        "reports it at file:line:col with a fix; a test of what lessonkit does with the "
        f"course goes in READS_THE_COURSE with its reason: {unexplained}"
    )
    assert sorted(set(READS_THE_COURSE) - found) == [], "READS_THE_COURSE lists a stale entry"


def test_the_scan_finds_a_content_assertion(tmp_path: Path) -> None:
    """The test above can fail: a pytest-only rule like the old link-back check is found."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "from pathlib import Path\n"
        "ROOT = Path(__file__).resolve().parents[1]\n"
        "def test_every_lesson_links_back() -> None:\n"
        '    plan = (ROOT / "content/ai-hardware-fundamentals/index.md").read_text()\n'
        '    assert "gpu-vs-tpu" in plan\n'
        "def test_every_bank() -> None:\n"
        '    assert list(ROOT.glob("quizzes/*.yml"))\n'
        "def test_the_tool() -> None:\n"
        '    assert (ROOT / "src").is_dir()\n',
        encoding="utf-8",
    )
    assert _readers(probe) == {"test_every_lesson_links_back", "test_every_bank"}
