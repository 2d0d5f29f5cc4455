"""`lessonkit` itself: a mistyped command is answered with the command meant."""

from __future__ import annotations

import pytest

from lessonkit.cli import main


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (["quzi", "gpu-vs-tpu"], "lessonkit: no command `quzi` (did you mean `quiz`?)\n"),
        (["lst"], "lessonkit: no command `lst` (did you mean `list`?)\n"),
        (["Review"], "lessonkit: no command `Review` (did you mean `review`?)\n"),
        (["frobnicate"], "lessonkit: no command `frobnicate` (see `lessonkit --help`)\n"),
    ],
)
def test_a_mistyped_command_gets_did_you_mean(
    typed: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(typed) == 2
    assert capsys.readouterr() == ("", said)


def test_a_command_s_own_mistakes_stay_argparse_s(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["quiz"])  # no TARGET: the quiz command's usage, as before
    assert stopped.value.code == 2
    assert "usage: lessonkit quiz" in capsys.readouterr().err
