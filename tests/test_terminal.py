"""The terminal UI on its own: which UI a stream gets, prompts, and what a learner is told."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lessonkit.quiz import plainui
from lessonkit.quiz.plainui import PlainUi
from lessonkit.quiz.richui import RichUi
from lessonkit.quiz.terminal import make_ui


class Stream(io.StringIO):
    """A text stream that says whether it is a terminal; a closed one raises, as files do."""

    def __init__(self, text: str = "", *, tty: bool = False, closed: bool = False) -> None:
        super().__init__(text)
        self.tty, self.shut = tty, closed

    def isatty(self) -> bool:
        if self.shut:
            raise ValueError("I/O operation on closed file")
        return self.tty


@pytest.mark.parametrize(
    ("stdin_tty", "stdout_tty", "term", "kind", "echo"),
    [
        (True, True, "xterm", RichUi, False),
        (True, True, "dumb", PlainUi, False),  # a dumb terminal gets plain lines, unechoed
        (False, True, "xterm", PlainUi, True),  # piped answers are echoed into the transcript
        (True, False, "xterm", PlainUi, False),  # output to a file or a screen reader's pipe
        (False, False, "xterm", PlainUi, True),
    ],
)
def test_make_ui_uses_rich_only_on_a_real_terminal(
    monkeypatch: pytest.MonkeyPatch,
    stdin_tty: bool,
    stdout_tty: bool,
    term: str,
    kind: type[PlainUi],
    echo: bool,
) -> None:
    monkeypatch.setenv("TERM", term)
    ui = make_ui(Stream(tty=stdin_tty), Stream(tty=stdout_tty))
    assert type(ui) is kind
    assert ui.echo is echo


def test_a_stream_that_cannot_say_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")
    ui = make_ui(Stream(tty=True, closed=True), Stream(tty=True))
    assert type(ui) is PlainUi


def plain(typed: str = "") -> tuple[PlainUi, io.StringIO]:
    out = io.StringIO()
    return PlainUi(io.StringIO(typed), out, echo=True), out


def test_plain_read_echoes_piped_answers_and_ends_the_line_at_eof() -> None:
    ui, out = plain("3\n")
    assert ui.read() == "3\n"
    assert ui.read() is None
    assert out.getvalue() == ("Answer: 3\nAnswer: \n")


def test_plain_confirm_asks_again_until_yes_or_no() -> None:
    ui, out = plain("maybe\nYes\n")
    assert ui.confirm("Resume it?") is True
    assert out.getvalue() == ("Resume it? [y/n]: maybe\nType y or n.\nResume it? [y/n]: Yes\n")
    assert plain("")[0].confirm("Resume it?") is None


@pytest.mark.parametrize(
    ("done", "total", "bar"),
    [
        (0, 3, "[--------------------]"),
        (1, 3, "[#######-------------]"),
        (3, 3, "[####################]"),
        (0, 0, "[####################]"),  # nothing to ask is nothing left to do
    ],
)
def test_progress_bar(done: int, total: int, bar: str) -> None:
    assert plainui.text_bar(done, total) == bar


DB = Path("/home/ada/.local/share/lessonkit/history.db")
LOCKED = f"could not save the answer to q-num in {DB}: database is locked"


def test_a_refused_answer_is_said_to_be_kept() -> None:
    ui, out = plain()
    ui.unsaved(LOCKED, 1)
    ui.unsaved(LOCKED, 2)
    ui.caught_up(2)
    assert out.getvalue() == (
        f"Warning: {LOCKED}.\n"
        "Your answer still counts: it is kept here and saved with your next answer or at the end.\n"
        f"Warning: {LOCKED}.\n"
        "Your 2 unsaved answers still count: they are kept here and saved with your next answer "
        "or at the end.\n"
        "Saved now: the 2 earlier answers that could not be saved before.\n"
    )


RESUME = (
    "When the history can be written again (free some disk space, or close the other lessonkit "
    "window using it), run `lessonkit quiz gpu-vs-tpu` to carry on; questions whose answers were "
    "not saved are asked again.\n"
)


def test_rescued_answers_name_the_recovery_file() -> None:
    ui, out = plain()
    path = DB.with_name("history.unsaved-20261122T090040.jsonl")
    ui.rescued("lessonkit quiz gpu-vs-tpu", LOCKED, path, ['{"question_id": "q-num"}'], None)
    assert out.getvalue() == (
        f"Could not save 1 answer to your history: {LOCKED}.\n"
        f"Nothing you typed is lost: {path} holds it, one answer per line (JSON).\n" + RESUME
    )


def test_rescued_answers_are_printed_when_no_file_can_be_written() -> None:
    ui, out = plain()
    path = DB.with_name("history.unsaved-20261122T090040.jsonl")
    ui.rescued(
        "lessonkit quiz gpu-vs-tpu",
        LOCKED,
        path,
        ['{"a": 1}', '{"b": 2}'],
        "No space left on device",
    )
    assert out.getvalue() == (
        f"Could not save 2 answers to your history: {LOCKED}.\n"
        f"Writing {path} failed too (No space left on device), so here they are: copy this "
        'somewhere safe.\n{"a": 1}\n{"b": 2}\n' + RESUME
    )


def test_an_attempt_that_could_not_be_finished() -> None:
    ui, out = plain()
    ui.unfinished("gpu-vs-tpu", f"could not finish the attempt in {DB}: disk I/O error")
    assert out.getvalue() == (
        f"Could not mark the attempt finished: could not finish the attempt in {DB}: disk I/O "
        "error.\nEvery answer is saved. Run `lessonkit quiz gpu-vs-tpu --resume` later to finish "
        "it.\n"
    )


def test_rich_prints_brackets_literally_and_reads_a_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    out = Stream(tty=True)
    ui = RichUi(Stream(tty=True), out, no_color=True)
    ui.stress("[bold]not markup[/bold]", "bold red")
    assert ui.confirm("Resume it?") is True
    # Bold but no red: --no-color drops colour, not emphasis.
    assert out.getvalue() == (
        "\x1b[1m[bold]not markup[/bold]\x1b[0m\n\x1b[1mResume it? [y/n]: \x1b[0m"
    )


def test_rich_shows_colon_words_as_written_not_as_emoji(monkeypatch: pytest.MonkeyPatch) -> None:
    # The site turns no `:name:` into an emoji, and a learner's answer is theirs: the
    # terminal shows both as typed.
    monkeypatch.setenv("COLUMNS", "80")
    out = Stream(tty=True)
    ui = RichUi(Stream(tty=True), out, no_color=True)
    ui.say("You answered: :100:")
    ui.stress("Re-read :warning: first", "bold")
    assert out.getvalue() == "You answered: :100:\n\x1b[1mRe-read :warning: first\x1b[0m\n"
