"""What lessonkit adds to a page beyond the authors' words, against what mkdocs-quiz adds.

Like for like (issue 21): the same choice questions of the GPU vs TPU bank (prompt, options
and explanation: what both tools can show) on one page, built three ways with the same
mkdocs-material:

- the words alone, as plain Markdown: the floor both tools start from;
- lessonkit's self-check blocks, with its script and stylesheet;
- mkdocs-quiz's `<quiz>` blocks, with what its plugin inlines, in mkdocs-quiz's own venv
  (bench/peer.py), at its defaults and at its leanest (no embedded source, no confetti).

Each tool's addition is its page and everything that page loads, gzip, minus the floor's.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit

import yaml

from bench import peer

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.5
PAGE = "questions"  # content/questions.md
HEAD = "# GPU vs TPU\n\n## 1. Choices\n\n"


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


def page_weight(site: Path, page: str) -> dict[str, tuple[int, int]]:
    """Bytes (raw, gzip) by kind for one page and everything it loads, fonts from the CSS too."""
    raw = (site / page / "index.html").read_bytes()
    weights: dict[str, list[int]] = {"HTML": [len(raw), len(gzip.compress(raw))]}
    parser = Assets()
    parser.feed(raw.decode("utf-8"))
    parser.found += _fetched_later(raw, parser.found)
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


# What self-check.js fetches from beside itself, on pages that need it: each question
# type's widget script, and the help with wide tables and figures.
_LATER = ((b"<table", "reading.js"), (b"lk-zoom", "reading.js"))
_TYPE = re.compile(
    rb"data-key='\{\"type\":\"(\w+)\""
)  # each question's type, as selfcheck writes it


def _fetched_later(raw: bytes, found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    script = next((u for _, u in found if urlsplit(u).path.endswith("/self-check.js")), None)
    if script is None:
        return []
    types = {found.decode() for found in _TYPE.findall(raw)}
    wanted = dict.fromkeys([*(f"types/{t}.js" for t in sorted(types)),
                            *(name for marker, name in _LATER if marker in raw)])  # fmt: skip
    return [("JS", script.replace("self-check.js", name)) for name in wanted]


def total_gzip(site: Path, page: str) -> int:
    return sum(gz for _, gz in page_weight(site, page).values())


def _choices() -> list[dict[str, Any]]:
    bank = yaml.safe_load((ROOT / "quizzes/gpu-vs-tpu.yml").read_text(encoding="utf-8"))
    return [q for q in bank["questions"] if q["type"] in ("single", "multiple")]


def _flat(text: str) -> str:
    return " ".join(str(text).split())


def words_page(questions: list[dict[str, Any]]) -> str:
    parts = [HEAD]
    for q in questions:
        options = "\n".join(f"- {_flat(o['text'])}" for o in q["options"])
        parts.append(f"{_flat(q['prompt'])}\n\n{options}\n\n{_flat(q['explanation'])}\n\n")
    return "".join(parts)


def quiz_page(questions: list[dict[str, Any]]) -> str:
    parts = [HEAD]
    for q in questions:
        options = "\n".join(
            f"- [{'x' if o.get('correct') else ' '}] {_flat(o['text'])}" for o in q["options"]
        )
        parts.append(
            f"<quiz>\n{_flat(q['prompt'])}\n{options}\n\n{_flat(q['explanation'])}\n</quiz>\n\n"
        )
    return "".join(parts)


def lessonkit_bank(questions: list[dict[str, Any]]) -> str:
    """The same questions as a bank, with only what mkdocs-quiz can show too."""
    kept = [
        {
            "id": q["id"],
            "type": q["type"],
            "prompt": _flat(q["prompt"]),
            "insight": 1,
            "section": "1-choices",
            "explanation": _flat(q["explanation"]),
            "options": [
                {"text": _flat(o["text"]), **({"correct": True} if o.get("correct") else {})}
                for o in q["options"]
            ],
        }
        for q in questions
    ]
    return yaml.safe_dump(
        {"lesson": "choices", "title": "Choices", "pass_mark": 0.5, "questions": kept},
        sort_keys=False,
        allow_unicode=True,
    )


def _config(plain: dict[str, Any], **changes: Any) -> str:
    return yaml.safe_dump({**plain, "nav": [f"{PAGE}.md"], "watch": [], **changes}, sort_keys=False)


def _build(python: Path, project: Path, config: str) -> Path:
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    out = project / "site"
    subprocess.run(
        [str(python), "-m", "mkdocs", "build", "--quiet", "-d", str(out)],
        cwd=project,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        check=True,
        capture_output=True,
    )
    return out


def _project(work: Path, name: str, page: str) -> Path:
    project = work / name
    (project / "content").mkdir(parents=True)
    (project / "quizzes").mkdir()
    (project / "content" / f"{PAGE}.md").write_text(page, encoding="utf-8")
    return project


def measure(work: Path, ours: dict[str, Any], plain: dict[str, Any]) -> list[str]:
    """The restated weight figure: lines to print. ``ours`` and ``plain`` are mkdocs.yml
    with lessonkit and without any of it."""
    questions = _choices()
    python = Path(sys.executable)
    floor_site = _build(python, _project(work, "floor", words_page(questions)), _config(plain))
    floor = total_gzip(floor_site, PAGE)
    lk = _project(work, "lessonkit", HEAD + "<!-- lessonkit:check choices 1 -->\n")
    (lk / "quizzes/choices.yml").write_text(lessonkit_bank(questions), encoding="utf-8")
    for folder in ("site_overrides", "hooks"):
        shutil.copytree(ROOT / folder, lk / folder)
    lk_site = _build(python, lk, _config(ours))
    lessonkit = total_gzip(lk_site, PAGE) - floor
    parts = page_weight(lk_site, PAGE)
    markup = parts["HTML"][1] - page_weight(floor_site, PAGE)["HTML"][1]
    lines = [
        f"  what a page gains for the same {len(questions)} choice questions, beyond their "
        "words (page and all it loads, gzip):",
        f"    the words alone (the floor)                {floor / 1024:6.1f} KB",
        f"    lessonkit: markup, script, stylesheet      {lessonkit / 1024:6.1f} KB added "
        f"(markup {markup / 1024:.1f}, script and stylesheet {(lessonkit - markup) / 1024:.1f})",
    ]
    peer_python, name = peer.install()
    if peer_python is None:
        return [*lines, f"    {name}"]
    plugin = "mkdocs_quiz"
    variants = {
        "defaults": [plugin],
        "leanest (no embedded source, no confetti)": [
            {plugin: {"embed_source": False, "confetti": False}}
        ],
    }
    # The floor again in the peer's venv, which has the same mkdocs-material.
    peer_floor_site = _build(peer_python, _project(work, "peer-floor", words_page(questions)),
                             _config(plain))  # fmt: skip
    peer_floor = total_gzip(peer_floor_site, PAGE)
    if peer_floor != floor:
        lines.append(f"    (the floor in mkdocs-quiz's venv: {peer_floor / 1024:.1f} KB)")
    ratios = {}
    for label, plugins in variants.items():
        project = _project(work, f"peer-{len(ratios)}", quiz_page(questions))
        site = _build(peer_python, project, _config(plain, plugins=["search", *plugins]))
        added = total_gzip(site, PAGE) - peer_floor
        ratios[label] = lessonkit / added
        lines.append(f"    {name}, {label:<31} {added / 1024:6.1f} KB added")
    verdict = "ok" if ratios["defaults"] <= TARGET else "OVER target"
    lines.append(
        f"    ratio lessonkit / mkdocs-quiz: {ratios['defaults']:.2f} at its defaults "
        f"(target <= {TARGET:.2f}: {verdict}), "
        f"{ratios['leanest (no embedded source, no confetti)']:.2f} at its leanest"
    )
    return lines
