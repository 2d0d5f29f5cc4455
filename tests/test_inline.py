"""Option, item and match text is inline Markdown only: shown as written on the page, in
exports and in the terminal, never as a quote, a list or a heading (``bank.inline``)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from lessonkit.bank import inline
from lessonkit.bank.models import Bank
from lessonkit.bank.richtext import inline_html
from lessonkit.questiontypes import registry
from lessonkit.quiz import markup
from lessonkit.quiz.plainui import PlainUi
from lessonkit.quiz.richui import RichUi
from lessonkit.site import selfcheck

# Text an author means literally, what a whole-document reading made of it, and the
# block it would have been.
BLOCKISH = [
    (">= 100", "a quote"),
    ("- 100", "a bulleted list"),
    ("1. first", "a numbered list"),
    ("# all", "a heading"),
    (">", "a quote"),
    ("---", "a horizontal rule"),
    ("* x", "a bulleted list"),
    ("2) second", "a numbered list"),
]
_COMMON = {"prompt": "Which?", "explanation": "Because.", "section": "s", "insight": 1}


def single(*texts: str) -> dict[str, Any]:
    options = [{"text": t, "correct": n == 0} for n, t in enumerate(texts)]
    return {"id": "q", "type": "single", **_COMMON, "options": options}


@pytest.mark.parametrize(("text", "kind"), BLOCKISH)
def test_the_block_a_text_would_have_been_is_named(text: str, kind: str) -> None:
    assert inline.block(text) == kind
    assert inline.block(inline.source(text)) is None


@pytest.mark.parametrize(
    "text", ["*emphasis* first", "`code`", "2 * 3", "#1 is", "a - b", "100 >= 10", "plain"]
)
def test_inline_text_is_left_as_it_is(text: str) -> None:
    if text != "#1 is":  # Python-Markdown reads `#1` as a heading: escaped for the site
        assert inline.source(text) == text
    assert inline.block("a\n\nb") == "separate paragraphs"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (">= 100", "&gt;= 100"),
        ("- 100", "- 100"),
        ("1. first", "1. first"),
        ("# all", "# all"),
        (">", "&gt;"),
        ("---", "---"),
        ("#hashtag", "#hashtag"),
        ("[a]: b", "[a]: b"),
        ("line one\n\n- two", "line one - two"),
        ("<blockquote>quoted</blockquote>", "quoted"),
        ("`x >= 1` and *y*", "<code>x &gt;= 1</code> and <em>y</em>"),
        ("customer\\_id", "customer_id"),
    ],
)
def test_the_site_shows_inline_text_as_written(text: str, shown: str) -> None:
    assert inline_html(text) == shown


def test_a_self_check_shows_options_items_and_pairs_as_written() -> None:
    bank = Bank.model_validate(
        {
            "lesson": "l",
            "title": "T",
            "pass_mark": 0.7,
            "questions": [
                single(">= 100", "- 100", "1. first", ">"),
                {"id": "o", "type": "order", **_COMMON, "items": ["# all", "> b", "`c`"]},
                {"id": "m", "type": "match", **_COMMON,
                 "pairs": [{"left": "- x", "right": "> y"}, {"left": "`z`", "right": "**w**"}]},
            ],
        }
    )  # fmt: skip
    page = selfcheck.block(bank, bank.questions, {"s": "S"})
    for label in ("a) 1. first", "b) &gt;= 100", "c) - 100", "d) &gt;"):
        assert f"<span>{label}</span>" in page
    assert "<blockquote>" not in page and "<ul><li>100" not in page
    assert "<span># all</span>" in page and "<span><code>c</code></span>" in page
    assert ">- x</label>" in page and "<li><code>z</code> → " in page
    # A <select>'s choices take no markup: the words alone.
    assert ") &gt; y</option>" in page and ") w</option>" in page


def _plain_question(data: dict[str, Any]) -> str:
    out = io.StringIO()
    question = registry.decode(data)
    display = tuple(range(registry.of(question).choices(question)))
    PlainUi(io.StringIO(), out, echo=True).question(1, 1, 0, question, display)
    return out.getvalue()


def test_the_plain_terminal_lists_options_as_written() -> None:
    shown = _plain_question(single(">= 100", "- 100", "1. first", "# all", ">"))
    assert shown.splitlines()[3:8] == [
        "  1. >= 100",
        "  2. - 100",
        "  3. 1. first",
        "  4. # all",
        "  5. >",
    ]


def test_the_plain_terminal_says_a_chosen_option_as_written() -> None:
    out = io.StringIO()
    ui = PlainUi(io.StringIO(), out, echo=True)
    ui.said("You answered:", ["1. >= 100"], inline=True)
    ui.said("The right answer:", ["2. - 100", "3. # all"], inline=True)
    assert out.getvalue() == (
        "You answered: 1. >= 100\nThe right answer:\n  2. - 100\n  3. # all\n"
    )


def test_the_rich_terminal_lists_options_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    out = io.StringIO()
    ui = RichUi(io.StringIO(), out, no_color=True)
    question = registry.decode(single(">= 100", "- 100", "1. first", "# all", ">"))
    ui.question(1, 1, 0, question, (0, 1, 2, 3, 4))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[3:8] == [" 1. >= 100", " 2. - 100", " 3. 1. first", " 4. # all", " 5. >"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("customer\\_id", "customer_id"),
        ("\\_\\_\\_\\_\\_", "_____"),
        ("Fill in: `a\\_b` \\*not emphasis\\*", "Fill in: a\\_b *not emphasis*"),
        ("a \\# and \\\\ and \\[x\\]", "a # and \\ and [x]"),
    ],
)
def test_the_terminal_honours_backslash_escapes_as_the_site_does(text: str, shown: str) -> None:
    from rich.console import Console

    assert markup.plain(text) == shown
    console = Console(file=io.StringIO(), width=80, no_color=True, emoji=False, highlight=False)
    with console.capture() as captured:
        console.print(markup.rich(text))
    assert captured.get().rstrip() == shown


def test_exports_keep_options_as_written() -> None:
    from lessonkit.export import gift, moodle
    from lessonkit.export.common import Source

    bank = Bank.model_validate(
        {"lesson": "l", "title": "T", "pass_mark": 0.7,
         "questions": [single(">= 100", "- 100", "1. first", "# all", ">"),
                       {"id": "o", "type": "order", **_COMMON, "items": ["`a_b` first", "> b"]}]}
    )  # fmt: skip
    source = Source("l", bank, None, 0, links=False)
    answers = [line for line in gift.convert(source).data.decode().splitlines()
               if line[:1] in {"=", "~"}]  # fmt: skip
    assert answers == ["=>\\= 100", "~- 100", "~1. first", "~\\# all", "~>"]
    xml = moodle.convert(source).data.decode()
    for shown in ("&amp;gt;= 100", "- 100", "1. first", "# all", "&amp;gt;"):  # HTML in XML
        assert f"<text>{shown}</text>" in xml
    assert "blockquote" not in xml and "&lt;li&gt;" not in xml
    # Items are inline Markdown in every HTML format, as on the page.
    assert "<text>&lt;code&gt;a_b&lt;/code&gt; first</text>" in xml
    assert "<text>&amp;gt; b</text>" in xml


FENCED = "```python\nfor i in range(3):\n    print(i)\n```"


def test_a_fenced_code_block_is_the_one_block_an_option_keeps() -> None:
    # Fences are never written by accident: which loop prints 0, 1, 2?
    assert inline.fenced(FENCED) and not inline.fenced("``` x")
    assert inline.block(FENCED) is None and inline.source(FENCED) == FENCED
    assert inline_html(FENCED) == "<pre><code>for i in range(3):\n    print(i)\n</code></pre>"
    assert markup.plain(FENCED, inline=True) == "    for i in range(3):\n        print(i)"
    assert inline.block("```") == "a code block" and inline_html("``` x") == "``` x"
