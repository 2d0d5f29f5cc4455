"""A parameterised numeric question as Moodle's `calculated` type: its draws as datasets.

Moodle's calculated question names its numbers `{name}` in the text, as lessonkit does,
and picks one item number per attempt from datasets whose items are numbered alike. So
lessonkit's own draws go in as items (a case's numbers stay together, constraints stay
met), every number the texts show is a wildcard holding the text lessonkit prints, and
the answer is the formula rewritten in Moodle's syntax (`pow(a, b)` for `a ** b`, derived
values written out). A question whose texts show a case's name (text, not a number)
cannot be one; the caller exports it as fixed variants instead.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from lessonkit.bank import expressions, numerals, variants
from lessonkit.export.common import Loss, number
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import RuntimeQuestion
from lessonkit.questiontypes.numeric import Numeric

__all__ = ["DRAWS", "body", "unfit"]

DRAWS = 12  # dataset items: the draws the lesson page carries
_TEXTS = ("prompt", "explanation", "hint")
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def unfit(question: RuntimeQuestion) -> str | None:
    """Why the question cannot be a calculated one, or None when it can."""
    if not isinstance(question, Numeric):
        return "only a numeric question can be Moodle's calculated type"
    space = variants.Space(registry.as_json(question))
    for field in _TEXTS:
        text = getattr(question, field) or ""
        shown = {m.group(1) for m in variants.PLACEHOLDER.finditer(text)}
        if shown & space.labels:
            return "its texts show a case's name, and Moodle's wildcards are numbers"
        if "{{" in text or "}}" in text:
            return "its texts hold literal braces, which Moodle reads as wildcards"
    return None


def body(element: ET.Element, question: Numeric) -> list[Loss]:
    """The answer, tolerance and datasets of a calculated question, added to ``element``."""
    data = registry.as_json(question)
    space = variants.Space(data)
    derived = {name: str(spec["formula"]) for name, spec in (data.get("derived") or {}).items()}
    formula = moodle_formula(str(question.answer), derived)
    shown = {
        m.group(1)
        for field in _TEXTS
        for m in variants.PLACEHOLDER.finditer(getattr(question, field) or "")
        if m.group(1)
    }
    used = _parameters_in(str(question.answer), derived)
    drawn = [space.values(v) for v in variants.sample(data, DRAWS, f"site/{question.id}")]
    losses = _answer(element, question, formula)
    for tag, text in (("unitgradingtype", "0"), ("unitpenalty", "0"), ("showunits", "3"),
                      ("unitsleft", "0")):  # fmt: skip
        ET.SubElement(element, tag).text = text
    definitions = ET.SubElement(element, "dataset_definitions")
    for name in sorted(shown | used):
        items = [_item(space, name, values, printed=name in shown) for values in drawn]
        _dataset(definitions, name, items)
    return losses


def _parameters_in(text: str, derived: Mapping[str, str]) -> set[str]:
    """The drawn names a formula reads, through the derived values it uses."""
    found: set[str] = set()
    for name in expressions.parse(text).names:
        found |= _parameters_in(derived[name], derived) if name in derived else {name}
    return found


def _item(space: variants.Space, name: str, values: Mapping[str, Any], *, printed: bool) -> str:
    value = float(values[name])
    if not printed:
        return number(value)
    return numerals.written_as(value, {**space.formats.get(name, {}), "separators": False})


def _answer(element: ET.Element, question: Numeric, formula: str) -> list[Loss]:
    losses: list[Loss] = []
    answer = ET.SubElement(element, "answer", {"fraction": "100", "format": "moodle_auto_format"})
    ET.SubElement(answer, "text").text = formula
    if question.relative_tolerance:
        kind, tolerance = "1", question.relative_tolerance  # relative
        if question.tolerance:
            what = f"tolerance {number(question.tolerance)}: Moodle takes one kind of tolerance"
            losses.append(Loss(question.id, what + ", so only the relative one is kept"))
    else:
        kind, tolerance = "2", question.tolerance or 0.0  # nominal: plus or minus
    ET.SubElement(answer, "tolerance").text = number(tolerance)
    ET.SubElement(answer, "tolerancetype").text = kind
    ET.SubElement(answer, "correctanswerformat").text = "2"  # significant figures
    ET.SubElement(answer, "correctanswerlength").text = "3"
    ET.SubElement(ET.SubElement(answer, "feedback", {"format": "html"}), "text").text = ""
    return losses


def _dataset(parent: ET.Element, name: str, items: list[str]) -> None:
    definition = ET.SubElement(parent, "dataset_definition")
    for tag, text in (("status", "private"), ("name", name)):
        ET.SubElement(ET.SubElement(definition, tag), "text").text = text
    ET.SubElement(definition, "type").text = "calculated"
    ET.SubElement(ET.SubElement(definition, "distribution"), "text").text = "uniform"
    values = [float(item) for item in items]
    decimals = max((len(i.partition(".")[2]) for i in items), default=0)
    for tag, value in (("minimum", min(values)), ("maximum", max(values))):
        ET.SubElement(ET.SubElement(definition, tag), "text").text = number(value)
    ET.SubElement(ET.SubElement(definition, "decimals"), "text").text = str(decimals)
    ET.SubElement(definition, "itemcount").text = str(len(items))
    holder = ET.SubElement(definition, "dataset_items")
    for count, item in enumerate(items, start=1):
        entry = ET.SubElement(holder, "dataset_item")
        ET.SubElement(entry, "number").text = str(count)
        ET.SubElement(entry, "value").text = item
    ET.SubElement(definition, "number_of_items").text = str(len(items))


def moodle_formula(text: str, derived: Mapping[str, str]) -> str:
    """A lessonkit formula in Moodle's syntax: wildcards in braces, derived values written out."""
    tree = ast.parse(
        text.translate(str.maketrans("\u00d7\u00f7\u2212", "*/-")).strip(), mode="eval"
    )
    return _written(tree.body, derived)


def _written(node: ast.expr, derived: Mapping[str, str]) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return number(float(node.value))
    if isinstance(node, ast.Name):
        if node.id in derived:  # written out; an operation brings its own parentheses
            return moodle_formula(derived[node.id], derived)
        return f"{{{node.id}}}"
    if isinstance(node, ast.UnaryOp):
        sign = "-" if isinstance(node.op, ast.USub) else ""
        return f"{sign}({_written(node.operand, derived)})"
    if isinstance(node, ast.BinOp):
        left, right = _written(node.left, derived), _written(node.right, derived)
        if isinstance(node.op, ast.Pow):
            return f"pow({left}, {right})"
        return f"({left} {_OPERATORS[type(node.op)]} {right})"
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    return f"{node.func.id}({', '.join(_written(a, derived) for a in node.args)})"
