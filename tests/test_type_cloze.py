"""`cloze`: reading, grading, words, exports and widget data, through the registry."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lessonkit.bank.questions import question_adapter
from lessonkit.errors import ContentError
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError
from lessonkit.questiontypes.cloze import Cloze

BASE = {"id": "hbm", "type": "cloze", "insight": 1, "section": "s", "explanation": "Because."}
PROMPT = "A TPU v4 chip has [[1]] GB of HBM, reached through its [[2]]."
BLANKS = [
    {"answer": 32, "tolerance": 1, "unit": "GB"},
    {"accept": ["memory controller"], "patterns": ["HBM ?controller"]},
]


def question(**fields: Any) -> Cloze:
    data = BASE | {"prompt": PROMPT, "blanks": BLANKS} | fields
    found = registry.runtime(question_adapter().validate_python(data))
    assert isinstance(found, Cloze)
    return found


def kind() -> Any:
    return registry.named("cloze")


@pytest.mark.parametrize(
    ("typed", "response"),
    [
        ("32; memory controller", (32.0, "memory controller")),
        ("31,5 GB;HBM controller", (31.5, "HBM controller")),
        ("32;", (32.0, None)),
        (" ; the memory controller.", (None, "the memory controller.")),
    ],
)
def test_parse(typed: str, response: tuple[Any, ...]) -> None:
    assert registry.parse(question(), typed, ()) == response


def test_a_semicolon_inside_an_answer_is_written_with_a_backslash() -> None:
    blanks = [{"accept": ["a; b"]}, {"accept": ["c"]}]
    found = question(prompt="[[1]] and [[2]]", blanks=blanks)
    assert registry.parse(found, r"a\; b; c", ()) == ("a; b", "c")
    assert kind().shown(found, ("a; b", "c"), ()) == r"a\; b; c"
    assert registry.grade(found, ("a; b", "c")).correct


def test_one_blank_takes_the_whole_line() -> None:
    found = question(prompt="The unit is the [[1]].", blanks=[{"accept": ["a;b"]}])
    assert registry.parse(found, "a;b", ()) == ("a;b",)
    assert kind().expected_form(found) == "Type your answer."


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("32", "That is 1 answer for 2 blanks. Separate them with `;`, e.g. `…; …` "
               "(`\\;` for a semicolon inside an answer)."),
        ("1; 2; 3", "That is 3 answers for 2 blanks. Separate them with `;`, e.g. `…; …` "
                    "(`\\;` for a semicolon inside an answer)."),
        (";", "Nothing was typed in any blank. Type the 2 blanks in order on one line, "
              "separated by `;` ([[1]] a number in GB, [[2]] a word or phrase); leave one "
              "empty to skip it."),
        ("lots; memory controller", "[[1]]: `lots` is not a number. Type digits such as "
                                    "`2.5` or `2,5`, optionally followed by GB."),
        ("", "Nothing was typed. Type the 2 blanks in order on one line, separated by `;` "
             "([[1]] a number in GB, [[2]] a word or phrase); leave one empty to skip it."),
    ],
)  # fmt: skip
def test_parse_refuses(typed: str, message: str) -> None:
    with pytest.raises(ResponseError) as refused:
        registry.parse(question(), typed, ())
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("response", "score", "marks"),
    [
        ((32.0, "memory controller"), 2.0, [True, True]),
        ((31.2, "HBM controller"), 2.0, [True, True]),  # tolerance, pattern
        ((34.0, "memory controller"), 1.0, [False, True]),
        ((32.0, None), 1.0, [True, False]),
        ((None, "cache"), 0.0, [False, False]),
    ],
)
def test_grade_gives_credit_per_blank(
    response: tuple[Any, ...], score: float, marks: list[bool]
) -> None:
    found = question(points=2)
    graded = registry.grade(found, response)
    assert (graded.score, graded.max_score, graded.correct) == (score, 2.0, score == 2.0)
    assert kind().part_marks(found, response) == marks


def test_all_or_nothing() -> None:
    found = question(scoring="all_or_nothing")
    assert registry.grade(found, (32.0, "cache")).score == 0.0
    assert registry.grade(found, (32.0, "memory controller")).score == 1.0


def test_a_number_blank_keeps_the_numeric_types_hint() -> None:
    found = question(prompt="[[1]] of the chip is idle.", blanks=[{"answer": 40, "unit": "%"}])
    assert registry.grade(found, (0.4,)).feedback == (
        "The unit is %: your 0.4 means 0.4 %. A share of 0.4 is 40 %.",
    )


def test_a_wrong_shape_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="one entry per blank"):
        registry.grade(question(), (32.0,))
    with pytest.raises(TypeError):
        registry.grade(question(), [32.0, "x"])  # type: ignore[arg-type]


def test_key_wrong_answers_and_hash() -> None:
    found = question()
    assert registry.answer_key(found) == (32.0, "memory controller")
    assert registry.grade(found, registry.answer_key(found)).correct  # type: ignore[arg-type]
    assert all(not registry.grade(found, r).correct for r in registry.wrong_responses(found))
    assert registry.key_hash(found) != registry.key_hash(
        question(prompt="[[1]] [[2]]", blanks=BLANKS[::-1])
    )
    assert registry.key_hash(found) == registry.key_hash(question(prompt="Reworded [[1]], [[2]]."))
    patterns_only = question(blanks=[BLANKS[0], {"patterns": ["x+"]}])
    assert registry.answer_key(patterns_only) is None


def test_words() -> None:
    found = question()
    response = registry.parse(found, "1 000; cache", ())
    assert kind().shown(found, response, ()) == "1000 GB; cache"
    assert kind().described(found, response, ()) == ["[[1]] 1 000 (read as 1000 GB)", "[[2]] cache"]
    assert kind().described(found, (None, "cache"), ()) == ["[[1]] (left empty)", "[[2]] cache"]
    assert kind().key_described(found) == ["[[1]] 32 GB", "[[2]] memory controller"]
    assert registry.from_json(found, registry.to_json(found, (32.5, None))) == (32.5, None)
    assert registry.to_json(found, (32.5, None)) == [32.5, None]


def test_widget_key_holds_each_blanks_own_key() -> None:
    assert registry.widget_key(question(scoring="all_or_nothing")) == {
        "type": "cloze", "points": 1.0, "scoring": "all_or_nothing",
        "blanks": [
            # A tolerance of 1 lets the answer have decimals, so a lone `,` or `.` before three
            # digits is asked about (`either`), as for a numeric question.
            {"type": "numeric", "points": 1.0, "answer": 32.0, "tolerance": 1.0, "unit": "GB",
             "decimal_mark": "either"},
            {"type": "text", "points": 1.0, "accept": ["memory controller"],
             "patterns": ["HBM ?controller"]},
        ],
        "uses": ["numeric", "text"],
    }  # fmt: skip


# --- the format: markers and blanks agree, or an error at file:line:col -----------------


def bank_problems(tmp_path: Path, prompt: str, blanks: str) -> str:
    from lessonkit.bank.loader import load_bank

    path = tmp_path / "b.yml"
    path.write_text(
        "lesson: l\ntitle: T\npass_mark: 0.5\nquestions:\n  - id: q\n    type: cloze\n"
        f"    prompt: {prompt}\n    insight: 1\n    section: s\n    explanation: E.\n"
        f"    blanks:\n{blanks}",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as refused:
        load_bank(path)
    return str(refused.value).replace(str(path), "b.yml")


TWO = "      - answer: 1\n      - accept: [a]\n"


@pytest.mark.parametrize(
    ("prompt", "blanks", "said"),
    [
        ("A [[1]] and [[3]].", TWO,
         "b.yml:7:25: questions[0].prompt: `[[3]]` has no blank: `blanks` lists 2 (add its "
         "answer to `blanks`, or number the blanks `[[1]]`, `[[2]]`…)"),
        ("|\n      First [[2]],\n      then [[1]].", TWO,
         "b.yml:8:13: questions[0].prompt: `[[2]]` comes before `[[1]]` (number the blanks "
         "in reading order: the first one in the prompt is `[[1]]`)"),
        ("A [[1]] and [[1]].", TWO,
         "b.yml:7:25: questions[0].prompt: `[[1]]` appears twice (give each blank its own "
         "number, in reading order)"),
        ("A [[ 1 ]].", "      - answer: 1\n",
         "b.yml:7:15: questions[0].prompt: `[[ 1 ]]` has spaces (write `[[1]]`, without spaces)"),
        ("A [[1]].", TWO,
         "b.yml:13:9: questions[0].blanks[1]: the prompt has no `[[2]]` for blank 2 of 2 "
         "(write `[[2]]` where that blank goes, or remove its answer from `blanks`)"),
        ("The [[TPU]] is fast.", "      - accept: [TPU]\n",
         "b.yml:7:17: questions[0].prompt: `[[TPU]]` is not a numbered blank (write `[[1]]` "
         "where the blank goes and give `TPU` as the first blank's `accept` under `blanks:`)"),
        ("No blank.", "      - accept: [TPU]\n",
         "b.yml:7:13: questions[0].prompt: the prompt marks no blank (write `[[1]]` where the "
         "blanks go, in reading order)"),
        ("A [[1]].", "      - answer: 1\n        accept: [a]\n",
         "b.yml:13:9: questions[0].blanks[0].accept: unknown field `accept` (allowed: "
         "tolerance, relative_tolerance, unit, decimal_mark, answer)"),
        ("A [[1]].", "      - case_sensitive: true\n",
         "b.yml:12:9: questions[0].blanks[0]: give at least one accepted answer in `accept` "
         "or `patterns`"),
    ],
)  # fmt: skip
def test_markers_must_match_the_blanks(tmp_path: Path, prompt: str, blanks: str, said: str) -> None:
    assert bank_problems(tmp_path, prompt, blanks) == said


# --- imports: Moodle's embedded answers, mkdocs-quiz's blanks ---------------------------

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
# Written here in the syntax Moodle's documentation gives for embedded answers.
MULTIANSWER = """<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="multianswer"><name><text>Darwin</text></name>
<questiontext format="html"><text><![CDATA[<p>Darwin sailed on the
{1:SHORTANSWER:=Beagle~=HMS Beagle#Right~%50%Bigel}, Brazil has {2:NUMERICAL:=26:1}
states, the {1:MULTICHOICE:=Amazon~Nile} is long; {1:SAC:=a\\}b~=c\\~d}.</p>]]></text>
</questiontext><generalfeedback format="html"><text>Because.</text></generalfeedback>
</question></quiz>"""


def imported(path: Path, fmt: str) -> tuple[list[dict[str, Any]], list[str]]:
    from lessonkit.imports import read

    found = read(path, fmt)
    return [d.fields for d in found.drafts], [f"{x.question}: {x.what}" for x in found.losses]


def test_moodle_embedded_answers_become_blanks(tmp_path: Path) -> None:
    (tmp_path / "darwin.xml").write_text(MULTIANSWER, encoding="utf-8")
    [fields], lost = imported(tmp_path / "darwin.xml", "moodle")
    assert fields["prompt"] == (
        "Darwin sailed on the\n[[1]], Brazil has [[2]]\nstates, the [[3]] is long; [[4]]."
    )
    assert fields["blanks"] == [
        {"accept": ["Beagle", "HMS Beagle"]},
        {"answer": 26.0, "tolerance": 1.0},
        {"accept": ["Amazon"]},
        {"accept": ["a}b", "c~d"], "case_sensitive": True},
    ]
    assert lost == [
        "Darwin: blank 1: partial credit for an answer; lessonkit's blanks are right or wrong",
        "Darwin: blank 1: feedback per answer; lessonkit shows the explanation",
        "Darwin: blank 3: MULTICHOICE choices; lessonkit's blanks are typed, the right choice "
        "accepted",
        "Darwin: blank weights: each blank counts the same in lessonkit",
    ]
    question_adapter().validate_python(fields | {"insight": 1, "section": "s"})


def test_moodles_own_cloze_fixture_imports() -> None:
    drafts, lost = imported(FIXTURES / "moodle/sample_questions_with_old_image_tag.xml", "moodle")
    cloze = drafts[0]
    assert cloze["prompt"].endswith("\\* Phoenix: [[4]]\nThe capital of France is [[5]].")
    assert [b["accept"] for b in cloze["blanks"]] == [
        ["California"], ["Arizona"], ["California"], ["Arizona"], ["Paris"]]  # fmt: skip
    assert lost[1:4] == [
        "cloze question with image: blanks 1, 2, 3, 4, 5: feedback per answer; lessonkit shows "
        "the explanation",
        "cloze question with image: blanks 1, 2, 3, 4: MULTICHOICE choices; lessonkit's blanks "
        "are typed, the right choice accepted",
        "cloze question with image: blank 5: partial credit for an answer; lessonkit's blanks "
        "are right or wrong",
    ]


def test_mkdocs_quiz_blanks_become_a_cloze() -> None:
    drafts, lost = imported(FIXTURES / "mkdocs-quiz/fill-in-blank.md", "mkdocs-quiz")
    python = drafts[1]
    assert python["prompt"] == "Python was created by [[1]] and first released in [[2]]."
    assert python["blanks"] == [{"accept": ["Guido van Rossum"]}, {"accept": ["1991"]}]
    assert python["scoring"] == "all_or_nothing"  # as mkdocs-quiz marks it
    assert lost == []
    for fields in drafts:
        question_adapter().validate_python(fields | {"insight": 1, "section": "s",
                                                     "explanation": "E."})  # fmt: skip


def test_canvas_fill_in_multiple_blanks_become_a_cloze() -> None:
    drafts, lost = imported(FIXTURES / "canvas/categorization_matching_fitb.xml", "qti")
    clozes = [d for d in drafts if d["type"] == "cloze"]
    assert [c["prompt"] for c in clozes][1:] == [
        "Fill in the blank 2 [[1]].",
        'In the sentence, **"Ty turned the ball over to the other team."**, "Ty" is the '
        "grammatical [[1]].",
    ]
    # Only the answers Canvas scores are accepted, not a dropdown's other choices.
    assert [c["blanks"] for c in clozes][1:] == [
        [{"accept": ["stem (correct answer)"]}], [{"accept": ["subject"]}]]  # fmt: skip
    assert lost[-1] == (
        "fitb2 (dropdown style) (attached to stim2): dropdown choices: lessonkit's blanks are "
        "typed, the right choice accepted"
    )


# --- export carry: each format's body, read back by our importers, or the loss ----------

CLOZE_BANK = """\
lesson: lesson-one
title: Clozes
pass_mark: 0.5
questions:
  - id: two-blanks
    type: cloze
    points: 2
    prompt: "A TPU v4 chip has [[1]] GB of HBM, reached through its [[2]]."
    insight: 1
    section: 1-first-idea
    explanation: Because.
    blanks:
      - {answer: 32, tolerance: 1, unit: GB}
      - {accept: [memory controller, "HBM}~#", "a<b & c"], patterns: ["HBM ?controller"]}
  - id: one-blank
    type: cloze
    prompt: "The unit that multiplies matrices is the [[1]]."
    insight: 1
    section: 1-first-idea
    explanation: Because.
    scoring: all_or_nothing
    blanks:
      - {accept: [MXU, matrix unit]}
"""


def cloze_export(to: str) -> tuple[bytes, list[str]]:
    from lessonkit.export import convert
    from test_export_common import make_source

    found = convert(make_source(CLOZE_BANK), to)
    return found.data, [f"{loss.question}: {loss.what}" for loss in found.losses]


def test_moodle_carries_each_blank_embedded_in_the_text(tmp_path: Path) -> None:
    data, lost = cloze_export("moodle")
    assert "{1:NUMERICAL:=32:1}" in data.decode()
    assert (
        "{1:SHORTANSWER:=memory controller~=HBM\\}\\~\\#~=a&amp;lt;b &amp;amp; c}" in data.decode()
    )
    # One blank scored all or nothing loses nothing: it is right or wrong anyway.
    assert lost[:1] == [
        "two-blanks: patterns: Moodle's cloze takes exact answers and `*` wildcards only"
    ]
    assert not [line for line in lost if line.startswith("one-blank")]
    (tmp_path / "back.xml").write_bytes(data)
    drafts, _ = imported(tmp_path / "back.xml", "moodle")
    assert drafts[0]["prompt"] == "A TPU v4 chip has [[1]] GB of HBM, reached through its [[2]]."
    assert drafts[0]["blanks"] == [
        {"answer": 32.0, "tolerance": 1.0},
        {"accept": ["memory controller", "HBM}~#", "a<b & c"]},
    ]


def test_qti_carries_canvas_fill_in_multiple_blanks(tmp_path: Path) -> None:
    data, lost = cloze_export("qti")
    assert lost[:2] == [
        "two-blanks: tolerance: Canvas's blanks compare text, so only the exact number counts",
        "two-blanks: patterns: Canvas compares exact answers only",
    ]
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = "".join(archive.read(n).decode() for n in archive.namelist() if n.endswith(".xml"))
    adds = re.findall(r'<setvar action="Add" varname="SCORE">([\d.]+)</setvar>', xml)
    assert adds == ["50", "50", "100"]  # each blank an equal share, adding up to 100
    (tmp_path / "back.zip").write_bytes(data)
    drafts, _ = imported(tmp_path / "back.zip", "qti")
    assert drafts[0]["prompt"] == "A TPU v4 chip has [[1]] GB of HBM, reached through its [[2]]."
    assert drafts[0]["blanks"] == [
        {"accept": ["32"]}, {"accept": ["memory controller", "HBM}~#", "a<b & c"]}]  # fmt: skip
    assert drafts[1]["blanks"] == [{"accept": ["MXU", "matrix unit"]}]


def test_gift_carries_one_blank_and_reports_several() -> None:
    data, lost = cloze_export("gift")
    assert "two-blanks: several blanks: GIFT's missing word holds one blank" in lost
    (block,) = [b for b in data.decode().split("\n\n") if b.startswith("// one-blank")]
    # GIFT's missing word: the answers stand where the blank is; Moodle shows a gap there.
    assert block.startswith(
        "// one-blank\n::one-blank::[plain]The unit that multiplies matrices is the {\n=MXU\n"
        "=matrix unit\n####Because."
    )
    assert block.rstrip().endswith("\n}.")
    # pygiftparser (GIFT's reader in Python) sees a short answer with text after the gap.
    import io
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pygiftparser import parser as giftparser

        (read,) = giftparser.parseFile(io.StringIO(block))
    assert (read.valid, read.text, read.tail) == (
        True,
        "The unit that multiplies matrices is the",
        ".",
    )
    assert [a.answer for a in read.answers.answers] == ["MXU", "matrix unit"]
    assert "// two-blanks" not in data.decode()


def test_anki_shows_the_blanks_answers() -> None:
    from lessonkit.export.anki import convert as anki
    from test_export_common import make_source

    assert not anki(make_source(CLOZE_BANK)).losses
    kind, found = registry.named("cloze"), question()

    class Kit:
        def escape(self, text: str) -> str:
            return text

    card = kind.anki(found, Kit())
    assert (card.options, card.answer) == (
        "Fill in the blanks.",
        "<b>Answers:</b><ol><li>[[1]] 32 GB</li><li>[[2]] memory controller</li></ol>",
    )


# --- the page: the widget under both engines ---------------------------------------------

PAGE_CLOZE = """\
  - id: hbm-cloze
    type: cloze
    points: 2
    prompt: |
      A TPU v4 chip has [[1]] GB of HBM, read through its
      `[[2]]`: a blank in code is still a blank.
    insight: 2
    section: 2-where-tpus-win
    explanation: Its datasheet says so.
    blanks:
      - {answer: 32, tolerance: 1, unit: GB}
      - {accept: [memory controller]}
"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_the_widget_on_the_page(page: Any, tmp_path: Path, engine: str) -> None:
    from sitebuilds import STAND_IN_BANK, build, build_zensical, make_stand_in, serve

    project = tmp_path / "project"
    make_stand_in(project, bank=STAND_IN_BANK + PAGE_CLOZE)  # no numeric or text question
    built = build(project, project / "site") if engine == "mkdocs" else build_zensical(project)
    assert built.returncode == 0, built.stderr
    with serve(project / "site") as url:
        page.goto(url + "/ai-hardware-fundamentals/gpu-vs-tpu/")
        question = page.locator("#lk-hbm-cloze")
        question.locator(".lk-check").wait_for()
        fields = question.locator(".lk-prompt input")
        # Each field stands where its marker stood, named for its blank.
        assert fields.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == [
            "Blank 1", "Blank 2"]  # fmt: skip
        assert question.locator(".lk-blanks").is_hidden()
        check = question.get_by_role("button", name="Check")
        fields.nth(0).fill("lots")
        check.click()
        assert question.locator(".lk-result").inner_text() == (
            "[[1]]: “lots” is not a number. Type digits such as “2.5” or “2,5”, optionally "
            "followed by GB."
        )
        fields.nth(0).fill("31,5")
        check.click()
        assert question.locator(".lk-result").inner_text() == (
            "◐ Partly correct: 1 of 2 points. [[1]]: read as 31.5 GB."
        )
        assert question.locator(".lk-mark").all_inner_texts() == ["✓"]  # an empty blank waits
        fields.nth(1).fill("the memory controller")
        fields.nth(1).press("Enter")
        right = "✓ Correct: 2 of 2 points. [[1]]: read as 31.5 GB."
        assert question.locator(".lk-result").inner_text() == right
        page.reload()
        question.locator(".lk-check").wait_for()
        assert fields.evaluate_all("els => els.map(e => e.value)") == [
            "31,5", "the memory controller"]  # fmt: skip
        assert question.locator(".lk-result").inner_text() == right
    # The blanks' own types come too, on a page without a numeric or text question.
    scripts = {u.rsplit("/", 1)[1] for u in page.requests if "/types/" in u}
    assert scripts == {"cloze.js", "numeric.js", "text.js", "single.js", "true_false.js"}
    assert all(u.startswith(url) for u in page.requests if u.startswith("http"))


def test_an_attempts_file_carries_a_cloze_response() -> None:
    """Class results read what `history --export` writes: one entry per blank, null empty."""
    from lessonkit.results.records import AttemptsLine

    response = registry.to_json(question(), (31.5, None))
    line = {"record": "answer", "learner": "l-6c173e38b930507d", "bank": "b",
            "bank_version": "1410b269f54d", "attempt": 1, "question": "hbm",
            "key_hash": registry.key_hash(question()), "response": response, "score": 0.5,
            "max_score": 1.0, "seconds": 3.4, "hints": 0, "params": None,
            "answered": "2026-11-27T19:22:21+00:00"}  # fmt: skip
    import json

    read = AttemptsLine.model_validate_json(json.dumps(line)).root
    assert registry.from_json(question(), read["response"]) == (31.5, None)  # type: ignore[index]


def test_class_results_count_wrong_answers_alike_blank_by_blank() -> None:
    kind, found = registry.named("cloze"), question()
    forms = [kind.wrong_form(found, registry.to_json(found, r)) for r in [
        (34.0, "The memory controller."), (34.0, "memory controller"), (None, "Cache")]]  # fmt: skip
    assert forms == ["[[1]] 34 GB; [[2]] ✓", "[[1]] 34 GB; [[2]] ✓", "[[1]] (empty); [[2]] cache"]


def test_validate_checks_a_number_blanks_precision(make_course: Any, monkeypatch: Any) -> None:
    """`precision` (an always-rule) reads each number a question asks for: a blank too."""
    from conftest import FULL_BANK
    from lessonkit.authoring.rulebook import check_course

    extra = (
        '  - id: q-cloze\n    type: cloze\n    prompt: "[[1]] ms, on [[2]]"\n'
        "    insight: 1\n    section: 1-first-idea\n    explanation: Measured.\n"
        "    blanks:\n      - answer: 0.3333\n      - accept: [GPU]\n"
    )
    root = make_course({"quizzes/lesson-one.yml": FULL_BANK + extra})
    monkeypatch.chdir(root)
    line = (FULL_BANK + extra).count("\n") - 1
    assert [str(p) for p in check_course(root).problems] == [
        f"quizzes/lesson-one.yml:{line}:17: questions[10].blanks[0].answer 0.3333 has 4 "
        "decimal places; with no tolerance, a learner who rounds it to 0.333 scores 0 (set "
        "`tolerance: 0.0005` or more, so that 0.333 counts, or round the answer to the "
        "precision you ask for)"
    ]


# --- the terminal: a real pseudo-terminal, 50 columns ---------------------------------------

PTY_BANK = """\
lesson: lesson-one
title: Lesson one quiz
pass_mark: 0.6
questions:
  - id: q-cloze
    type: cloze
    points: 2
    prompt: "Blank [[1]] takes a C statement's end; [[2]] ms is its time."
    insight: 1
    section: 1-first-idea
    explanation: Because.
    blanks:
      - {accept: [";", a semicolon]}
      - {answer: 3.5, tolerance: 0.1, unit: ms}
"""


@pytest.mark.slow
def test_answering_in_a_terminal(make_course: Any) -> None:
    import sqlite3

    from test_quiz_pty import PAUSE, spawn
    from test_runner import MKDOCS

    course = make_course({"mkdocs.yml": MKDOCS, "quizzes/lesson-one.yml": PTY_BANK})
    child = spawn(course, size=(24, 50), pause=True)
    child.expect("Question 1 of 1")
    child.expect("separated")  # the form, wrapped at 50 columns
    child.expect("Answer")
    child.sendline("3,5 ms")
    child.expect("That is 1 answer for 2 blanks")
    child.expect("Answer")
    child.sendline("\\;; lots")
    child.expect(r"\[\[2\]\]: `lots` is not a number")
    child.expect("Answer")
    child.sendline("\\;; 4 ms")  # a semicolon typed as \;, then a wrong number
    child.expect("Partly correct: 1 of 2 points.")
    child.expect("The right answer:")
    child.expect(r"\[\[2\]\] 3.5 ms")
    child.expect(PAUSE)
    child.send("\r")
    child.expect("Summary")
    child.expect(pytest.importorskip("pexpect").EOF)
    with sqlite3.connect(course / "home" / "history.db") as con:
        assert [r[0] for r in con.execute("SELECT response FROM answers")] == ['[";", 4.0]']
