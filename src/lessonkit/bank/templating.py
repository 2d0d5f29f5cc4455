"""Other tools' template syntax in a question's text, which lessonkit would print as it is.

lessonkit writes a drawn number as `{name}`. Authors coming from PrairieLearn, Mustache,
ERB or Moodle's calculated questions write it their tools' way, and the text would show
`{{params.x}}` to every learner. ``foreign`` finds such a form outside code spans and says
what to write instead; ``parameters`` raises it at its place in the field.
"""

from __future__ import annotations

import re

__all__ = ["foreign"]

# Other tools' ways of putting a value in text, which lessonkit would print as they are:
# PrairieLearn and Mustache `{{params.x}}` or `{{ x }}`, JavaScript's `${params.x}` (a
# `$` before `{price}` is a price), ERB's `<%= x %>`, a path or spaces inside braces
# (`{params.x}`, `{ x }`), Moodle's `{=…}`.
_FOREIGN = re.compile(
    r"\{\{\s*(?:params\.)?([A-Za-z_]\w*)\s*\}\}"
    r"|\$\{\s*params\.([A-Za-z_]\w*)\s*\}"
    r"|<%=\s*(?:params\.)?([A-Za-z_]\w*)\s*%>"
    r"|\{(?:\s+(?:params\.)?([A-Za-z_]\w*)\s*|(?:params\.)([A-Za-z_]\w*)\s*|"
    r"([A-Za-z_]\w*)\s+)\}"
    r"|(\{=)"
)
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


def foreign(text: str | None, known: set[str], *, drawn: bool) -> tuple[int, str, str] | None:
    """The first place ``text`` uses another tool's template syntax outside code, as
    (offset, message, hint); None when it uses none. Without ``drawn`` (a question with
    no `params`) only forms that cannot be meant literally count: `{{params.x}}`."""
    if not text or not any(c in text for c in "{$<"):
        return None
    plain = _CODE.sub(lambda m: " " * len(m.group(0)), text)
    for match in _FOREIGN.finditer(plain):
        written = match.group(0)
        if match.group(7):
            message = "`{=…}` is Moodle's formula syntax, which lessonkit prints as it is"
            return match.start(), message, "compute it under `derived:` and write `{name}`"
        name = next(g for g in match.groups() if g)
        from_params = "params." in written
        if not drawn and not from_params:
            continue
        if drawn and name not in known and not from_params:
            continue  # braces around other words: text, such as a set `{ a, b }`
        if not drawn:
            return (match.start(), f"`{written}` is another tool's template syntax, and this "
                    "question draws no numbers, so it would be printed as it is",
                    f"declare `{name}` under `params` and write `{{{name}}}`, or write the "
                    "number itself")  # fmt: skip
        if name in known:
            hint = f"write `{{{name}}}`"
        else:
            listed = ", ".join(f"`{k}`" for k in sorted(known)) or "none"
            hint = f"write `{{name}}` with a name declared under `params` or `derived` ({listed})"
        return (match.start(), f"`{written}` is another tool's template syntax, which "
                "lessonkit would print as it is", hint)  # fmt: skip
    return None
