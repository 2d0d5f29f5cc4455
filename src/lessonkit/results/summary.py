"""Class results as text for a terminal and as JSON for scripts.

The text is plain, aligned and readable at 80 columns: per bank version a score
histogram, reliability, one row per question, option choices and common wrong answers,
and the flags last, where the terminal leaves the reader. Every number is said in
figures, never by colour alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from lessonkit.results.flags import MIN_ANSWERS
from lessonkit.results.stats import BankStats, Flag, QuestionStats, Scores, VersionStats

BAR = 30  # characters of the longest histogram bar
RESULTS_FORMAT = "lessonkit-results"
RESULTS_VERSION = 1
LEGEND = (
    "diff: mean share of the points; full: share with full marks; r.rest: correlation "
    "with the rest of the quiz (point-biserial); D27: top 27% minus bottom 27%; time: "
    "median seconds; hints: share of answers that asked for the hint"
)


def render_text(banks: Sequence[BankStats], *, files: int) -> str:
    """The whole report; ends with every flag, or a line saying there are none."""
    lines: list[str] = []
    if not banks:
        return f"No quiz attempts in {_count(files, 'file')}.\n"
    for bank in banks:
        lines += _bank(bank)
    flags = all_flags(banks)
    lines.append(f"Flags ({len(flags)}):" if flags else "Flags: none.")
    lines += [f"  {flag}" for flag in flags]
    return "\n".join(lines) + "\n"


def all_flags(banks: Sequence[BankStats]) -> list[Flag]:
    """Every flag of every bank, the bank as it is now before older versions."""
    found: list[Flag] = []
    for bank in banks:
        found += bank.flags
        for version in bank.versions:
            if version.current or len(bank.versions) == 1:
                found += version.flags
            else:
                found += [_older(flag, version.version) for flag in version.flags]
    return found


def _older(flag: Flag, version: str | None) -> Flag:
    return dataclasses.replace(flag, message=f"[in version {version}] {flag.message}")


def _bank(bank: BankStats) -> list[str]:
    title = f": {bank.title}" if bank.title else ""
    lines = [
        f"{bank.slug}{title} ({bank.path})",
        f"  {_count(bank.learners, 'learner')}, {_count(bank.attempts, 'attempt')}.",
        f"  Statistics come from each learner's first finished attempt ({bank.analysed}).",
    ]
    if len(bank.versions) > 1:
        lines.append(
            f"  The files hold {len(bank.versions)} versions of this bank: statistics are "
            "split by version."
        )
    if not bank.analysed:
        lines.append("  No finished attempt yet: statistics need learners who finished the quiz.")
    for version in bank.versions:
        lines += ["", *_version(version, found=bank.found)]
    return [*lines, ""]


def _version(version: VersionStats, *, found: bool) -> list[str]:
    state = " (the bank as it is now)" if version.current else ""
    if found and not version.current:
        state = " (an earlier version)"
    lines = [
        f"  Version {version.version or 'unrecorded'}{state}",
        f"    {_count(version.learners, 'learner')}, {_count(version.attempts, 'attempt')}, "
        f"{_day(version.first)} to {_day(version.last)}",
    ]
    if version.scores is not None:
        lines += _scores(version.scores)
    reliability = version.reliability
    value = "n/a" if reliability.value is None else f"{reliability.value:.2f}"
    lines.append(
        f"  Reliability: {reliability.method} {value} over {reliability.items} questions "
        f"and {_count(reliability.learners, 'learner')}"
    )
    if reliability.caveat:
        lines.append(f"    ({reliability.caveat})")
    if version.learners < MIN_ANSWERS:
        lines.append(f"  No flags: they need {MIN_ANSWERS} answers or more per question.")
    lines += ["", *table(version.questions), *_wrap(LEGEND, "  (", ")")]
    lines += _details(version.questions)
    return lines


def _scores(scores: Scores) -> list[str]:
    lines = [
        f"  Scores: mean {scores.mean:.0%}, median {scores.median:.0%}, sd {scores.sd:.0%}, "
        f"lowest {scores.lowest:.0%}, highest {scores.highest:.0%}"
    ]
    top = max(scores.histogram) or 1
    for n, count in enumerate(scores.histogram):
        bar = "█" * round(BAR * count / top)
        label = f"{n * 10}-{n * 10 + 10}%"
        lines.append(f"    {label:>7}  {bar:<{BAR}} {count}")
    return lines


def table(questions: Sequence[QuestionStats]) -> list[str]:
    """One row per question: id, answers, difficulty, discrimination, time and hints."""
    width = max([len("Question"), *(len(q.id) for q in questions)])
    head = f"  {'Question':<{width}} {'n':>5} {'diff':>5} {'full':>5} {'r.rest':>6} {'D27':>5}"
    rows = [head + f" {'time':>5} {'hints':>5}"]
    for q in questions:
        time = "-" if q.median_seconds is None else f"{q.median_seconds:.0f}s"
        hints = "-" if q.hints_used is None else f"{q.hints_used:.0%}"
        rows.append(
            f"  {q.id:<{width}} {q.answers:>5} {q.difficulty:>5.2f} {q.full_marks:>5.2f} "
            f"{_r(q.discrimination):>6} {_r(q.upper_lower):>5} {time:>5} {hints:>5}"
        )
    return rows


def _details(questions: Sequence[QuestionStats]) -> list[str]:
    """Option choices, then common wrong answers, each under its question's id and line."""
    lines: list[str] = []
    chosen = [q for q in questions if q.options]
    if chosen:
        lines += ["", "  Options chosen (* the key): all / top 27% / bottom 27%"]
    for q in chosen:
        lines.append(_named(q))
        for o in q.options:
            mark = "*" if o.key else " "
            shares = (_share(o.chosen, q.answers), _share(o.top, q.top), _share(o.bottom, q.bottom))
            lines += _wrap(o.text, f"    {mark}{o.number:>2} {' '.join(shares)}  ", "", hang=26)
    typed = [q for q in questions if q.wrong]
    if typed:
        lines += ["", "  Most common wrong answers, normalised as the grader compares them"]
    for q in typed:
        lines.append(_named(q))
        for wrong in q.wrong:
            note = "" if wrong.factor is None else f" (the key times {wrong.factor:g})"
            share = _share(wrong.count, q.answers)
            lines.append(f"    {wrong.count:>5} {share}  {wrong.text}{note}")
    return lines


def _named(question: QuestionStats) -> str:
    return f"  {question.id}" + (f" (line {question.line})" if question.line else "")


def _wrap(text: str, first: str, last: str, *, hang: int = 3, width: int = 80) -> list[str]:
    """``text`` after ``first``, wrapped at ``width`` with continuation lines indented."""
    import textwrap

    return textwrap.wrap(
        text + last, width=width, initial_indent=first, subsequent_indent=" " * hang
    )


def _share(part: int, whole: int) -> str:
    if not whole:
        return f"{'-':>5}"
    shown = f"{part / whole:.0%}"
    return f"{'<1%' if part and shown == '0%' else shown:>5}"  # never 0% for someone


def _r(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


def to_json(
    banks: Sequence[BankStats],
    *,
    files: int,
    refused: Sequence[str],
    skipped: Sequence[str] = (),
) -> dict[str, Any]:
    """Everything the text says, as JSON-able values (times as ISO 8601 text)."""
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "files": files,
        "refused": list(refused),
        "skipped": list(skipped),
        "banks": [_plain(dataclasses.asdict(bank)) for bank in banks],
        "flags": [{**dataclasses.asdict(f), "where": str(f)} for f in all_flags(banks)],
    }


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value
