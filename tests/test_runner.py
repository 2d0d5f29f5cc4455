"""The quiz loop and `lessonkit quiz` in plain mode: exact transcripts, history, exit codes."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest.mock import ANY

import pytest

from conftest import LearnerCourse, ticking
from lessonkit.history import database
from lessonkit.quiz.runner import quiz_command

MKDOCS = "site_name: Test\ndocs_dir: content\nsite_url: https://learn.example.org/\n"
BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
questions:
  - id: q-single
    type: single
    prompt: Pick **b**.
    insight: 1
    section: 1-first-idea
    explanation: Because b.
    hint: The second letter.
    options:
      - text: a
        feedback: Not a.
      - text: b
        correct: true
      - text: c
  - id: q-order
    type: order
    prompt: Order them.
    insight: 2
    section: a-detail
    explanation: Alphabetical.
    items: [a, b, c]
  - id: q-num
    type: numeric
    prompt: How long?
    insight: 2
    section: 2-second-idea
    explanation: Three and a half.
    answer: 3.5
    tolerance: 0.1
    unit: ms
"""


@pytest.fixture
def course(learner_course: LearnerCourse) -> Path:
    return learner_course(BANK, MKDOCS)


def quiz(typed: str, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    clock = ticking()
    code = quiz_command(
        "lesson-one", stdin=io.StringIO(typed), stdout=out, clock=lambda: next(clock), **options
    )  # type: ignore[arg-type]
    return code, out.getvalue()


def answers(root: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(root / "home" / "history.db") as con:
        return list(
            con.execute(
                "SELECT question_id, response, score, correct, answered FROM answers ORDER BY id"
            )
        )


TRANSCRIPT = """\
Quiz: Lesson one quiz
Lesson: Lesson one
3 questions, pass mark 60%. Seed 5 (--seed repeats this order).
Type q to save and quit, u to take back your last answer; answers are saved as you go.

Question 1 of 3  [--------------------]  0 answered
Pick b.
  1. a
  2. c
  3. b
Type one number from 1 to 3.
Answer (? hint, q save and quit): 4
Not counted: There is no 4. Choose from 1 to 3.
Answer (? hint, q save and quit): ?
Hint: The second letter.
Answer (? hint, q save and quit): 1
You answered: 1. a
\u2717 Incorrect: 0 of 1 point.
The right answer: 3. b
Feedback on your choice (option 1): Not a.
Why: Because b.
Re-read: Lesson one \u203a First idea
  https://learn.example.org/test-plan/lesson-one/#1-first-idea

Question 2 of 3  [#######-------------]  1 answered
Order them.
  1. c
  2. a
  3. b
Type the numbers 1 to 3 in the right order, e.g. 2 3 1.
Answer (u undo, q save and quit):\x20
Not counted: Nothing was typed. Type the numbers 1 to 3 in the right order, e.g. `2 3 1`.
Answer (u undo, q save and quit): 3 1 2
You answered (\u2713 in the right order with each other; \u2717 out of place):
  \u2713 3. b
  \u2713 1. c
  \u2717 2. a
\u25d0 Partly correct: 0.5 of 1 point.
The right answer:
  2. a
  3. b
  1. c
Why: Alphabetical.
Re-read: Lesson one \u203a A detail
  https://learn.example.org/test-plan/lesson-one/#a-detail

Question 3 of 3  [#############-------]  2 answered
How long?
Type a number (decimal point or comma), optionally followed by ms.
Answer (u undo, q save and quit): 3,5 ms
You answered: 3,5 ms (read as 3.5 ms)
\u2713 Correct: 1 of 1 point.
Why: Three and a half.
Re-read: Lesson one \u203a Second idea
  https://learn.example.org/test-plan/lesson-one/#2-second-idea

Summary: Lesson one quiz
Missed (2); `lessonkit review lesson-one` asks them again:
  \u2717 Q1  0/1  lessonkit read lesson-one 1-first-idea
  \u2717 Q2  0.5/1  lessonkit read lesson-one a-detail
Insight 1: 0/1  First idea
Insight 2: 1.5/2  Second idea
Score: 1.5 of 3 points (50%)
\u2717 Not passed (pass mark 60%)
"""


def test_a_whole_attempt_transcript(course: Path) -> None:
    code, out = quiz("4\n?\n1\n\n3 1 2\n3,5 ms\n", seed=5)
    assert code == 0
    assert out == TRANSCRIPT
    # Only valid answers count, each stamped by the clock when it was given.
    assert answers(course) == [
        ("q-single", "0", 0.0, 0, "2026-11-22T09:00:10+00:00"),
        ("q-order", "[1, 2, 0]", 0.5, 0, "2026-11-22T09:00:20+00:00"),
        ("q-num", "3.5", 1.0, 1, "2026-11-22T09:00:30+00:00"),
    ]
    with sqlite3.connect(course / "home" / "history.db") as con:
        row = con.execute("SELECT seed, question_order, started, finished, passed FROM attempts")
        assert list(row) == [
            (
                "5",
                '["q-single", "q-order", "q-num"]',
                "2026-11-22T09:00:00+00:00",
                "2026-11-22T09:00:40+00:00",
                0,
            )
        ]


def test_same_seed_same_attempt(course: Path) -> None:
    first = quiz("q\n", seed=5, resume=False)[1]
    again = quiz("q\n", seed=5, resume=False)[1]
    assert first == again
    assert "Seed 5 " in first


def test_quit_then_resume_continues_at_the_next_question(course: Path) -> None:
    code, out = quiz("3\nq\n", seed=5)
    assert code == 0
    assert out.endswith(
        "Saved. Your answers so far are kept; run `lessonkit quiz lesson-one` to resume.\n"
    )
    assert [row[0] for row in answers(course)] == ["q-single"]
    _, out = quiz("y\n2 3 1\n", seed=99)
    assert out.startswith(
        "You have an unfinished attempt (1 of 3 answered). Your 1 answer stays in your "
        "history either way.\nResume it (y), or start afresh (n)? [y/n]: y\n"
        "Quiz: Lesson one quiz\n"
    )
    assert "Seed 5 " in out and "Resuming: 1 answered, 2 to go." in out
    assert "Question 2 of 3" in out and "Question 1 of 3" not in out
    assert out.endswith(
        "Answer (u undo, q save and quit): \nSaved. Your answers so far are kept; "
        "run `lessonkit quiz lesson-one` to resume.\n"
    )
    _, out = quiz("", resume=True)
    assert "Question 3 of 3" in out
    assert [row[0] for row in answers(course)] == ["q-single", "q-order"]


def test_n_at_resume_starts_afresh_in_one_step_and_keeps_the_answers(course: Path) -> None:
    quiz("3\nq\n", seed=5)
    _, out = quiz("n\nq\n", seed=6)
    # No second question in which `n` would mean the opposite.
    assert out.count("[y/n]") == 1
    assert (
        "stays in your history either way.\nResume it (y), or start afresh (n)? [y/n]: n\n" in out
    )
    assert "Seed 6 " in out and "Question 1 of 3" in out and "Resuming" not in out
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] is not None for r in con.execute("SELECT abandoned FROM attempts")] == [True]
    assert [row[0] for row in answers(course)] == ["q-single"]  # set aside, not deleted


def test_quitting_with_no_answer_does_not_promise_a_resume(course: Path) -> None:
    _, out = quiz("q\n", seed=5)
    assert out.endswith(
        "Quit before any answer, so there is nothing to resume; `lessonkit quiz lesson-one` "
        "starts again.\n"
    )
    assert "You have an unfinished attempt" not in quiz("q\n", seed=5)[1]


def test_history_scores_show_at_most_two_decimals() -> None:
    from lessonkit.history.tables import _score

    assert _score(61 / 3, 25) == "20.33/25 (81%)"
    assert _score(20.0, 25) == "20/25 (80%)"


def test_quitting_before_any_answer_leaves_no_attempt(course: Path) -> None:
    quiz("q\n", seed=5)
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert list(con.execute("SELECT count(*) FROM attempts")) == [(0,)]


def test_resume_flag_with_nothing_to_resume(course: Path) -> None:
    out = quiz("q\n", seed=5, resume=True)[1]
    assert out.startswith("Note: there is no unfinished attempt to resume; starting a new one.\n")


ANSWERS = 'q-single: 2\nq-order: "1 2 3"\nq-num: "3,7 ms"\n'


def test_answers_file_as_json(course: Path) -> None:
    (course / "mine.yml").write_text(ANSWERS)
    code, out = quiz("", answers=Path("mine.yml"), as_json=True)
    assert code == 0
    assert json.loads(out) == {
        "quiz": "lesson-one",
        "score": 2.0,
        "max_score": 3.0,
        "pass_mark": 0.6,
        "passed": True,
        "questions": [
            {"id": "q-single", "response": 1, "score": 1.0, "max_score": 1.0, "correct": True},
            {
                "id": "q-order",
                "response": [0, 1, 2],
                "score": 1.0,
                "max_score": 1.0,
                "correct": True,
            },
            {"id": "q-num", "response": 3.7, "score": 0.0, "max_score": 1.0, "correct": False},
        ],
    }
    assert not (course / "home" / "history.db").exists()  # grading a file is not an attempt


def test_answers_file_as_text_with_an_unanswered_question(course: Path) -> None:
    (course / "mine.yml").write_text("q-single: 1\n")
    code, out = quiz("", answers=Path("mine.yml"))
    assert code == 0
    assert out.splitlines()[:5] == [
        "\u2717 q-single: 0 of 1 point",
        "\u2717 q-order: not answered",
        "\u2717 q-num: not answered",
        "",
        "Summary: Lesson one quiz",
    ]


def lessonkit(*args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LESSONKIT_HOME": str(cwd / "home"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "lessonkit", *args],
        input=stdin,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_plain_quiz_through_the_real_entry_point(course: Path) -> None:
    done = lessonkit("quiz", "lesson-one", "--seed", "5", stdin="3\n2 3 1\n3.5\n", cwd=course)
    assert (done.returncode, done.stderr) == (0, "")
    # One line each, the score and the verdict last: what a short terminal still shows.
    assert done.stdout.splitlines()[-6:] == [
        "Summary: Lesson one quiz",
        "Insight 1: 1/1  First idea",
        "Insight 2: 2/2  Second idea",
        "Next: `lessonkit review lesson-one` asks again what you missed, when it is due.",
        "Score: 3 of 3 points (100%)",
        "\u2713 Passed (pass mark 60%)",
    ]


def test_cli_bad_answers_file_exit_1_with_positions(course: Path) -> None:
    (course / "mine.yml").write_text("q-single: 9\nq-sinlge: 1\n")
    done = lessonkit("quiz", "lesson-one", "--answers", "mine.yml", cwd=course)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "mine.yml:1:11: q-single: There is no 9. Choose from 1 to 3.\n"
        "mine.yml:2:1: no question `q-sinlge` in this quiz (did you mean `q-single`?)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["quiz", "lesson-two"],
            "lessonkit: no quiz called `lesson-two` (did you mean `lesson-one`?)\n",
        ),
        (
            ["quiz", "lesson-one", "--json"],
            "lessonkit: --json reports on a graded answers file: add --answers FILE\n",
        ),
    ],
)
def test_cli_usage_errors_exit_2(course: Path, args: list[str], message: str) -> None:
    done = lessonkit(*args, cwd=course)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_first_question_needs_no_pydantic_yaml_or_rich(course: Path) -> None:
    """The start-up budget depends on it: validated banks come from the JSON cache."""
    probe = (
        "import sys; from lessonkit.cli import main; main(['quiz', 'lesson-one']); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'yaml', 'rich'}))"
    )
    env = {**os.environ, "LESSONKIT_HOME": str(course / "home")}
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe],
            cwd=course,
            env=env,
            input="",
            capture_output=True,
            text=True,
            timeout=60,
        )
        for _ in range(2)
    ]
    assert "Question 1 of 3" in runs[1].stdout
    assert runs[0].stdout.splitlines()[-1] != "[]"  # the first run compiles the bank
    assert runs[1].stdout.splitlines()[-1] == "[]"


# --- changed answer keys -----------------------------------------------------------

KEY_NOTICE = (
    "Note: lesson-one: the answer to 'q-num' was changed by the course authors; "
    "your earlier answers to it no longer count for review\n"
)


def test_a_changed_answer_key_is_announced_once(course: Path) -> None:
    assert quiz("3\n2 3 1\n3.5\n", seed=5)[0] == 0
    bank = course / "quizzes" / "lesson-one.yml"
    bank.write_text(BANK.replace("answer: 3.5", "answer: 12.5"))
    # Told under the header, before question 1: the compiled bank carries the key hashes,
    # so the first question still waits for no pydantic. Told once, even if the learner quits.
    _, out = quiz("q\n", seed=5)
    assert out.count("Note:") == 1
    assert "as you go.\n" + KEY_NOTICE + "\nQuestion 1 of 3" in out
    _, out = quiz("3\n2 3 1\n12.5\n", seed=5)
    assert "Note:" not in out
    with sqlite3.connect(course / "home" / "history.db") as con:
        told = list(con.execute("SELECT bank, question_id, shown FROM key_notices"))
    assert told == [("lesson-one", "q-num", "2026-11-22T09:00:10+00:00")]


# --- answers the database refuses ----------------------------------------------------


class Typing(io.StringIO):
    """Lines a learner types, and things that happen between them (another window's lock)."""

    def __init__(self, *steps: str | Callable[[], object]) -> None:
        super().__init__()
        self.steps = list(steps)

    def readline(self, size: int | None = -1) -> str:
        while self.steps and callable(self.steps[0]):
            self.steps.pop(0)()
        step = self.steps.pop(0) if self.steps else ""
        assert isinstance(step, str)
        return step


class Locker:
    """Another process holding the database's write lock, as a second lessonkit window can."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # Waiting out a lock takes 30 s in real use; a tenth of a second is enough here.
        monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
        self.path = root / "home" / "history.db"
        self.con: sqlite3.Connection | None = None

    def lock(self) -> None:
        self.con = sqlite3.connect(self.path, isolation_level=None)
        self.con.execute("BEGIN IMMEDIATE")

    def unlock(self) -> None:
        assert self.con is not None
        self.con.execute("ROLLBACK")
        self.con.close()


@pytest.fixture
def locker(course: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Locker]:
    held = Locker(course, monkeypatch)
    yield held
    if held.con is not None:
        held.con.close()


def typed(*steps: str | Callable[[], object], **options: object) -> tuple[int, str]:
    out = io.StringIO()
    clock = ticking()
    code = quiz_command(
        "lesson-one", stdin=Typing(*steps), stdout=out, seed=5, clock=lambda: next(clock), **options
    )  # type: ignore[arg-type]
    return code, out.getvalue()


def test_an_answer_the_database_refuses_is_saved_with_the_next(
    course: Path, locker: Locker
) -> None:
    code, out = typed("3\n", locker.lock, "2 3 1\n", locker.unlock, "3.5\n")
    assert code == 0
    db = course / "home" / "history.db"
    assert (
        "Answer (u undo, q save and quit): 2 3 1\n"
        f"Warning: could not save the answer to q-order in {db}: database is locked.\n"
        "Your answer still counts: it is kept here and saved with your next answer or at "
        "the end.\n"
        "You answered (\u2713 in the right order with each other; \u2717 out of place):\n"
    ) in out
    assert (
        "Answer (u undo, q save and quit): 3.5\n"
        "Saved now: the 1 earlier answer that could not be saved before.\n"
        "You answered: 3.5 ms\n"
        "\u2713 Correct: 1 of 1 point.\n"
    ) in out
    assert "Score: 3 of 3 points (100%)" in out
    assert answers(course) == [
        ("q-single", "1", 1.0, 1, "2026-11-22T09:00:10+00:00"),
        ("q-order", "[0, 1, 2]", 1.0, 1, "2026-11-22T09:00:20+00:00"),
        ("q-num", "3.5", 1.0, 1, "2026-11-22T09:00:30+00:00"),
    ]
    with sqlite3.connect(db) as con:
        assert list(con.execute("SELECT finished, passed FROM attempts")) == [
            ("2026-11-22T09:00:40+00:00", 1)
        ]


def test_a_failed_start_is_retried_at_the_end(course: Path, locker: Locker) -> None:
    # The attempt itself cannot be begun: nothing is in the database until the end.
    code, out = typed(locker.lock, "3\n", "2 3 1\n", locker.unlock, "q\n")
    assert code == 0
    db = course / "home" / "history.db"
    assert f"Warning: could not start the attempt in {db}: database is locked.\n" in out
    assert (
        "Your 2 unsaved answers still count: they are kept here and saved with your next "
        "answer or at the end.\n"
    ) in out
    assert out.endswith(
        "Answer (u undo, q save and quit): q\n"
        "Saved now: the 2 earlier answers that could not be saved before.\n"
        "Saved. Your answers so far are kept; run `lessonkit quiz lesson-one` "
        "to resume.\n"
    )
    assert [row[0] for row in answers(course)] == ["q-single", "q-order"]


def test_an_attempt_that_cannot_be_marked_finished_still_ends_on_its_score(course: Path) -> None:
    from lessonkit.history.store import Store

    store, _ = Store.open(course / "home")
    store.close()
    with sqlite3.connect(course / "home" / "history.db") as con:  # a real refusal, at the end
        con.execute(
            "CREATE TRIGGER refuse BEFORE UPDATE OF finished ON attempts"
            " BEGIN SELECT RAISE(ABORT, 'the disk said no'); END"
        )
    code, out = typed("3\n", "2 3 1\n", "3.5\n")
    db = course / "home" / "history.db"
    assert code == 1
    notice = (
        f"Could not mark the attempt finished: could not finish the attempt in {db}: the disk "
        "said no.\nEvery answer is saved. Run `lessonkit quiz lesson-one --resume` later to "
        "finish it.\n"
    )
    assert notice in out
    assert out.split(notice)[1].startswith("\n")  # the summary comes after it
    assert out.endswith("Score: 3 of 3 points (100%)\n\u2713 Passed (pass mark 60%)\n")


def recovery_lines(course: Path, attempt_id: int | None) -> list[dict[str, object]]:
    from lessonkit.course.catalog import find

    keys = find("lesson-one").keys
    given = [
        ("q-single", 1, 1.0, True),
        ("q-order", [0, 1, 2], 1.0, True),
        ("q-num", 3.5, 1.0, True),
    ]
    return [
        {
            "quiz": "lesson-one",
            "attempt_id": attempt_id,
            "question_id": qid,
            "key_hash": keys[qid],
            "response": response,
            "score": score,
            "max_score": 1.0,
            "correct": correct,
            "answered": f"2026-11-22T09:00:{10 * n}+00:00",
            "seconds": ANY,  # on screen before the answer: real time, not the test's clock
            "hints": 0,
        }
        for n, (qid, response, score, correct) in enumerate(given, 1)
    ]


def test_answers_never_saved_go_to_a_recovery_file(course: Path, locker: Locker) -> None:
    code, out = typed("3\n", locker.lock, "2 3 1\n", "3.5\n")
    db = course / "home" / "history.db"
    recovery = course / "home" / "history.unsaved-20261122T090040.jsonl"
    assert code == 1
    # The notice comes before the summary, so the score and verdict are still the last lines.
    _, summary = out.split("When the history can be written again")[-1].split("\n", 1)
    assert out.endswith(
        f"Could not save 2 answers to your history: could not save the answer to q-order in "
        f"{db}: database is locked.\n"
        f"Nothing you typed is lost: {recovery} holds them, one answer per line (JSON).\n"
        "When the history can be written again (free some disk space, or close the other "
        "lessonkit window using it), run `lessonkit quiz lesson-one` to carry on; questions whose "
        "answers were not saved are asked again.\n" + summary
    )
    assert summary.startswith("\n")
    assert summary.endswith("Score: 3 of 3 points (100%)\n\u2713 Passed (pass mark 60%)\n")
    lines = recovery.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == recovery_lines(course, 1)[1:]
    locker.unlock()
    assert [row[0] for row in answers(course)] == ["q-single"]
    _, out = typed("y\n", "q\n")  # the attempt is left unfinished, to be resumed
    assert "Resuming: 1 answered, 2 to go." in out


def test_when_even_the_recovery_file_fails_the_answers_are_printed(
    course: Path, locker: Locker
) -> None:
    recovery = course / "home" / "history.unsaved-20261122T090040.jsonl"
    code, out = typed(locker.lock, lambda: recovery.mkdir(), "3\n", "2 3 1\n", "3.5\n")
    assert code == 1
    assert out.endswith("\u2713 Passed (pass mark 60%)\n")
    tail = out.split("Could not save")[1].splitlines()
    assert tail[1:2] == [
        f"Writing {recovery} failed too (Is a directory), so here they are: "
        "copy this somewhere safe."
    ]
    assert [json.loads(line) for line in tail[2:5]] == recovery_lines(course, None)
    assert tail[5].startswith("When the history can be written again")


def ctrl_c() -> None:
    raise KeyboardInterrupt


def test_ctrl_c_with_unsaved_answers_writes_the_recovery_file(course: Path, locker: Locker) -> None:
    code, out = typed(locker.lock, "3\n", ctrl_c)
    recovery = course / "home" / "history.unsaved-20261122T090020.jsonl"
    assert code == 130
    assert out.endswith(
        f"Nothing you typed is lost: {recovery} holds it, one answer per line "
        "(JSON).\nWhen the history can be written again (free some disk space, "
        "or close the other lessonkit window using it), run `lessonkit quiz "
        "lesson-one` to carry on; questions whose answers were not saved are asked "
        "again.\n"
    )
    assert [json.loads(line) for line in recovery.read_text().splitlines()] == recovery_lines(
        course, None
    )[:1]


def test_undo_takes_back_the_last_answer_and_history_keeps_both(course: Path) -> None:
    code, out = quiz("u\n1\nu\n3\n2 3 1\n3.5\n", seed=5)
    assert code == 0
    # Before any answer there is nothing to take back: `u` is then just a wrong form.
    assert "Answer (? hint, q save and quit): u\nNot counted: `u` is not a number." in out
    assert (
        "Answer (u undo, q save and quit): u\n"
        "Taken back: your answer to question 1. Answer it again.\n"
    ) in out
    assert out.count("Question 1 of 3") == 2
    assert [(row[0], row[1], row[3]) for row in answers(course)] == [
        ("q-single", "0", 0),
        ("q-single", "1", 1),
        ("q-order", "[0, 1, 2]", 1),
        ("q-num", "3.5", 1),
    ]
    assert out.endswith("Score: 3 of 3 points (100%)\n\u2713 Passed (pass mark 60%)\n")


def test_an_over_long_line_is_refused_without_repeating_it(course: Path) -> None:
    code, out = quiz("3" * 600 + "\nq\n", seed=5)
    assert code == 0
    assert (
        "Not counted: that line is 600 characters long; an answer is at most 500. "
        "Type it again, shorter.\n"
    ) in out
    assert out.count("3" * 600) == 1  # the transcript's echo of the piped line, and no more


# --- what a learner reads in the feedback and the summary --------------------------------


def true_false_bank(count: int, pass_mark: float) -> str:
    """A bank of ``count`` true/false questions, all true, in the written order."""
    questions = "".join(
        f"""\
  - id: tf-{n}
    type: true_false
    prompt: Statement {n}.
    insight: 1
    section: 1-first-idea
    explanation: It is true.
    answer: true
"""
        for n in range(1, count + 1)
    )
    return (
        "lesson: lesson-one\ntitle: Many statements\n"
        f"pass_mark: {pass_mark}\nshuffle: {{questions: false}}\nquestions:\n{questions}"
    )


def test_a_score_just_under_the_pass_mark_never_reads_as_the_mark(
    learner_course: LearnerCourse,
) -> None:
    learner_course(true_false_bank(23, 0.7), MKDOCS)
    code, out = quiz("t\n" * 16 + "f\n" * 7, seed=1)  # 16 of 23 is 69.57%
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Score: 16 of 23 points (69.6%)",  # not "(70%)" above a fail at 70%
        "\u2717 Not passed (pass mark 70%)",
    ]


def test_every_missed_question_is_one_command_away(learner_course: LearnerCourse) -> None:
    learner_course(true_false_bank(10, 0.7), MKDOCS)
    _, out = quiz("f\n" * 10, seed=1)
    assert "  \u2717 Q8  0/1  lessonkit read lesson-one 1-first-idea\n" in out
    assert "  \u2026 and 2 more: `lessonkit history lesson-one 1`\n" in out
    # ... and that command shows them, question by question.
    from lessonkit.quiz.transcript import attempt_command

    shown = io.StringIO()
    assert attempt_command("lesson-one", "1", stdout=shown) == 0
    assert shown.getvalue().count("\u2717 Incorrect: 0 of 1 point.") == 10
    assert "Question 10 of 10\nStatement 10.\nYou answered: false\n" in shown.getvalue()


def test_true_is_echoed_as_typed(learner_course: LearnerCourse) -> None:
    learner_course(true_false_bank(3, 0.7), MKDOCS)
    _, out = quiz("TRUE\nt\nyes\n", seed=1)
    assert "You answered: TRUE\n" in out  # not lower-cased
    assert out.count("You answered: true\n") == 2  # `t` and `yes` spelled out


MATCH_BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
questions:
  - id: q-match
    type: match
    prompt: Match them.
    insight: 1
    section: 1-first-idea
    explanation: GPU-SIMT, TPU-MXU, CPU-cores.
    shuffle: false
    pairs:
      - {left: GPU, right: SIMT}
      - {left: TPU, right: MXU}
      - {left: CPU, right: cores}
"""


def test_a_match_partly_right_gives_the_right_answer_only_for_its_wrong_pairs(
    learner_course: LearnerCourse,
) -> None:
    learner_course(MATCH_BANK, MKDOCS)
    _, out = quiz("1a 2c 3b\n", seed=1)
    assert (
        "You answered:\n"
        "  \u2713 1. GPU \u2192 a. SIMT\n"
        "  \u2717 2. TPU \u2192 c. cores\n"
        "  \u2717 3. CPU \u2192 b. MXU\n"
        "\u25d0 Partly correct: 0.33 of 1 point.\n"
        "The right answer for the \u2717 pairs:\n"
        "  2. TPU \u2192 b. MXU\n"
        "  3. CPU \u2192 c. cores\n"
        "Why: GPU-SIMT, TPU-MXU, CPU-cores.\n"
    ) in out
