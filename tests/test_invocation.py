"""The command name the quiz tells a learner to type: one that runs this same lessonkit."""

from __future__ import annotations

from pathlib import Path

from lessonkit.course.invocation import program_for


def script(folder: Path) -> Path:
    path = folder / "bin" / "lessonkit"
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\n")
    return path


def test_the_name_alone_when_path_finds_this_install(tmp_path: Path) -> None:
    found = script(tmp_path / "venv")
    assert program_for(str(found), str(found), tmp_path, tmp_path) == "lessonkit"


def test_make_quiz_venv_is_named_by_its_path_from_here(tmp_path: Path) -> None:
    """`make quiz` runs `.venv-quiz/bin/lessonkit`, which is not on PATH."""
    script(tmp_path / ".venv-quiz")
    assert program_for(".venv-quiz/bin/lessonkit", None, tmp_path, Path("/nowhere")) == (
        ".venv-quiz/bin/lessonkit"
    )


def test_another_lessonkit_on_path_is_not_this_one(tmp_path: Path) -> None:
    mine, other = script(tmp_path / "mine"), script(tmp_path / "other")
    home = tmp_path
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    assert program_for(str(mine), str(other), elsewhere, home) == "~/mine/bin/lessonkit"
    assert program_for(str(mine), str(other), elsewhere, Path("/nowhere")) == str(mine)


def test_a_space_in_the_path_is_quoted(tmp_path: Path) -> None:
    found = script(tmp_path / "my venv")
    assert program_for(str(found), None, Path("/"), Path("/nowhere")) == f"'{found}'"


def test_python_dash_m_and_embedding_say_lessonkit(tmp_path: Path) -> None:
    assert program_for("/x/lessonkit/__main__.py", None, tmp_path, tmp_path) == "lessonkit"
    assert program_for("-c", None, tmp_path, tmp_path) == "lessonkit"
