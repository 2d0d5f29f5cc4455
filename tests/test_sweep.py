"""`lessonkit validate` sweeps every parameterised question over its draws: a bank made to
break each rule, and the exact report an author gets for it."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import FULL_BANK, MakeCourse
from lessonkit.authoring import sweep
from lessonkit.bank import variants
from lessonkit.course import course
from lessonkit.grading.credit import Grade
from lessonkit.questiontypes import registry
from test_validate import run

HEAD = """\
  - id: {id}
    type: {type}
    prompt: {prompt}
    insight: 1
    section: 1-first-idea
    explanation: Because.
"""


def question(qid: str, body: str, *, prompt: str = '"{a} and {b}?"', kind: str = "numeric") -> str:
    return HEAD.format(id=qid, type=kind, prompt=prompt) + body


BROKEN = "".join(
    [
        question(
            "p-divides",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [2, 1, 0]}
    answer: a / b
    relative_tolerance: 0.01
""",
        ),
        question(
            "p-never",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [1]}
    constraints: ["a + b > 5"]
    answer: a * b
    tolerance: 0
""",
        ),
        question(
            "p-together",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [1, 2]}
    constraints: ["a > 1", "b < 2"]
    derived:
      c: {formula: a - b}
    constraints: ["a > 1", "b < 2", "c < 1"]
    answer: a * b
    tolerance: 0
""",
        ).replace('    constraints: ["a > 1", "b < 2"]\n', ""),
        question(
            "p-distractor",
            """\
    params:
      a: {values: [3, 2, 1]}
      b: {values: [1]}
    options:
      - {text: "{value}", value: a * 2, correct: true}
      - {text: "{value}", value: a * a, feedback: You squared it.}
      - {text: "{value}", value: a + 10}
""",
            kind="single",
        ),
        question(
            "p-printed",
            """\
    params:
      a: {values: [3.35, 4.8, 0.819], decimals: 1}
      b: {values: [10]}
    answer: b / a
    relative_tolerance: 0.001
""",
        ),
        question(
            "p-same-prompt",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [1]}
    answer: a * 2
    tolerance: 0
""",
            prompt="What is twice a?",
        ),
        question(
            "p-never-changes",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [1]}
    answer: a * 2
    tolerance: 0
""",
            prompt='"What is twice {b}?"',
        ),
        question(
            "p-untypable",
            """\
    params:
      a: {values: [1, 2]}
      b: {values: [3]}
    answer: a / b
""",
        ),
        question(
            "p-sound",
            """\
    params:
      a: {values: [1, 2, 4]}
      b: {min: 1, max: 3, step: 0.5}
    derived:
      q: {formula: a / b, significant: 3}
    answer: q
    relative_tolerance: 0.01
""",
        ),
    ]
)

EXPECTED = """\
quizzes/lesson-one.yml:87:15: questions[10].answer: divides by zero when a = 1, b = 0 (change the formula or the parameters' ranges, or add a constraint)
quizzes/lesson-one.yml:98:19: questions[11].constraints[0]: no draw meets this constraint (tried 2 draws) (widen the parameters' values or loosen the constraint)
quizzes/lesson-one.yml:112:18: questions[12].constraints: no draw meets all the constraints together (tried 4 draws) (loosen one of them)
quizzes/lesson-one.yml:126:34: questions[13].options[1].value: this distractor equals the right answer (4 and 4) when a = 2, b = 1 (add a constraint that keeps them apart, or choose another mistake to compute)
quizzes/lesson-one.yml:137:13: questions[14].answer: from the numbers as the prompt prints them the answer is 2.94118, not 2.98507, outside the tolerance, when a = 3.35, b = 10 (give the parameters more `decimals`, or widen the tolerance)
quizzes/lesson-one.yml:141:13: questions[15].prompt: the prompt shows none of the parameters, so every draw asks the same question (write them into the prompt as `{name}`)
quizzes/lesson-one.yml:152:13: questions[16].prompt: the prompt reads the same for every draw (2 draws) (give the parameters it shows more than one value)
quizzes/lesson-one.yml:170:13: questions[17].answer: the answer is 0.3333333333333333 when a = 1, b = 3: no one can type it exactly (give a `tolerance` or a `relative_tolerance`)
8 problems in 1 file
"""


def test_the_sweep_catches_each_problem_where_it_is(make_course: MakeCourse) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + BROKEN})
    result = run(root, "validate")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == EXPECTED


def test_a_sound_parameterised_bank_passes(make_course: MakeCourse) -> None:
    sound = BROKEN[BROKEN.index("  - id: p-sound") :]
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + sound})
    result = run(root, "validate")
    assert (result.returncode, result.stdout) == (
        0,
        "checked 1 bank (11 questions) and 1 lesson: no problems found\n",
    )


def test_a_large_whole_number_answer_can_be_typed_exactly(make_course: MakeCourse) -> None:
    exact = question(
        "p-whole",
        """\
    params:
      a: {values: [123456789, 987654321]}
      b: {values: [1, 2]}
    answer: a * b
""",
    )
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + exact})
    result = run(root, "validate")
    assert (result.returncode, result.stdout) == (
        0,
        "checked 1 bank (11 questions) and 1 lesson: no problems found\n",
    )


def test_a_large_space_is_sampled_and_a_small_one_swept_whole() -> None:
    data: dict[str, Any] = {
        "id": "big",
        "params": {name: {"min": 1, "max": 10, "step": 1} for name in ("a", "b", "c", "d")},
    }
    space = variants.Space(data)
    assert space.size == 10_000
    tried = sweep.draws(space, "big")
    assert len(tried) == sweep.SAMPLE >= 200 and len(set(tried)) == sweep.SAMPLE
    assert tried == sweep.draws(space, "big")  # seeded: the same every run
    small = variants.Space({"id": "small", "params": {"a": {"values": [1, 2, 3]}}})
    assert sweep.draws(small, "small") == [0, 1, 2]


def test_the_answer_key_self_test_runs_on_drawn_variants(
    make_course: MakeCourse, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course(
        {"quizzes/lesson-one.yml": FULL_BANK + BROKEN[BROKEN.index("  - id: p-sound") :]}
    )
    graded: list[float] = []
    real = registry.grade

    def grade(question: Any, response: Any) -> Grade:
        if question.id == "p-sound":
            graded.append(question.value())  # a plain question: its draw's answer
            return Grade(0.0, 1.0, False)
        return real(question, response)

    monkeypatch.setattr(registry, "grade", grade)
    found = course.read_course(root).problems
    (problem,) = found
    assert problem.message.startswith(
        "questions[10]: answer-key self-test failed: the key scores 0 of 1 (when a = "
    )
    assert graded and not any(isinstance(v, str) for v in graded)
