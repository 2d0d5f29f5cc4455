"""The compiled bank a quiz reads: from the cache it quizzes exactly as freshly compiled,
and a damaged cache file is compiled again, never a traceback or a different quiz."""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lessonkit.course import cachefile, catalog
from lessonkit.questiontypes import registry
from lessonkit.quiz import session
from lessonkit.quiz.runner import quiz_command

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's bench/
from bench import validate  # the benchmark's question mix, drawn questions too

QUESTIONS = 60
SEEDS = (1, 2, 77)
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@pytest.fixture
def bank_file(tmp_path: Path) -> Path:
    rng = random.Random(7)
    body = "".join(validate._question(i, rng) for i in range(QUESTIONS))
    text = "lesson: bench\ntitle: Bench\npass_mark: 0.7\nquestions:\n" + body
    root = tmp_path / "course"
    (root / "mkdocs.yml").parent.mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: Bench\ndocs_dir: content\n")
    return validate.write_course(root, text)


def shown(bank: session.BankData, seed: int) -> list[tuple[str, Any, Any, Any]]:
    """Everything a quiz with ``seed`` shows, question by question, in order."""
    attempt = session.start("bench", bank, seed, NOW)
    return [
        (q, attempt.question(q), attempt.plan.displays[q], attempt.plan.numbers.get(q))
        for q in attempt.plan.order
    ]


def test_a_cached_bank_quizzes_exactly_as_a_freshly_compiled_one(
    bank_file: Path, tmp_path: Path
) -> None:
    fresh = catalog.compile_bank(bank_file)
    catalog.find(str(bank_file), cache_dir=tmp_path / "cache")  # compiles into the cache
    cached = catalog.find(str(bank_file), cache_dir=tmp_path / "cache")
    assert dict(cached.keys) == fresh["keys"]
    assert cached.lesson == fresh["lesson"]
    for seed in SEEDS:
        assert shown(cached.bank, seed) == shown(fresh["bank"], seed)
    assert cached.bank["title"] == "Bench"
    assert list(cached.bank["questions"]) == registry.decode_all(fresh["bank"]["questions"])


Damage = Callable[[bytes], bytes]
DAMAGES: dict[str, Damage] = {
    "empty": lambda data: b"",
    "cut after its first line": lambda data: data[: (data.find(b"\n") + 1) or 100],
    "cut in half": lambda data: data[: len(data) // 2],
    "one byte short": lambda data: data[:-1],
    "a question garbled, same size": lambda data: (
        data[: len(data) * 2 // 3] + b"\x00{]" * 4 + data[len(data) * 2 // 3 + 12 :]
    ),
    "the first line garbled": lambda data: b"{]" + data[2:],
    "garbage appended": lambda data: data + b"garbage",
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_damaged_cache_file_is_compiled_again(
    bank_file: Path, tmp_path: Path, damage: str
) -> None:
    fresh = catalog.compile_bank(bank_file)
    cache = tmp_path / "cache"
    catalog.find(str(bank_file), cache_dir=cache)
    (entry,) = (cache / "banks").iterdir()
    entry.write_bytes(DAMAGES[damage](entry.read_bytes()))
    found = catalog.find(str(bank_file), cache_dir=cache)
    for seed in SEEDS:  # each question of the quiz, in quiz order
        assert shown(found.bank, seed) == shown(fresh["bank"], seed)
    entry.write_bytes(DAMAGES[damage](entry.read_bytes()))
    whole = catalog.find(str(bank_file), cache_dir=cache)  # the whole bank, at once
    assert list(whole.bank["questions"]) == registry.decode_all(fresh["bank"]["questions"])
    assert dict(whole.keys) == fresh["keys"]


def test_the_quiz_on_a_damaged_cache_shows_what_it_shows_on_a_sound_one(
    bank_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(bank_file.parents[1])

    def take(home: str) -> str:
        out = io.StringIO()
        code = quiz_command(
            "bench", seed=5, resume=False, data_dir=tmp_path / home, stdin=io.StringIO("1\n\n1\n\nq\n"),
            stdout=out, clock=lambda: NOW,
        )  # fmt: skip
        assert code == 0
        return out.getvalue()

    take("sound")  # compiles
    sound = take("sound")
    take("damaged")
    (entry,) = (tmp_path / "damaged" / "cache" / "banks").iterdir()
    entry.write_bytes(DAMAGES["a question garbled, same size"](entry.read_bytes()))
    assert "Question 2 of 60" in sound
    assert take("damaged") == sound


def fail_compiling(path: Path) -> dict[str, Any]:
    raise AssertionError(f"compiled {path} again")


def test_a_quiz_reads_only_the_questions_it_shows(
    bank_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question damaged in the cache costs nothing until it is shown: the quiz read
    neither it nor the whole bank to show the first questions."""
    cache = tmp_path / "cache"
    catalog.find(str(bank_file), cache_dir=cache)
    (entry,) = (cache / "banks").iterdir()
    data = entry.read_bytes()
    found = catalog.find(str(bank_file), cache_dir=cache)
    first_two = session.start("bench", found.bank, 5, NOW).plan.order[:2]
    last = next(q for q in reversed(found.bank.ids) if q not in first_two)
    at = data.rindex(b'{"id": "' + last.encode() + b'"')
    entry.write_bytes(data[:at] + b"\x00" + data[at + 1 :])
    monkeypatch.setattr(catalog, "compile_bank", fail_compiling)
    attempt = session.start("bench", catalog.find(str(bank_file), cache_dir=cache).bank, 5, NOW)
    assert [attempt.question(q).id for q in first_two] == list(first_two)
    with pytest.raises(AssertionError, match=r"compiled .* again"):
        attempt.question(last)  # only now is the damage found, and the bank compiled


def test_a_cache_replaced_during_a_quiz_is_not_read_for_the_rest_of_it(
    bank_file: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    fresh = catalog.compile_bank(bank_file)
    catalog.find(str(bank_file), cache_dir=cache)
    found = catalog.find(str(bank_file), cache_dir=cache)
    attempt = session.start("bench", found.bank, 5, NOW)
    attempt.question(attempt.plan.order[0])
    (entry,) = (cache / "banks").iterdir()
    entry.write_bytes(entry.read_bytes().replace(b"Question ", b"Q-estion "))  # same size
    expected = {q.id: q for q in registry.decode_all(fresh["bank"]["questions"])}
    assert all(attempt.written(q) == expected[q] for q in attempt.plan.order)


def test_questions_that_are_valid_json_but_not_questions_are_compiled_again(
    bank_file: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    fresh = catalog.compile_bank(bank_file)
    catalog.find(str(bank_file), cache_dir=cache)
    (entry,) = (cache / "banks").iterdir()
    head, _ = entry.read_bytes().split(b"\n", 1)
    listed = json.loads(head[:-1] + b"}")
    items = [7] * len(listed["ids"])  # spans rewritten to match: a sound file of numbers
    cachefile.write_listed(entry, {k: v for k, v in listed.items() if k != "spans"}, items)
    found = catalog.find(str(bank_file), cache_dir=cache)
    assert list(found.bank["questions"]) == registry.decode_all(fresh["bank"]["questions"])
