"""Benchmark the lesson site: build time with and without the lessonkit hook, and page weight."""

from __future__ import annotations

import contextlib
import gzip
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit

import yaml

from lessonkit.site import blocks as site_blocks

ROOT = Path(__file__).resolve().parents[1]
LESSON = "ai-hardware-fundamentals/gpu-vs-tpu"
BUILDS = 15
TARGET = 1.10


class Assets(HTMLParser):
    """What a browser fetches while loading a page: stylesheets, scripts, images."""

    KINDS: ClassVar = {"script": "JS", "img": "images"}

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("rel") == "stylesheet" and found.get("href"):
            self.found.append(("CSS", found["href"] or ""))
        elif tag in self.KINDS and found.get("src"):
            self.found.append((self.KINDS[tag], found["src"] or ""))


class _Config(yaml.SafeLoader):
    """mkdocs.yml as MkDocs reads it: `!ENV [NAME, default]` is the variable, else the default."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return os.environ.get(str(loader.construct_scalar(node))) or None
    names = loader.construct_sequence(node)  # type: ignore[arg-type]
    *variables, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[v] for v in variables if os.environ.get(v)), default)


_Config.add_constructor("!ENV", _env)


@contextlib.contextmanager
def configs_beside(root: Path) -> Iterator[tuple[Path, Path]]:
    """Copies of mkdocs.yml without the hook, and plain (no lessonkit files at all).

    They sit beside mkdocs.yml for the length of the benchmark, so every path they name
    resolves as in the original and the hook is the only difference.
    """
    config: dict[str, Any] = yaml.load(  # a SafeLoader with one tag added
        (root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Config
    )
    config.pop("hooks", None)
    no_hook = root / ".bench-no-hook.yml"
    # The theme as it comes, around the same Markdown: no overrides, CSS or script.
    # Fonts stay off, or the plain page would load them from Google on top.
    plain = root / ".bench-plain.yml"
    plain_config = {k: v for k, v in config.items() if k not in ("extra_css", "extra_javascript")}
    plain_config["theme"] = {k: v for k, v in config["theme"].items() if k != "custom_dir"}
    plain_config["markdown_extensions"] = [
        e for e in config["markdown_extensions"] if "lessonkit.site.extension" not in e
    ]
    try:
        no_hook.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        plain.write_text(yaml.safe_dump(plain_config, sort_keys=False), encoding="utf-8")
        yield no_hook, plain
    finally:
        no_hook.unlink(missing_ok=True)
        plain.unlink(missing_ok=True)


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


def page_weight(site: Path, page: str) -> dict[str, tuple[int, int]]:
    """Bytes (raw, gzip) by kind for one page and everything it loads, fonts from the CSS too."""
    html_path = site / page / "index.html"
    raw = html_path.read_bytes()
    weights: dict[str, list[int]] = {"HTML": [len(raw), len(gzip.compress(raw))]}
    parser = Assets()
    parser.feed(raw.decode("utf-8"))
    base = f"/{page}/"
    seen: set[str] = set()
    for kind, url in parser.found:
        path = urlsplit(urljoin(base, url)).path
        if urlsplit(url).netloc or path in seen:
            continue
        seen.add(path)
        data = (site / path.lstrip("/")).read_bytes()
        found = weights.setdefault(kind, [0, 0])
        found[0] += len(data)
        found[1] += len(gzip.compress(data))
        if kind == "CSS":
            for font in re.findall(rb"url\(['\"]?([^'\")]+\.woff2?)", data):
                font_path = site / urlsplit(urljoin(path, font.decode())).path.lstrip("/")
                if font_path.is_file():
                    fonts = weights.setdefault("fonts", [0, 0])
                    fonts[0] += font_path.stat().st_size
                    fonts[1] += font_path.stat().st_size  # already compressed
    weights.setdefault("fonts", [0, 0])
    return {kind: (pair[0], pair[1]) for kind, pair in weights.items()}


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


def _import_seconds(root: Path) -> float:
    """What the hook pays before it does anything: importing the library it calls."""
    code = (
        "import time; import mkdocs.commands.build, markdown; t = time.perf_counter(); "
        "import lessonkit.course.course, lessonkit.site.selfcheck; print(time.perf_counter() - t)"
    )
    found = []
    for _ in range(BUILDS):
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=root, check=True, capture_output=True, text=True
        )
        found.append(float(result.stdout))
    return statistics.median(found)


def run(root: Path = ROOT) -> list[str]:
    """Measure both figures in one run and return the lines to print."""
    lines = ["site (bench/site.py)"]
    with (
        tempfile.TemporaryDirectory(prefix="lessonkit-bench-") as scratch,
        configs_beside(root) as (no_hook, plain_config),
    ):
        work = Path(scratch)
        configs = {"with hook": root / "mkdocs.yml", "without hook": no_hook}
        cache = root / site_blocks.CACHE
        times: dict[str, list[float]] = {name: [] for name in (*configs, "course changed")}
        # One warm-up each (disk caches, .pyc files), then alternate so drift hits all alike.
        for name, config in configs.items():
            build_seconds(root, config, work / name.replace(" ", "-"))
        for _ in range(BUILDS):
            for name, config in configs.items():
                times[name].append(build_seconds(root, config, work / name.replace(" ", "-")))
            # As after an edit: the hook checks the whole course again and renders it.
            shutil.rmtree(cache, ignore_errors=True)
            times["course changed"].append(build_seconds(root, configs["with hook"], work / "cold"))
        imports = _import_seconds(root)
        with_hook = statistics.median(times["with hook"])
        without = statistics.median(times["without hook"])
        changed = statistics.median(times["course changed"])
        # Each build with the hook against the build without it just before: the machine's
        # drift cancels within a pair, and the median pair is the figure.
        ratio = _paired(times["with hook"], times["without hook"])
        verdict = "ok" if ratio <= TARGET else "over target"
        lines += [
            f"  build time, `mkdocs build` in a fresh process, median of {BUILDS}:",
            f"    with the lessonkit hook     {with_hook:6.2f} s   (course as at the last build)",
            f"    without the hook            {without:6.2f} s",
            f"    ratio, median of pairs      {ratio:6.2f}   (target <= {TARGET:.2f}: {verdict})",
            f"    with the hook, course changed {changed:4.2f} s   "
            f"(ratio {_paired(times['course changed'], times['without hook']):.2f}: "
            "checks and renders every bank again)",
            f"    of that difference, importing the course check (pydantic) takes {imports:.2f} s",
        ]
        warm = warm_build_seconds(
            root,
            {
                name: (str(config), str(work / f"warm-{name.replace(' ', '-')}"))
                for name, config in configs.items()
            },
        )
        lines += [
            f"  build time inside one running process (imports paid), median of {BUILDS}:",
            f"    with the lessonkit hook     {warm['with hook']:6.2f} s",
            f"    without the hook            {warm['without hook']:6.2f} s",
            f"    ratio                       {warm['with hook'] / warm['without hook']:6.2f}",
        ]

        plain_site = work / "plain"
        build_seconds(root, plain_config, plain_site)
        ours = page_weight(work / "with-hook", LESSON)
        plain = page_weight(plain_site, LESSON)
        lines.append(
            f"  bytes the lesson page loads ({LESSON}/), raw (gzip):"
            "  lessonkit vs plain mkdocs-material"
        )
        for kind in ("HTML", "CSS", "JS", "fonts", "images"):
            a, b = ours.get(kind, (0, 0)), plain.get(kind, (0, 0))
            lines.append(f"    {kind:<8} {_kb(a):>22}   {_kb(b):>22}")
        total_ours = (sum(v[0] for v in ours.values()), sum(v[1] for v in ours.values()))
        total_plain = (sum(v[0] for v in plain.values()), sum(v[1] for v in plain.values()))
        lines.append(f"    {'total':<8} {_kb(total_ours):>22}   {_kb(total_plain):>22}")
        ratio = total_ours[1] / total_plain[1]
        lines.append(
            f"    ratio    {total_ours[0] / total_plain[0]:.2f} raw, {ratio:.2f} gzip"
            f"  (target <= {TARGET:.2f} gzip: {'ok' if ratio <= TARGET else 'over target'})"
        )
        words, markup, blocks = self_check_share(work / "with-hook", LESSON)
        budget = (TARGET - 1) * total_plain[1]
        rest_html = ours["HTML"][1] - plain["HTML"][1] - words - markup
        extra = {
            "the questions' own words, in place": words,
            f"their markup ({blocks} blocks: inputs, keys, disclosures)": markup,
            "the rest of the page's HTML (headings, call to action)": rest_html,
            "lessonkit's script, minified": ours["JS"][1] - plain["JS"][1],
            "lessonkit's stylesheet, minified": ours["CSS"][1] - plain["CSS"][1],
        }
        lines.append(
            f"    the {(total_ours[1] - total_plain[1]) / 1024:.1f} KB gzip lessonkit adds, "
            f"against the {budget / 1024:.1f} KB the target allows:"
        )
        lines += [f"      {name:<58} {value / 1024:5.1f} KB" for name, value in extra.items()]
        lines.append(
            f"    the words alone take {words / budget:.0%} of that allowance: every question and"
        )
        lines.append("    its answer is in the page, so that it works without JavaScript")
        lines.append(
            f"    then search: worker + index {search_bytes(work / 'with-hook') / 1024:.0f} KB, "
            "fetched after load on every page, by both"
        )
    return lines


def _paired(numerators: list[float], denominators: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def _kb(pair: tuple[int, int]) -> str:
    return f"{pair[0] / 1024:7.1f} KB ({pair[1] / 1024:5.1f})"


if __name__ == "__main__":
    print("\n".join(run(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)))
