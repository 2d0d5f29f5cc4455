"""SVG charts for the results page, drawn as text: a histogram, a scatter and option bars.

No plotting library: three simple charts are a few dozen lines each, and drawing them
here keeps the page one offline file with nothing to download or execute. Colours are
CSS classes the page styles for light and dark schemes; every chart carries a title and
a description for screen readers, and the page repeats its figures in tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

# Chart sizes are in user units; on a 390 px phone the page shrinks a 400-unit chart to
# about 350 px, so 14-unit text stays at about 12 px, still readable. The chart scales as
# a whole, so what does not overlap at one width overlaps at none.
WIDE, TALL = 400, 266
LEFT, RIGHT, TOP, BOTTOM = 52, 20, 14, 48
PLOT_W, PLOT_H = WIDE - LEFT - RIGHT, TALL - TOP - BOTTOM
LABEL = 14  # font size of axis labels
# A line of text as a browser boxes it: common sans-serif fonts (DejaVu Sans, Arial,
# Helvetica) reach 0.93 em above the baseline and 0.24 em below; glyphs are at most 0.62
# em wide on average in ids (lower-case letters, digits, hyphens).
ASCENT, DESCENT, GLYPH = 0.93 * LABEL, 0.24 * LABEL, 0.62 * LABEL
LINE = 17  # vertical room one point label takes: its box, and a little air
TICK_GAP = 22  # from the plot's bottom edge to the x axis' numbers' baseline
Y_MIN, Y_MAX = -0.5, 1.0  # the discrimination axis; values beyond sit on its edge

Place = Callable[[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Point:
    """One question on the difficulty-discrimination plane."""

    x: float  # difficulty: mean share of the points, 0 to 1
    y: float  # discrimination, -1 to 1
    label: str
    flagged: bool


def histogram(counts: Sequence[int], ident: str) -> str:
    """Learners per score band (ten bands of 10 percentage points)."""
    most = max(counts, default=0) or 1
    step = PLOT_W / len(counts)
    listed = ", ".join(f"{n * 10} to {n * 10 + 10}%: {c}" for n, c in enumerate(counts))
    parts = [_open(ident, "Learners by total score", f"Learners per score band. {listed}.")]
    for tick in sorted({0, most // 2, most}):
        y = TOP + PLOT_H - PLOT_H * tick / most
        parts += [_line(LEFT, y, WIDE - RIGHT, y), _text(LEFT - 6, y + 4, str(tick), "end")]
    for n, count in enumerate(counts):
        height = PLOT_H * count / most
        parts.append(_rect(LEFT + n * step + 2, TOP + PLOT_H - height, step - 4, height, "lk-bar"))
    for n in range(0, len(counts) + 1, 2):
        parts.append(_text(LEFT + n * step, TOP + PLOT_H + TICK_GAP, f"{n * 10}%"))
    parts.append(_text(LEFT + PLOT_W / 2, TALL - 4, "total score (share of the points)"))
    return "".join(parts) + "</svg>"


def scatter(points: Sequence[Point], ident: str, *, easy: float, hard: float, low: float) -> str:
    """Difficulty (x) against discrimination (y); the zones flags come from are shaded,
    flagged questions are diamonds with their ids, the others dots."""

    def place(x: float, y: float) -> tuple[float, float]:
        y = min(Y_MAX, max(Y_MIN, y))
        return LEFT + PLOT_W * x, TOP + PLOT_H * (Y_MAX - y) / (Y_MAX - Y_MIN)

    flagged = [p for p in points if p.flagged]
    names = ", ".join(p.label for p in flagged) or "none"
    desc = f"{len(points)} questions by difficulty and discrimination; flagged: {names}."
    parts = [_open(ident, "Difficulty against discrimination", desc)]
    (hard_x, top), (easy_x, bottom) = place(hard, Y_MAX), place(easy, Y_MIN)
    floor = place(0, low)[1]
    parts += [
        _rect(LEFT, top, hard_x - LEFT, bottom - top, "lk-zone"),
        _rect(easy_x, top, WIDE - RIGHT - easy_x, bottom - top, "lk-zone"),
        _rect(LEFT, floor, PLOT_W, bottom - floor, "lk-zone"),
    ]
    for value in (0.0, 0.5, 1.0):
        x = place(value, 0)[0]
        parts += [_line(x, top, x, bottom), _text(x, bottom + TICK_GAP, f"{value:.1f}")]
    for value in (-0.5, 0.0, 0.5, 1.0):
        y = place(0, value)[1]
        parts += [_line(LEFT, y, WIDE - RIGHT, y), _text(LEFT - 6, y + 4, f"{value:.1f}", "end")]
    parts.append(_text(LEFT + PLOT_W / 2, TALL - 4, "difficulty (share of the points earned)"))
    parts.append(
        f'<text transform="translate(14 {TOP + PLOT_H / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" class="lk-axis" font-size="{LABEL}">discrimination (r)</text>'
    )
    for point in sorted(points, key=lambda p: p.flagged):
        x, y = place(point.x, point.y)
        if point.flagged:
            parts.append(f'<path d="M{x:.1f} {y - 6:.1f}l6 6-6 6-6-6z" class="lk-flagged"/>')
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" class="lk-point"/>')
    return "".join(parts + _labels(flagged, place)) + "</svg>"


Taken = list[tuple[float, float, float]]  # a placed label's baseline, left end, right end
# Baselines a label may take: inside the plot, clear of the axes' numbers below it.
FIRST, LAST = TOP + ASCENT, TOP + PLOT_H - DESCENT


def _shifts() -> list[float]:
    """Moves from a point's own line, nearest first, far enough to reach any line."""
    reach = int(PLOT_H // LINE) + 1
    return [0.0] + [sign * n * LINE for n in range(1, reach + 1) for sign in (1, -1)]


SHIFTS = tuple(_shifts())


def _labels(points: Sequence[Point], place: Place) -> list[str]:
    """Ids beside flagged points: on the side with more room, else the other, else moved up
    or down to the nearest free line with a thin leader back to the point. A label with no
    free line left is not drawn: the chart's description and the page's list of flags
    name every flagged question, and a label drawn over another could be read by neither."""
    taken: Taken = []
    out = []
    for point in sorted(points, key=lambda p: (-p.y, p.x)):
        x, y = place(point.x, point.y)
        width = len(point.label) * GLYPH
        sides = (1, -1) if x < LEFT + PLOT_W / 2 else (-1, 1)
        spot = _spot(x, y + 4, width, sides, taken)
        if spot is None:
            continue
        start, base, side = spot
        taken.append((base, start, start + width))
        near = start if side > 0 else start + width
        if abs(base - (y + 4)) > 1:
            out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{near:.1f}" y2="{base - 4:.1f}" '
                       'class="lk-leader"/>')  # fmt: skip
        out.append(_text(near, base, point.label, "start" if side > 0 else "end", "lk-label"))
    return out


def _spot(
    x: float, base: float, width: float, sides: tuple[int, int], taken: Taken
) -> tuple[float, float, int] | None:
    """Where a label of ``width`` goes: its left end, baseline and side of the point; None
    when every line near enough is taken."""
    for shift in SHIFTS:
        line = base + shift
        if not FIRST <= line <= LAST:
            continue
        for side in sides:
            start = x + 9 if side > 0 else x - 9 - width
            if (
                start >= LEFT
                and start + width <= WIDE
                and not any(
                    abs(line - b) < LINE and start < r and start + width > s for b, s, r in taken
                )
            ):
                return start, line, side
    return None


def option_bars(shares: Sequence[float]) -> str:
    """One bar per share (everyone, the top group, the bottom group) for one option;
    hidden from screen readers, since the page states the same shares in words."""
    rows = [
        _rect(0, n * 9, max(0.0, min(1.0, share)) * 100, 7, f"lk-bar lk-bar-{n}")
        for n, share in enumerate(shares)
    ]
    return (
        f'<svg class="lk-bars" viewBox="0 0 100 {len(shares) * 9 - 2}" '
        'preserveAspectRatio="none" aria-hidden="true" focusable="false" '
        'xmlns="http://www.w3.org/2000/svg">' + "".join(rows) + "</svg>"
    )


def _open(ident: str, title: str, desc: str) -> str:
    return (
        f'<svg class="lk-chart" viewBox="0 0 {WIDE} {TALL}" role="img" '
        f'aria-labelledby="{ident}-t {ident}-d" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t">{escape(title)}</title>'
        f'<desc id="{ident}-d">{escape(desc)}</desc>'
    )


def _rect(x: float, y: float, width: float, height: float, cls: str) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(0.0, width):.1f}" '
        f'height="{max(0.0, height):.1f}" class="{cls}"/>'
    )


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" class="lk-grid"/>'


def _text(x: float, y: float, text: str, anchor: str = "middle", cls: str = "lk-axis") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}" '
        f'font-size="{LABEL}">{escape(text)}</text>'
    )
