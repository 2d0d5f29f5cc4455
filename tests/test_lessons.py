"""Lesson pages: front matter with positions, headings, and anchors exactly as the site makes them."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest

from lessonkit.course.lessons import headings, read_lesson, split_page
from lessonkit.errors import ContentError

ROOT = Path(__file__).resolve().parent.parent

TRICKY = """\
---
title: x
---
## 1. Why GPUs became the *default* accelerator
## Cost per `token`, with [links](https://www.python.org/)
```python
## not a heading
```
## Duplicate
## Duplicate
### Explicit anchor {#chosen-id}
## Ünïcode & symbols: 2.8\u00d7 (peak)
"""


def site_anchors(body: str) -> list[str]:
    """The anchors Python-Markdown's toc gives, with the extensions the site uses for headings."""
    md = markdown.Markdown(extensions=["toc", "attr_list", "fenced_code"])
    md.convert(body)

    def walk(tokens: list[dict[str, object]]) -> list[str]:
        out: list[str] = []
        for token in tokens:
            out.append(str(token["id"]))
            out += walk(token["children"])  # type: ignore[arg-type]
        return out

    return walk(md.toc_tokens)  # type: ignore[attr-defined]


def test_anchors_match_python_markdown(tmp_path: Path) -> None:
    path = tmp_path / "page.md"
    path.write_text(TRICKY)
    page = split_page(path)
    found = headings(page)
    assert [h.anchor for h in found] == site_anchors(page.body)
    assert [(h.level, h.line) for h in found] == [(2, 4), (2, 5), (2, 9), (2, 10), (3, 11), (2, 12)]
    assert found[0].title == "Why GPUs became the *default* accelerator"


LESSONS = sorted(p for p in ROOT.glob("content/*/*.md") if p.name != "index.md")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_real_pages_anchor_like_the_site(lesson: Path) -> None:
    page = read_lesson(lesson)
    assert [h.anchor for h in page.headings] == [
        a for a in site_anchors(page.body) if a in {h.anchor for h in page.headings}
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "no front matter\n",
            "page.md:1:1: the page has no front matter (start it with a `---` line)",
        ),
        (
            "---\ntitle: x\n",
            "page.md:1:1: the front matter is not closed (end it with a `---` line)",
        ),
        ("---\n---\nbody\n", "page.md:1:1: the front matter is empty (add its fields)"),
        ("---\ntitle: [x\n---\n", "page.md:3:1: invalid YAML: did not find expected ',' or ']'"),
    ],
)
def test_front_matter_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("page.md").write_text(text)
    with pytest.raises(ContentError) as caught:
        split_page(Path("page.md"))
    assert [str(p) for p in caught.value.problems] == [expected]


def test_front_matter_fields_are_validated_with_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("page.md").write_text("---\ntitle: x\nplan: p\nminuts: 5\n---\n")
    with pytest.raises(ContentError) as caught:
        read_lesson(Path("page.md"))
    shown = [str(p) for p in caught.value.problems]
    assert "page.md:4:1: minuts: unknown field `minuts` (did you mean `minutes`?)" in shown
    assert "page.md:2:1: missing required field `summary` (add `summary: …`)" in shown
