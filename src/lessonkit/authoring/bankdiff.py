"""`lessonkit diff`: what changed in the question banks between two git revisions, for reviewers.

Questions are matched by id across all banks. A changed answer key or changed points
matter most: history keys on `registry.key_hash`, so learners' earlier answers to that
question stop counting. Reworded text is shown word by word (old struck through, new in
bold), reordered items as positions, options as added, removed or re-keyed. The result
is Markdown, for a pull request or a CI job summary. An invalid bank (or an id used
twice) stops the diff with the same problems `lessonkit validate` gives.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from lessonkit.authoring.textdiff import escape, words
from lessonkit.bank import yamldoc
from lessonkit.bank.loader import validate
from lessonkit.bank.models import Bank
from lessonkit.bank.questions import Question
from lessonkit.course.folder import BANK_SUFFIXES
from lessonkit.errors import ContentError, Problem, UsageError
from lessonkit.questiontypes import registry

WORKING_TREE = "working tree"
# Fields that make up a question's answer key (as registry.key_hash reads them).
KEY_FIELDS = frozenset(
    {"type", "points", "options", "answer", "tolerance", "relative_tolerance", "accept"}
    | {"patterns", "case_sensitive", "items", "pairs", "distractors"}
)
MAX_DETAILS = 8
# Fields shown word by word when reworded.
PROSE = frozenset({"prompt", "explanation", "hint"})


@dataclass(frozen=True)
class Entry:
    """One question in one revision: which bank holds it, and the question."""

    bank: str
    question: Question


@dataclass(frozen=True)
class Changed:
    """A question in both revisions, and what differs."""

    bank: str
    id: str
    details: tuple[str, ...]


@dataclass
class BankDiff:
    """Every change between two revisions' banks."""

    base: str
    head: str
    added: list[Entry] = field(default_factory=list)
    removed: list[Entry] = field(default_factory=list)
    key_changed: list[Changed] = field(default_factory=list)
    reworded: list[Changed] = field(default_factory=list)
    settings: list[Changed] = field(default_factory=list)
    unchanged: int = 0

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.key_changed or self.reworded)


# --- reading banks from git --------------------------------------------------------------


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed; `lessonkit diff` reads revisions with it") from None


def _repository(root: Path) -> tuple[Path, PurePosixPath]:
    """The top of the course's git repository, and quizzes/ relative to it."""
    result = _git(root, "rev-parse", "--show-toplevel")
    if result.returncode != 0:
        raise UsageError(f"{root} is not inside a git repository; `lessonkit diff` needs one")
    top = Path(result.stdout.strip()).resolve()
    return top, PurePosixPath((root.resolve() / "quizzes").relative_to(top).as_posix())


def _check_revision(root: Path, rev: str) -> None:
    if (
        rev.startswith("-")
        or _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode
    ):
        raise UsageError(
            f"unknown revision `{rev}`: give a branch, tag or commit, "
            "e.g. `origin/main` or `HEAD~1`"
        )


def banks_at(root: Path, rev: str | None) -> dict[str, tuple[str, Bank]]:
    """slug -> (where it was read, bank) at a revision; ``None`` reads the working tree."""
    if rev is None:
        paths = sorted(p for s in BANK_SUFFIXES for p in (root / "quizzes").glob(f"*{s}"))
        documents = [(p.stem, yamldoc.load(p)) for p in paths]
    else:
        documents = _documents_at(root, rev)
    banks: dict[str, tuple[str, Bank]] = {}
    problems: list[Problem] = []
    for slug, document in documents:
        bank, found = validate(Bank, document, what="bank")
        problems += found
        if bank is not None:
            banks[slug] = (document.path, bank)
            problems += _duplicates(document, bank, banks)
    if problems:
        raise ContentError(problems)
    return banks


def _duplicates(
    document: yamldoc.Document, bank: Bank, banks: dict[str, tuple[str, Bank]]
) -> list[Problem]:
    """Ids used twice, within this bank or in a bank read before it, as validate says it."""
    seen = {q.id: shown for shown, other in banks.values() if other is not bank
            for q in other.questions}  # fmt: skip
    problems = []
    for index, question in enumerate(bank.questions):
        if question.id in seen:
            problems.append(
                document.problem(
                    ("questions", index, "id"),
                    f"questions[{index}].id: `{question.id}` is already used in "
                    f"{seen[question.id]}",
                    "ids are unique across all banks; give this question a new id",
                )
            )
        seen.setdefault(question.id, f"{document.path}, questions[{index}]")
    return problems


def _documents_at(root: Path, rev: str) -> list[tuple[str, yamldoc.Document]]:
    top, folder = _repository(root)
    # Run from the top: ls-tree and show take paths relative to the working directory.
    listing = _git(top, "ls-tree", "--name-only", rev, "--", f"{folder}/")
    names = [n for n in listing.stdout.splitlines() if n.endswith(BANK_SUFFIXES)]
    documents = []
    for name in sorted(names):
        shown = f"{rev}:{name}"
        text = _git(top, "show", f"{rev}:{name}").stdout
        documents.append((PurePosixPath(name).stem, yamldoc.parse(text, shown)))
    return documents


# --- comparing --------------------------------------------------------------------------


def diff_revisions(root: Path, base: str, head: str | None = None) -> BankDiff:
    """Compare the banks at ``base`` with those at ``head`` (default: the working tree)."""
    _repository(root)
    for rev in (base, head):
        if rev is not None:
            _check_revision(root, rev)
    return compare(banks_at(root, base), banks_at(root, head), base, head or WORKING_TREE)


def compare(
    old: dict[str, tuple[str, Bank]], new: dict[str, tuple[str, Bank]], base: str, head: str
) -> BankDiff:
    """The changes between two sets of banks, question by question."""
    result = BankDiff(base, head)
    before = _by_id(old)
    after = _by_id(new)
    result.removed = [before[i] for i in before if i not in after]
    result.added = [after[i] for i in after if i not in before]
    for qid in (i for i in after if i in before):
        then, now = before[qid], after[qid]
        details = _differences(then, now)
        if _key_hash(then.question) != _key_hash(now.question):
            result.key_changed.append(Changed(now.bank, qid, details))
        elif details:
            result.reworded.append(Changed(now.bank, qid, details))
        else:
            result.unchanged += 1
    for slug in sorted(set(old) & set(new)):
        changes = _settings(old[slug][1], new[slug][1])
        if changes:
            result.settings.append(Changed(slug, "", changes))
    return result


def _by_id(banks: dict[str, tuple[str, Bank]]) -> dict[str, Entry]:
    return {
        q.id: Entry(slug, q) for slug, (_, bank) in sorted(banks.items()) for q in bank.questions
    }


def _differences(then: Entry, now: Entry) -> tuple[str, ...]:
    """What differs, key fields first: options and items as a reviewer names them,
    prose word by word, anything else as `path: old → new`."""
    before = then.question.model_dump(mode="json")
    after = now.question.model_dump(mode="json")
    details: list[tuple[str, str]] = []  # (field, detail) for ordering
    for name in ("options", "items"):
        if name in before and name in after and before[name] != after[name]:
            lister = _options if name == "options" else _items
            details += [(name, d) for d in lister(before.pop(name), after.pop(name))]
    old, new = _flatten(before), _flatten(after)
    for path in sorted(set(old) | set(new)):
        if old.get(path) == new.get(path):
            continue
        if path in PROSE and isinstance(old.get(path), str) and isinstance(new.get(path), str):
            details.append((path, f"{path}: {words(old[path], new[path])}"))
        else:
            details.append((path, f"{path}: {_short(old.get(path))} → {_short(new.get(path))}"))
    ordered = [d for _, d in sorted(details, key=lambda fd: _order(fd[0]))]
    if then.bank != now.bank:
        ordered.insert(0, f"bank: `{then.bank}` → `{now.bank}`")
    return tuple(ordered)


def _options(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    """Options matched by their text: added, removed, re-keyed, feedback and order."""
    before = {o["text"]: o for o in old}
    after = {o["text"]: o for o in new}
    found = [f"option removed: {_short(t)}" for t in before if t not in after]
    found += [
        f"option added: {_short(t)}" + (" (correct)" if o["correct"] else "")
        for t, o in after.items()
        if t not in before
    ]
    for text, option in after.items():
        was = before.get(text)
        if was is None:
            continue
        if was["correct"] != option["correct"]:
            state = "now correct" if option["correct"] else "no longer correct"
            found.append(f"option {_short(text)} {state}")
        if was.get("feedback") != option.get("feedback"):
            change = words(was.get("feedback") or "", option.get("feedback") or "")
            found.append(f"option {_short(text)} feedback: {change}")
    kept = [t for t in after if t in before]
    if [t for t in before if t in after] != kept:
        found.append("options reordered: " + _moves([t for t in before if t in after], kept))
    return found


def _items(old: list[str], new: list[str]) -> list[str]:
    """Order items: moves as positions (1-based), then items added or removed."""
    found = [f"item removed: {_short(t)}" for t in old if t not in new]
    found += [f"item added: {_short(t)}" for t in new if t not in old]
    both_old = [t for t in old if t in new]
    both_new = [t for t in new if t in old]
    if both_old != both_new:
        found.append("items reordered: " + _moves(both_old, both_new))
    return found


def _moves(old: list[str], new: list[str]) -> str:
    """`'b' 2 → 1, 'a' 1 → 2`: each item whose position changed."""
    return ", ".join(
        f"{_short(text)} {old.index(text) + 1} → {position}"
        for position, text in enumerate(new, start=1)
        if old.index(text) + 1 != position
    )


def _order(path: str) -> tuple[bool, str]:
    return (path.split("[")[0].split(".")[0] not in KEY_FIELDS, path)


def _settings(old: Bank, new: Bank) -> tuple[str, ...]:
    before = _flatten(old.model_dump(mode="json", exclude={"questions"}))
    after = _flatten(new.model_dump(mode="json", exclude={"questions"}))
    return tuple(
        f"{path}: {_short(before.get(path))} → {_short(after.get(path))}"
        for path in sorted(set(before) | set(after))
        if before.get(path) != after.get(path)
    )


def _flatten(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{path}.{key}" if path else key))
        return flat
    if isinstance(value, list) and value and isinstance(value[0], dict | list):
        flat = {}
        for index, item in enumerate(value):
            flat.update(_flatten(item, f"{path}[{index}]"))
        return flat
    return {path: value}


def _short(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # `points: 2`, as authors write it, not `2.0`
    text = " ".join(str(value).split()) if not isinstance(value, bool) else str(value).lower()
    text = text.replace("|", "\\|").replace("`", "'")  # keep Markdown tables and code intact
    return f"`{text[:37]}…`" if len(text) > 40 else f"`{text}`"


# --- Markdown ----------------------------------------------------------------------------


def render_markdown(diff: BankDiff) -> str:
    """The diff as a pull-request comment."""
    lines = [f"## Question bank changes: `{diff.base}` → `{diff.head}`", ""]
    if diff.empty and not diff.settings:
        lines.append(f"No question changed ({diff.unchanged} compared).")
        return "\n".join(lines) + "\n"
    lines += [
        "| Change | Questions |",
        "|---|---:|",
        f"| Answer key or points changed | {len(diff.key_changed)} |",
        f"| Added | {len(diff.added)} |",
        f"| Removed | {len(diff.removed)} |",
        f"| Reworded or re-filed | {len(diff.reworded)} |",
        f"| Unchanged | {diff.unchanged} |",
    ]
    if diff.key_changed:
        lines += [
            "",
            f"### Answer key or points changed ({len(diff.key_changed)})",
            "",
            "Learners' earlier answers to these questions stop counting. If the question now "
            "asks something new, give it a new id instead.",
            "",
        ]
        lines += [_changed_line(c) for c in diff.key_changed]
    for title, entries in (("Added", diff.added), ("Removed", diff.removed)):
        if entries:
            lines += ["", f"### {title} ({len(entries)})", ""]
            lines += [_entry_line(e) for e in entries]
    if diff.reworded:
        lines += ["", f"### Reworded or re-filed ({len(diff.reworded)})", ""]
        lines += [_changed_line(c) for c in diff.reworded]
    if diff.settings:
        lines += ["", "### Bank settings", ""]
        lines += [f"- `{c.bank}`: " + "; ".join(c.details) for c in diff.settings]
    return "\n".join(lines) + "\n"


def _entry_line(entry: Entry) -> str:
    prompt = " ".join(entry.question.prompt.split())
    prompt = prompt if len(prompt) <= 70 else prompt[:67] + "…"
    return f"- `{entry.bank}` · `{entry.question.id}` ({entry.question.type}): {escape(prompt)}"


def _changed_line(change: Changed) -> str:
    details = list(change.details[:MAX_DETAILS])
    if len(change.details) > MAX_DETAILS:
        details.append(f"and {len(change.details) - MAX_DETAILS} more")
    return f"- `{change.bank}` · `{change.id}`\n" + "\n".join(f"  - {d}" for d in details)


def _key_hash(question: Any) -> str:
    return registry.key_hash(registry.runtime(question))
