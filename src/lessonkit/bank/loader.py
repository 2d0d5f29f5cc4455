"""Loading banks and front matter into models, with every problem mapped to file:line:col."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import types
import typing
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Tag, ValidationError
from pydantic_core import ErrorDetails

from lessonkit.bank import citations, factbook, hints, yamldoc
from lessonkit.bank.factbook import FactBook, Place
from lessonkit.bank.models import REVIEWED_PATTERN, Bank, FactFile, FactRecord
from lessonkit.bank.questions import QUESTION_TYPES, QuestionBase
from lessonkit.errors import ContentError, Problem

M = TypeVar("M", bound=BaseModel)

_UNION_TAGS = ", ".join(QUESTION_TYPES)


def load_bank(path: Path, facts: FactBook | None = None) -> Bank:
    """A validated bank, or ContentError with all of its own problems (not cross-file ones).

    Its fact references are resolved against ``facts``; by default, against the facts of
    the course the bank is in (``quizzes/``'s parent), none when it has no `facts/`.
    """
    document = yamldoc.load(path)
    book = facts if facts is not None else read_facts(course_of(path))
    _, bank, problems = validate_bank(document, book)
    if problems or bank is None:
        raise ContentError(problems)
    return bank


def validate_bank(
    document: yamldoc.Document, facts: FactBook
) -> tuple[yamldoc.Document, Bank | None, list[Problem]]:
    """A parsed bank with its fact references resolved (``with_facts``), validated: the
    document as resolved, the bank (None on any problem) and every problem."""
    resolved, problems = with_facts(document, facts)
    bank, found = validate(Bank, resolved, what="bank")
    # A reference that could not become a number is reported once, as a reference.
    taken = {(p.path, p.line) for p in problems}
    problems += [p for p in found if (p.path, p.line) not in taken]
    return resolved, (bank if not problems else None), problems


def course_of(bank: Path) -> Path:
    """The course folder a bank file is in: the parent of its `quizzes/` folder."""
    return bank.resolve().parent.parent


def with_facts(
    document: yamldoc.Document, facts: FactBook
) -> tuple[yamldoc.Document, list[Problem]]:
    """A parsed bank with its fact references resolved (``citations``), and a problem at
    file:line:col for each reference that cannot be."""
    if document.text and citations.OPEN not in document.text:
        return document, []  # one search of the text, not a walk of every value
    data, errors = citations.resolve_bank(document.data, facts.facts)
    if data is document.data:
        return document, []
    problems = []
    for loc, text, error in errors:
        where = _dotted(loc)
        problem = document.problem(loc, f"{where}: {error.message}", error.hint)
        problems.append(inside(problem, text, error.start))
    return dataclasses.replace(document, data=data), problems


# --- a course's facts ------------------------------------------------------------------


def read_facts(root: Path) -> FactBook:
    """The facts of the course at ``root`` (none without a `facts/` folder), with every
    problem in their files; a record with a problem is left out."""
    found = factbook.files(root)
    if not found:
        return FactBook()
    return _read_facts(tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in found))


@functools.lru_cache(maxsize=8)
def _read_facts(key: tuple[tuple[str, int, int], ...]) -> FactBook:
    # Keyed on paths, sizes and times: a site build asks once per page and bank.
    book = FactBook(files=tuple(Path(entry[0]) for entry in key))
    for path in book.files:
        _read_fact_file(path, book)
    return book


def _read_fact_file(path: Path, book: FactBook) -> None:
    try:
        add_facts(book, yamldoc.load(path))
    except ContentError as error:
        book.problems += error.problems


def add_facts(book: FactBook, document: yamldoc.Document) -> None:
    """The facts of one parsed facts file added to ``book``, with its problems."""
    loaded, problems = validate(FactFile, document, what="facts file")
    book.problems += problems
    # With a problem, keep every record that is right on its own: one typo hides nothing else.
    found = enumerate(loaded.facts) if loaded is not None else _valid_records(document)
    for number, record in found:
        fact = record.runtime()
        line, column = document.locate(("facts", number))
        place = Place(document.path, line, column)
        first = book.places.get(fact.id)
        if first is not None:
            message = f"fact `{fact.id}` is already defined at {first.path}:{first.line}"
            book.problems.append(place.problem(message, "give each fact its own id"))
            continue
        book.facts[fact.id] = fact
        book.places[fact.id] = place


def _valid_records(document: yamldoc.Document) -> Iterator[tuple[int, FactRecord]]:
    data = document.data
    items = data.get("facts") if isinstance(data, dict) else None
    for number, item in enumerate(items if isinstance(items, list) else []):
        try:
            yield number, FactRecord.model_validate(item)
        except ValidationError:
            continue


def validate(
    model: type[M], document: yamldoc.Document, *, what: str
) -> tuple[M | None, list[Problem]]:
    """Validate a parsed document against a model; problems carry positions in the file.

    ``what`` names the kind of file in messages ("bank", "front matter").
    """
    problems = list(document.problems)
    if not isinstance(document.data, dict):
        found = _kind(document.data)
        problems.append(
            document.problem(
                (),
                f"the {what} must be a mapping of fields, but this is {found}",
                "write `field: value` lines at the top level",
            )
        )
        return None, problems
    try:
        instance = model.model_validate(document.data)
    except ValidationError as error:
        details = _one_branch(error.errors())
        problems.extend(_problem(model, document, detail) for detail in details)
        return None, problems
    return (instance if not problems else None), problems


def _problem(model: type[BaseModel], document: yamldoc.Document, detail: ErrorDetails) -> Problem:
    loc = detail["loc"]
    kind = detail["type"]
    where = _dotted(loc, document.data)
    if kind == "extra_forbidden":
        name = str(loc[-1])
        allowed = _fields_at(model, loc[:-1], document.data)
        close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
        hint = f"did you mean `{close[0]}`?" if close else "allowed: " + ", ".join(allowed)
        return document.problem(loc, f"{where}: unknown field `{name}`", hint, key=True)
    if kind == "missing":
        parent = _dotted(loc[:-1], document.data)
        prefix = f"{parent}: " if parent else ""
        return document.problem(
            loc, f"{prefix}missing required field `{loc[-1]}`", f"add `{loc[-1]}: …`"
        )
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return _type_problem(document, loc, detail)
    if kind == "parameters":
        return _parameters_problem(document, loc, detail)
    if kind == "string_type" and detail.get("input") is None:
        word = _written(document, loc)
        if word in hints.NO_VALUE:
            message, hint = hints.no_value(word)
            return document.problem(loc, f"{where}: {message}" if where else message, hint)
    message, hint = _describe(detail)
    return document.problem(loc, f"{where}: {message}" if where else message, hint)


def _written(document: yamldoc.Document, loc: tuple[int | str, ...]) -> str:
    """The value at ``loc`` as the author typed it (one word), read again from the file;
    on error paths only. "" when it cannot be read."""
    line, column = document.locate(loc)
    try:
        source = Path(document.path).read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return ""
    return re.split(r"[,\]}#]", source[column - 1 :], maxsplit=1)[0].strip()


def _type_problem(
    document: yamldoc.Document, loc: tuple[int | str, ...], detail: ErrorDetails
) -> Problem:
    where = _dotted(loc)
    if detail["type"] == "union_tag_not_found":
        return document.problem(
            loc, f"{where}: missing `type`", f"add `type:` with one of {_UNION_TAGS}"
        )
    tag = str((detail.get("ctx") or {}).get("tag", ""))
    close = difflib.get_close_matches(tag, QUESTION_TYPES, n=1, cutoff=0.5)
    hint = f"did you mean `{close[0]}`?" if close else f"use one of {_UNION_TAGS}"
    return document.problem((*loc, "type"), f"{where}.type: unknown question type `{tag}`", hint)


# A field that takes a number or a formula (`answer`) fails in both branches of its union;
# the author meant the branch of the type they wrote, so only its error is kept.
_BRANCHES = {"float": float, "int": int, "str": str}


def _one_branch(details: list[ErrorDetails]) -> list[ErrorDetails]:
    kept = []
    for detail in details:
        branch = _BRANCHES.get(str(detail["loc"][-1]) if detail["loc"] else "")
        if branch is None or len(detail["loc"]) < 2:
            kept.append(detail)
            continue
        value = detail.get("input")
        written = str if isinstance(value, str) else float
        if branch is written or (written is float and branch is int):
            kept.append({**detail, "loc": detail["loc"][:-1]})
    return kept


def _parameters_problem(
    document: yamldoc.Document, loc: tuple[int | str, ...], detail: ErrorDetails
) -> Problem:
    """A problem with parameters or a formula, pointed into the formula's text if it can be."""
    ctx = detail.get("ctx") or {}
    at = (*loc, *ctx.get("at", ()))
    where = _dotted(at, document.data)
    message, hint = f"{where}: {ctx.get('message', '')}", str(ctx.get("hint", ""))
    problem = document.problem(at, message, hint, key=bool(ctx.get("key")))
    offset = int(ctx.get("offset", -1))
    if offset < 0:
        return problem
    tag = 2 if len(at) > 2 and at[0] == "questions" and at[2] in QUESTION_TYPES else -1
    text = value_at(document.data, [p for n, p in enumerate(at) if n != tag])
    return inside(problem, text, offset) if isinstance(text, str) else problem


def value_at(data: Any, loc: Sequence[int | str]) -> Any:
    """The value at ``loc`` in plain data; None where the path leads nowhere."""
    for part in loc:
        try:
            data = data[part]  # a mapping's key or a list's index
        except (KeyError, IndexError, TypeError):
            return None
    return data


def inside(problem: Problem, text: str, offset: int) -> Problem:
    """``problem`` moved from where a scalar starts to ``offset`` into its ``text``.

    The file is read again (only on this error path) to see whether the scalar is quoted;
    a literal block (`|`) is followed line by line; any other scalar over several lines,
    or one not found as written, keeps its start.
    """
    try:
        lines = Path(problem.path).read_text(encoding="utf-8").splitlines()
        source = lines[problem.line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return problem
    row = text.count("\n", 0, offset)
    at = offset - (text.rfind("\n", 0, offset) + 1)
    written = text.split("\n")[row]
    if row == 0:
        start = source.find(written, problem.column - 1)
        if 0 <= start <= problem.column and at <= len(written):
            column = start + at + 1
            return Problem(problem.path, problem.line, column, problem.message, problem.hint)
    if not source[problem.column - 1 :].startswith("|") or problem.line + row >= len(lines):
        return problem
    # A literal block keeps its lines as written, each after the block's indentation.
    below = lines[problem.line + row]
    start = below.find(written) if written else len(below)
    if start < 0 or below[:start].strip():
        return problem
    line, column = problem.line + row + 1, start + at + 1
    return Problem(problem.path, line, column, problem.message, problem.hint)


def _describe(detail: ErrorDetails) -> tuple[str, str]:
    """A message and a hint for one pydantic error, in an author's terms."""
    kind, value = detail["type"], detail.get("input")
    ctx = detail.get("ctx") or {}
    name = next((str(part) for part in reversed(detail["loc"]) if isinstance(part, str)), "")
    if kind == "value_error":
        return str(ctx.get("error", detail["msg"])), ""
    if kind == "string_type":
        if value is None:
            return "is empty", "write the text after the colon"
        if isinstance(value, bool | int | float):
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            return (
                f"must be text, but YAML reads `{shown}` as {_kind(value)}",
                f"quote it: '{shown}'",
            )
        return f"must be text, not {_kind(value)}", ""
    if kind == "bool_type":
        hint = "only `true` and `false` are booleans in YAML 1.2; `yes`, `no`, `on`, `off` are text"
        return f"must be true or false, not {_shown(value)}", hint
    if kind in ("int_type", "float_type", "int_from_float", "float_parsing", "int_parsing"):
        noun = "a whole number" if kind.startswith("int") else "a number"
        share = hints.percent_written(value)
        if share is not None:
            return f"must be {noun}, not {_shown(value)}", hints.as_share(share, name)
        return f"must be {noun}, not {_shown(value)}", "write digits without quotes, e.g. 2 or 0.5"
    if kind == "less_than_equal" and isinstance(value, int | float):
        most = ctx.get("le")
        message = f"{value:g} is more than {most:g}, the most it can be"
        if most == 1 and 1 < value <= 100:
            return message + ": it is a share, not a percentage", hints.as_share(value, name)
        return message, f"write a number up to {most:g}"
    if kind in ("finite_number",):
        return "must be a finite number", "write an ordinary number, not .inf or .nan"
    if kind == "list_type":
        return (
            f"must be a list, not {_kind(value)}",
            "put each item on its own line starting with `- `",
        )
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be a mapping of fields, not {_kind(value)}", "write `field: value` lines"
    if kind == "string_too_long":
        longest = int(ctx.get("max_length", 0))
        return (
            f"is {len(str(value)):,} characters, over the limit of {longest:,}",
            "shorten it; the limit is several times the longest text of real courses, "
            "so a paste may have gone wrong",
        )
    if kind == "string_too_short":
        return "is empty", "write some text"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} items, found {len(value or ())}", ""
    if kind == "too_long":
        limit = ctx.get("max_length")
        return (
            f"has {len(value or ())} items, more than the limit of {limit}",
            f"keep the {limit} that teach most; a longer list does not fit one screen",
        )
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if pattern == REVIEWED_PATTERN:
            return f"`{value}` is not a month or a day", hints.date_hint(str(value), month=True)
        return f"`{value}` is not in the expected form", _pattern_hint(pattern)
    if kind == "literal_error":
        return f"{_shown(value)} is not allowed", f"use {ctx.get('expected')}"
    if kind.startswith("date"):
        return f"{_shown(value)} is not a date", hints.date_hint(str(value), month=False)
    return detail["msg"][0].lower() + detail["msg"][1:], ""


def _pattern_hint(pattern: str) -> str:
    if pattern.startswith("^https"):
        return "write a full https:// address"
    if pattern == factbook.ID_PATTERN:
        return "use lower-case words joined by dots and hyphens, e.g. `h100-sxm.hbm`"
    if pattern == r"^[\w-]+$":
        return "use the heading's anchor, e.g. `2-where-tpus-are-strongest`"
    return "use lower-case words joined by hyphens, e.g. `gpu-cost-basics`"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"`{value}`" if len(value) < 60 else f"`{value[:57]}…`"
    return _kind(value)


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "a mapping"


def _dotted(loc: tuple[int | str, ...], data: Any = None) -> str:
    """`questions[2].options`: pydantic's location in an author's notation, tags dropped.

    With the bank's ``data``, any other union's tag is dropped too: a name the mapping
    there does not have (a cloze's `blanks[0].number.answer`).
    """
    out, path = "", list[int | str]()
    for number, part in enumerate(loc):
        here = value_at(data, path)
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in QUESTION_TYPES and number >= 2 and loc[number - 2] == "questions":
            continue  # the discriminated union's tag, not a field (`options[0].text` is)
        elif data is not None and not (isinstance(here, dict) and part in here):
            continue  # another union's tag (a missing field is named by its parent's path)
        else:
            out += f".{part}" if out else part
        path.append(part)
    return out


def _fields_at(model: type[BaseModel], loc: tuple[int | str, ...], data: Any) -> list[str]:
    """Field names allowed in the mapping at ``loc``, for "did you mean" hints."""
    current: Any = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(part, int):
            args = typing.get_args(current)
            current = args[0] if args else None
        elif isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(part)
            current = field.annotation if field else None
        elif isinstance(current, types.UnionType | typing._UnionGenericAlias):  # type: ignore[attr-defined]
            current = next((m for m in typing.get_args(current) if _tag_of(m) == part), None)
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _unwrap(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return _unwrap(members[0])
    return annotation


def _tag_of(model: Any) -> str | None:
    if typing.get_origin(model) is typing.Annotated:  # a member tagged `Tag("number")`
        tags = [m.tag for m in typing.get_args(model)[1:] if isinstance(m, Tag)]
        return tags[0] if tags else _tag_of(typing.get_args(model)[0])
    if isinstance(model, type) and issubclass(model, QuestionBase):
        field = model.model_fields.get("type")
        args = typing.get_args(field.annotation) if field else ()
        return str(args[0]) if args else None
    return None
