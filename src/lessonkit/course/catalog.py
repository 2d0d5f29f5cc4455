"""Find a bank by slug or path, with its lesson's title, sections and site URLs, fast.

Where a slug is looked up, first found wins:

1. the checkout around the working directory (a folder with ``mkdocs.yml`` and
   ``quizzes/``, here or above), so authors see their edits at once;
2. the course copied into the installed package (``lessonkit/_course``; the wheel
   carries ``quizzes/``, ``content/`` and ``mkdocs.yml`` there);
3. the checkout the package itself runs from (an editable install).

Validating a bank needs PyYAML and pydantic, which cost more than the whole quiz
start-up budget. So each bank is compiled once into plain JSON (the validated bank
plus its lesson's metadata) and cached in the user cache folder, keyed by the paths,
sizes and modification times of the files it came from and by the lessonkit version;
a quiz then starts from JSON and only a changed file pays for validation. The file is
laid out so that a quiz reads only the questions it shows (``compiled``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lessonkit import __version__
from lessonkit.course import compiled
from lessonkit.course.compiled import CompiledBank
from lessonkit.errors import UsageError

FORMAT = 5  # bump when the compiled layout changes, so old cache entries are ignored
LOCAL_SITE = "http://127.0.0.1:8000/"
# The package folder, two levels up from here (lessonkit/course/catalog.py).
_PACKAGE = Path(__file__).resolve().parents[1]
PACKAGED = _PACKAGE / "_course"
_SETTING = re.compile(r"^(site_url|docs_dir|use_directory_urls):[ \t]*(.*?)[ \t]*$", re.M)
_ENV = re.compile(r"^!ENV\s+(?:\[(.*)\]|(\S+))$")


@dataclass(frozen=True)
class Compiled:
    """A bank ready to quiz: its JSON form and its lesson's metadata (``None`` when unknown).

    ``lesson`` holds ``slug``, ``title``, ``plan``, ``url``, ``insights`` and
    ``sections`` (anchor → ``{"title", "url"}``); ``site`` says where URLs point:
    ``"published"`` (``site_url`` in ``mkdocs.yml``) or ``"local"`` (``make serve``).
    ``keys`` holds each question's answer-key hash by id, which history is keyed on.
    """

    slug: str
    source: str
    bank: CompiledBank
    lesson: Mapping[str, Any] | None
    site: str
    keys: Mapping[str, str]


def find(target: str, *, cwd: Path | None = None, cache_dir: Path | None = None) -> Compiled:
    """The bank named by a slug (``gpu-vs-tpu``) or a path (``quizzes/gpu-vs-tpu.yml``).

    Raises UsageError when nothing matches and ContentError when the bank is invalid.
    """
    here = (cwd or Path.cwd()).resolve()
    path = _bank_path(target, here)
    return load(path, cache_dir=cache_dir)


def load(path: Path, *, cache_dir: Path | None = None) -> Compiled:
    """A bank file compiled, from the cache when no source file changed since."""
    path = path.resolve()
    cache = _cache_file(path, cache_dir)

    def recompile() -> Mapping[str, Any]:
        data = compile_bank(path)
        if data["lesson"] is not None:  # without a lesson file there is no file to watch
            compiled.save(cache, data)
        return data

    data = _packaged(path, lambda: compile_bank(path)["bank"])
    if data is None:
        data = _read_cache(cache, lambda: recompile()["bank"])
    if data is None:
        data = recompile()
    bank = compiled.of(data["bank"])
    return Compiled(data["slug"], data["source"], bank, data["lesson"], data["site"], data["keys"])


def slugs(cwd: Path | None = None) -> list[str]:
    """Every bank slug reachable from ``cwd``, for "did you mean" messages and listings."""
    found: set[str] = set()
    for root in roots((cwd or Path.cwd()).resolve()):
        found.update(p.stem for p in (root / "quizzes").glob("*.yml"))
    return sorted(found)


def roots(cwd: Path) -> Iterator[Path]:
    """Course folders to search, in order: the checkout around ``cwd``, packaged, own checkout."""
    for folder in (cwd, *cwd.parents):
        if _is_course(folder):
            yield folder
            break
    if (PACKAGED / "quizzes").is_dir():
        yield PACKAGED
    own = _PACKAGE.parents[1]  # src/lessonkit -> the checkout
    if _is_course(own):
        yield own


def compile_bank(path: Path) -> dict[str, Any]:
    """Validate a bank and its lesson: the slow path (YAML and pydantic), JSON out."""
    from lessonkit.bank.loader import load_bank  # heavy: only when the cache cannot answer
    from lessonkit.questiontypes import registry

    bank = load_bank(path)
    root = _course_of(path)
    lesson_path = _lesson_path(root, bank.lesson) if root else None
    settings = _site_settings(root / "mkdocs.yml") if root else {}
    lesson = _lesson_data(root, lesson_path, settings) if root and lesson_path else None
    deps = [p for p in (path, lesson_path, root and root / "mkdocs.yml") if p and p.is_file()]
    data = bank.model_dump(mode="json")
    return {
        "format": FORMAT,
        "lessonkit": __version__,
        "deps": [_stat(p) for p in deps],
        "env": site_env(root) if root else {},
        "slug": path.stem,
        "source": _shown(path),
        "site": "published" if settings.get("site_url") else "local",
        "bank": data,
        "lesson": lesson,
        # Hashed here, so a quiz can compare keys with history before its first question.
        "keys": {q["id"]: registry.key_hash(registry.decode(q)) for q in data["questions"]},
    }


def _bank_path(target: str, cwd: Path) -> Path:
    candidate = cwd / target
    if target.endswith((".yml", ".yaml")) or "/" in target or os.sep in target:
        if not candidate.is_file():
            what = "a directory, not a bank file" if candidate.is_dir() else "not found"
            raise UsageError(f"{target}: {what}; give a bank file such as quizzes/SLUG.yml")
        return candidate
    for root in roots(cwd):
        path = root / "quizzes" / f"{target}.yml"
        if path.is_file():
            return path
    known = slugs(cwd)
    import difflib  # only on this error path

    close = difflib.get_close_matches(target.casefold(), known, n=1)
    hint = (
        f"did you mean `{close[0]}`?"
        if close
        else "known quizzes: " + (", ".join(known) if known else "none found")
    )
    raise UsageError(f"no quiz called `{target}` ({hint})")


def _is_course(folder: Path) -> bool:
    return (folder / "mkdocs.yml").is_file() and (folder / "quizzes").is_dir()


def _course_of(path: Path) -> Path | None:
    return next((f for f in path.parents if _is_course(f)), None)


def _lesson_path(root: Path, slug: str) -> Path | None:
    content = root / docs_dir(root)
    found = sorted(content.glob(f"*/{slug}.md")) or sorted(content.glob(f"**/{slug}.md"))
    return found[0] if found else None


def docs_dir(root: Path) -> str:
    """The course's docs_dir (where lessons are), as mkdocs.yml says; `docs` by default."""
    return _site_settings(root / "mkdocs.yml").get("docs_dir") or "docs"


def _site_settings(mkdocs: Path) -> dict[str, str]:
    # mkdocs.yml may hold `!!python/name:` tags that a safe YAML loader refuses, and only
    # three top-level scalars are needed: read them as lines.
    try:
        text = mkdocs.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return {key: _setting(value) for key, value in _SETTING.findall(text)}


def _setting(value: str) -> str:
    """A scalar as written, or `!ENV NAME` / `!ENV [NAME, …, default]` as MkDocs reads it.

    The first variable that is set and not empty wins, else the default (if the list
    ends with a value that is not a variable name, as in MkDocs); empty means unset.
    """
    value = re.sub(r"\s+#.*$", "", value).strip()
    found = _ENV.match(value)
    if found is None:
        return _scalar(value)
    if found.group(2) is not None:
        return os.environ.get(found.group(2), "")
    names = [part.strip() for part in found.group(1).split(",")]
    for name in names[:-1] if len(names) > 1 else names:
        if os.environ.get(name):
            return os.environ[name]
    return _scalar(names[-1]) if len(names) > 1 else ""


# YAML's spellings of "no value": `site_url: !ENV [SITE_URL, null]` leaves it unset.
_NULLS = {"", "~", "null", "Null", "NULL"}


def _scalar(written: str) -> str:
    """A plain or quoted YAML scalar's text; a null is empty, i.e. unset."""
    return "" if written in _NULLS else written.strip("'\"")


def site_env(root: Path) -> dict[str, str]:
    """Environment variables mkdocs.yml's `!ENV` settings read, with their values now."""
    try:
        text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    names = re.findall(r"!ENV\s+\[?\s*([A-Za-z_]\w*)", text)
    return {name: os.environ.get(name, "") for name in names}


def _lesson_data(root: Path, path: Path, settings: Mapping[str, str]) -> dict[str, Any]:
    from lessonkit.course.lessons import read_lesson

    page = read_lesson(path)
    relative = path.relative_to(root / (settings.get("docs_dir") or "docs")).with_suffix("")
    directory = settings.get("use_directory_urls", "true").lower() != "false"
    page_path = (
        f"{relative.as_posix()}/" if directory else f"{relative.as_posix()}.html"
    ).removesuffix("index/")
    base = settings.get("site_url") or LOCAL_SITE
    url = base.rstrip("/") + "/" + page_path
    sections = {h.anchor: {"title": h.title, "url": f"{url}#{h.anchor}"} for h in page.headings}
    return {
        "slug": path.stem,
        "title": page.meta.title,
        "plan": page.meta.plan,
        "url": url,
        "insights": list(page.meta.insights),
        "sections": sections,
    }


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _stat(path: Path) -> list[Any]:
    info = path.stat()
    return [str(path), info.st_size, info.st_mtime_ns]


def cache_folder(cache_dir: Path | None = None) -> Path:
    """Where compiled banks are kept: ``cache_dir``, ``$LESSONKIT_HOME/cache`` or the platform's."""
    if cache_dir is not None:
        return cache_dir
    home = os.environ.get("LESSONKIT_HOME")
    if home:
        return Path(home) / "cache"
    import platformdirs  # only when nothing overrides it

    return Path(platformdirs.user_cache_dir("lessonkit"))


def _cache_file(path: Path, cache_dir: Path | None) -> Path:
    name = hashlib.sha256(str(path).encode()).hexdigest()[:24]
    return cache_folder(cache_dir) / "banks" / f"{name}.json"


def _packaged(path: Path, recover: compiled.Recover) -> Mapping[str, Any] | None:
    """The compiled form the wheel carries for a packaged bank (see hatch_build.py)."""
    if path.parent != PACKAGED.resolve() / "quizzes":
        return None
    data = compiled.read(PACKAGED / "compiled" / f"{path.stem}.json", recover)
    if data is None or data.get("format") != FORMAT or data.get("lessonkit") != __version__:
        return None
    return data


def _read_cache(cache: Path, recover: compiled.Recover) -> Mapping[str, Any] | None:
    data = compiled.read(cache, recover)
    if data is None:
        return None  # missing, damaged or in another layout: compile again
    try:
        fresh = (
            data["format"] == FORMAT
            and data["lessonkit"] == __version__
            and all(_stat(Path(dep[0])) == dep for dep in data["deps"])
            and all(os.environ.get(k, "") == v for k, v in data.get("env", {}).items())
        )
    except (OSError, KeyError, TypeError):
        return None  # missing, unreadable or from another version: compile again
    if not fresh:
        return None
    data["source"] = _shown(Path(data["deps"][0][0]))
    return data
