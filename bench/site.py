"""Benchmark the lesson site: build time with and without lessonkit, and what a page weighs.

Three figures: a build with lessonkit (its Markdown extension, overrides and hook) against
plain mkdocs-material on the same pages, nothing changed and one bank changed; the whole
lesson page beside plain mkdocs-material (no target: the page carries every question's
words); and what lessonkit adds beyond those words against mkdocs-quiz (bench/weight.py).
"""

from __future__ import annotations

import contextlib
import gzip
import html
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from bench import weight
from lessonkit.site import blocks as site_blocks

ROOT = Path(__file__).resolve().parents[1]
LESSON = "ai-hardware-fundamentals/gpu-vs-tpu"
BUILDS = 15


class _Config(yaml.SafeLoader):
    """mkdocs.yml as MkDocs reads it: `!ENV [NAME, default]` is the variable, else the default."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return os.environ.get(str(loader.construct_scalar(node))) or None
    names = loader.construct_sequence(node)  # type: ignore[arg-type]
    *variables, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[v] for v in variables if os.environ.get(v)), default)


_Config.add_constructor("!ENV", _env)


def configs(root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """mkdocs.yml as it is, and plain: no lessonkit at all (no extension, hook, overrides,
    script or stylesheet). Fonts stay off, or the plain page would load them from Google."""
    config: dict[str, Any] = yaml.load(  # a SafeLoader with one tag added
        (root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Config
    )
    plain = {k: v for k, v in config.items() if k not in ("extra_css", "extra_javascript", "hooks")}
    plain["theme"] = {k: v for k, v in config["theme"].items() if k != "custom_dir"}
    plain["markdown_extensions"] = [
        e for e in config["markdown_extensions"] if "lessonkit.site.extension" not in e
    ]
    return config, plain


@contextlib.contextmanager
def plain_beside(root: Path) -> Iterator[Path]:
    """The plain config beside mkdocs.yml for the length of the benchmark, so every path it
    names resolves as in the original."""
    path = root / ".bench-plain.yml"
    try:
        path.write_text(yaml.safe_dump(configs(root)[1], sort_keys=False), encoding="utf-8")
        yield path
    finally:
        path.unlink(missing_ok=True)


def build_seconds(root: Path, config: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(config), "-d", str(out)],
        cwd=root,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


_BLOCK = re.compile(r'<section class="lk-self-check"[^>]*>.*?</ol>\n</section>', re.S)
_TAG = re.compile(r"<[^>]+>")


def _gz(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8")))


def self_check_share(site: Path, page: str) -> tuple[int, int, int]:
    """Gzip bytes the self-checks add to a page in place: (their words, their markup, blocks).

    Words are what a reader reads (prompts, options, answers, feedback, explanations):
    the blocks replaced by their text alone. Markup is the rest: inputs, classes, keys.
    """
    page_html = (site / page / "index.html").read_text(encoding="utf-8")
    blocks = _BLOCK.findall(page_html)
    assert len(blocks) == page_html.count('class="lk-self-check"'), "a block's end was missed"
    words = without = page_html
    for found in blocks:
        text = " ".join(html.unescape(_TAG.sub(" ", found)).split())
        words = words.replace(found, html.escape(text, quote=False))
        without = without.replace(found, "")
    full, text_only, none = _gz(page_html), _gz(words), _gz(without)
    return text_only - none, full - text_only, len(blocks)


def search_bytes(site: Path) -> int:
    """The search worker and index, which the theme fetches after every page load."""
    worker = sum(p.stat().st_size for p in (site / "assets/javascripts/workers").glob("search*.js"))
    return worker + (site / "search/search_index.json").stat().st_size


_WARM = """
import json, statistics, sys, time
from mkdocs.commands.build import build
from mkdocs.config import load_config
configs, runs = json.loads(sys.argv[1]), int(sys.argv[2])
times = {name: [] for name in configs}
for run in range(runs + 1):
    for name, (config_file, site_dir) in configs.items():
        config = load_config(config_file, site_dir=site_dir)
        started = time.perf_counter()
        build(config)
        times[name].append(time.perf_counter() - started)
print(json.dumps({name: statistics.median(found[1:]) for name, found in times.items()}))
"""


def warm_build_seconds(root: Path, configs: dict[str, tuple[str, str]]) -> dict[str, float]:
    """Median build time per config inside one process, after a first build of each (imports
    paid), alternating configs so that drift hits them alike."""
    result = subprocess.run(
        [sys.executable, "-c", _WARM, json.dumps(configs), str(BUILDS)],
        cwd=root,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        check=True,
        capture_output=True,
        text=True,
    )
    found: dict[str, float] = json.loads(result.stdout)
    return found


def run(root: Path = ROOT) -> list[str]:
    """Measure every figure in one run and return the lines to print."""
    lines = ["site (bench/site.py)"]
    with (
        tempfile.TemporaryDirectory(prefix="lessonkit-bench-") as scratch,
        plain_beside(root) as plain_config,
    ):
        work = Path(scratch)
        builds = {"lessonkit": root / "mkdocs.yml", "plain": plain_config}
        cached = root / site_blocks.CACHE / "banks" / "gpu-vs-tpu.json"
        times: dict[str, list[float]] = {name: [] for name in (*builds, "one bank changed")}
        # One warm-up each (disk caches, .pyc files), then alternate so drift hits all alike.
        for name, config in builds.items():
            build_seconds(root, config, work / name)
        for _ in range(BUILDS):
            for name, config in builds.items():
                times[name].append(build_seconds(root, config, work / name))
            # As after an edit to one bank: that bank alone is rendered again.
            cached.unlink(missing_ok=True)
            times["one bank changed"].append(
                build_seconds(root, builds["lessonkit"], work / "cold")
            )
        ours, plain = (statistics.median(times[name]) for name in builds)
        changed = statistics.median(times["one bank changed"])
        # Each build with lessonkit against the plain one just before: the machine's drift
        # cancels within a pair, and the median pair is the figure.
        lines += [
            f"  build time, `mkdocs build` in a fresh process, median of {BUILDS}:",
            f"    with lessonkit (extension, overrides, hook)  {ours:6.2f} s",
            f"    plain mkdocs-material, same pages            {plain:6.2f} s",
            f"    ratio, median of pairs                       "
            f"{_paired(times['lessonkit'], times['plain']):6.2f}",
            f"    with lessonkit, one bank changed             {changed:6.2f} s   (ratio "
            f"{_paired(times['one bank changed'], times['plain']):.2f}: that bank rendered again)",
        ]
        warm = warm_build_seconds(
            root,
            {name: (str(config), str(work / f"warm-{name}")) for name, config in builds.items()},
        )
        lines += [
            f"  build time inside one running process (imports paid), median of {BUILDS}:",
            f"    with lessonkit {warm['lessonkit']:6.2f} s, plain {warm['plain']:6.2f} s, "
            f"ratio {warm['lessonkit'] / warm['plain']:.2f}",
        ]
        lines += _whole_page(work)
        ours_config, plain_dict = configs(root)
        lines += weight.measure(work / "weight", ours_config, plain_dict)
    return lines


def _whole_page(work: Path) -> list[str]:
    """The lesson page and all it loads, beside plain mkdocs-material: no target."""
    ours = weight.page_weight(work / "lessonkit", LESSON)
    plain = weight.page_weight(work / "plain", LESSON)
    lines = [
        f"  bytes the lesson page loads ({LESSON}/), raw (gzip):"
        "  lessonkit vs plain mkdocs-material"
    ]
    for kind in ("HTML", "CSS", "JS", "fonts", "images"):
        a, b = ours.get(kind, (0, 0)), plain.get(kind, (0, 0))
        lines.append(f"    {kind:<8} {_kb(a):>22}   {_kb(b):>22}")
    total_ours = (sum(v[0] for v in ours.values()), sum(v[1] for v in ours.values()))
    total_plain = (sum(v[0] for v in plain.values()), sum(v[1] for v in plain.values()))
    lines.append(f"    {'total':<8} {_kb(total_ours):>22}   {_kb(total_plain):>22}")
    lines.append(
        f"    ratio    {total_ours[0] / total_plain[0]:.2f} raw, "
        f"{total_ours[1] / total_plain[1]:.2f} gzip (no target: the page carries every "
        "question's words)"
    )
    words, markup, blocks = self_check_share(work / "lessonkit", LESSON)
    lines.append(
        f"    of the self-checks in place ({blocks} blocks): their words {words / 1024:.1f} KB, "
        f"their markup {markup / 1024:.1f} KB gzip"
    )
    lines.append(
        f"    then search: worker + index {search_bytes(work / 'lessonkit') / 1024:.0f} KB, "
        "fetched after load on every page, by both"
    )
    return lines


def _paired(numerators: list[float], denominators: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def _kb(pair: tuple[int, int]) -> str:
    return f"{pair[0] / 1024:7.1f} KB ({pair[1] / 1024:5.1f})"


if __name__ == "__main__":
    print("\n".join(run(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)))
