"""Every CLI command has help and is documented in README.md or CONTRIBUTING.md."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from lessonkit.cli import build_parser, main

REPO = Path(__file__).resolve().parents[1]
LESSONKIT = str(Path(sys.executable).parent / "lessonkit")


def commands(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """Every command path, nested ones too: ("validate",), ("new",), ("new", "lesson")…"""
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((*prefix, name))
                found += commands(sub, (*prefix, name))
    return found


COMMANDS = commands(build_parser())


def test_the_author_commands_are_registered() -> None:
    assert {("new", "lesson"), ("report",), ("diff",), ("validate",)} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: lessonkit {' '.join(command)}")
    assert len(out.splitlines()) > 3


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_is_documented(command: tuple[str, ...]) -> None:
    docs = "".join(
        (REPO / name).read_text(encoding="utf-8") for name in ("README.md", "CONTRIBUTING.md")
    )
    assert f"lessonkit {' '.join(command)}" in docs, (
        f"`lessonkit {' '.join(command)}` is in neither README.md nor CONTRIBUTING.md"
    )


def test_help_through_the_console_script() -> None:
    result = subprocess.run([LESSONKIT, "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    for command in {c[0] for c in COMMANDS}:
        assert f"\n    {command} " in result.stdout
