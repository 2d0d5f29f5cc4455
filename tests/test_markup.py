"""Bank Markdown as plain text: what TERM=dumb, pipes and screen readers get."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from lessonkit.quiz import markup
from lessonkit.quiz.markup import plain


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("Pick **b** and *use* `x`.", "Pick b and use x."),
        (
            "A line\nbroken mid-sentence\nby the author.",
            "A line broken mid-sentence by the author.",
        ),
        (
            "See [the guide](https://docs.python.org/3/).",
            "See the guide (https://docs.python.org/3/).",
        ),
        (
            "```python\nfor i in range(3):\n    print(i)\n```",
            "    for i in range(3):\n        print(i)",
        ),
        ("Two:\n\n- one\n- two\n  continued", "Two:\n\n- one\n- two continued"),
        ("snake_case_name and 2 * 3 * 4", "snake_case_name and 2 * 3 * 4"),
        ("## 1. A heading\n\nText.", "1. A heading\n\nText."),
    ],
)
def test_plain_text_keeps_the_words_and_drops_the_markup(markdown: str, text: str) -> None:
    assert plain(markdown) == text


def test_plain_text_keeps_a_table_as_aligned_columns() -> None:
    text = (
        "Ridge points:\n"
        "| Chip | Dense BF16 TFLOPS | Ridge |\n"
        "|---|--:|---|\n"
        "| **H100** SXM | 989 | `295` |\n"
        "| TPU v5e | 197 | 241 |\n"
        "\n"
        "After the table."
    )
    assert plain(text).splitlines() == [
        "Ridge points:",
        "Chip      Dense BF16 TFLOPS  Ridge",
        "--------  -----------------  -----",
        "H100 SXM  989                295",
        "TPU v5e   197                241",
        "",
        "After the table.",
    ]


# --- the terminal's short way for one paragraph ----------------------------------------
# `markup.rich` draws one paragraph of plain inline Markdown itself, without rich.markdown's
# import; what it draws must be byte for byte what rich's Markdown draws, alone and in the
# quiz's tables, at every width and in colour or not.

ROOT = Path(__file__).resolve().parents[1]

SHORT_WAY = [
    "Which chip is the **workshop**?",
    "Chip `X` peaks at *4.8 TB/s*; see [the guide](https://docs.python.org/3/).",
    "A line\nbroken mid-sentence\n  by the author, with R&D and 50% (or so).",
    'Intra**word**strong and 2*3*4 and "*quoted*" text.',
    "Ends with code `a*b`",
    "4.8 TB/s is its bandwidth; 2. is not a list here",
    # Importers escape every identifier's underscores; escapes show the character alone.
    "Join on customer\\_id where amount \\_\\_\\_\\_\\_ 100",
    "an escaped \\*star\\*, **a\\*b** and \\[not a link\\](x)",
]
LONG_WAY = [
    "Two:\n\n- one\n- two",
    "- a list item",
    "1. first",
    "# heading",
    "> a quote",
    "```\ncode\n```",
    "snake_case_name",
    "_emphasis_ by underscore",
    "`code` beside an escaped \\_",
    "a \\d that escapes nothing",
    "a <b>tag</b>",
    "an &amp; entity",
    "~~struck~~",
    "***both***",
    "2 * 3 * 4",
    'x**"quoted"**y',
    "` spaced code `",
    "a hard  \nbreak",
    "[a `code` label](https://x.org)",
    "![an image](a.png)",
    "Setext\n===",
]


def course_texts() -> list[str]:
    """Every piece of bank Markdown the quiz draws with `markup.rich`, in this course."""
    import yaml

    texts: list[str] = []
    for bank in sorted(ROOT.glob("quizzes/*.yml")):
        for q in yaml.safe_load(bank.read_text(encoding="utf-8"))["questions"]:
            texts += [str(q[k]) for k in ("prompt", "explanation", "hint") if q.get(k)]
            for option in q.get("options", []):
                texts += [str(option[k]) for k in ("text", "feedback") if option.get(k)]
    # A question with parameters is drawn with numbers in its placeholders.
    return [re.sub(r"\{\w+\}", "12.5", text) for text in texts]


def drawn(renderable: Any, width: int, color: bool, *, in_table: bool) -> str:
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, no_color=not color or None,
                      color_system="truecolor", highlight=False, emoji=False)  # fmt: skip
    if in_table:  # as the quiz lists choices: a numbered column, the text, one row reversed
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row("  1.", renderable)
        grid.add_row("\u276f 2.", renderable, style="reverse")
        console.print(grid)
    else:
        console.print(renderable, style="italic")
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 50, 24])
@pytest.mark.parametrize("color", [True, False], ids=["colour", "no-colour"])
def test_the_short_way_draws_what_rich_markdown_draws(width: int, color: bool) -> None:
    from rich.markdown import Markdown

    texts = SHORT_WAY + course_texts()
    for text in texts:
        assert markup.inline_spans(text) is not None, text
        full = Markdown(text.strip(), code_theme=markup.CODE_THEME, hyperlinks=False)
        for in_table in (False, True):
            assert drawn(markup.rich(text), width, color, in_table=in_table) == drawn(
                full, width, color, in_table=in_table
            ), text


@pytest.mark.parametrize("text", LONG_WAY)
def test_what_the_short_way_might_misread_goes_to_rich(text: str) -> None:
    assert markup.inline_spans(text) is None
    assert type(markup.rich(text)).__name__ == "Markdown"


def test_every_prompt_of_this_course_takes_the_short_way() -> None:
    # The point of the short way: the first question never waits for markdown-it.
    prompts = [t for t in course_texts() if t]
    assert all(markup.inline_spans(t) is not None for t in prompts)


def test_the_short_way_agrees_with_rich_on_seeded_random_escapes() -> None:
    # Backslash escapes among delimiters: an escaped one opens nothing, and counts as
    # punctuation beside emphasis.
    import random

    from rich.markdown import Markdown

    pieces = ["word", "x", " ", "*", "**", "\\*", "\\_", "\\\\", "_", ".", "\\[", "]", "(",
              ")", "\\#", "!", "-"]  # fmt: skip
    draw = random.Random(35)
    taken = 0
    for _ in range(3000):
        text = "".join(draw.choice(pieces) for _ in range(draw.randint(1, 10)))
        if "\\" not in text or markup.inline_spans(text) is None:
            continue
        taken += 1
        full = Markdown(text.strip(), code_theme=markup.CODE_THEME, hyperlinks=False)
        assert drawn(markup.rich(text), 30, True, in_table=False) == drawn(
            full, 30, True, in_table=False
        ), repr(text)
    assert taken > 300


def test_the_short_way_agrees_with_rich_on_seeded_random_markdown() -> None:
    # Delimiters, punctuation and words in random order: whatever the short way takes on,
    # rich's Markdown must draw the same. A misread flanking rule shows up here.
    import random

    from rich.markdown import Markdown

    pieces = ["word", "x", "2", " ", " ", "\n", "*", "**", "`", "[", "](", "https://a.org", ")",
              ".", ",", '"', "(", "!", "%", "$", "-", "\u00e9", "\u00d7"]  # fmt: skip
    draw = random.Random(2026)
    taken = 0
    for _ in range(4000):
        text = "".join(draw.choice(pieces) for _ in range(draw.randint(1, 12)))
        if markup.inline_spans(text) is None:
            continue
        taken += 1
        full = Markdown(text.strip(), code_theme=markup.CODE_THEME, hyperlinks=False)
        assert drawn(markup.rich(text), 30, True, in_table=False) == drawn(
            full, 30, True, in_table=False
        ), repr(text)
    assert taken > 1000  # the short way was really tried, on many texts
