"""The site of a course of 2, 100 and 1,000 lessons: built as configured against plain
mkdocs-material, when nothing changed and when one bank changed; time and peak memory.

"Plain" is the course's own ``mkdocs.yml`` with lessonkit taken out: the ``hooks:``
entries that name lessonkit and any ``markdown_extensions`` entry that names lessonkit
(so this harness measures the same thing whether lessonkit's site additions come from a
MkDocs hook or from a Python-Markdown extension). Theme, overrides, Markdown
extensions, plugins and pages stay as they are. "As configured" is ``mkdocs.yml`` itself.

For each size, in one run and in this order: plain; as configured with lessonkit's site
cache empty (its first build); as configured with nothing changed; as configured after
one bank's title was edited; plain again. Ratios use the mean of the two plain builds,
which bracket the others in time. When a ratio misses its target, the build that missed
is run again under cProfile at the middle size and the functions of lessonkit and its
hook that took the longest are printed.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import course, rss  # run as a script, the checkout is not on the path otherwise

SIZES = (4, 100, 1000)
QUICK_SIZES = (4, 100)
TARGET = 1.2
PROFILE_SIZE = 100


def plain_config(config: dict[str, Any]) -> dict[str, Any]:
    """``mkdocs.yml`` without lessonkit: its hooks and Markdown extensions removed."""

    def names_lessonkit(entry: Any) -> bool:
        return "lessonkit" in (" ".join(map(str, entry)) if isinstance(entry, dict) else str(entry))

    plain = dict(config)
    hooks = [h for h in plain.get("hooks") or [] if not names_lessonkit(h)]
    if hooks:
        plain["hooks"] = hooks
    else:
        plain.pop("hooks", None)
    if "markdown_extensions" in plain:
        plain["markdown_extensions"] = [
            e for e in plain["markdown_extensions"] if not names_lessonkit(e)
        ]
    return plain


@contextlib.contextmanager
def plain_beside(root: Path) -> Iterator[Path]:
    """A plain copy of ``root/mkdocs.yml`` beside it, so its relative paths resolve alike."""
    plain = root / ".bench-plain.yml"
    course.write_config(plain, plain_config(course.read_config(root / "mkdocs.yml")))
    try:
        yield plain
    finally:
        plain.unlink(missing_ok=True)


def build(root: Path, config: Path, out: Path) -> tuple[float, int, float]:
    """Seconds, peak RSS (KiB) and CPU seconds of `mkdocs build` in a fresh process."""
    peak = rss.Peak(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(config), "-d", str(out)]
    )
    started = time.perf_counter()
    child = subprocess.Popen(
        peak.command,
        cwd=root,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    if child.returncode:
        raise RuntimeError(f"mkdocs build -f {config.name} failed:\n{errors.decode()}")
    return time.perf_counter() - started, peak.kib(usage), usage.ru_utime + usage.ru_stime


def _edit_bank(root: Path, slug: str, number: int) -> None:
    bank = root / "quizzes" / f"{slug}.yml"
    text = bank.read_text(encoding="utf-8")
    bank.write_text(text.replace("\ntitle: ", f"\ntitle: (edit {number}) ", 1), encoding="utf-8")


def _clear_site_cache(root: Path) -> None:
    shutil.rmtree(root / ".cache" / "lessonkit", ignore_errors=True)


Runs = dict[str, tuple[float, int, float]]


def measure(root: Path, slug: str, work: Path) -> Runs:
    runs: Runs = {}
    with plain_beside(root) as plain:
        configured = root / "mkdocs.yml"
        runs["plain"] = build(root, plain, work / "plain")
        _clear_site_cache(root)
        runs["configured, first build"] = build(root, configured, work / "cold")
        runs["configured, nothing changed"] = build(root, configured, work / "warm")
        _edit_bank(root, slug, 1)
        runs["configured, one bank changed"] = build(root, configured, work / "changed")
        again = build(root, plain, work / "plain-2")
    first = runs["plain"]
    runs["plain"] = ((first[0] + again[0]) / 2, max(first[1], again[1]), (first[2] + again[2]) / 2)
    return runs


def profile(root: Path, slug: str, work: Path, changed: bool) -> list[str]:
    """The lessonkit functions that took longest in a configured build, by cumulative time."""
    stats = work / "build.prof"
    if changed:
        _edit_bank(root, slug, 2)
    command = ["-m", "mkdocs", "build", "--quiet", "-d", str(work / "profiled")]
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(stats), *command],
        cwd=root,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if not stats.is_file():
        return [f"      (no profile: {done.stderr.strip()[-300:]})"]
    found = pstats.Stats(str(stats))
    rows = [
        (cumulative, calls, f"{Path(file).parent.name}/{Path(file).name}:{line}({name})")
        for (file, line, name), (_, calls, _, cumulative, _) in found.stats.items()  # type: ignore[attr-defined]
        if "lessonkit" in file
    ]
    rows.sort(reverse=True)
    return [f"      {c:7.2f} s {n:>8} calls  {where}" for c, n, where in rows[:12]] + [
        f"      (the whole build, under the profiler: {found.total_tt:.2f} s)"  # type: ignore[attr-defined]
    ]


def big_page(work: Path) -> list[str]:
    """The 10,000-question lesson's page: it builds, with every question in it."""
    root = course.write(work / "big", 4)
    slug = course.add_big_bank(root)
    with plain_beside(root) as plain:
        plain_seconds, plain_rss, _ = build(root, plain, work / "big-plain")
    try:
        seconds, rss, _ = build(root, root / "mkdocs.yml", work / "big-site")
    except RuntimeError as error:
        return [f"  the 10,000-question lesson's page: the build FAILED: {error}"]
    page = work / "big-site" / "bench-plan" / slug / "index.html"
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    questions = text.count('class="lk-question"')
    return [
        f"  the 10,000-question lesson's page: built in {seconds:.2f} s "
        f"(plain {plain_seconds:.2f} s), peak RSS {rss / 1024:.0f} MB "
        f"(plain {plain_rss / 1024:.0f});",
        f"    bench-plan/{slug}/{page.name if text else ' (NO PAGE)'}: "
        f"{len(text.encode()) / 2**20:.1f} MiB of HTML, "
        f"{questions:,} questions in its self-checks"
        + ("" if questions == 10_000 else "  (expected 10,000)"),
    ]


def run(quick: bool = False) -> list[str]:
    sizes = QUICK_SIZES if quick else SIZES
    lines = [
        "site at scale (bench/sitescale.py): mkdocs build in a fresh process, seconds and "
        "peak RSS in MB; plain = mkdocs.yml without lessonkit's hook and extensions"
    ]
    header = "".join(f"{n:>12,} lessons" for n in sizes)
    results: dict[int, Runs] = {}
    with tempfile.TemporaryDirectory(prefix="lessonkit-site-") as folder:
        work = Path(folder)
        for n in sizes:
            root = course.write(work / f"course-{n}", n)
            results[n] = measure(root, course.slug(n // 2), work / f"out-{n}")
        lines.append(f"  {'':<32}{header}")
        for name in results[sizes[0]]:
            cells = "".join(
                f"{results[n][name][0]:9.2f} s {results[n][name][1] / 1024:5.0f}" for n in sizes
            )
            lines.append(f"  {name:<32}{cells}")
        missed = []
        for name in ("configured, nothing changed", "configured, one bank changed"):
            ratios = [results[n][name][0] / results[n]["plain"][0] for n in sizes]
            cells = "".join(f"{r:17.2f}x" for r in ratios)
            verdict = "within" if ratios[-1] <= TARGET else "OVER"
            lines.append(f"  {name + ' / plain':<32}{cells}   (target <= {TARGET}: {verdict})")
            if ratios[-1] > TARGET:
                missed.append(name)
        # CPU seconds: steadier than wall time when others share the machine.
        for name in ("configured, nothing changed", "configured, one bank changed"):
            ratios = [results[n][name][2] / results[n]["plain"][2] for n in sizes]
            cells = "".join(f"{r:17.2f}x" for r in ratios)
            lines.append(f"  {name + ' / plain, CPU':<32}{cells}")
        for name in ("plain", "configured, one bank changed"):
            per = [
                (results[b][name][0] - results[a][name][0]) / (b - a) * 1000
                for a, b in itertools.pairwise(sizes)
            ]
            flag = len(per) == 2 and per[1] > 1.5 * max(per[0], 0.0) and per[1] > 0.1
            lines.append(
                f"  {name}, per added lesson: "
                + ", ".join(f"{p:.1f} ms" for p in per)
                + ("  FASTER THAN LINEAR" if flag else "")
            )
        lines += big_page(work)
        for name in missed:
            size = PROFILE_SIZE if PROFILE_SIZE in sizes else sizes[-1]
            root = work / f"course-{size}"
            lines.append(
                f"  where the time goes, '{name}' at {size} lessons (cProfile, cumulative):"
            )
            lines += profile(root, course.slug(size // 2), work, name.endswith("bank changed"))
    return lines


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print("\n".join(run(quick="--quick" in sys.argv)))
