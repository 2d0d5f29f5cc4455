"""A bank's version: a short hash of which questions it has and what makes each answer right.

History keys each answer on its question's id and answer-key hash (``grading.key_hash``);
the bank's version is the hash of all those pairs, so it changes exactly when a question
is added or removed or a key or its points change, and rewording a prompt leaves it as
it was. Class results split their statistics by it. Computed from the compiled bank's
``keys``, it needs neither pydantic nor the grader.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping


def bank_version(keys: Mapping[str, str]) -> str:
    """The version of a bank whose questions have these answer-key hashes (id -> hash)."""
    # Sorted by id: reordering questions in the file changes nothing a learner is graded on.
    pairs = sorted(keys.items())
    blob = json.dumps(pairs, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]
