"""Bank Markdown as plain text: what TERM=dumb, pipes and screen readers get."""

from __future__ import annotations

import pytest

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
