"""The answer-key self-test: a question's key must earn full marks, and a wrong answer not.

``course`` runs it on every question of every bank it reads, as one of the checks that
keep a course correct; a parameterised question is tried on a few seeded draws.
"""

from __future__ import annotations

import dataclasses
import random

from lessonkit.bank import variants, yamldoc
from lessonkit.bank.expressions import EvaluationError
from lessonkit.bank.questions import Question
from lessonkit.errors import Problem
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import DrawnQuestion, RuntimeQuestion

SELF_TEST_DRAWS = 2  # draws of a parameterised question the self-test tries


def _self_test_draws(
    document: yamldoc.Document, index: int, question: DrawnQuestion
) -> list[Problem]:
    """The answer-key self-test on a few seeded draws of a parameterised question."""
    data = registry.as_json(question)
    space, rng = variants.Space(data), random.Random(f"self-test/{question.id}")
    tried: list[variants.Variant] = []
    for _ in range(min(SELF_TEST_DRAWS, space.size)):
        try:
            variant = space.draw(rng, avoid=tried)
            tried.append(variant)
            plain = registry.drawn(question, variant, space=space)
        except (variants.DrawError, EvaluationError):
            return []  # the `parameters` sweep says which formula, options and draw
        found = _key_test(document, index, plain)
        if found:
            when = f" (when {variants.shown_numbers(data, variant)})"
            return [dataclasses.replace(p, message=p.message + when) for p in found]
    return []


def self_test(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """The answer key must earn full marks and, where one exists, a wrong answer must not."""
    runtime = registry.runtime(question)
    if isinstance(runtime, DrawnQuestion) and runtime.params:
        return _self_test_draws(document, index, runtime)
    return _key_test(document, index, runtime)


def _key_test(document: yamldoc.Document, index: int, question: RuntimeQuestion) -> list[Problem]:
    loc = ("questions", index)
    key = registry.answer_key(question)
    if key is not None:
        result = registry.grade(question, key)
        if result.score < result.max_score:
            return [
                document.problem(
                    loc,
                    f"questions[{index}]: answer-key self-test failed: the key "
                    f"scores {result.score:g} of {result.max_score:g}",
                    "check the answer, its tolerance or accepted answers",
                )
            ]
    wrong = registry.wrong_responses(question)
    if wrong and all(registry.grade(question, w).score >= question.points for w in wrong):
        return [
            document.problem(
                loc,
                f"questions[{index}]: answer-key self-test failed: "
                "no wrong answer scores less than full marks",
                "make sure the options, items or pairs really differ",
            )
        ]
    return []
