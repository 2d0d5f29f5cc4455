"""`mkdocs serve` (what `make serve` runs): the author sees the course's problems in its console."""

from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from lessonkit.authoring.origin import origin_from
from lessonkit.authoring.starter import new_course

TODAY = dt.date(2026, 11, 22)  # the day conftest pins
INDEX = origin_from(None, "0.1.0")  # installed from a package index
WAIT = 180  # seconds: a ceiling for a busy machine, not a timing


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _served_log(course: Path) -> list[str]:
    """What `mkdocs serve` prints up to "Serving on": its first build, problems and all."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{_free_port()}"],
        cwd=course, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    ) as server:  # fmt: skip
        timer = threading.Timer(WAIT, server.kill)  # never hang the suite on a server
        timer.start()
        lines: list[str] = []
        try:
            assert server.stdout is not None
            for line in server.stdout:
                lines.append(line.rstrip("\n"))
                if "Serving on" in line:
                    break
        finally:
            timer.cancel()
            server.terminate()
    return lines


def test_serving_a_course_prints_each_problem_at_file_line_col(tmp_path: Path) -> None:
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, INDEX)
    bank = course / "quizzes" / "how-lessons-work.yml"
    text = bank.read_text()
    first = text.index("section: ") + len("section: ")
    end = text.index("\n", first)
    bank.write_text(text[:first] + "no-such-heading" + text[end:])
    line = text.count("\n", 0, first) + 1
    column = first - text.rfind("\n", 0, first)
    shown = _served_log(course)
    assert any("Serving on" in entry for entry in shown), shown
    wanted = f"ERROR   -  quizzes/how-lessons-work.yml:{line}:{column}: questions[0].section: "
    assert any(entry.startswith(wanted) for entry in shown), shown
    assert "INFO    -  lessonkit: 1 problem in 1 file" in shown


def test_serving_a_clean_course_adds_nothing_to_the_console(tmp_path: Path) -> None:
    course = tmp_path / "course"
    new_course(course, "Bird songs", TODAY, INDEX)
    shown = _served_log(course)
    assert any("Serving on" in entry for entry in shown), shown
    noise = [e for e in shown if "lessonkit:" in e or e.startswith(("WARNING", "ERROR"))]
    assert not noise, shown
