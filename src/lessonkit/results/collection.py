"""A class's attempts files collected: read one at a time, tallied, then analysed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lessonkit.errors import UsageError
from lessonkit.results.analysis import analyse
from lessonkit.results.banks import BankInfo, find_bank, lookup
from lessonkit.results.intake import Refused, read, sources
from lessonkit.results.stats import BankStats
from lessonkit.results.tally import Tally


@dataclass(frozen=True)
class Collection:
    """What `lessonkit results` found: statistics per bank, and the files it refused."""

    files: int  # files looked at, refused ones included
    banks: tuple[BankStats, ...]
    refused: tuple[Refused, ...]


def collect(paths: Sequence[Path], *, bank: str | None = None) -> Collection:
    """Read every attempts file under ``paths`` and analyse the attempts at each bank.

    ``bank`` (a slug or a bank file) keeps only that bank's attempts and names the file
    flags point into. Raises UsageError for a path that does not exist or an unknown bank.
    """
    chosen = find_bank(bank) if bank is not None else None
    tally = Tally(chosen.slug if chosen else None)
    refused = []
    files = 0
    for source in sources(paths):
        files += 1
        try:
            found = read(source)
        except Refused as refusal:
            refused.append(refusal)
            continue
        tally.add(found)

    @cache
    def banks(slug: str) -> BankInfo | None:
        return chosen if chosen is not None and chosen.slug == slug else lookup(slug)

    if not files:
        named = ", ".join(str(p) for p in paths)
        raise UsageError(f"no attempts files (*.jsonl) in {named}; learners write them with "
                         "`lessonkit history --export FILE`")  # fmt: skip
    return Collection(files, analyse(tally, banks), tuple(refused))
