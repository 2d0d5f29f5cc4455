"""Time to first question of `lessonkit quiz gpu-vs-tpu`, against a floor and the peer.

The floor is `python -c "import yaml, pydantic"`. Three lessonkit figures:

- warm: in the checkout, the compiled bank cached (a learner's second quiz onwards);
- warm in a terminal: the same in a pseudo-terminal of 80x24 with colour, where a learner
  sits, timed until the answer prompt is drawn. It draws with rich, which the piped run
  never imports; there is no target for it yet, so it is printed with what it costs
  beyond the piped start;
- fresh install: the wheel installed into a new venv (`pip install`, core only), the quiz
  started from an empty folder with an empty LESSONKIT_HOME, i.e. no cache at all;
- the learner install's size: `du` of that venv's site-packages.

The peer, mkdocs-quiz, is installed into its own venv in the same run and its terminal
runner timed on an equivalent quiz (the bank's single and multiple questions as Markdown).
Runs are interleaved so a busy machine slows every side alike; medians are reported.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import peer

ROOT = Path(__file__).resolve().parent.parent
RUNS = 11
WARM_TARGET, FRESH_TARGET = 1.0, 1.5


def _first_question(command: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    with subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if "Question 1 of" in line:
                break
        else:
            raise RuntimeError(f"{command[0]} ended without showing a question")
        elapsed = time.perf_counter() - started
        child.kill()
    return elapsed


def _first_question_on_a_terminal(command: list[str], env: dict[str, str], cwd: Path) -> float:
    import pexpect

    started = time.perf_counter()
    child = pexpect.spawn(command[0], command[1:], env=env, cwd=str(cwd), dimensions=(24, 80),
                          encoding="utf-8")  # fmt: skip
    child.expect(r"Answer \(", timeout=60)  # drawn in full: prompt, choices and all
    elapsed = time.perf_counter() - started
    child.terminate(force=True)
    return elapsed


def _floor() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import yaml, pydantic"], check=True)
    return time.perf_counter() - started


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", *args],
                   check=True, capture_output=True, timeout=900)  # fmt: skip


def _venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    return where / "bin" / "python"


def _learner_install(work: Path) -> tuple[Path, tuple[int, int]]:
    """A venv with only the wheel and its core dependencies; its site-packages size in KB."""
    dist = work / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(dist), str(ROOT)],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    python = _venv(work / "learner")
    _pip(python, str(next(dist.glob("lessonkit-*.whl"))))
    (site,) = (work / "learner" / "lib").glob("python*/site-packages")
    size = subprocess.run(["du", "-sk", str(site)], capture_output=True, text=True, check=True)
    # pip and setuptools come with every venv, not with lessonkit: say what is lessonkit's.
    tools = [
        str(p)
        for p in site.iterdir()
        if p.name.split("-")[0] in ("pip", "setuptools", "pkg_resources", "_distutils_hack")
    ]
    extra = subprocess.run(["du", "-skc", *tools], capture_output=True, text=True, check=True)
    total = int(size.stdout.split()[0])
    return python.with_name("lessonkit"), (total, total - int(extra.stdout.split()[-2]))


def _peer_quiz(folder: Path) -> Path:
    """The bank's single and multiple questions as an mkdocs-quiz page."""
    sys.path.insert(0, str(ROOT / "src"))
    from lessonkit.course import catalog

    bank = catalog.find("gpu-vs-tpu", cwd=ROOT).bank
    blocks = ["# GPU vs TPU\n"]
    for q in bank.questions():
        if q.type not in ("single", "multiple"):  # the peer's own two types
            continue
        options = "\n".join(
            f"- [{'x' if o.correct else ' '}] {' '.join(o.text.split())}"
            for o in getattr(q, "options", ())
        )
        prompt = " ".join(q.prompt.split())
        explanation = " ".join(q.explanation.split())
        blocks.append(f"<quiz>\n{prompt}\n{options}\n\n{explanation}\n</quiz>\n")
    page = folder / "gpu-vs-tpu.md"
    page.write_text("\n".join(blocks), encoding="utf-8")
    return page


def _peer(work: Path) -> tuple[list[str], str]:
    """mkdocs-quiz's runner command, or why it cannot be run."""
    python, name = peer.install()
    if python is None:
        return [], name
    page = _peer_quiz(work)
    return [str(python.with_name("mkdocs-quiz")), "run", str(page)], name


def run() -> list[str]:
    """Measure and describe; the lead's `bench/run.py` prints the lines."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = {**os.environ, "LESSONKIT_HOME": str(work / "home"), "NO_COLOR": "1"}
        script = Path(sys.executable).with_name("lessonkit")
        warm_command = [str(script), "quiz", "gpu-vs-tpu"]
        _first_question(warm_command, env, ROOT)  # compiles and caches the bank
        learner, (size_kb, own_kb) = _learner_install(work)
        elsewhere = work / "elsewhere"
        elsewhere.mkdir()
        peer_command, peer_name = _peer(work)
        floors: list[float] = []
        warm: list[float] = []
        fresh: list[float] = []
        peer: list[float] = []
        terminal: list[float] = []
        coloured = {k: v for k, v in env.items() if k != "NO_COLOR"} | {"TERM": "xterm-256color"}
        for n in range(RUNS):
            floors.append(_floor())
            warm.append(_first_question(warm_command, env, ROOT))
            terminal.append(_first_question_on_a_terminal(warm_command, coloured, ROOT))
            empty = {**env, "LESSONKIT_HOME": str(work / f"fresh-home-{n}")}  # no cache at all
            fresh.append(_first_question([str(learner), "quiz", "gpu-vs-tpu"], empty, elsewhere))
            if peer_command:
                peer.append(_first_question(peer_command, env, work))
        compiled = list((work / "fresh-home-0").glob("cache/banks/*.json"))
    floor = statistics.median(floors)
    lines = [
        f"quiz start-up: time to first question (stdin a pipe, medians of {RUNS} interleaved runs)",
        f"  floor `python -c 'import yaml, pydantic'`      {floor * 1000:6.0f} ms",
    ]
    for label, runs, target in (
        ("warm, in the checkout (bank cached)", warm, WARM_TARGET),
        ("fresh `pip install`, no cache", fresh, FRESH_TARGET),
    ):
        ratio = statistics.median(runs) / floor
        verdict = "within" if ratio <= target else "OVER"
        lines.append(
            f"  {label:<42} {statistics.median(runs) * 1000:6.0f} ms  "
            f"{ratio:.2f}x floor ({verdict} the {target}x target)"
        )
    lines.append(f"  (fresh runs compiled {len(compiled)} bank(s): the wheel carries them)")
    shown = statistics.median(terminal)
    lines.append(
        f"  {'warm, in a terminal (pty 80x24, colour)':<42} {shown * 1000:6.0f} ms  "
        f"{shown / floor:.2f}x floor (no target; {(shown - statistics.median(warm)) * 1000:.0f} ms "
        "more than piped: rich draws it)"
    )
    if peer:
        middle = statistics.median(peer)
        lines.append(
            f"  peer: {peer_name} `run`, same questions     {middle * 1000:6.0f} ms  "
            f"{middle / floor:.2f}x floor, "
            f"{middle / statistics.median(warm):.1f}x lessonkit warm"
        )
    else:
        lines.append(f"  peer: {peer_name}")
    lines.append(
        f"learner install (the wheel, core only, into a fresh venv): site-packages "
        f"{size_kb / 1024:.1f} MB, {own_kb / 1024:.1f} MB without the venv's own "
        "pip and setuptools"
    )
    lines.append(
        "  "
        + json.dumps(
            {
                "floor_ms": round(floor * 1000),
                "warm_ms": round(statistics.median(warm) * 1000),
                "terminal_ms": round(shown * 1000),
                "fresh_ms": round(statistics.median(fresh) * 1000),
                "site_packages_mb": round(size_kb / 1024, 1),
                "without_pip_mb": round(own_kb / 1024, 1),
            }
        )
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
