"""QTI 1.2 export for Canvas: a valid zip whose XML parses, item by item as text2qti
(the registry package whose packages Canvas imports) writes the same questions."""

from __future__ import annotations

import html
import re
import zipfile
from collections.abc import Callable
from io import BytesIO
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from text2qti.config import Config
from text2qti.qti import QTI
from text2qti.quiz import Quiz

from lessonkit.export import qti
from lessonkit.export.common import Source
from lessonkit.questiontypes import registry
from test_export_common import every_type, exported, hostile, real_bank

NS = {"q": "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"}
MANIFEST_NS = {"m": "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"}


def assessment(data: bytes) -> ET.Element:
    """The assessment the manifest points at, after checking every file it names exists."""
    archive = zipfile.ZipFile(BytesIO(data))
    assert archive.testzip() is None
    names = set(archive.namelist())
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    files = [f.get("href") for f in manifest.iterfind(".//m:file", MANIFEST_NS)]
    assert files and all(f in names for f in files)
    for name in names - {"imsmanifest.xml"}:
        if name.endswith(".xml"):
            ET.fromstring(archive.read(name))  # every XML file parses
    qti_resource = manifest.find(".//m:resource[@type='imsqti_xmlv1p2']", MANIFEST_NS)
    assert qti_resource is not None
    first = qti_resource.find("m:file", MANIFEST_NS)
    assert first is not None
    return ET.fromstring(archive.read(str(first.get("href"))))


def _text(markup: str | None) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup or "")).split())


def structure(item: ET.Element) -> dict[str, Any]:
    """What Canvas reads from an item: its type, points, choices, and what scores."""
    meta = {
        f.findtext("q:fieldlabel", namespaces=NS): f.findtext("q:fieldentry", namespaces=NS)
        for f in item.iterfind(".//q:qtimetadatafield", NS)
    }
    labels = {
        label.get("ident"): _text(label.findtext(".//q:mattext", namespaces=NS))
        for label in item.iterfind(".//q:response_label", NS)
        if label.find(".//q:mattext", NS) is not None
    }
    scoring = []
    for condition in item.iterfind(".//q:respcondition", NS):
        setvar = condition.find("q:setvar", NS)
        if setvar is None:
            continue
        equal = [labels.get(e.text or "", e.text) for e in condition.iterfind(".//q:varequal", NS)
                 if not _negated(condition, e)]  # fmt: skip
        ranges = [(e.tag.split("}")[1], float(e.text or "nan"))
                  for e in condition.iterfind(".//q:vargte", NS)]  # fmt: skip
        ranges += [(e.tag.split("}")[1], float(e.text or "nan"))
                   for e in condition.iterfind(".//q:varlte", NS)]  # fmt: skip
        if meta["question_type"] == "numerical_question":  # `8` and `8.0` are one number
            equal = [float(str(e)) for e in equal]
        scoring.append((sorted(str(e) for e in equal), ranges, setvar.get("action"), setvar.text))
    return {
        "type": meta["question_type"],
        "points": float(meta["points_possible"] or 0),
        "prompt": _text(item.findtext("q:presentation/q:material/q:mattext", namespaces=NS)),
        "choices": sorted(labels.values()),
        "cardinality": [r.get("rcardinality") for r in item.iterfind(".//q:response_lid", NS)],
        "fib": [r.get("fibtype") for r in item.iterfind(".//q:render_fib", NS)],
        "scoring": sorted(scoring),
    }


def _negated(condition: ET.Element, element: ET.Element) -> bool:
    return any(element in list(n) for n in condition.iterfind(".//q:not", NS))


def items(data: bytes) -> list[ET.Element]:
    return list(assessment(data).iterfind(".//q:item", NS))


# The same questions, written in text2qti's own text format.
TEXT2QTI = """\
Quiz title: Every type

1.  Which one is **right**?
a)  a
*b) b

points: 3
2.  Pick the two right ones.
[*] x
[ ] y
[*] z

3.  The sky is blue.
*a) True
b)  False

4.  How many bits in a byte?
=   8 +- 2

5.  Name the compiler.
*   XLA
*   a*b
"""


def reference() -> list[dict[str, Any]]:
    quiz = Quiz(TEXT2QTI, config=Config(), source_name="<every type>")
    return [structure(item) for item in items(QTI(quiz).zip_bytes())]


def test_items_have_the_structure_text2qti_gives_the_same_questions() -> None:
    ours = {item.get("title"): structure(item) for item in items(qti.convert(every_type()).data)}
    expected = reference()
    for question_id, theirs in zip(
        ["ex-single", "ex-multiple", "ex-true-false", "ex-numeric", "ex-text"], expected,
        strict=True,
    ):  # fmt: skip
        mine = dict(ours[question_id])
        if question_id == "ex-numeric":  # text2qti has no units; lessonkit states them
            mine["prompt"] = mine["prompt"].removesuffix(" Answer in bits.")
        assert mine == theirs, question_id


def test_matching_scores_each_pair_and_offers_the_distractor() -> None:
    (match,) = [i for i in items(qti.convert(every_type()).data) if i.get("title") == "ex-match"]
    found = structure(match)
    assert found["type"] == "matching_question"
    assert found["cardinality"] == [None, None]
    # One set of right-hand labels, offered to every left-hand item, as Canvas exports them.
    assert found["choices"] == ["bakery", "factory line", "workshop"]
    assert len(list(match.iterfind(".//q:response_label", NS))) == 6
    assert found["scoring"] == [
        (["factory line"], [], "Add", "50"),
        (["workshop"], [], "Add", "50"),
    ]
    lefts = [_text(r.findtext("q:material/q:mattext", namespaces=NS))
             for r in match.iterfind(".//q:response_lid", NS)]  # fmt: skip
    assert lefts == ["GPU", "TPU"]


def test_feedback_and_explanation_are_carried() -> None:
    (single,) = [i for i in items(qti.convert(every_type()).data) if i.get("title") == "ex-single"]
    feedback = {
        f.get("ident"): _text(f.findtext(".//q:mattext", namespaces=NS))
        for f in single.iterfind("q:itemfeedback", NS)
    }
    assert feedback.pop("general_fb") == "Because b. Re-read: First idea"
    assert list(feedback.values()) == ["No, a is a distractor."]
    shown = [c.find("q:displayfeedback", NS) for c in single.iterfind(".//q:respcondition", NS)]
    linked = {d.get("linkrefid") for d in shown if d is not None}
    assert linked == {"general_fb", *feedback}


def test_order_questions_are_left_out_and_reported() -> None:
    export = qti.convert(every_type())
    titles = [i.get("title") for i in items(export.data)]
    assert "ex-order" not in titles
    assert len(titles) == 6
    assert "ex-order: type `order`: Canvas has no ordering question; left out" in map(
        str, export.losses
    )


def test_the_hostile_bank_stays_valid_and_scriptless() -> None:
    source = hostile()
    data = qti.convert(source).data
    found = items(data)
    assert [i.get("title") for i in found] == [q.id for q in exported(source)]
    texts = " ".join(m.text or "" for i in found for m in i.iterfind(".//q:mattext", NS))
    assert "<script" not in texts and "onerror" not in texts and "onclick" not in texts
    assert "🚀" in texts and "<pre><code" in texts
    short = structure(found[2])
    assert short["scoring"] == [(sorted(["=", "~", "#", "{}", "a:b", "ü"]), [], "Set", "100")]


@pytest.mark.parametrize("make", [every_type, hostile, real_bank], ids=lambda f: f.__name__)
def test_points_add_up_in_the_quiz_metadata(make: Callable[[], Source]) -> None:
    source = make()
    archive = zipfile.ZipFile(BytesIO(qti.convert(source).data))
    (meta_name,) = [n for n in archive.namelist() if n.endswith("assessment_meta.xml")]
    meta = ET.fromstring(archive.read(meta_name))
    total = meta.findtext("{http://canvas.instructure.com/xsd/cccv1p0}points_possible")
    kept = [q for q in exported(source) if q.type != "order"]
    assert float(total or 0) == sum(q.points for q in kept)


def test_the_real_bank_round_trips() -> None:
    source = real_bank()
    export = qti.convert(source)
    by_id = {item.get("title"): structure(item) for item in items(export.data)}
    left_out = {loss.question for loss in export.losses if "left out" in loss.what}
    assert set(by_id) | left_out == {q.id for q in exported(source)}
    for question in exported(source):
        if question.id in left_out:
            assert question.type == "order"
            continue
        found = by_id[question.id]
        assert found["type"] == registry.named(question.type).qti_type
        assert found["points"] == question.points
        assert found["scoring"], question.id
