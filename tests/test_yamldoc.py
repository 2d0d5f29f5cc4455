"""The positioned YAML reader: values, positions, limits and hostile input."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from lessonkit.bank import yamldoc
from lessonkit.bank.loader import load_bank
from lessonkit.course.lessons import split_page
from lessonkit.errors import ContentError

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "yaml-test-suite"


def problems_of(text: str, **limits: int) -> list[str]:
    with pytest.raises(ContentError) as caught:
        yamldoc.parse(text, "t.yml", limits=yamldoc.Limits(**limits))
    return [str(p) for p in caught.value.problems]


def test_values_follow_yaml_1_2_core() -> None:
    doc = yamldoc.parse(
        "a: [no, yes, on, off, true, False, ~, null, '', 1, -2, 0x1f, 0o17, 1.5, 1e3, .inf, 2026-11-22]",
        "t.yml",
    )
    assert doc.data["a"] == [
        "no", "yes", "on", "off", True, False, None, None, "", 1, -2, 31, 15, 1.5, 1000.0,
        float("inf"), "2026-11-22",
    ]  # fmt: skip


def test_quoted_and_block_scalars_stay_text() -> None:
    doc = yamldoc.parse("a: '1'\nb: \"true\"\nc: |\n  no\nd: !!str 5\ne: !!float 2\n", "t.yml")
    assert doc.data == {"a": "1", "b": "true", "c": "no\n", "d": "5", "e": 2.0}


def test_positions_point_at_values_and_keys() -> None:
    doc = yamldoc.parse("top:\n  - name: x\n    items: [1, 2]\n", "t.yml")
    assert doc.locate(("top", 0, "items", 1)) == (3, 16)
    assert doc.locate(("top", 0, "items"), key=True) == (3, 5)
    # A part that is not a key (pydantic's union tag) is skipped; a missing one stops at its parent.
    assert doc.locate(("top", 0, "single", "name")) == (2, 11)
    assert doc.locate(("top", 0, "absent")) == (2, 5)


def test_front_matter_lines_are_shifted() -> None:
    doc = yamldoc.parse("a: 1\nb: x\n", "page.md", first_line=2)
    assert doc.locate(("b",)) == (3, 4)


def test_duplicate_keys_are_reported_with_both_lines() -> None:
    doc = yamldoc.parse("a: 1\nb: 2\na: 3\n", "t.yml")
    assert doc.data == {"a": 1, "b": 2}
    assert [str(p) for p in doc.problems] == [
        "t.yml:3:1: duplicate key `a` (first given at line 1) (remove one of them; YAML keeps only one)"
    ]


def test_no_tag_constructs_an_object(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\nb: !custom x\n"
    doc = yamldoc.parse(text, "t.yml")
    assert not marker.exists()
    assert doc.data == {"a": [f"touch {marker}"], "b": "x"}
    assert [p.message for p in doc.problems] == [
        "the tag `tag:yaml.org,2002:python/object/apply:os.system` is not allowed",
        "the tag `!custom` is not allowed",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "t.yml: the file is empty (write the fields the format needs)"),
        ("# only a comment\n", "t.yml: the file is empty (write the fields the format needs)"),
        ("a: 1\n---\nb: 2\n", "t.yml:2:1: a second YAML document starts here (keep one document per file)"),
        ("a:\n\t- b\n", "t.yml:2:1: a tab is used for indentation (YAML indents with spaces only)"),
        ("a: b: c\n", "t.yml:1:4: invalid YAML: `: ` inside text starts a new key; put the "
         "text in quotes (write: a: 'b: c')"),
        ("a: 'open\n", "t.yml:2:1: invalid YAML: found unexpected end of stream (a quote or bracket is not closed)"),
        ("a: *nowhere\n", "t.yml:1:4: invalid YAML: text starting with `*` is read as an alias; "
         "put the text in quotes (write: a: '*nowhere')"),
        ("a: &x [1]\nb: *y\n", "t.yml:2:4: invalid YAML: text starting with `*` is read as an "
         "alias; put the text in quotes (write: b: '*y')"),
        ("a: \x07\n", "t.yml:1:4: character U+0007 is not allowed in YAML "
         "(remove it or write it as an escape in double quotes)"),
    ],
)  # fmt: skip
def test_syntax_problems_have_positions_and_hints(text: str, expected: str) -> None:
    assert problems_of(text) == [expected]


DEEP_BLOCK = "".join("  " * i + "k:\n" for i in range(1_100))


@pytest.mark.parametrize(
    ("text", "where"),
    [("[" * 100_000, "1:41"), ("{a: " * 5_000, "1:161"), (DEEP_BLOCK, "41:81")],
    ids=["flow-sequences", "flow-mappings", "block-mappings"],
)
@pytest.mark.parametrize("parser", ["libyaml", "pure-python"])
def test_deep_nesting_is_refused_not_crashed(
    text: str, where: str, parser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Old libyaml segfaults near 100,000 levels; libyaml 0.2.6 (PyYAML 6.0.4) stops at 1,000
    # with its own words. Whichever parser reads the file, the author sees our limit.
    import yaml

    if parser == "pure-python":
        monkeypatch.setattr(yamldoc, "_Parser", yaml.SafeLoader)
    assert problems_of(text) == [
        f"t.yml:{where}: nesting is deeper than 40 levels (flatten the structure; banks need "
        "only a few levels)"
    ]


def test_a_course_may_allow_deeper_nesting_than_libyaml() -> None:
    assert problems_of("[" * 1_500, max_depth=1_200) == [
        "t.yml:1:1201: nesting is deeper than 1200 levels (flatten the structure; banks need "
        "only a few levels)"
    ]


def test_alias_bomb_is_refused() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    found = problems_of("\n".join(lines) + "\n")
    assert len(found) == 1
    assert "aliases expand to more than 100,000 values" in found[0]


def test_modest_aliases_are_allowed() -> None:
    doc = yamldoc.parse("tags: &t [a, b]\nq: {tags: *t}\n", "t.yml")
    assert doc.data["q"]["tags"] == ["a", "b"]


def test_size_limit_is_checked_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yml"
    path.write_text("a: " + "x" * 5000 + "\n")
    with pytest.raises(ContentError) as caught:
        yamldoc.load(path, limits=yamldoc.Limits(max_bytes=1000))
    assert [str(p) for p in caught.value.problems] == [
        f"{path}: is 5,004 bytes, over the limit of 1,000 bytes (a lesson or bank is far smaller; "
        "is this a paste gone wrong or a binary file?)"
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            b"a: 1\nb: \x00\n",
            "2:4: contains a NUL byte (is this a binary file? save it as UTF-8 text)",
        ),
        (
            b"a: 1\nb: caf\xe9\n",
            "2:7: is not valid UTF-8 (byte 0xe9) (save the file with UTF-8 encoding)",
        ),
    ],
)
def test_binary_and_bad_encodings(tmp_path: Path, raw: bytes, expected: str) -> None:
    path = tmp_path / "b.yml"
    path.write_bytes(raw)
    with pytest.raises(ContentError) as caught:
        yamldoc.load(path)
    assert str(caught.value.problems[0]).endswith(expected)


def test_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.yml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert yamldoc.load(path).data == {"a": 1}


def test_directories_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="is a directory, not a file"):
        yamldoc.load(tmp_path)
    with pytest.raises(ContentError, match="cannot be read: no such file or directory"):
        yamldoc.load(tmp_path / "absent.yml")


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(CORPUS.glob("*.yaml"))


def test_corpus_is_present() -> None:
    if not CORPUS.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the YAML test suite corpus is missing at {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(corpus_files()) >= 400


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_corpus_file_gives_clean_problems_or_a_value(path: Path) -> None:
    with deadline(10):
        try:
            load_bank(path)
        except ContentError as error:
            assert error.problems
            for problem in error.problems:
                assert problem.path.endswith(path.name)
                assert problem.line >= 0 and problem.column >= 0
                assert problem.message


def test_pure_python_fallback_gives_the_same_values_and_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import yaml

    text = (Path(__file__).parent / "golden" / "broken-bank.yml").read_text()
    fast = yamldoc.parse(text, "b.yml")
    monkeypatch.setattr(yamldoc, "_Parser", yaml.SafeLoader)
    slow = yamldoc.parse(text, "b.yml")
    assert slow.data == fast.data
    assert slow.problems == fast.problems
    for loc in [("questions", 0, "options", 1, "correct"), ("questions", 6, "pairs"), ("shuffle",)]:
        assert slow.locate(loc) == fast.locate(loc)
    assert problems_of("[" * 1000) == [
        "t.yml:1:41: nesting is deeper than 40 levels (flatten the structure; banks need only a few levels)"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("q:\n  - prompt: *Smallest first\n    x: 1\n",
         "t.yml:2:13: invalid YAML: text starting with `*` is read as an alias; put the text in "
         "quotes (write: - prompt: '*Smallest first')"),
        ("q:\n  - prompt: *Smallest* first: the rest\n",
         "t.yml:2:13: invalid YAML: text starting with `*` is read as an alias; put the text in "
         "quotes (write: - prompt: '*Smallest* first: the rest')"),
        ("items:\n  - *Star\n",
         "t.yml:2:5: invalid YAML: text starting with `*` is read as an alias; put the text in "
         "quotes (write: - '*Star')"),
        ("prompt: %50 of it\n",
         "t.yml:1:9: invalid YAML: text starting with `%` is read as a directive; put the text "
         "in quotes (write: prompt: '%50 of it')"),
        ("prompt: @user said\n",
         "t.yml:1:9: invalid YAML: text starting with `@` is read as a character YAML reserves; "
         "put the text in quotes (write: prompt: '@user said')"),
        ("prompt: `code` first\n",
         "t.yml:1:9: invalid YAML: text starting with `` ` `` is read as a character YAML "
         "reserves; put the text in quotes (write: prompt: '`code` first')"),
        ("prompt: | not a block\n  x: 1\n",
         "t.yml:1:9: invalid YAML: text starting with `|` is read as a block of text; put the "
         "text in quotes (write: prompt: '| not a block')"),
        ("prompt: > a quote\nx: 1\n",
         "t.yml:1:9: invalid YAML: text starting with `>` is read as a block of text; put the "
         "text in quotes (write: prompt: '> a quote')"),
        ("prompt: Note: it's so\n",
         "t.yml:1:9: invalid YAML: `: ` inside text starts a new key; put the text in quotes "
         "(write: prompt: \"Note: it's so\")"),
        ("prompt: !important point\n",
         "t.yml:1:9: the tag `!important` is not allowed (if it is text, put it in quotes: "
         "prompt: '!important point'; otherwise remove the tag: banks hold plain text, "
         "numbers, lists and mappings)"),
    ],
)  # fmt: skip
def test_text_that_needs_quotes_says_so(text: str, expected: str) -> None:
    try:
        problems = yamldoc.parse(text, "t.yml").problems
    except ContentError as error:
        problems = list(error.problems)
    assert [str(p) for p in problems] == [expected]


def test_missing_colon_is_reported_on_its_own_line() -> None:
    text = "lesson: a\ntitle: b\nquestions:\n  - id: x\n    prompt p\n    type: single\n"
    with pytest.raises(ContentError) as caught:
        yamldoc.parse(text, "t.yml")
    assert [str(p) for p in caught.value.problems] == [
        "t.yml:5:5: invalid YAML: could not find expected ':' (this line is not `key: value`: "
        "add the colon after the key, or check the indentation)"
    ]


def test_quote_hint_in_front_matter_keeps_file_lines(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("---\ntitle: x\nsummary: *Bold* claim\n---\nbody\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        split_page(page)
    [problem] = caught.value.problems
    assert (problem.line, problem.column, problem.hint) == (3, 10, "write: summary: '*Bold* claim'")


def test_text_starting_with_an_ampersand_is_not_cut_silently() -> None:
    document = yamldoc.parse("prompt: &nbsp and more\n", "t.yml")
    assert [str(p) for p in document.problems] == [
        "t.yml:1:9: invalid YAML: text starting with `&` is read as an anchor; put the text "
        "in quotes (write: prompt: '&nbsp and more')"
    ]


def test_anchors_that_are_used_are_fine() -> None:
    assert yamldoc.parse("a: &x hello\nb: *x\nc: &y [1]\n", "t.yml").problems == []


def test_positions_problems_and_text_through_every_kind_of_event() -> None:
    # Anchors, aliases, tags, odd keys and duplicates in one document, as front matter
    # (lines shifted by 2): the builder's rare paths keep positions like its common one.
    text = (
        "title: >-\n  Folded\n  text\nquestions:\n  - id: q-1\n"
        "    prompt: Plain prompt # a comment\n    options:\n"
        "      - {text: One, correct: true}\n      - text: &two Two\n"
        "    tags: &tags [a, b]\n  - id: q-2\n    tags: *tags\n    text: *two\n"
        '    points: !!int "3"\n    odd: !custom {x: 1}\n    1: number key\n'
        "    true: bool key\n    ~: null key\n    [a]: list key\n    id: again\n"
    )
    doc = yamldoc.parse(text, "t.yml", first_line=3, watch=frozenset({"prompt", "text"}))
    second = doc.data["questions"][1]
    assert second == {
        "id": "q-2", "tags": ["a", "b"], "text": "Two", "points": 3, "odd": {"x": 1},
        "1": "number key", "true": "bool key", "null": "null key", "?": "list key",
    }  # fmt: skip
    assert [(p.line, p.column, p.message) for p in doc.problems] == [
        (17, 10, "the tag `!custom` is not allowed"),
        (21, 5, "a key must be plain text"),
        (22, 5, "duplicate key `id` (first given at line 11)"),
    ]
    assert doc.locate(("questions", 0, "options", 0, "correct")) == (10, 30)
    assert doc.locate(("questions", 0, "options", 0, "correct"), key=True) == (10, 21)
    assert doc.locate(("questions", 1, "tags", 1)) == (14, 11)  # the alias, not the anchor
    assert doc.locate(("questions", 1, "?")) == (21, 10)
    assert doc.locate(("questions", 1, "odd", "x"), key=True) == (17, 19)
    assert [tuple(t) for t in doc.text_scalars] == [
        (">", "Folded text", (0, 7), (3, 0), "title", False),
        ("", "Plain prompt", (5, 12), (5, 24), "prompt", False),
        ("", "One", (7, 15), (7, 18), "text", False),
        ("", "Two", (8, 14), (8, 22), "text", False),
    ]
