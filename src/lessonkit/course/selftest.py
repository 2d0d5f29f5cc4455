"""The answer-key self-test: a question's key must earn full marks, and a wrong answer not.

``course`` runs it on every question of every bank it reads, as one of the checks that
keep a course correct; a parameterised question is tried on a few seeded draws.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

from lessonkit.bank import expressions, variants, yamldoc
from lessonkit.bank.expressions import EvaluationError
from lessonkit.bank.parameters import Parameterised
from lessonkit.bank.questions import ChoiceQuestion, NumericQuestion, Question
from lessonkit.errors import Problem
from lessonkit.grading import grader

SELF_TEST_DRAWS = 2  # draws of a parameterised question the self-test tries


def _self_test_draws(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """The answer-key self-test on a few seeded draws of a parameterised question."""
    data = question.model_dump(mode="json")
    space, rng = variants.Space(data), random.Random(f"self-test/{question.id}")
    tried: list[variants.Variant] = []
    for _ in range(min(SELF_TEST_DRAWS, space.size)):
        try:
            variant = space.draw(rng, avoid=tried)
            tried.append(variant)
            plain = _drawn_key(question, space.values(variant))
        except (variants.DrawError, EvaluationError):
            return []  # the `parameters` sweep says which formula, options and draw
        found = _key_test(document, index, plain)
        if found:
            when = f" (when {variants.shown_numbers(data, variant)})"
            return [dataclasses.replace(p, message=p.message + when) for p in found]
    return []


def _drawn_key(question: Question, values: Mapping[str, float | str]) -> Question:
    """What grading reads of one draw: its computed answer. Texts and options' values never
    decide which response is right, so the draw is not rendered into a whole question (and
    validated again): 0.4 s of a 10,000-question bank's 3.3 s validate."""
    numeric = {k: float(v) for k, v in values.items() if not isinstance(v, str)}
    for option in question.options if isinstance(question, ChoiceQuestion) else ():
        if option.value is not None:  # a formula that fails for this draw: as rendering does
            expressions.parse(option.value).value(numeric)
    if isinstance(question, NumericQuestion) and isinstance(question.answer, str):
        answer = expressions.parse(question.answer).value(numeric)
        return question.model_copy(update={"answer": answer})
    return question


def self_test(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    """The answer key must earn full marks and, where one exists, a wrong answer must not."""
    if isinstance(question, Parameterised) and question.params:
        return _self_test_draws(document, index, question)
    return _key_test(document, index, question)


def _key_test(document: yamldoc.Document, index: int, question: Question) -> list[Problem]:
    loc = ("questions", index)
    key = grader.answer_key(question)
    if key is not None:
        result = grader.grade(question, key)
        if result.score < result.max_score:
            return [
                document.problem(
                    loc,
                    f"questions[{index}]: answer-key self-test failed: the key "
                    f"scores {result.score:g} of {result.max_score:g}",
                    "check the answer, its tolerance or accepted answers",
                )
            ]
    wrong = grader.wrong_responses(question)
    if wrong and all(grader.grade(question, w).score >= question.points for w in wrong):
        return [
            document.problem(
                loc,
                f"questions[{index}]: answer-key self-test failed: "
                "no wrong answer scores less than full marks",
                "make sure the options, items or pairs really differ",
            )
        ]
    return []
