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


# --- the prompt shows what the answer needs -------------------------------------------------

NEEDS = "".join(
    [
        question(
            "n-hidden",
            """\
    params:
      words: {values: [600, 900, 1200]}
      rate: {values: [200, 300]}
    answer: words / rate
    relative_tolerance: 0.01
""",
            prompt='"At {rate} words a minute, how many minutes does the page take?"',
        ),
        question(
            "n-hidden-option",
            """\
    params:
      a: {values: [1, 2, 3]}
      b: {values: [10, 20]}
    options:
      - {text: "{value}", value: a * b, correct: true}
      - {text: "{value}", value: a * b + 100}
""",
            prompt='"What is {a} times the other number?"',
            kind="single",
        ),
        question(
            "n-sum",
            """\
    params:
      a: {values: [1, 2, 3]}
      b: {values: [1, 2, 3]}
    derived:
      total: {formula: a + b}
    answer: a * b
    tolerance: 0
""",
            prompt='"Two numbers add up to {total}. What is their product?"',
        ),
        question(
            "n-large",
            """\
    params:
      a: {min: 1, max: 100, step: 1}
      b: {min: 1, max: 100, step: 1}
      c: {values: [2, 3]}
    answer: a * b * c
    tolerance: 0
""",
        ),
    ]
)

NEEDS_EXPECTED = """\
quizzes/lesson-one.yml:87:13: questions[10].answer: the answer depends on `words`, which the prompt does not show: the prompt reads the same when words = 600, rate = 200 and when words = 900, rate = 200, but the answer is 3 and 4.5 (show it in the prompt as `{words}`, or compute the answer only from numbers the prompt shows)
quizzes/lesson-one.yml:91:13: questions[11].prompt: the answer depends on `b`, which the prompt does not show: the prompt reads the same when a = 1, b = 10 and when a = 1, b = 20, but the answer is 10 and 20 (show it in the prompt as `{b}`, or compute the answer only from numbers the prompt shows)
quizzes/lesson-one.yml:112:13: questions[12].answer: the numbers the prompt shows do not settle the answer: it reads the same when a = 1, b = 3 and when a = 2, b = 2, but the answer is 3 and 4 (show in the prompt, as `{name}`, every number the answer needs)
quizzes/lesson-one.yml:124:13: questions[13].answer: the answer depends on `c`, which the prompt does not show: the prompt reads the same when a = 41, b = 41, c = 3 and when a = 41, b = 41, c = 2, but the answer is 5,043 and 3,362 (show it in the prompt as `{c}`, or compute the answer only from numbers the prompt shows)
4 problems in 1 file
"""


def test_every_number_the_answer_needs_is_in_the_prompt(make_course: MakeCourse) -> None:
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + NEEDS})
    result = run(root, "validate")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == NEEDS_EXPECTED


def test_a_number_that_follows_from_what_is_shown_is_enough(make_course: MakeCourse) -> None:
    derivable = question(
        "n-derivable",
        """\
    params:
      words: {values: [600, 900, 1200]}
      rate: {values: [200, 300]}
    derived:
      pages: {formula: words / 300}
    answer: words / rate
    relative_tolerance: 0.01
""",
        prompt='"A text of {pages} pages (300 words each) at {rate} words a minute: minutes?"',
    )
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + derivable})
    result = run(root, "validate")
    assert (result.returncode, result.stdout) == (
        0,
        "checked 1 bank (11 questions) and 1 lesson: no problems found\n",
    )


@pytest.mark.parametrize(
    ("prompt", "kind", "body", "expected"),
    [
        ('"What is {{params.a}} and {b}?"', "numeric", "", "questions[10].prompt: "
         "`{{params.a}}` is another tool's template syntax, which lessonkit would print as it "
         "is (write `{a}`)"),
        ('"What is {{ a }} and {b}?"', "numeric", "", "questions[10].prompt: `{{ a }}` is "
         "another tool's template syntax, which lessonkit would print as it is (write `{a}`)"),
        ('"What is {params.a} and {b}?"', "numeric", "", "questions[10].prompt: `{params.a}` "
         "is another tool's template syntax, which lessonkit would print as it is (write `{a}`)"),
        ('"What is <%= a %> and {b}?"', "numeric", "", "questions[10].prompt: `<%= a %>` is "
         "another tool's template syntax, which lessonkit would print as it is (write `{a}`)"),
        ('"What is {a} and {b}, {=a+b}?"', "numeric", "", "questions[10].prompt: `{=…}` is "
         "Moodle's formula syntax, which lessonkit prints as it is (compute it under "
         "`derived:` and write `{name}`)"),
        ('"Which is {{params.x}}?"', "single", "fixed", "questions[10].prompt: `{{params.x}}` "
         "is another tool's template syntax, and this question draws no numbers, so it would "
         "be printed as it is (declare `x` under `params` and write `{x}`, or write the number "
         "itself)"),
    ],
    ids=["prairielearn", "mustache", "dotted", "erb", "moodle-formula", "fixed"],
)  # fmt: skip
def test_another_tools_template_syntax_gets_the_form_to_write(
    make_course: MakeCourse, prompt: str, kind: str, body: str, expected: str
) -> None:
    if body == "fixed":
        text = question("t-foreign", "    options:\n      - {text: yes, correct: true}\n"
                        "      - {text: no}\n", prompt=prompt, kind=kind)  # fmt: skip
    else:
        text = question("t-foreign", "    params:\n      a: {values: [1, 2]}\n"
                        "      b: {values: [3, 4]}\n    answer: a + b\n    tolerance: 0\n",
                        prompt=prompt)  # fmt: skip
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + text})
    result = run(root, "validate")
    (line, summary) = result.stdout.splitlines()
    assert line.split(": ", 1)[1] == expected
    assert summary == "1 problem in 1 file"


def test_a_price_and_code_are_not_another_tools_syntax(make_course: MakeCourse) -> None:
    text = question("t-price", "    params:\n      a: {values: [1, 2]}\n"
                    "      b: {values: [3, 4]}\n    answer: a + b\n    tolerance: 0\n",
                    prompt='"A {a} kg box costs ${b}; in Jinja, `{{ a }}` prints a. Total?"')  # fmt: skip
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + text})
    assert run(root, "validate").returncode == 0
