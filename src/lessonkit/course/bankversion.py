"""A bank's version: a short hash of which questions it has and what makes each answer right.

History keys each answer on its question's id and answer-key hash (``grading.key_hash``);
the bank's version is the hash of all those pairs, so it changes exactly when a question
is added or removed or a key or its points change, and rewording a prompt leaves it as
it was. A bank that shows a course's facts (``bank.citations``) counts each fact's value,
unit and date too: a changed price changes the numbers learners were graded on even when
the formula of the key stays the same. Class results split their statistics by it.
Computed from the compiled bank's ``keys`` and ``facts``, it needs neither pydantic nor
the grader.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def bank_version(keys: Mapping[str, str], facts: Mapping[str, str] | None = None) -> str:
    """The version of a bank whose questions have these answer-key hashes (id -> hash) and
    which shows these facts (id -> value, unit and date)."""
    # Sorted by id: reordering questions in the file changes nothing a learner is graded on.
    pairs: list[Any] = sorted(keys.items())
    if facts:  # without facts, the version stays what it was before banks could show them
        pairs.append(["facts", sorted(facts.items())])
    blob = json.dumps(pairs, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]
