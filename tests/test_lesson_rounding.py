"""Every draw of the course's numeric questions accepts the lessons' own rounding.

The four lessons of "AI hardware fundamentals" write their figures to three significant
figures (2.68 GB for 2,684,354,560 bytes) and each explanation prints its own figures. A learner who rounds that way, or who copies a figure the explanation prints,
must be marked right in every draw, not only in the one an author happened to try. The
sweep here tries, for each allowed draw of each parameterised numeric question:

- the exact answer;
- the exact answer to three significant figures (not for a whole-number `bound`, which a
  learner does not round);
- the answer worked through with every printed number rounded as it is printed (the
  prompt's parameters and each derived value the prompt or explanation shows), then to
  three figures as well;
- every value the explanation prints that stands for the answer itself.

The lesson's rounding convention is not a rule lessonkit's rule book can know for any
course, so this is a test of this course's bank against its lesson.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lessonkit.bank import expressions, numerals, variants
from lessonkit.bank.questions import NumericQuestion, instantiate, question_adapter
from lessonkit.course.course import read_course
from lessonkit.questiontypes import registry

ROOT = Path(__file__).resolve().parents[1]
# Every bank of the course, so that a lesson added later is swept too.
BANKS = sorted(path.stem for path in (ROOT / "quizzes").glob("*.yml"))
FIGURES = 3  # the lessons' convention: 2.68 GB, 5.37 ms, 1,170 FLOPs per byte


@dataclass(frozen=True)
class Refusal:
    """One rounded answer the grader refused, with the draw that produced it."""

    question: str
    draw: str
    how: str
    typed: float
    exact: float

    def __str__(self) -> str:
        return (
            f"{self.question}: {self.how} {numerals.written(self.typed)} refused "
            f"(exact {numerals.written(self.exact)}) when {self.draw}"
        )


def parameterised_numeric() -> list[NumericQuestion]:
    course = read_course(ROOT)
    assert sorted(p.slug for p in course.bank_parts) == BANKS
    return [
        q
        for parts in course.bank_parts
        for _, q in parts.questions
        if isinstance(q, NumericQuestion) and q.params
    ]


def accepted(question: NumericQuestion, typed: float) -> bool:
    """Whether the grader marks ``typed`` right, typed as a learner would type it."""
    runtime = registry.runtime(question)
    text = numerals.written(typed, significant=15, separators=False)
    return registry.grade(runtime, registry.parse(runtime, text, ())).correct


def shown_names(*texts: str | None) -> set[str]:
    """The placeholders the learner sees filled in."""
    names: set[str] = set()
    for text in texts:
        names |= {m.group(1) for m in variants.PLACEHOLDER.finditer(text or "") if m.group(1)}
    return names


def as_printed(space: variants.Space, name: str, value: float) -> float:
    """A number as the question prints it, read back."""
    return numerals.read(space.written(name, value))


def to_figures(value: float) -> float:
    return numerals.read(numerals.written(value, significant=FIGURES))


def rounded_on_the_way(
    data: dict[str, Any], space: variants.Space, variant: dict[str, Any], shown: set[str]
) -> float:
    """The answer from the printed numbers, each derived value rounded as printed in turn."""
    numbers: dict[str, float] = {}
    for name, value in variant.items():
        if isinstance(value, str):
            continue
        numbers[name] = as_printed(space, name, float(value)) if name in shown else float(value)
    for name, formula, _ in space.derived:
        value = formula.value(numbers)
        numbers[name] = as_printed(space, name, value) if name in shown else value
    return expressions.parse(str(data["answer"])).value(numbers)


def refusals(data: dict[str, Any]) -> tuple[int, list[Refusal]]:
    """How many draws were tried, and every rounded answer the grader refused."""
    question = question_adapter().validate_python(data)
    assert isinstance(question, NumericQuestion)
    space = variants.Space(data)
    shown = shown_names(question.prompt, question.explanation)
    explained = shown_names(question.explanation)
    found: list[Refusal] = []
    allowed = space.allowed()
    for index in allowed:
        variant = space.choice(index)
        plain = instantiate(question, variant)
        assert isinstance(plain, NumericQuestion)
        exact = plain.value()
        values = space.values(variant)
        rough = rounded_on_the_way(data, space, variant, shown)
        tries = [("the exact answer", exact), ("rounded on the way", rough)]
        if question.bound is None:
            tries += [
                (f"to {FIGURES} figures", to_figures(exact)),
                (f"rounded on the way, then to {FIGURES} figures", to_figures(rough)),
            ]
        for name in sorted(explained & {n for n, _, _ in space.derived}):
            value = float(values[name])
            if abs(value - exact) <= 1e-12 * max(1.0, abs(exact)):
                tries.append(
                    (f"as the explanation prints {{{name}}}", as_printed(space, name, value))
                )
        draw = variants.shown_numbers(data, variant)
        for how, typed in tries:
            if not accepted(plain, typed):
                found.append(Refusal(question.id, draw, how, typed, exact))
    return len(allowed), found


QUESTIONS = parameterised_numeric()


def test_the_bank_has_parameterised_numeric_questions() -> None:
    """The sweep below has something to sweep: each lesson's numeric questions that draw."""
    ids = {q.id for q in QUESTIONS}
    assert {"rs-max-batch-capacity", "rs-decode-floor-8b", "rs-latency-budget-batch"} <= ids
    assert {"rsp-gib-to-gb", "rsp-slice-memory", "so-ring-allreduce-bandwidth"} <= ids
    assert len(BANKS) >= 4  # the four lessons of "AI hardware fundamentals"
    assert len(ids) == len(QUESTIONS) >= 20


@pytest.mark.parametrize("question", QUESTIONS, ids=[q.id for q in QUESTIONS])
def test_every_draw_accepts_the_lessons_rounding(question: NumericQuestion) -> None:
    tried, found = refusals(question.model_dump(mode="json"))
    assert tried > 0, f"{question.id}: no draw meets the constraints"
    assert not found, "\n".join(map(str, found))


def default_draw_kept(data: dict[str, Any]) -> bool:
    """Whether a question's `numbers_before`, the draw an early answer is graded against,
    is one its own constraints keep (and so one the sweep above has tried)."""
    space = variants.Space(data)
    before: dict[str, Any] = data["numbers_before"]
    # A case is named by its label; the numbers it brings come with the choice.
    return any(
        all(space.choice(i).get(name) == value for name, value in before.items())
        for i in space.allowed()
    )


@pytest.mark.parametrize(
    "question",
    [q for q in QUESTIONS if q.numbers_before is not None],
    ids=[q.id for q in QUESTIONS if q.numbers_before is not None],
)
def test_the_default_draw_meets_the_constraints(question: NumericQuestion) -> None:
    assert default_draw_kept(question.model_dump(mode="json")), (
        f"{question.id}: numbers_before {question.numbers_before} breaks its own constraints"
    )


# --- the sweep can fail -----------------------------------------------------------------

# rs-decode-floor-8b as it was: its explanation printed two figures (6 ÷ 4.8 is 1.2499… in
# binary, printed "1.2") while its tolerance was ±3%, so copying the explanation was refused.
TWO_FIGURES: dict[str, Any] = {
    "id": "two-figures",
    "type": "numeric",
    "insight": 1,
    "section": "x",
    "prompt": "A {size_b}B model on a chip with {tb_s} TB/s: milliseconds per token?",
    "params": {
        "size_b": {"values": [3, 8]},
        "chip": {"cases": {"H100": {"tb_s": 3.35}, "H200": {"tb_s": 4.8}}},
    },
    "derived": {"ms": {"formula": "size_b * 2 / tb_s", "significant": 2}},
    "answer": "size_b * 2 / tb_s",
    "relative_tolerance": 0.03,
    "explanation": "About {ms} ms.",
}

# rs-max-batch-capacity as it was: the exact count, where rounding a sequence's size to
# three figures (2.68 GB for 2.684) fits one more sequence than the key allows.
ONE_MORE: dict[str, Any] = {
    "id": "one-more",
    "type": "numeric",
    "insight": 1,
    "section": "x",
    "prompt": "{gpus} GPUs of 80 GB, 70.6 GB of weights: how many {tokens}-token sequences fit?",
    "params": {"gpus": {"values": [2, 4]}, "tokens": {"values": [16384]}},
    "derived": {
        "left": {"formula": "gpus * 80 - 70.6", "decimals": 1},
        "seq_gb": {"formula": "163840 * tokens / 1000000000", "significant": 3},
        "fit": {"formula": "floor(left / seq_gb)"},
    },
    "answer": "fit",
    "tolerance": 0,
    "bound": "maximum",
    "explanation": "{left} GB ÷ {seq_gb} GB, so {fit}.",
}


def test_a_default_draw_the_constraints_drop_is_found() -> None:
    kept = {**ONE_MORE, "constraints": ["floor(left / round(seq_gb, 2)) == floor(left / seq_gb)"]}
    assert not default_draw_kept({**kept, "numbers_before": {"gpus": 4, "tokens": 16384}})
    assert default_draw_kept({**kept, "numbers_before": {"gpus": 2, "tokens": 16384}})


def test_the_sweep_finds_an_explanation_the_tolerance_refuses() -> None:
    tried, found = refusals(TWO_FIGURES)
    assert tried == 4
    assert [str(r) for r in found] == [
        "two-figures: as the explanation prints {ms} 1.2 refused (exact 1.25) "
        "when size_b = 3, chip = H200",
    ]


def test_the_sweep_finds_a_count_the_lessons_rounding_exceeds() -> None:
    tried, found = refusals(ONE_MORE)
    assert tried == 2
    assert [str(r) for r in found] == [
        "one-more: rounded on the way 93 refused (exact 92) when gpus = 4, tokens = 16,384",
    ]
