"""Moodle XML export, parsed back and compared question by question with the bank.

No registry package reads Moodle XML fully (moodle-xml-parser reads only multichoice
and cloze), so these tests read it with ElementTree against Moodle's documented format.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from xml.etree import ElementTree as ET

import pytest

from lessonkit.export import calculated, moodle
from lessonkit.export.common import Source, fixed_variants, html_text
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion as Question
from lessonkit.questiontypes.match import Match as MatchQuestion
from lessonkit.questiontypes.multiple import Multiple as MultipleQuestion
from lessonkit.questiontypes.numeric import Numeric as NumericQuestion
from lessonkit.questiontypes.options import ChoiceQuestion
from lessonkit.questiontypes.order import Order as OrderQuestion
from lessonkit.questiontypes.text import Text as TextQuestion
from lessonkit.questiontypes.truefalse import TrueFalse as TrueFalseQuestion
from test_export_common import every_type, hostile, real_bank

# Moodle's grade list (question_bank::fraction_options_full), as percentages: an imported
# fraction that is not one of these is rounded to the nearest by Moodle's importer.
MOODLE_GRADES = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0]  # fmt: skip


def parse(source: Source) -> dict[str, ET.Element]:
    root = ET.fromstring(moodle.convert(source).data)
    assert root.tag == "quiz"
    category, *questions = root
    assert category.get("type") == "category"
    return {q.findtext("name/text") or "": q for q in questions if q.get("type") != "category"}


def exported(source: Source) -> list[Question]:
    """The questions Moodle gets: a parameterised one as itself (calculated) or as variants."""
    found: list[Question] = []
    for question in source.questions:
        if not getattr(question, "params", None) or calculated.unfit(question) is None:
            found.append(question)
        else:
            found += fixed_variants(question)
    return found


def check(question: Question, element: ET.Element, source: Source) -> None:
    """One question written by the exporter says what the bank says."""
    if getattr(question, "params", None):
        assert element.get("type") == "calculated"
        assert element.findtext("idnumber") == question.id
        return  # its answer and datasets: test_a_numeric_question_with_parameters_is_calculated
    assert element.get("type") == registry.named(question.type).moodle_type
    assert element.findtext("idnumber") == question.id
    assert float(element.findtext("defaultgrade") or 0) == question.points
    assert (element.findtext("questiontext/text") or "").startswith(html_text(question.prompt))
    assert element.find("questiontext").get("format") == "html"  # type: ignore[union-attr]
    general = element.findtext("generalfeedback/text") or ""
    assert general.startswith(html_text(question.explanation))
    assert element.findtext("hint/text") == (html_text(question.hint) if question.hint else None)
    answers = element.findall("answer")
    if isinstance(question, ChoiceQuestion):
        assert element.findtext("single") == str(not isinstance(question, MultipleQuestion)).lower()
        assert [a.findtext("text") for a in answers] == [
            html_text(o.text, inline=True) for o in question.options
        ]
        fractions = [float(a.get("fraction") or "nan") for a in answers]
        for fraction in fractions:
            assert min(abs(abs(fraction) - g) for g in MOODLE_GRADES) < 1e-4
        if isinstance(question, MultipleQuestion):
            # lessonkit's rule: (right chosen - wrong chosen) / right, floored at 0.
            right = sum(o.correct for o in question.options)
            assert fractions == pytest.approx(
                [100 / right if o.correct else -100 / right for o in question.options], abs=1e-4
            )
        else:
            assert fractions == [100.0 if o.correct else 0.0 for o in question.options]
        assert [a.findtext("feedback/text") for a in answers] == [
            html_text(o.feedback) if o.feedback else None for o in question.options
        ]
    elif isinstance(question, TrueFalseQuestion):
        given = {a.findtext("text"): a.get("fraction") for a in answers}
        assert given == {"true": "100" if question.answer else "0",
                         "false": "0" if question.answer else "100"}  # fmt: skip
    elif isinstance(question, NumericQuestion):
        (answer,) = answers
        assert float(answer.findtext("text") or "nan") == question.value()
        tolerance = float(answer.findtext("tolerance") or "nan")
        assert tolerance == pytest.approx(max(question.tolerance or 0, (
            question.relative_tolerance or 0) * abs(question.value())))  # fmt: skip
    elif isinstance(question, TextQuestion):
        assert element.findtext("usecase") == ("1" if question.case_sensitive else "0")
        texts = [(a.findtext("text") or "").replace("\\*", "*") for a in answers]
        assert texts == list(question.accept)
    elif isinstance(question, OrderQuestion):
        assert [html.unescape(a.findtext("text") or "") for a in answers] == list(question.items)
        assert element.findtext("gradingtype") == (
            "RELATIVE_NEXT_EXCLUDE_LAST" if question.scoring == "partial" else "ALL_OR_NOTHING"
        )
    else:
        assert isinstance(question, MatchQuestion)
        pairs = [(html.unescape(s.findtext("text") or ""), s.findtext("answer/text"))
                 for s in element.findall("subquestion")]  # fmt: skip
        assert pairs == [(p.left, p.right) for p in question.pairs] + [
            ("", d) for d in question.distractors
        ]


@pytest.mark.parametrize("make", [every_type, hostile, real_bank], ids=lambda f: f.__name__)
def test_every_question_reads_back_as_written(make: Callable[[], Source]) -> None:
    source = make()
    found = parse(source)
    assert list(found) == [q.id for q in exported(source)]
    for question in exported(source):
        check(question, found[question.id], source)


def test_the_category_is_named_after_the_bank() -> None:
    root = ET.fromstring(moodle.convert(every_type()).data)
    assert root[0].findtext("category/text") == "$course$/top/lessonkit/Every type"


def test_a_literal_star_is_escaped_for_short_answers() -> None:
    answers = parse(every_type())["ex-text"].findall("answer")
    assert [a.findtext("text") for a in answers] == ["XLA", "a\\*b"]


def test_the_hostile_bank_keeps_no_script() -> None:
    data = moodle.convert(hostile()).data.decode()
    assert "<script" not in data and "&lt;script" not in data
    assert "onerror" not in data and "onclick" not in data
    assert "日本語 עברית 🚀" in data


def test_the_lesson_link_follows_the_explanation() -> None:
    general = parse(every_type())["ex-single"].findtext("generalfeedback/text")
    assert general == (
        '<p>Because b.</p><p>Re-read: <a href="https://courses.test/test-plan/lesson-one/'
        '#1-first-idea">First idea</a></p>'
    )


DRAWN = """\
lesson: lesson-one
title: Drawn
pass_mark: 0.5
questions:
  - id: floor
    type: numeric
    prompt: "A model with {size_b} billion parameters on {gpus} GPUs of {tb_s} TB/s. Floor, in ms?"
    insight: 1
    section: 1-first-idea
    explanation: "{gb} GB ÷ {tb_s} TB/s ≈ {ms} ms."
    params:
      size_b: {values: [8, 70]}
      gpus: {values: [1, 8]}
      tb_s: {values: [3.35, 4.8]}
    derived:
      gb: {formula: 2 * size_b}
      ms: {formula: gb / (gpus * tb_s), significant: 3}
    constraints: ["2 * size_b < gpus * 80"]
    answer: ms ** 1
    relative_tolerance: 0.02
    unit: ms
  - id: ridge
    type: numeric
    prompt: "{chip}: ridge point?"
    insight: 1
    section: 1-first-idea
    explanation: Divide.
    params:
      chip: {cases: {H100 SXM: {tflops: 989, tb_s: 3.35}, B200: {tflops: 2250, tb_s: 7.7}}}
    answer: tflops / tb_s
    relative_tolerance: 0.02
"""


def test_a_numeric_question_with_parameters_is_calculated() -> None:
    from lessonkit.bank import variants
    from test_export_common import make_source

    source = make_source(DRAWN)
    exported = moodle.convert(source)
    root = ET.fromstring(exported.data)
    (floor,) = [q for q in root if q.findtext("name/text") == "floor"]
    assert floor.get("type") == "calculated"
    assert (floor.findtext("questiontext/text") or "").startswith(
        "<p>A model with {size_b} billion parameters on {gpus} GPUs of {tb_s} TB/s."
    )
    answer = floor.find("answer")
    assert answer is not None and answer.get("fraction") == "100"
    assert answer.findtext("text") == "pow(((2 * {size_b}) / ({gpus} * {tb_s})), 1)"
    assert (answer.findtext("tolerance"), answer.findtext("tolerancetype")) == ("0.02", "1")
    datasets = {
        d.findtext("name/text"): [
            i.findtext("value") for i in d.iterfind("dataset_items/dataset_item")
        ]
        for d in floor.iterfind("dataset_definitions/dataset_definition")
    }
    # Every number the texts show, and every parameter the formula reads; items go together.
    assert set(datasets) == {"size_b", "gpus", "tb_s", "gb", "ms"}
    question = source.bank.questions[0]
    drawn = variants.sample(question.model_dump(mode="json"), 12, "site/floor")
    assert len({len(items) for items in datasets.values()}) == 1 == len(set(map(len, [drawn])))
    for n, numbers in enumerate(drawn):
        size_b, gpus = float(datasets["size_b"][n] or 0), float(datasets["gpus"][n] or 0)
        assert 2 * size_b < gpus * 80  # each item keeps the constraint
        assert datasets["ms"][n] == variants.Space(question.model_dump(mode="json")).written(
            "ms", 2 * float(numbers["size_b"]) / (float(numbers["gpus"]) * float(numbers["tb_s"]))
        )
    for definition in floor.iterfind("dataset_definitions/dataset_definition"):
        # What Moodle's importer reads of each (qformat_xml::import_calculated).
        for path in ("status/text", "type", "distribution/text", "minimum/text", "maximum/text",
                     "decimals/text", "itemcount", "number_of_items"):  # fmt: skip
            assert definition.findtext(path), path
    # A question that shows a case's name becomes fixed variants in a category of its own.
    categories = [c.findtext("category/text") for c in root if c.get("type") == "category"]
    assert categories == ["$course$/top/lessonkit/Drawn", "$course$/top/lessonkit/Drawn/ridge",
                          "$course$/top/lessonkit/Drawn"]  # fmt: skip
    assert [str(loss) for loss in exported.losses] == [
        "ridge: draws new numbers, but its texts show a case's name, and Moodle's wildcards are "
        "numbers: exported as 2 fixed variants in the category ridge; add a random question "
        "from it to draw one"
    ]
