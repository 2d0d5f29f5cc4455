"""A class's attempts files collected: read one at a time, tallied, then analysed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lessonkit.errors import UsageError
from lessonkit.results.analysis import analyse
from lessonkit.results.banks import BankInfo, find_bank, lookup
from lessonkit.results.intake import Refused, read
from lessonkit.results.sources import Skipped, release, sources
from lessonkit.results.stats import BankStats
from lessonkit.results.tally import Tally


@dataclass(frozen=True)
class Collection:
    """What `lessonkit results` found: statistics per bank, and the files it refused."""

    files: int  # files looked at, refused ones included
    banks: tuple[BankStats, ...]
    refused: tuple[Refused, ...]
    skipped: tuple[Skipped, ...] = ()  # not read: not attempts files, or read already


def collect(paths: Sequence[Path], *, bank: str | None = None) -> Collection:
    """Read every attempts file under ``paths`` and analyse the attempts at each bank.

    ``bank`` (a slug or a bank file) keeps only that bank's attempts and names the file
    flags point into. Raises UsageError for a path that does not exist or an unknown bank.
    """
    chosen = find_bank(bank) if bank is not None else None
    tally = Tally(chosen.slug if chosen else None)
    refused = []
    skipped: list[Skipped] = []
    seen: dict[str, str] = {}  # a file's digest → the name it was first read under
    files = 0
    try:
        for source in sources(paths):
            if isinstance(source, Skipped):
                skipped.append(source)
                continue
            files += 1
            try:
                found = read(source)
            except Refused as refusal:
                refused.append(refusal)
                continue
            if found.digest in seen:
                # A learner's file given twice (or a browser's "(1)" copy of it): once.
                first = seen[found.digest]
                skipped.append(Skipped(source.name, f"the same file as {first}; counted once"))
                continue
            seen[found.digest] = source.name
            tally.add(found)
    finally:
        release()

    @cache
    def banks(slug: str) -> BankInfo | None:
        return chosen if chosen is not None and chosen.slug == slug else lookup(slug)

    if not files:
        named = ", ".join(str(p) for p in paths)
        passed = "".join(f"\n  skipped {each}" for each in skipped)
        raise UsageError(f"no attempts files (*.jsonl) in {named}; learners write them with "
                         f"`lessonkit history --export FILE`{passed}")  # fmt: skip
    return Collection(files, analyse(tally, banks), tuple(refused), tuple(skipped))
