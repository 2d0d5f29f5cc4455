"""A synthetic class: learners of known ability take a real bank, and export their attempts.

Each learner has an ability drawn from a normal distribution; each question answers a
two-parameter logistic model (difficulty ``b``, discrimination ``a``) unless a
``Behaviour`` plants a fault: a bad key, a dead distractor, a missing accepted answer.
Responses are graded by the real grader and written by the real exporter's line writer,
so the files are exactly what `lessonkit history --export` would write.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from lessonkit.bank import variants
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import (
    MatchQuestion,
    MultipleQuestion,
    NumericQuestion,
    OrderQuestion,
    Question,
    SingleQuestion,
    TextQuestion,
    TrueFalseQuestion,
    instantiate,
)
from lessonkit.course.bankversion import bank_version
from lessonkit.history.rows import SharedAnswer, SharedAttempt
from lessonkit.questiontypes import registry
from lessonkit.results.sharing import file_lines

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Behaviour:
    """How the class treats one question; the defaults make a good question."""

    difficulty: float = -0.3  # b: the ability at which half get it right
    discrimination: float = 1.6  # a: how sharply the chance rises with ability
    weights: Mapping[int, float] = field(default_factory=dict)  # a wrong option's pull (0: dead)
    preferred: int | None = None  # the option that is really right (a bad key)
    missing: str | None = None  # a right answer the key does not accept…
    missing_share: float = 0.0  # …typed by this share of those who know


@dataclass
class Learner:
    """One synthetic learner: a pseudonym, an ability and their attempts."""

    pseudonym: str
    ability: float
    attempts: list[SharedAttempt]

    def text(self) -> str:
        lines = file_lines(self.pseudonym, self.attempts, exported=START + timedelta(days=30))
        return "".join(line + "\n" for line in lines)


def simulate(
    bank: Bank,
    learners: int,
    *,
    seed: int = 7,
    behaviours: Mapping[str, Behaviour] | None = None,
    retakes: float = 0.15,
    slug: str | None = None,
    varied: bool = False,
) -> list[Learner]:
    """``learners`` learners, each with a first attempt and, for some, a later retake.

    With ``varied`` the questions not in ``behaviours`` get difficulties and
    discriminations drawn from the seed, as a real bank's spread; otherwise each is a
    good question of middling difficulty.
    """
    rng = random.Random(seed)
    plan = dict(behaviours or {})
    if varied:
        for question in bank.questions:
            plan.setdefault(
                question.id,
                Behaviour(difficulty=rng.gauss(-0.6, 0.7), discrimination=rng.uniform(0.8, 2.0)),
            )
    keys = {q.id: registry.key_hash(registry.runtime(q)) for q in bank.questions}
    version = bank_version(keys)
    name = slug or bank.lesson
    found = []
    for n in range(learners):
        pseudonym = f"l-{rng.getrandbits(64):016x}"
        ability = rng.gauss(0, 1)
        started = START + timedelta(hours=n * 2)
        attempts = [_attempt(bank, name, version, keys, ability, started, rng, plan)]
        if rng.random() < retakes:  # a retake, a week later and a little stronger
            later = started + timedelta(days=7)
            attempts.append(_attempt(bank, name, version, keys, ability + 0.5, later, rng, plan))
        found.append(Learner(pseudonym, ability, attempts))
    return found


def question_lines(bank: Path) -> dict[str, int]:
    """Each question id of a bank file and the line of its `- id:`, as results names it."""
    lines = bank.read_text(encoding="utf-8").splitlines()
    return {
        text.strip().removeprefix("- id: "): number
        for number, text in enumerate(lines, start=1)
        if text.strip().startswith("- id: ")
    }


def write_class(folder: Path, learners: Sequence[Learner]) -> list[Path]:
    """One file per learner, named as an LMS download might name them."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, learner in enumerate(learners, 1):
        path = folder / f"learner-{n:04d}.jsonl"
        path.write_text(learner.text(), encoding="utf-8")
        paths.append(path)
    return paths


def _attempt(
    bank: Bank,
    slug: str,
    version: str,
    keys: Mapping[str, str],
    ability: float,
    started: datetime,
    rng: random.Random,
    plan: Mapping[str, Behaviour],
) -> SharedAttempt:
    moment = started
    answers = []
    for asked in bank.questions:
        # A question that draws numbers is answered as the learner saw it: one draw of it.
        drawn = _draw(asked, rng) if getattr(asked, "params", None) else None
        question = asked if drawn is None else instantiate(asked, drawn)
        behaviour = plan.get(question.id, Behaviour())
        chance = 1 / (1 + math.exp(-behaviour.discrimination * (ability - behaviour.difficulty)))
        knows = rng.random() < chance
        value = _response(question, knows, behaviour, rng)
        runtime = registry.runtime(question)
        graded = registry.grade(runtime, registry.from_json(runtime, value))
        seconds = round(rng.lognormvariate(math.log(25), 0.5), 1)
        moment += timedelta(seconds=seconds)
        hinted = question.hint is not None and rng.random() < (0.3 if ability < 0 else 0.08)
        answers.append(
            SharedAnswer(
                question.id,
                keys[question.id],
                value,
                graded.score,
                graded.max_score,
                moment,
                seconds,
                int(hinted),
                None if drawn is None else dict(drawn),
            )
        )
    order = [q.id for q in bank.questions]
    return SharedAttempt(slug, version, order, started, moment, answers)


def _draw(question: Question, rng: random.Random) -> Mapping[str, float | str]:
    [drawn] = variants.sample(question.model_dump(mode="json"), 1, f"class/{rng.random()}")
    return drawn


def _response(question: Question, knows: bool, how: Behaviour, rng: random.Random) -> Any:
    if isinstance(question, SingleQuestion):
        key = next(i for i, o in enumerate(question.options) if o.correct)
        if how.preferred is not None:  # the key is wrong: who knows picks the real answer
            return how.preferred if knows else rng.randrange(len(question.options))
        if knows:
            return key
        return _pick([i for i in range(len(question.options)) if i != key], how, rng)
    if isinstance(question, MultipleQuestion):
        right = {i for i, o in enumerate(question.options) if o.correct}
        if knows:
            return sorted(right)
        wrong = [i for i in range(len(question.options)) if i not in right]
        return sorted((right - {rng.choice(sorted(right))}) | {_pick(wrong, how, rng)})
    if isinstance(question, TrueFalseQuestion):
        return question.answer if knows else not question.answer
    if isinstance(question, NumericQuestion):
        if knows:
            return question.answer
        if rng.random() < 0.08:  # a unit slip: the same number in a unit 1000 times smaller
            return question.answer * 1000
        return float(f"{question.answer * rng.uniform(0.2, 5):.3g}")
    if isinstance(question, TextQuestion):
        if knows and how.missing is not None and rng.random() < how.missing_share:
            return how.missing
        if knows:
            return rng.choice(
                [question.accept[0], question.accept[0].upper(), f" {question.accept[0]} "]
            )
        return rng.choice(["gpu", "cuda", "i don't know", "tensor cores", "hbm", "mlir", "tpu"])
    if isinstance(question, OrderQuestion | MatchQuestion):
        count = len(question.items if isinstance(question, OrderQuestion) else question.pairs)
        placed = list(range(count))
        if not knows:
            at = rng.randrange(count - 1)
            placed[at], placed[at + 1] = placed[at + 1], placed[at]
        return placed
    raise TypeError(type(question).__name__)


def _pick(choices: Sequence[int], how: Behaviour, rng: random.Random) -> int:
    weights = [how.weights.get(i, 1.0) for i in choices]
    return rng.choices(choices, weights=weights)[0]


# The planted faults of the demo class on gpu-vs-tpu: a key that strong learners reject,
# a distractor no one picks, a give-away, and a right answer the bank does not accept.
DEMO_FAULTS = {
    "gvt-tpu-best-fit": Behaviour(preferred=0),
    "gvt-nvlink-domain-fit": Behaviour(weights={1: 0.0}),
    "gvt-ecosystem-over-flops": Behaviour(difficulty=-4.5),
    "gvt-xla-name": Behaviour(missing="XLA (Accelerated Linear Algebra)", missing_share=0.3),
}


def main(argv: Sequence[str]) -> int:
    """`python tests/classroom.py OUT [LEARNERS]`: a class on gpu-vs-tpu, one file each."""
    from lessonkit.bank.loader import load_bank

    out = Path(argv[0])
    count = int(argv[1]) if len(argv) > 1 else 200
    bank = load_bank(Path(__file__).resolve().parents[1] / "quizzes" / "gpu-vs-tpu.yml")
    learners = simulate(
        bank, count, seed=26, behaviours=DEMO_FAULTS, slug="gpu-vs-tpu", varied=True
    )
    print(f"wrote {len(write_class(out, learners))} files to {out}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
