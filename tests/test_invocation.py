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


def test_embedding_says_lessonkit(tmp_path: Path) -> None:
    assert program_for("-c", None, tmp_path, tmp_path) == "lessonkit"
    assert program_for("/x/pytest/__main__.py", None, tmp_path, tmp_path) == "lessonkit"


def test_dot_slash_in_the_script_s_own_folder_stays_dot_slash(tmp_path: Path) -> None:
    """`cd ~/.lessonkit/bin && ./lessonkit quiz …`: a bare `lessonkit` is not on PATH."""
    found = script(tmp_path / "venv")
    assert program_for("./lessonkit", None, found.parent, Path("/nowhere")) == "./lessonkit"
    assert program_for("lessonkit", None, found.parent, Path("/nowhere")) == "./lessonkit"


MAIN = "/venv/lib/python3.11/site-packages/lessonkit/__main__.py"


def test_python_dash_m_names_the_python_as_typed(tmp_path: Path) -> None:
    started = ["python3", "-m", "lessonkit", "quiz", "gpu-vs-tpu"]
    said = program_for(MAIN, None, tmp_path, tmp_path, started=started, python="/venv/bin/python3")
    assert said == "python3 -m lessonkit"
    started = [".venv/bin/python", "-m", "lessonkit", "quiz"]
    assert program_for(MAIN, "/other/bin/lessonkit", tmp_path, tmp_path, started=started,
                       python="/work/.venv/bin/python") == ".venv/bin/python -m lessonkit"  # fmt: skip
    started = ["/my venv/bin/python", "-m", "lessonkit"]
    assert program_for(MAIN, None, tmp_path, tmp_path, started=started) == (
        "'/my venv/bin/python' -m lessonkit"
    )


def test_python_dash_m_says_lessonkit_when_this_install_s_command_is_on_path(
    tmp_path: Path,
) -> None:
    started = ["python", "-m", "lessonkit"]
    assert program_for(MAIN, "/venv/bin/lessonkit", tmp_path, tmp_path, started=started,
                       python="/venv/bin/python") == "lessonkit"  # fmt: skip
