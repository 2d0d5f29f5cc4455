"""The results page: one static HTML file, offline, readable on a phone and in dark mode.

Everything is inline (style and SVG; no script, font or image to fetch), so the file
can be mailed, attached to an LMS or opened from disk and makes no request at all.
Every figure in a chart is also written in a table or in words beside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from lessonkit import __version__
from lessonkit.results import charts, flags
from lessonkit.results.collection import Collection
from lessonkit.results.stats import BankStats, Flag, QuestionStats, VersionStats

NONE = "\N{EN DASH}"  # a figure that cannot be given

STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --muted: #57606a; --bg: #fff;
  --panel: #f6f8fa; --line: #d0d7de; --bar: #0969da; --bar1: #1a7f37; --bar2: #9a6700;
  --zone: #fff1e5; --flag: #cf222e; --point: #57606a; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1;
  --bg: #0d1117; --panel: #161b22; --line: #3d444d; --bar: #4493f8; --bar1: #3fb950;
  --bar2: #d29922; --zone: #241a0d; --flag: #ff7b72; --point: #9198a1; } }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1, h2, h3, h4 { line-height: 1.25; } h2 { border-bottom: 1px solid var(--line); }
p, li { max-width: 48rem; overflow-wrap: anywhere; }
.lk-muted { color: var(--muted); }
code { font-size: 0.9em; overflow-wrap: anywhere; }
.lk-charts { display: grid; gap: 1.5rem;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); }
figure { margin: 0; } figcaption { color: var(--muted); font-size: 0.9rem; }
.lk-chart { display: block; width: 100%; height: auto; max-width: 30rem; }
.lk-bar { fill: var(--bar); } .lk-bar-1 { fill: var(--bar1); } .lk-bar-2 { fill: var(--bar2); }
.lk-zone { fill: var(--zone); } .lk-grid { stroke: var(--line); stroke-width: 1; }
.lk-axis { fill: var(--muted); } .lk-label { fill: var(--fg); }
.lk-leader { stroke: var(--muted); stroke-width: 0.75; }
.lk-flagged { fill: var(--flag); } .lk-point { fill: var(--point); }
.lk-scroll { overflow-x: auto; max-width: 100%; }
.lk-scroll:focus-visible { outline: 2px solid var(--bar); outline-offset: 2px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid var(--line); text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
@media (max-width: 40rem) {
  .lk-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); }
  .lk-table tr { display: block; padding: 0.4rem 0; border-bottom: 1px solid var(--line); }
  .lk-table th, .lk-table td { border: 0; padding: 0 0.9rem 0 0; }
  .lk-table th[scope="row"] { display: block; }
  .lk-table td { display: inline-block; }
  .lk-table td::before { content: attr(data-label) " "; color: var(--muted); }
}
.lk-figures span { white-space: nowrap; }
.lk-flags li { margin-bottom: 0.5rem; }
.lk-question { background: var(--panel); border-radius: 6px; padding: 0.5rem 0.9rem;
  margin: 0 0 1rem; }
.lk-question h5 { font-size: 1rem; margin: 0.3rem 0; overflow-wrap: anywhere; }
.lk-options { list-style: none; padding: 0; margin: 0; }
.lk-options li { margin: 0.5rem 0 0.8rem; }
.lk-options p { margin: 0; }
.lk-bars { display: block; width: 100%; max-width: 34rem; height: 25px; margin: 0.2rem 0; }
.lk-key { font-weight: 600; }
.lk-legend span { white-space: nowrap; margin-right: 1rem; }
.lk-swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em;
  vertical-align: -0.1em; border-radius: 2px; }
"""


def render_page(found: Collection) -> str:
    """The whole page for a collection of attempts files."""
    read = found.files - len(found.refused)
    intro = (
        f"From {_count(read, 'attempts file')} read by lessonkit {escape(__version__)}"
        + (
            f" ({_count(len(found.refused), 'file')} refused, listed below)"
            if found.refused
            else ""
        )
        + ". Statistics use each learner's first finished attempt; retakes are counted but "
        "answered from memory."
    )
    body = [f"<h1>Class results</h1><p>{intro}</p>"]
    if found.refused:
        items = "".join(f"<li><code>{escape(str(r))}</code></li>" for r in found.refused)
        body.append(f"<h2>Refused files</h2><ul>{items}</ul>")
    if found.skipped:
        items = "".join(f"<li><code>{escape(str(s))}</code></li>" for s in found.skipped)
        body.append(f"<h2>Files not read</h2><ul>{items}</ul>")
    if not found.banks:
        body.append("<p>No quiz attempts were found.</p>")
    body += [_bank(bank) for bank in found.banks]
    title = ", ".join(b.slug for b in found.banks) or "no attempts"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Class results: {escape(title)}</title><style>{_minified(STYLE)}</style>"
        f"</head><body><main>{''.join(body)}</main></body></html>\n"
    )


def _bank(bank: BankStats) -> str:
    ident = _ident(bank.slug)
    title = f": {escape(bank.title)}" if bank.title else ""
    parts = [
        f'<section aria-labelledby="{ident}"><h2 id="{ident}">{escape(bank.slug)}{title}</h2>',
        f"<p>Bank file <code>{escape(bank.path)}</code>. {_count(bank.learners, 'learner')}, "
        f"{_count(bank.attempts, 'attempt')}; statistics from {bank.analysed} first "
        "finished attempts.</p>",
    ]
    if bank.flags:
        parts.append(
            "<p>The files hold more than one version of this bank; statistics are split by "
            "version.</p>" + _flag_list(bank.flags)
        )
    parts += [_version(bank, v, n) for n, v in enumerate(bank.versions)]
    return "".join(parts) + "</section>"


def _version(bank: BankStats, version: VersionStats, number: int) -> str:
    ident = f"{_ident(bank.slug)}-{number}"
    state = " (the bank as it is now)" if version.current else ""
    if bank.found and not version.current:
        state = " (an earlier version)"
    parts = [
        f"<h3>Version {escape(version.version or 'unrecorded')}{state}</h3>",
        f"<p>{_count(version.learners, 'learner')}, {_count(version.attempts, 'attempt')}, "
        f"{version.first:%Y-%m-%d} to {version.last:%Y-%m-%d}.",
    ]
    scores = version.scores
    if scores is not None:
        parts.append(
            f" Scores: mean {scores.mean:.0%}, median {scores.median:.0%}, sd {scores.sd:.0%}, "
            f"lowest {scores.lowest:.0%}, highest {scores.highest:.0%}."
        )
    reliability = version.reliability
    value = "not computable" if reliability.value is None else f"{reliability.value:.2f}"
    caveat = f" ({escape(reliability.caveat)})" if reliability.caveat else ""
    parts.append(f" Reliability: {reliability.method} {value}{caveat}.</p>")
    parts.append(_charts(version, ident))
    listed = version.flags  # under this version's heading: no "[in version …]" needed
    parts.append(f"<h4>Flags ({len(listed)})</h4>" + (_flag_list(listed) or "<p>None.</p>"))
    parts.append("<h4>Questions</h4>" + _table(version.questions, ident))
    parts.append(_options(version.questions))
    parts.append(_wrong(version.questions))
    return "".join(parts)


def _charts(version: VersionStats, ident: str) -> str:
    flagged = {f.question for f in version.flags}
    # A question all answered alike has no discrimination: it sits on the 0 line.
    points = [
        charts.Point(q.difficulty, q.discrimination or 0.0, q.id, q.id in flagged)
        for q in version.questions
    ]
    shown = []
    if version.scores is not None:
        shown.append(
            f"<figure>{charts.histogram(version.scores.histogram, ident + '-h')}"
            "<figcaption>Learners by total score, in bands of 10 percentage points."
            "</figcaption></figure>"
        )
    shown.append(
        "<figure>"
        + charts.scatter(
            points, ident + "-s", easy=flags.TOO_EASY, hard=flags.TOO_HARD, low=flags.NEAR_ZERO
        )
        + "<figcaption>Each question by difficulty and discrimination. Shaded: too hard "
        f"(below {flags.TOO_HARD:.0%}), too easy (above {flags.TOO_EASY:.0%}) or "
        f"discriminating too little (r below {flags.NEAR_ZERO}); flagged questions are "
        "labelled diamonds. A question everyone answered alike has no r and sits at 0."
        "</figcaption></figure>"
    )
    return f'<div class="lk-charts">{"".join(shown)}</div>'


def _flag_list(found: Sequence[Flag]) -> str:
    if not found:
        return ""
    items = "".join(
        f"<li><code>{escape(f.path)}:{f.line}</code> <strong>{escape(f.question)}</strong>: "
        f"{escape(f.message)}</li>"
        for f in found
    )
    return f'<ul class="lk-flags">{items}</ul>'


def _table(questions: Sequence[QuestionStats], ident: str) -> str:
    head = ("Question", "Answers", "Difficulty", "Full marks", "r (rest)", "D (27%)",
            "Median time", "Hints used")  # fmt: skip
    rows = []
    for q in questions:
        cells = (
            q.answers,
            f"{q.difficulty:.2f}",
            f"{q.full_marks:.2f}",
            _r(q.discrimination),
            _r(q.upper_lower),
            NONE if q.median_seconds is None else f"{q.median_seconds:.0f} s",
            NONE if q.hints_used is None else f"{q.hints_used:.0%}",
        )
        data = "".join(
            f'<td data-label="{label}">{cell}</td>'
            for label, cell in zip(head[1:], cells, strict=True)
        )
        rows.append(f'<tr><th scope="row">{escape(q.id)}</th>{data}</tr>')
    header = "".join(f'<th scope="col">{h}</th>' for h in head)
    return (
        "<p>Difficulty is the mean share of the points; r is the point-biserial correlation "
        "with the rest of the quiz; D is the top group's share minus the bottom group's "
        "(each 27% of the learners).</p>"
        f'<div class="lk-scroll" role="region" aria-labelledby="{ident}-c" tabindex="0">'
        f'<table class="lk-table"><caption id="{ident}-c">Statistics per question</caption>'
        f"<thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


LEGEND = (
    '<p class="lk-legend"><span><span class="lk-swatch" style="background: var(--bar)">'
    '</span>everyone</span> <span><span class="lk-swatch" style="background: var(--bar1)">'
    '</span>top group (best 27%)</span> <span><span class="lk-swatch" '
    'style="background: var(--bar2)"></span>bottom group (lowest 27%)</span></p>'
)


def _options(questions: Sequence[QuestionStats]) -> str:
    chosen = [q for q in questions if q.options]
    if not chosen:
        return ""
    parts = ["<h4>Options chosen</h4>", LEGEND]
    for q in chosen:
        line = f' <span class="lk-muted">line {q.line}</span>' if q.line else ""
        items = []
        for o in q.options:
            shares = [_part(o.chosen, q.answers), _part(o.top, q.top), _part(o.bottom, q.bottom)]
            key = ' <span class="lk-key">(✓ the key)</span>' if o.key else ""
            items.append(
                f"<li><p>{o.number}. {escape(o.text)}{key}</p>{charts.option_bars(shares)}"
                f'<p class="lk-muted lk-figures"><span>everyone {_pct(o.chosen, q.answers)},'
                f"</span> <span>top group {_pct(o.top, q.top)},</span> <span>bottom group "
                f"{_pct(o.bottom, q.bottom)}</span></p></li>"
            )
        parts.append(
            f'<section class="lk-question"><h5>{escape(q.id)}{line}</h5>'
            f'<ol class="lk-options">{"".join(items)}</ol></section>'
        )
    return "".join(parts)


def _wrong(questions: Sequence[QuestionStats]) -> str:
    typed = [q for q in questions if q.wrong]
    if not typed:
        return ""
    parts = ["<h4>Most common wrong answers</h4><p>Normalised as the grader compares them.</p>"]
    for q in typed:
        items = "".join(
            f"<li><code>{escape(w.text)}</code>: {w.count} ({_pct(w.count, q.answers)})"
            + ("" if w.factor is None else f", the key times {w.factor:g}")
            + "</li>"
            for w in q.wrong
        )
        line = f' <span class="lk-muted">line {q.line}</span>' if q.line else ""
        parts.append(
            f'<section class="lk-question"><h5>{escape(q.id)}{line}</h5><ul>{items}</ul></section>'
        )
    return "".join(parts)


def _part(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _pct(part: int, whole: int) -> str:
    if not whole:
        return NONE
    shown = f"{part / whole:.0%}"
    return "<1%" if part and shown == "0%" else shown  # never 0% for someone


def _r(value: float | None) -> str:
    return NONE if value is None else f"{value:.2f}"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _ident(text: str) -> str:
    return "lk-" + re.sub(r"[^a-z0-9-]", "-", text.casefold())


def _minified(css: str) -> str:
    return re.sub(r"\s*\n\s*", " ", css).strip()
