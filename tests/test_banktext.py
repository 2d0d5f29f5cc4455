"""Bank text checked as learners see it: inline text that looks like a block, footnote
references and links, each at the bank's line and column (``authoring.banktext``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BANK, FULL_BANK, MakeCourse
from lessonkit.authoring.rulebook import check_course


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _bank(old: str, new: str) -> dict[str, str]:
    assert old in FULL_BANK
    return {"quizzes/lesson-one.yml": FULL_BANK.replace(old, new, 1)}


def test_inline_text_that_looks_like_a_block_is_a_warning(make_course: MakeCourse) -> None:
    bank = _bank("      - text: a\n", "      - text: '>= 100'\n")
    text = bank["quizzes/lesson-one.yml"]
    bank["quizzes/lesson-one.yml"] = text.replace("[a, b, c]", "['- 100', '1. first', c]")
    checked = check_course(make_course(bank))
    assert checked.problems == []
    assert [str(p) for p in checked.warnings] == [
        "quizzes/lesson-one.yml:12:15: `>= 100` would read as a quote in Markdown; an option, "
        "an item or a match side is one line of inline text, so learners see `>= 100` (nothing "
        "to change if that is what learners should see; for a real quote, put it in the "
        "prompt (`prompt: |` keeps its lines) and refer to it here)",
        "quizzes/lesson-one.yml:21:13: `- 100` would read as a bulleted list in Markdown; an "
        "option, an item or a match side is one line of inline text, so learners see `- 100` "
        "(nothing to change if that is what learners should see; for a real bulleted list, "
        "put it in the prompt (`prompt: |` keeps its lines) and refer to it here)",
        "quizzes/lesson-one.yml:21:22: `1. first` would read as a numbered list in Markdown; "
        "an option, an item or a match side is one line of inline text, so learners see "
        "`1. first` (nothing to change if that is what learners should see; for a real "
        "numbered list, put it in the prompt (`prompt: |` keeps its lines) and refer to it "
        "here)",
    ]


def test_a_course_may_switch_the_inline_text_warning_off(make_course: MakeCourse) -> None:
    files = _bank("      - text: a\n", "      - text: '# all'\n")
    files["lessonkit.yml"] = "rules:\n  inline-text: {level: off}\n"
    assert check_course(make_course(files)).warnings == []


def test_a_footnote_in_bank_text_is_refused(make_course: MakeCourse) -> None:
    files = _bank("    prompt: Pick b.\n", "    prompt: Pick b, as the manual says.[^pg]\n")
    files["quizzes/lesson-one.yml"] = files["quizzes/lesson-one.yml"].replace(
        "    explanation: Alphabetical.\n",
        "    explanation: |-\n      Alphabetical.\n\n      `[^x]` is code; this is not.[^abc]\n",
    )
    assert [str(p) for p in check_course(make_course(files)).problems] == [
        "quizzes/lesson-one.yml:7:40: footnote `[^pg]` in a question: bank text has no place "
        "for footnotes, so it shows as literal text (name the source in the text, e.g. "
        "`(PostgreSQL documentation, 2026)`, or link it: `[PostgreSQL "
        "documentation](https://www.postgresql.org/docs/)`; a regular expression such as "
        "`[^abc]` goes in backticks)",
        "quizzes/lesson-one.yml:23:35: footnote `[^abc]` in a question: bank text has no "
        "place for footnotes, so it shows as literal text (name the source in the text, e.g. "
        "`(PostgreSQL documentation, 2026)`, or link it: `[PostgreSQL "
        "documentation](https://www.postgresql.org/docs/)`; a regular expression such as "
        "`[^abc]` goes in backticks)",
    ]


def test_links_in_bank_text_are_checked(make_course: MakeCourse) -> None:
    files = _bank(
        "    explanation: Because b.\n",
        "    explanation: |\n      See [the guide](guide.md),\n"
        "      [the docs](http://docs.python.org/3/) and [here](#1-first-idea).\n"
        "    hint: 'Re-read [this](#no-such-part) or [that](https://localhost/x).'\n",
    )
    assert [str(p) for p in check_course(make_course(files)).problems] == [
        "quizzes/lesson-one.yml:11:23: link `guide.md` is relative, and bank text has no page "
        "of its own to be relative to (link to the full `https://` address, or to an "
        "`#anchor` of the lesson; the quiz shows the address in the terminal too)",
        "quizzes/lesson-one.yml:12:18: link `http://docs.python.org/3/` does not use https "
        "(use the page's `https://` address; readers should not be sent over plain http)",
        "quizzes/lesson-one.yml:13:27: anchor `#no-such-part` is not a heading of the lesson "
        "(use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` "
        "becomes `#2-where-tpus-are-strongest`)",
        "quizzes/lesson-one.yml:13:52: link `https://localhost/x` points to `localhost`, "
        "which is a placeholder or local address (link to the real page you used)",
    ]


def test_the_bank_of_the_tests_has_no_findings(make_course: MakeCourse) -> None:
    assert BANK in FULL_BANK
    checked = check_course(make_course({"quizzes/lesson-one.yml": FULL_BANK}))
    assert checked.problems == [] and checked.warnings == []
