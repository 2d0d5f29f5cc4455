"""Where this lessonkit was installed from, and how a new course installs the same one.

`lessonkit new course` writes set-up commands into the course's README and CI. lessonkit
is not on a package index, so `pip install "lessonkit[site]==0.1.0"` fails; the commands
must name where the author got it. pip records that in the install's `direct_url.json`
(PEP 610), read here through ``importlib.metadata``:

- a VCS checkout (`pip install git+https://…`): the same URL, pinned to the commit;
- a wheel or archive at an https address: that address;
- a wheel file on this machine: the wheel, copied into the course (`wheels/`), so CI and a
  co-author install the very same file;
- a folder on this machine (`pip install -e .`): the README can use it here, but CI cannot
  reach it, and the CI step says what to write instead of failing on its own;
- no `direct_url.json`: a package index, which has this version.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["Origin", "installed_origin", "origin_from"]

DIST = "lessonkit"
EXTRA = "site"
WHEELS = "wheels"  # the course's folder for a copied wheel


@dataclass(frozen=True)
class Origin:
    """How a course installs lessonkit: a pip requirement for its README and its CI.

    ``ci`` is None when CI cannot install from where the author did; ``about`` then says
    what to write instead, and the CI step prints it and stops.
    """

    readme: str  # the requirement the README installs, shell-quoted
    ci: str | None  # the requirement CI installs, shell-quoted; None: the author writes it
    about: str  # for the README: where lessonkit comes from, or what the author must write
    files: dict[str, bytes] = field(default_factory=dict)  # to write into the course
    todo: str = ""  # what the author must write, said anywhere: the terminal, CI's log


def installed_origin(version: str) -> Origin:
    """The origin of the lessonkit that is running."""
    try:
        dist = metadata.distribution(DIST)
    except metadata.PackageNotFoundError:
        return origin_from(None, version, installed=False)
    return origin_from(dist.read_text("direct_url.json"), version)


def origin_from(direct_url: str | None, version: str, *, installed: bool = True) -> Origin:
    """The origin that ``direct_url`` (a `direct_url.json`'s text, None when there is
    none) describes, for lessonkit ``version``."""
    if not installed:
        return _unreachable("this lessonkit runs from files that pip did not install")
    if direct_url is None:
        requirement = _quoted(f"{DIST}[{EXTRA}]=={version}")
        return Origin(requirement, requirement, f"lessonkit {version} comes from a package index.")
    try:
        data = json.loads(direct_url)
        url = str(data["url"])
    except (ValueError, KeyError, TypeError):
        return _unreachable("pip's record of where lessonkit came from cannot be read")
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        requirement = _quoted(
            f"{DIST}[{EXTRA}] @ {vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
        )
        at = f"at commit {str(commit)[:12]}" if commit else "at its newest commit"
        return Origin(requirement, requirement, f"lessonkit comes from {url}, {at}.")
    parts = urlsplit(url)
    if parts.scheme != "file":
        requirement = _quoted(f"{DIST}[{EXTRA}] @ {url}")
        return Origin(requirement, requirement, f"lessonkit comes from {url}.")
    path = Path(unquote(parts.path))
    if "dir_info" in data or path.is_dir():
        dir_info = data.get("dir_info")
        editable = isinstance(dir_info, dict) and dir_info.get("editable") is True
        readme = ("-e " if editable else "") + _quoted(f"{path}[{EXTRA}]")
        return _unreachable(f"lessonkit was installed from {path}, a folder on this machine",
                            readme=readme)  # fmt: skip
    if path.suffix == ".whl" and path.is_file():
        copied = f"{WHEELS}/{path.name}"
        requirement = _quoted(f"./{copied}[{EXTRA}]")
        return Origin(
            requirement,
            requirement,
            f"lessonkit comes from the wheel in {WHEELS}/, which CI installs too: commit it "
            "with the course, and to upgrade, replace it and the lines that name it.",
            files={copied: path.read_bytes()},
        )
    return _unreachable(f"lessonkit was installed from {path}, which is no longer there")


_EXAMPLE = f"{DIST}[{EXTRA}] @ git+https://github.com/OWNER/lessonkit@COMMIT"
_CHOICES = (
    f'such as `"{_EXAMPLE}"` for the repository you got lessonkit from, or a wheel you '
    f"commit under {WHEELS}/"
)


def _unreachable(why: str, *, readme: str = "") -> Origin:
    """An origin CI cannot install from: what to write, and where."""
    todo = (
        f"{why}, which CI cannot reach: in .github/workflows/site.yml, replace the lines of "
        f'the "Install lessonkit" step with an install CI can run, {_CHOICES}.'
    )
    if readme:
        about = (
            f"{why}: the install above works on this machine only, and CI cannot reach it. "
            'Before the first push, replace the lines of the "Install lessonkit" step in '
            f".github/workflows/site.yml with an install CI can run, {_CHOICES}."
        )
        return Origin(readme, None, about, todo=todo)
    about = (
        f"{why}. Write where lessonkit comes from in the install above and in the "
        f'"Install lessonkit" step of .github/workflows/site.yml, {_CHOICES}.'
    )
    return Origin(_quoted(_EXAMPLE), None, about, todo=todo)


def _quoted(requirement: str) -> str:
    """A requirement as one shell word, in double quotes as people write it."""
    if any(c in requirement for c in '"$`\\!'):
        return shlex.quote(requirement)
    return f'"{requirement}"'
