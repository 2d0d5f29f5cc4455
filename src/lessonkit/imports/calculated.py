"""Moodle's calculated questions as parameterised numeric questions.

A calculated question names its numbers `{name}` in its texts, as lessonkit does, and
each attempt takes one item number from its datasets, whose items are numbered alike:
item 3 of every wildcard belongs together. So the items come across as one parameter
with a case per item (`cases`), each case holding every wildcard's number; a case's
numbers stay together, as Moodle draws them. The answer formula is rewritten from
Moodle's syntax (`{a}`, `pow(a, b)`, `pi()`) into lessonkit's, and checked by the same
parser that checks an author's formula. lessonkit's own Moodle export writes its draws
this way, so its parameterised questions come back parameterised.
"""

from __future__ import annotations

import ast
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

from lessonkit.bank import expressions, numerals
from lessonkit.bank.parameters import NAME_PATTERN, RESERVED
from lessonkit.imports.common import Loss, Notes

__all__ = ["CASE_PARAMETER", "body", "inline_formulas", "rename_wildcards", "renamed"]

CASE_PARAMETER = "moodle_item"  # the parameter whose cases are Moodle's dataset items
_NAME = re.compile(NAME_PATTERN)
_WILDCARD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_INLINE_FORMULA = re.compile(r"\{=(?:[^{}]|\{[^{}]*\})*\}")  # `{={a} * 2}`: wildcards inside
# Moodle's tolerance types: 1 relative (a fraction of the answer), 2 nominal (plus or minus).
_RELATIVE, _NOMINAL = "1", "2"


def rename_wildcards(element: ET.Element) -> dict[str, str]:
    """Each wildcard's name as a lessonkit name: lower case, `_` for anything else, and a
    name lessonkit keeps for itself (a function's, or this module's) with `_value` added."""
    names: dict[str, str] = {}
    for definition in element.findall("dataset_definitions/dataset_definition"):
        name = (definition.findtext("name/text") or "").strip()
        ours = re.sub(r"[^a-z0-9_]", "_", name.lower()) or "w"
        if not _NAME.match(ours):
            ours = f"w_{ours}"
        if ours in RESERVED or ours == CASE_PARAMETER:
            ours = f"{ours}_value"
        names[name] = ours
    return names


def body(element: ET.Element, names: dict[str, str], notes: Notes) -> dict[str, Any] | list[Loss]:
    """The answer, tolerance and parameters of a calculated question; the caller has
    written its texts (with `{name}` renamed by ``names``)."""
    right = [a for a in element.findall("answer") if _fraction(a) >= 99.99]
    if not right:
        return notes.omit("no answer formula earns full marks")
    others = [a for a in element.findall("answer") if a is not right[0]]
    if others:
        notes.lost(f"{len(others)} other answer formula(s) and their marks: lessonkit checks "
                   "one formula, the first at full marks")  # fmt: skip
    formula_text = (right[0].findtext("text") or "").strip()
    try:
        formula = _formula(formula_text, names)
        expressions.parse(formula)
    except (SyntaxError, ValueError, expressions.ExpressionError) as error:
        what = error.message if isinstance(error, expressions.ExpressionError) else "unreadable"
        return notes.omit(f"the answer formula `{formula_text}` cannot be lessonkit's ({what}); "
                          f"lessonkit's formulas use {expressions.ALLOWED}")  # fmt: skip
    found = _cases(element, names, notes)
    if isinstance(found, list):
        return found
    cases, formats = found
    result: dict[str, Any] = {"type": "numeric", "params": {CASE_PARAMETER: {"cases": cases}}}
    if formats:  # a case's numbers share one format; these need their own
        result["derived"] = {name: {"formula": _held(name, formats), **form}
                             for name, form in sorted(formats.items())}  # fmt: skip
    result["answer"] = formula
    result |= _tolerance(right[0], notes)
    return result


def inline_formulas(*texts: str) -> list[str]:
    """Moodle's `{=…}` formulas written in a text, which lessonkit's texts cannot hold."""
    return [m.group(0) for text in texts for m in _INLINE_FORMULA.finditer(text)]


def renamed(text: str, names: dict[str, str]) -> str:
    """A text with each `{wildcard}` under its lessonkit name."""
    return _WILDCARD.sub(lambda m: "{" + names.get(m.group(1), m.group(1)) + "}", text)


def _fraction(answer: ET.Element) -> float:
    try:
        return float(answer.get("fraction") or 0)
    except ValueError:
        return 0.0


def _formula(text: str, names: dict[str, str]) -> str:
    """Moodle's formula syntax in lessonkit's: `{a}` → `a`, `pow(a, b)` → `a ** b`,
    `pi()` → its value."""
    plain = _WILDCARD.sub(lambda m: names.get(m.group(1), m.group(1)), text)
    tree = ast.parse(plain.strip(), mode="eval")
    return ast.unparse(_Rewrite().visit(tree).body)


class _Rewrite(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if name == "pow" and len(node.args) == 2:
            return ast.BinOp(left=node.args[0], op=ast.Pow(), right=node.args[1])
        if name == "pi" and not node.args:
            return ast.Constant(math.pi)
        if name == "abs" and len(node.args) == 1:  # |x| = max(x, -x)
            value = node.args[0]
            return ast.Call(ast.Name("max"), [value, ast.UnaryOp(ast.USub(), value)], [])
        return node


def _cases(
    element: ET.Element, names: dict[str, str], notes: Notes
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]] | list[Loss]:
    """The dataset items as cases (item number: wildcard: value), and the format of each
    wildcard whose items lessonkit's plain numbers would write otherwise."""
    items: dict[str, dict[str, float]] = {}
    texts: dict[str, list[str]] = {}
    definitions = element.findall("dataset_definitions/dataset_definition")
    if not definitions:
        return notes.omit("no wildcards: a calculated question without numbers to draw")
    for definition in definitions:
        name = (definition.findtext("name/text") or "").strip()
        found = 0
        for item in definition.findall("dataset_items/dataset_item"):
            number, text = ((item.findtext(t) or "").strip() for t in ("number", "value"))
            try:
                value = float(text)
            except ValueError:
                continue
            items.setdefault(number, {})[names[name]] = int(value) if value.is_integer() else value
            texts.setdefault(names[name], []).append(text)
            found += 1
        if not found:
            return notes.omit(f"the wildcard `{{{name}}}` has no values in the file: add "
                              "them in Moodle (\"Add item\") and export again")  # fmt: skip
    formats = {name: f for name, written in texts.items() if (f := _format(written))}
    wanted = set(names.values())
    complete = {n: values for n, values in items.items() if set(values) == wanted}
    if len(complete) < len(items):
        notes.lost(f"{len(items) - len(complete)} dataset item(s) lacking a value for some "
                   "wildcard: left out")  # fmt: skip
    if not complete:
        return notes.omit("no dataset item gives every wildcard a value")
    ordered = sorted(complete, key=lambda n: (len(n), n))
    if len(ordered) > 100:
        notes.lost(f"{len(ordered) - 100} dataset items past the first 100: lessonkit draws "
                   "from at most 100 cases")  # fmt: skip
    cases = {f"item {n}": {_held(k, formats): complete[n][k] for k in sorted(wanted)}
             for n in ordered[:100]}  # fmt: skip
    return cases, formats


def _format(written: list[str]) -> dict[str, int]:
    """How a wildcard's items are written, when lessonkit's plain numbers would not write
    them so (`4.00`, `28.60`): fixed decimals, or else fixed significant figures."""
    if all(numerals.written_as(float(t), {"separators": False}) == t for t in written):
        return {}
    places = {len(t.partition(".")[2]) for t in written}
    if len(places) == 1:
        return {"decimals": places.pop()}
    figures = {len(t.replace("-", "").replace(".", "").lstrip("0")) for t in written}
    if len(figures) == 1:
        return {"significant": figures.pop()}
    return {"decimals": max(places)}


def _held(name: str, formats: dict[str, dict[str, int]]) -> str:
    """The case's name for a wildcard's number: its own, or, when it is written in a fixed
    format, a name its derived value (which carries the format) reads from."""
    return f"{name}_item" if name in formats else name


def _tolerance(answer: ET.Element, notes: Notes) -> dict[str, Any]:
    try:
        tolerance = abs(float(answer.findtext("tolerance") or 0))
    except ValueError:
        tolerance = 0.0
    kind = (answer.findtext("tolerancetype") or _RELATIVE).strip()
    if not tolerance:
        return {}
    if kind == _NOMINAL:
        return {"tolerance": tolerance}
    if kind != _RELATIVE:
        notes.lost(f"geometric tolerance {tolerance:g}: taken as a relative one (±{tolerance:g} "
                   "of the answer)")  # fmt: skip
    if tolerance > 1:
        notes.lost(f"relative tolerance {tolerance:g} is over 100% of the answer: lessonkit "
                   "takes at most 1 (±100%)")  # fmt: skip
        tolerance = 1.0
    return {"relative_tolerance": tolerance}
