"""How long each piece of content may be, and why: one place for models, checks and docs.

Measured in November 2026 on this course's bank and lesson and on a public course, the
Rust Book's 222 quiz questions (cognitive-engineering-lab/rust-book, `quizzes/*.toml`)
and its 121 chapters. Each limit leaves several times the longest text seen, so real
writing never meets it; it exists to catch a paste gone wrong (a 3 MB prompt), which
would otherwise reach the site and every learner's terminal.
"""

from __future__ import annotations

# Longest seen: this course 345 characters; the Rust Book 1,441 (a prompt with code).
PROMPT_CHARS = 4000
# Longest seen: this course 361; the Rust Book's answer context 1,233.
EXPLANATION_CHARS = 4000
# Longest seen: this course 68; the Rust Book 267 (options that hold code).
OPTION_CHARS = 1000
# Longest seen: this course 98 (feedback) and 84 (hint).
FEEDBACK_CHARS = 1000
HINT_CHARS = 1000
# Order items, match pairs, distractors, accepted answers and patterns: a line each.
# Longest seen: this course 61.
ITEM_CHARS = 500
# Lesson pages, in bytes of Markdown. Longest seen: this course 37.6 KB (5,276 words);
# the Rust Book's longest chapter 40 KB (5,971 words). A page of ~9,000 words (~80 KB)
# must pass; twice that is still one page a reader can finish.
PAGE_BYTES = 160_000

REASON = (
    "several times the longest text in this course and in the Rust Book's quizzes; "
    "it catches a paste gone wrong before it reaches the site and the terminal"
)


def chars(limit: int) -> str:
    """`4,000 characters`: a limit as messages and descriptions say it."""
    return f"{limit:,} characters"
