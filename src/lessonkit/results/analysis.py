"""A class's first finished attempts turned into statistics per question and per bank version.

Everything is computed separately for each version of a bank (``course.bankversion``):
pooling answers to two different keys would describe neither. Numbers are shares of a
question's points (0 to 1) unless named otherwise.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, compress, repeat
from operator import itemgetter, truediv
from typing import Any, NamedTuple

from lessonkit.questiontypes import registry
from lessonkit.results import measures
from lessonkit.results.banks import BankInfo, QuestionInfo
from lessonkit.results.flags import changed_flag, question_flags
from lessonkit.results.stats import (
    BankStats,
    Flag,
    OptionStats,
    QuestionStats,
    Reliability,
    Scores,
    VersionStats,
    WrongAnswer,
)
from lessonkit.results.tally import BankTally, Sitting, Tally

RELIABLE_LEARNERS = 30  # below this, reliability is printed with a caveat
WRONG_SHOWN = 5  # most common wrong text or numeric answers kept per question
FULL = 1e-9  # slack for "full marks" with partial credit summed in floats


Lookup = Callable[[str], BankInfo | None]


def analyse(tally: Tally, lookup: Lookup) -> tuple[BankStats, ...]:
    """Statistics for every bank in the tally, by slug."""
    return tuple(_bank(tally.banks[slug], lookup(slug)) for slug in sorted(tally.banks))


def _bank(bank: BankTally, info: BankInfo | None) -> BankStats:
    path = info.path if info else f"quizzes/{bank.slug}.yml (not found here)"
    groups: dict[str | None, list[Sitting]] = {}
    for sitting in bank.sittings.values():
        groups.setdefault(sitting.version, []).append(sitting)
    current = info.version if info else None
    versions = [
        _version(version, sittings, bank, info, path, current)
        for version, sittings in groups.items()
    ]
    # The bank as it is now first, then older versions from the most recently used.
    versions.sort(key=lambda v: (not v.current, -v.last.timestamp(), v.version or ""))
    return BankStats(
        bank.slug,
        info.title if info else None,
        path,
        info is not None,
        len(bank.learners),
        len(bank.attempts),
        len(bank.sittings),
        tuple(versions),
        tuple(_changes(versions, info, path)),
    )


def _version(
    version: str | None,
    sittings: list[Sitting],
    bank: BankTally,
    info: BankInfo | None,
    path: str,
    current: str | None,
) -> VersionStats:
    sittings = sorted(sittings, key=lambda s: s.learner)
    present = set().union(*(s.answers.questions for s in sittings))
    known = [q for q in info.questions if q in present] if info else []
    order = known + sorted(present - set(known))
    totals = [math.fsum(s.answers.scores) for s in sittings]
    points = [math.fsum(s.answers.max_scores) for s in sittings]
    shares = [t / p if p else 0.0 for t, p in zip(totals, points, strict=True)]
    rank = measures.ranked(shares, [s.learner for s in sittings])
    size = measures.group_size(len(sittings))
    groups = (set(rank[:size]), set(rank[len(rank) - size :]) if size else set())
    columns = _columns(sittings, order)
    questions = tuple(
        _question(q, columns[q], totals, groups, info.questions.get(q) if info else None)
        for q in order
    )
    seen = bank.versions[version]
    return VersionStats(
        version=version,
        current=version is not None and version == current,
        learners=len(sittings),
        attempts=seen.attempts,
        first=seen.first,
        last=seen.last,
        scores=_scores(shares),
        reliability=_reliability(order, columns, len(sittings)),
        questions=questions,
        flags=tuple(f for q in questions for f in question_flags(q, path)),
    )


class Column(NamedTuple):
    """One question's answers, learner by learner: the i-th of each field is one answer."""

    at: tuple[int, ...]  # the learner's position among the sittings
    scores: tuple[float, ...]
    max_scores: tuple[float, ...]
    responses: tuple[Any, ...]
    seconds: tuple[float, ...]  # NaN: not recorded
    hints: tuple[int, ...]  # -1: not recorded
    key_hashes: tuple[str, ...]
    drawn: tuple[int, ...]  # 1: a parameterised question's own numbers


def _columns(sittings: Sequence[Sitting], order: Sequence[str]) -> dict[str, Column]:
    """Each question's answers in learner order. Every sitting's columns are laid end to
    end, then each question's are picked out in C: one step in Python per answer."""
    at, scores, points, seconds, hints = array("i"), array("d"), array("d"), array("d"), array("h")
    questions: list[str] = []
    responses: list[Any] = []
    keys: list[str] = []
    drawn: list[int] = []
    for i, sitting in enumerate(sittings):
        a = sitting.answers
        at.extend(repeat(i, len(a.questions)))
        questions += a.questions
        responses += a.responses
        keys += a.key_hashes
        scores += a.scores
        points += a.max_scores
        seconds += a.seconds
        hints += a.hints
        drawn += a.drawn
    where: dict[str, list[int]] = {q: [] for q in order}
    for k, qid in enumerate(questions):
        where[qid].append(k)
    fields = (at, scores, points, responses, seconds, hints, keys, drawn)
    return {q: Column(*(_picked_out(found, f) for f in fields)) for q, found in where.items()}


def _picked_out(positions: list[int], values: Sequence[Any]) -> tuple[Any, ...]:
    picked = itemgetter(*positions)(values)
    return picked if len(positions) > 1 else (picked,)


def _question(
    qid: str,
    column: Column,
    totals: Sequence[float],
    groups: tuple[set[int], set[int]],
    info: QuestionInfo | None,
) -> QuestionStats:
    """One question from its column: each answer with its learner's position."""
    upper_set, lower_set = groups
    at, scores, mosts, responses = column.at, column.scores, column.max_scores, column.responses
    shares = list(map(truediv, scores, mosts))
    upper = [k for k, i in enumerate(at) if i in upper_set]
    lower = [k for k, i in enumerate(at) if i in lower_set]  # the groups never overlap
    seconds = [spent for spent in column.seconds if not math.isnan(spent)]
    recorded = [hints for hints in column.hints if hints >= 0]
    full = [score >= most - FULL for score, most in zip(scores, mosts, strict=True)]
    # Wrong answers to pool: not those to parameterised variants, each with its own key.
    wrong = [r for r, f, d in zip(responses, full, column.drawn, strict=True) if not f and not d]
    keys = set(column.key_hashes)
    key_hash = min(keys) if len(keys) == 1 else Counter(column.key_hashes).most_common(1)[0][0]
    same = info is not None and keys == {info.key_hash}
    rest = [totals[i] - s for i, s in zip(at, scores, strict=True)]
    return QuestionStats(
        id=qid,
        type=info.question.type if info else None,
        line=info.line if info else None,
        key_hash=key_hash,
        answers=len(at),
        difficulty=measures.mean(shares),
        full_marks=sum(full) / len(at),
        discrimination=measures.correlation(scores, rest),
        upper_lower=measures.upper_lower(shares, upper, lower),
        top=len(upper),
        bottom=len(lower),
        options=_options(info, responses, upper, lower) if info and same else (),
        wrong=_wrong(info, wrong) if info and same else (),
        median_seconds=measures.median(seconds),
        # None: no hint to ask for, or use not recorded (answers from before it was).
        hints_used=None
        if (info is not None and info.question.hint is None) or not recorded
        else sum(hints > 0 for hints in recorded) / len(recorded),
    )


def _options(
    info: QuestionInfo, responses: Sequence[Any], upper: Sequence[int], lower: Sequence[int]
) -> tuple[OptionStats, ...]:
    kind = registry.of(info.question)
    picked = [kind.picked(info.question, response) for response in responses]
    chosen = Counter(chain.from_iterable(picked))
    top = Counter(chain.from_iterable(picked[k] for k in upper))
    bottom = Counter(chain.from_iterable(picked[k] for k in lower))
    return tuple(
        OptionStats(n + 1, text, n in info.keys, chosen[n], top[n], bottom[n])
        for n, text in enumerate(info.options)
    )


def _wrong(info: QuestionInfo, responses: Sequence[Any]) -> tuple[WrongAnswer, ...]:
    """The most common of these wrong responses, in the form grading compares them (the
    type's ``wrong_form``); a number off the key by a power of ten says so."""
    question, kind = info.question, registry.of(info.question)
    forms = [kind.wrong_form(question, response) for response in responses]
    if any(form is None for form in forms):
        return ()  # a type whose wrong answers are counted as choices
    counted = Counter(str(form) for form in forms)
    ranked = sorted(counted.items(), key=lambda item: (-item[1], item[0]))[:WRONG_SHOWN]
    factors: dict[str, float | None] = {}
    key = kind.exact_key(question)
    if key is not None:
        shown = {text for text, _ in ranked}
        for response, form in zip(responses, forms, strict=True):
            text = form if _number(response) else ""
            if text in shown and text not in factors:
                factors[text] = slip(float(response), key)
    return tuple(WrongAnswer(text, count, factors.get(text)) for text, count in ranked)


def _number(response: Any) -> bool:
    return isinstance(response, int | float) and not isinstance(response, bool)


def slip(value: float, key: float) -> float | None:
    """The factor a wrong number is off the key by, when it is a power of ten (a unit or
    prefix slip: 1000 for MB typed as kB) or -1 (the sign); None otherwise."""
    if key == 0 or value == 0:
        return None
    ratio = value / key
    if math.isclose(ratio, -1, rel_tol=1e-6):
        return -1.0
    power = math.log10(abs(ratio))
    if ratio > 0 and round(power) != 0 and abs(power - round(power)) < 1e-6:
        return float(10 ** round(power))
    return None


def _scores(shares: Sequence[float]) -> Scores | None:
    if not shares:
        return None
    return Scores(
        mean=measures.mean(shares),
        median=measures.median(shares) or 0.0,
        sd=math.sqrt(measures.variance(shares)),
        lowest=min(shares),
        highest=max(shares),
        histogram=tuple(measures.histogram(shares)),
    )


def _reliability(order: Sequence[str], columns: dict[str, Column], count: int) -> Reliability:
    """Over the learners who answered every question: those whose position is in every
    column (a learner answers each question at most once)."""
    at = [set(columns[q].at) for q in order]
    complete = set.intersection(*at) if at else set(range(count))
    if complete and len(complete) < count:
        kept = [[i in complete for i in columns[q].at] for q in order]
        scores = [
            list(compress(columns[q].scores, keep)) for q, keep in zip(order, kept, strict=True)
        ]
        mosts = [
            list(compress(columns[q].max_scores, keep)) for q, keep in zip(order, kept, strict=True)
        ]
    else:
        scores = [list(columns[q].scores) if complete else [] for q in order]
        mosts = [list(columns[q].max_scores) if complete else [] for q in order]
    binary = all(
        score <= FULL or score >= most - FULL
        for column, points in zip(scores, mosts, strict=True)
        for score, most in zip(column, points, strict=True)
    )
    caveat = ""
    if len(complete) < RELIABLE_LEARNERS:
        caveat = (
            f"from {len(complete)} learner{'' if len(complete) == 1 else 's'}: with fewer than "
            f"{RELIABLE_LEARNERS} this is a rough guide, not a measure"
        )
    return Reliability(
        "KR-20" if binary else "Cronbach's alpha",
        measures.alpha(scores) if complete else None,
        len(order),
        len(complete),
        caveat,
    )


def _changes(versions: Sequence[VersionStats], info: BankInfo | None, path: str) -> list[Flag]:
    """A flag for each question that differs between the versions in the files: another
    answer key, or present in some versions only."""
    if len(versions) < 2:
        return []
    named = [v.version or "unrecorded" for v in versions]
    keys: dict[str, dict[str, str]] = {}  # question -> version -> key hash
    for name, version in zip(named, versions, strict=True):
        for question in version.questions:
            keys.setdefault(question.id, {})[name] = question.key_hash
    flags = []
    for qid, by_version in keys.items():
        missing = [name for name in named if name not in by_version]
        if missing:
            detail = f"it is not in bank version{'' if len(missing) == 1 else 's'} " + ", ".join(
                missing
            )
        elif len(set(by_version.values())) > 1:
            detail = "its answer key differs between bank versions " + ", ".join(named)
        else:
            continue
        where = info.questions.get(qid) if info else None
        flags.append(changed_flag(qid, path, where.line if where else 0, detail))
    return sorted(flags, key=lambda f: (f.line, f.question))
