"""What an author can act on, found in a class's results: each names a question and its line.

Thresholds are the usual ones of classical item analysis; each flag says what was seen
and what to try. No flag is raised from fewer than ``MIN_ANSWERS`` answers, where one
learner more or less would change the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from lessonkit.questiontypes import registry
from lessonkit.results.stats import Flag, OptionStats, QuestionStats

TOO_EASY = 0.95  # share of the points above which a question tells no one apart
TOO_HARD = 0.20
NEAR_ZERO = 0.10  # item-rest correlation below which a question barely discriminates
MIN_ANSWERS = 10
COMMON_WRONG = 0.10  # share of answers one wrong text or number must reach
COMMON_WRONG_LEAST = 3  # …and at least this many learners
TOP_PULL = 0.10  # share of the top group a distractor must draw to be said to beat the key
SHORT = 48  # characters of an option quoted in a flag


def question_flags(stats: QuestionStats, path: str) -> list[Flag]:
    """Every flag one question's statistics raise, in a fixed order."""
    if stats.answers < MIN_ANSWERS:
        return []
    found: list[tuple[str, str]] = []
    if stats.difficulty > TOO_EASY:
        found.append(("too-easy", f"too easy: {_pct(stats.difficulty)} of the points were "
                      f"earned (above {_pct(TOO_EASY)}); it tells no one apart: make the wrong "
                      "options more tempting, or ask about something harder"))  # fmt: skip
    elif stats.difficulty < TOO_HARD:
        found.append(("too-hard", f"too hard: {_pct(stats.difficulty)} of the points were "
                      f"earned (below {_pct(TOO_HARD)}); check the key and the wording first, "
                      "then whether the lesson teaches it"))  # fmt: skip
    found += _discrimination(stats)
    dead = stats.type is None or registry.named(stats.type).dead_distractors
    found += _distractors(stats.options, stats.answers, stats.top, dead=dead)
    found += _wrong_answers(stats)
    return [Flag(kind, stats.id, path, stats.line or 0, text) for kind, text in found]


def changed_flag(question: str, path: str, line: int, detail: str) -> Flag:
    """A question that differs between the bank versions in the files."""
    return Flag("changed-mid-collection", question, path, line,
                f"changed mid-collection: {detail}; its statistics are split by "
                "version")  # fmt: skip


def _discrimination(stats: QuestionStats) -> list[tuple[str, str]]:
    r = stats.discrimination
    if r is None:
        return []
    if r < 0:
        return [("negative-discrimination", f"negative discrimination (r = {r:.2f}): learners "
                 "who did well on the rest of the quiz did worse on this one; check the key, "
                 "then look for a trap that catches careful readers")]  # fmt: skip
    if r < NEAR_ZERO:
        return [("low-discrimination", f"discrimination near zero (r = {r:.2f}): it does not "
                 "tell stronger from weaker learners; look for ambiguous wording or a "
                 "question answered by guessing")]  # fmt: skip
    return []


def _distractors(
    options: Sequence[OptionStats], answers: int, top: int, *, dead: bool
) -> list[tuple[str, str]]:
    found = []
    keys = [o for o in options if o.key]
    for option in options:
        if option.key:
            continue
        if dead and option.chosen == 0:
            found.append(("dead-distractor", f"option {option.number} ({_quote(option.text)}) "
                          f"was chosen by no one of {answers}: replace it with a mistake "
                          "learners really make"))  # fmt: skip
        weakest = min(keys, key=lambda o: o.top, default=None)
        if weakest is not None and option.top > weakest.top and option.top >= TOP_PULL * top:
            found.append(("distractor-beats-key", f"the top group chose option "
                          f"{option.number} ({_quote(option.text)}) more often than the key, "
                          f"option {weakest.number} ({option.top} of {top} against "
                          f"{weakest.top}): a wrong key, or wording that misleads those who "
                          "know the topic best"))  # fmt: skip
    return found


def _wrong_answers(stats: QuestionStats) -> list[tuple[str, str]]:
    found = []
    for wrong in stats.wrong:
        share = wrong.count / stats.answers
        if wrong.count < COMMON_WRONG_LEAST or share < COMMON_WRONG:
            continue
        given = f"{wrong.count} of {stats.answers} ({_pct(share)}) answered {_quote(wrong.text)}"
        if wrong.factor == -1:
            advice = "the key with the other sign: say which direction counts as positive"
        elif wrong.factor is not None:
            advice = (f"{wrong.factor:g} times the key: a unit or prefix slip? Name the unit "
                      "in the prompt, or accept it")  # fmt: skip
        else:  # only a type that lists its wrong answers has any (``wrong_form``)
            advice = registry.named(stats.type or "").wrong_advice
        found.append(("common-wrong-answer", f"{given}, {advice}"))
    return found


def _pct(share: float) -> str:
    return f"{share:.0%}"


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return f"“{flat if len(flat) <= SHORT else flat[: SHORT - 1] + '…'}”"
