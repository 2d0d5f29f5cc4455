"""`lessonkit history`, `list` and `review`: exact plain output over a real history database."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import START, LearnerCourse, ticking
from lessonkit.history.tables import (
    Table,
    history_command,
    list_command,
    render,
)
from lessonkit.quiz.review import review_command
from lessonkit.quiz.runner import quiz_command

MKDOCS = "site_name: Test\ndocs_dir: content\nsite_url: https://learn.example.org/\n"
BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
shuffle: {questions: false, options: false}
questions:
  - id: q-tf
    type: true_false
    prompt: Sky is blue.
    insight: 1
    section: 1-first-idea
    explanation: It is.
    answer: true
  - id: q-num
    type: numeric
    prompt: How long?
    insight: 2
    section: 2-second-idea
    explanation: Three and a half.
    answer: 3.5
    tolerance: 0.1
  - id: q-text
    type: text
    prompt: Capital of France?
    insight: 2
    section: a-detail
    explanation: Paris.
    accept: [Paris]
"""


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def quiz(typed: str, start: datetime = START) -> str:
    out, clock = io.StringIO(), ticking(start)
    quiz_command("lesson-one", seed=1, stdin=io.StringIO(typed), stdout=out,
                 clock=lambda: next(clock))  # fmt: skip
    return out.getvalue()


def history(slug: str | None = None) -> str:
    out = io.StringIO()
    assert history_command(slug, stdout=out, zone=UTC) == 0
    return out.getvalue()


def review(typed: str, at: datetime, *, ended: bool = False) -> str:
    """`lessonkit review` given ``typed``; ``ended`` when that runs out before the review
    does (exit code 3)."""
    out, clock = io.StringIO(), ticking(at)
    code = review_command(None, seed=3, stdin=io.StringIO(typed), stdout=out,
                          clock=lambda: next(clock), zone=UTC)  # fmt: skip
    assert code == (3 if ended else 0)
    return out.getvalue()


# --- history ---------------------------------------------------------------------


def test_history_lists_attempts_with_score_result_and_duration(course: Path) -> None:
    quiz("t\n3.5\nParis\n")  # all right
    quiz("f\nq\n", START + timedelta(hours=1))  # one wrong, then saved and quit
    assert history() == (
        "History\n"
        "#  Started           Quiz        Score       Result                       Duration\n"
        "1  2026-11-22 09:00  lesson-one  3/3 (100%)  \u2713 passed                     0m 40s\n"
        "2  2026-11-22 10:00  lesson-one  -           unfinished, 1 of 3 answered  -\n"
        "`lessonkit history SLUG N` shows attempt N question by question.\n"
    )


def test_history_with_nothing_yet(course: Path) -> None:
    assert history() == "No attempts yet. Take a quiz with `lessonkit quiz SLUG`.\n"
    assert history("lesson-one") == (
        "No attempts at lesson-one yet. Take a quiz with `lessonkit quiz lesson-one`.\n"
    )


def test_history_of_an_unknown_quiz_suggests_the_right_one(course: Path) -> None:
    from lessonkit.errors import UsageError

    with pytest.raises(UsageError, match=r"no quiz called `lesson-on` \(did you mean `lesson-one`"):
        history("lesson-on")


def test_render_plain_has_no_trailing_spaces() -> None:
    out = io.StringIO()
    render(Table("T", ("A", "Long header"), [("x", ""), ("longer", "y")]), out, color=False)
    assert out.getvalue() == "T\nA       Long header\nx\nlonger  y\n"


def test_render_rich_draws_a_table_with_the_same_cells() -> None:
    out = io.StringIO()
    render(Table("History", ("Quiz", "Result"), [("gpu", "\u2713 passed")]), out, color=True)
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[0].strip() == "History"
    assert any(line.split() == ["Quiz", "Result"] for line in lines)
    assert any(line.split() == ["gpu", "\u2713", "passed"] for line in lines)


def test_color_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessonkit.history.tables import use_color

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert (use_color(Terminal(), False), use_color(io.StringIO(), False)) == (True, False)
    assert use_color(Terminal(), True) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(Terminal(), False) is False


# --- list ------------------------------------------------------------------------


def test_list_shows_plans_lessons_counts_and_best_scores(course: Path) -> None:
    out = io.StringIO()
    list_command(stdout=out)
    before = out.getvalue()
    quiz("f\n3.5\nParis\n")  # 2 of 3: passes a 0.6 mark
    quiz("t\n9\nRome\n", START + timedelta(hours=1))  # 1 of 3
    out = io.StringIO()
    list_command(stdout=out)
    assert before == (
        "Lessons\n"
        "Plan       Lesson      Quiz        Questions  Best score\n"
        "Test plan  Lesson one  lesson-one  3          not taken yet\n"
    )
    assert out.getvalue() == (
        "Lessons\n"
        "Plan       Lesson      Quiz        Questions  Best score\n"
        "Test plan  Lesson one  lesson-one  3          2/3 (67%) \u2713 passed\n"
    )


# --- review ----------------------------------------------------------------------


def test_review_asks_the_missed_question_then_spaces_the_rest(course: Path) -> None:
    quiz("f\n3.5\nParis\n")  # q-tf missed
    assert review("", START - timedelta(minutes=1), ended=True).startswith("1 question to review")

    out = review("t\n", START + timedelta(hours=1))
    assert out.splitlines()[:4] == [
        "1 question to review: missed ones first, then due.",
        "",
        "Review: Lesson one quiz, 1 question",
        "",
    ]
    assert "Question 1 of 1" in out and "Sky is blue." in out and "How long?" not in out
    # Right the second time, an hour later: it comes back tomorrow, before the other two.
    assert out.endswith(
        "Review done: 1 answered, 1 right. Next review due 2026-11-23 10:00 (lesson-one).\n"
    )

    assert review("", START + timedelta(hours=2)) == (
        "Nothing to review now. Next review due 2026-11-23 10:00 (lesson-one).\n"
    )
    later = review("t\n3.5\nParis\n", START + timedelta(days=2, hours=1))
    assert later.startswith("3 questions to review")
    assert later.index("Sky is blue.") < later.index("How long?") < later.index("Capital")
    assert history().splitlines()[-3:-1] == [
        "2  2026-11-22 10:00  lesson-one  1/1 (100%)  review, 1 asked  0m 20s",
        "3  2026-11-24 10:00  lesson-one  3/3 (100%)  review, 3 asked  0m 40s",
    ]


def test_review_before_any_quiz(course: Path) -> None:
    assert review("", START) == (
        "Nothing to review yet: answer a quiz first (`lessonkit quiz SLUG`).\n"
    )


def test_quitting_a_review_keeps_what_was_answered(course: Path) -> None:
    quiz("f\n9\nRome\n")  # all three missed
    out = review("t\nq\n", START + timedelta(hours=1))
    assert out.endswith(
        "Stopped. Your answers so far are kept; `lessonkit review` goes on later.\n"
    )
    # q-tf was answered right before quitting; the other two are still missed.
    assert review("", START + timedelta(hours=2), ended=True).startswith("2 questions to review")


def test_a_changed_answer_key_is_told_once_and_the_question_starts_afresh(course: Path) -> None:
    quiz("f\n3.5\nParis\n")  # q-tf missed
    bank = course / "quizzes" / "lesson-one.yml"
    bank.write_text(bank.read_text().replace("answer: true", "answer: false"))
    out = review("", START + timedelta(hours=1))
    assert out == (
        "Note: lesson-one: the answer to 'q-tf' was changed by the course authors; "
        "your earlier answers to it no longer count for review\n"
        "Nothing to review now. Next review due 2026-11-24 09:00 (lesson-one).\n"
    )
    assert "Note:" not in review("", START + timedelta(hours=2))


# --- through the real entry point ------------------------------------------------


def lessonkit(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LESSONKIT_HOME": str(cwd / "home"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "lessonkit", *args], input=stdin, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)  # fmt: skip


def test_cli_history_list_review(course: Path) -> None:
    done = lessonkit("history", cwd=course)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "No attempts yet. Take a quiz with `lessonkit quiz SLUG`.\n",
        "",
    )
    done = lessonkit("history", "nope", cwd=course)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("lessonkit: no quiz called `nope` (known quizzes: ")
    done = lessonkit("list", cwd=course)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1].endswith("not taken yet")
    done = lessonkit("review", "lesson-one", cwd=course)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "Nothing to review yet: answer a quiz first (`lessonkit quiz SLUG`).\n"


def test_a_corrupt_history_is_reported_not_a_traceback(course: Path) -> None:
    (course / "home").mkdir()
    (course / "home" / "history.db").write_bytes(b"not sqlite" * 100)
    done = lessonkit("history", cwd=course)
    assert done.returncode == 0
    kept = next((course / "home").glob("history.corrupt-*.db"))
    assert kept.read_bytes() == b"not sqlite" * 100
    assert done.stdout == (
        f"Note: history database {course}/home/history.db cannot be read at all (file is not "
        f"a database). It is kept, unchanged, as {kept}. Nothing in it could be read, so your "
        "history starts afresh.\nNo attempts yet. Take a quiz with `lessonkit quiz SLUG`.\n"
    )
    assert "Traceback" not in done.stderr


def test_a_review_answer_the_database_refuses_is_kept_in_a_recovery_file(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    import sqlite3

    from lessonkit.history import database

    quiz("f\n3.5\nParis\n")  # q-tf missed
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
    other_window = sqlite3.connect(course / "home" / "history.db", isolation_level=None)

    class LockWhileTyping(io.StringIO):
        """Another lessonkit window takes the write lock just as the learner answers."""

        def readline(self, size: int | None = -1) -> str:
            if not other_window.in_transaction:
                other_window.execute("BEGIN IMMEDIATE")
            return super().readline(size)

    try:
        out, clock = io.StringIO(), ticking(START + timedelta(hours=1))
        code = review_command(None, seed=3, stdin=LockWhileTyping("t\n"), stdout=out,
                              clock=lambda: next(clock), zone=UTC)  # fmt: skip
    finally:
        if other_window.in_transaction:
            other_window.execute("ROLLBACK")
        other_window.close()
    assert code == 1
    recovered = sorted((course / "home").glob("history.unsaved-*.jsonl"))
    assert len(recovered) == 1
    assert out.getvalue().endswith(
        f"Nothing you typed is lost: {recovered[0]} holds it, one answer per line (JSON).\n"
        "When the history can be written again (free some disk space, or close the other "
        "lessonkit window using it), run `lessonkit review lesson-one` to carry on; questions "
        "whose answers were not saved are asked again.\n"
    )
    (line,) = recovered[0].read_text(encoding="utf-8").splitlines()
    saved = json.loads(line)
    assert (saved["quiz"], saved["question_id"], saved["response"], saved["correct"]) == (
        "lesson-one", "q-tf", True, True,
    )  # fmt: skip


# --- one attempt, question by question ----------------------------------------------------


def test_history_shows_one_attempt_question_by_question(course: Path) -> None:
    from lessonkit.quiz.transcript import attempt_command

    quiz("f\n3.5\nRome\n")
    out = io.StringIO()
    assert attempt_command("lesson-one", "1", stdout=out, zone=UTC) == 0
    assert out.getvalue() == (
        "Attempt 1 at lesson-one: Lesson one quiz\n"
        "Started 2026-11-22 09:00; finished 2026-11-22 09:00.\n"
        "\n"
        "Question 1 of 3\n"
        "Sky is blue.\n"
        "You answered: false\n"
        "\u2717 Incorrect: 0 of 1 point.\n"
        "The right answer: true\n"
        "Why: It is.\n"
        "Re-read: Lesson one \u203a First idea\n"
        "  https://learn.example.org/test-plan/lesson-one/#1-first-idea\n"
        "\n"
        "Question 2 of 3\n"
        "How long?\n"
        "You answered: 3.5\n"
        "\u2713 Correct: 1 of 1 point.\n"
        "Why: Three and a half.\n"
        "Re-read: Lesson one \u203a Second idea\n"
        "  https://learn.example.org/test-plan/lesson-one/#2-second-idea\n"
        "\n"
        "Question 3 of 3\n"
        "Capital of France?\n"
        "You answered: Rome\n"
        "\u2717 Incorrect: 0 of 1 point.\n"
        "The right answer: Paris\n"
        "Why: Paris.\n"
        "Re-read: Lesson one \u203a A detail\n"
        "  https://learn.example.org/test-plan/lesson-one/#a-detail\n"
        "\n"
        "Summary: Lesson one quiz\n"
        "Missed (2); `lessonkit review lesson-one` asks them again:\n"
        "  \u2717 Q1  0/1  lessonkit read lesson-one 1-first-idea\n"
        "  \u2717 Q3  0/1  lessonkit read lesson-one a-detail\n"
        "Insight 1: 0/1  First idea\n"
        "Insight 2: 1/2  Second idea\n"
        "Score: 1 of 3 points (33%)\n"
        "\u2717 Not passed (pass mark 60%)\n"
    )


def test_an_unfinished_attempt_keeps_its_unanswered_answers_secret(course: Path) -> None:
    from lessonkit.errors import UsageError
    from lessonkit.quiz.transcript import attempt_command

    quiz("t\nq\n")
    out = io.StringIO()
    attempt_command("lesson-one", "last", stdout=out, zone=UTC)
    shown = out.getvalue()
    assert "Question 2 of 3\nHow long?\nNot answered.\n" in shown
    assert "Three and a half" not in shown and "Paris" not in shown  # still to be asked
    assert shown.endswith("1 of 3 answered; `lessonkit quiz lesson-one` resumes it.\n")
    with pytest.raises(
        UsageError, match=r"no attempt `7` at lesson-one: give a number from 1 to 1"
    ):
        attempt_command("lesson-one", "7", stdout=out)


def test_a_set_aside_attempt_shows_no_score_of_its_few_answers(course: Path) -> None:
    quiz("t\nq\n")  # 1 of 1 answered so far: not "1/1 (100%)"
    out = io.StringIO()
    quiz_command("lesson-one", seed=1, resume=False, stdin=io.StringIO("q\n"), stdout=out)
    assert history().splitlines()[2] == (
        "1  2026-11-22 09:00  lesson-one  -      set aside, 1 of 3 answered  -"
    )


def test_an_unknown_option_is_explained_with_the_command_s_own_usage(course: Path) -> None:
    done = lessonkit("history", "-v", cwd=course)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "usage: lessonkit history [-h] [--no-color] [--data-dir DIR] [--export FILE]",
        "                         [--reset-pseudonym]",
        "                         [SLUG] [N]",
        "lessonkit history: error: unrecognized arguments: -v",
    ]


def test_export_with_an_attempt_number_says_to_leave_the_number_out(course: Path) -> None:
    done = lessonkit("history", "lesson-one", "1", "--export", "mine.json", cwd=course)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "lessonkit: --export writes every attempt at a quiz: leave out the attempt's N\n"
    )
    assert not (course / "mine.json").exists()
