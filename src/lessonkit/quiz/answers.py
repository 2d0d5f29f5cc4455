"""An answers file (`lessonkit quiz --answers FILE`): responses by question id, with positions.

Scripts, tests and graders that already have a learner's answers grade them without the
interactive loop; every problem in the file is reported at once as file:line:col.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lessonkit.errors import ContentError
from lessonkit.questiontypes import registry
from lessonkit.questiontypes.base import ResponseError, RuntimeQuestion

if TYPE_CHECKING:
    from lessonkit.grading.credit import Response

__all__ = ["read_answers"]


def read_answers(
    path: Path, questions: Sequence[RuntimeQuestion]
) -> dict[str, tuple[Response, str]]:
    """Responses from a YAML file of ``question-id: response``, by id, with the text parsed.

    Values are what a learner would type (``"1,3"``, ``"3 1 2"``, ``"1b 2a"``) or plain YAML
    values (``2``, ``true``, ``[1, 3]``); numbers refer to options and items as the bank
    lists them. Every unknown id and malformed response is collected into one
    ContentError with file:line:col, like a bank's problems.
    """
    from lessonkit.bank import yamldoc  # PyYAML: only for this path, never the interactive one

    document = yamldoc.load(path)
    if not isinstance(document.data, dict):
        raise ContentError(
            [
                *document.problems,
                document.problem(
                    (),
                    "an answers file is a mapping of `question-id: response` lines",
                    "write one `question-id: answer` per line",
                ),
            ]
        )
    by_id = {q.id: q for q in questions}
    found: dict[str, tuple[Response, str]] = {}
    problems = list(document.problems)
    for key, value in document.data.items():
        question = by_id.get(str(key))
        if question is None:
            import difflib  # only on this error path

            close = difflib.get_close_matches(str(key), list(by_id), n=1)
            hint = f"did you mean `{close[0]}`?" if close else "use an id from the bank"
            problems.append(
                document.problem([key], f"no question `{key}` in this quiz", hint, key=True)
            )
            continue
        try:
            text = _typed(value)
            shown = range(registry.of(question).choices(question))
            found[str(key)] = (registry.parse(question, text, shown), text)
        except ResponseError as error:
            problems.append(document.problem([key], f"{key}: {error}"))
    if problems:
        raise ContentError(problems)
    return found


def _typed(value: Any) -> str:
    """A YAML value written as a learner would have typed it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, int | str) for v in value):
        return " ".join(str(v) for v in value)
    raise ResponseError('write the answer as text or a number, e.g. `2`, `"1,3"` or `"1b 2a"`')
