"""Finding banks by slug or path, lesson metadata and URLs, and the compiled-bank cache."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from conftest import MakeCourse
from lessonkit.course import catalog
from lessonkit.errors import ContentError, UsageError

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = "site_name: Test\ndocs_dir: content\n"


@pytest.fixture
def course(make_course: MakeCourse) -> Path:
    return make_course({"mkdocs.yml": MKDOCS})


def test_slug_found_from_a_subfolder_of_the_checkout(course: Path, tmp_path: Path) -> None:
    found = catalog.find("lesson-one", cwd=course / "content", cache_dir=tmp_path / "cache")
    assert found.slug == "lesson-one"
    assert found.site == "local"
    assert [q.id for q in found.bank["questions"]] == ["q-single", "q-order"]
    assert found.lesson == {
        "slug": "lesson-one",
        "title": "Lesson one",
        "plan": "test-plan",
        "url": "http://127.0.0.1:8000/test-plan/lesson-one/",
        "insights": ["First idea", "Second idea"],
        "sections": {
            "1-first-idea": {
                "title": "First idea",
                "url": "http://127.0.0.1:8000/test-plan/lesson-one/#1-first-idea",
            },
            "a-detail": {
                "title": "A detail",
                "url": "http://127.0.0.1:8000/test-plan/lesson-one/#a-detail",
            },
            "2-second-idea": {
                "title": "Second idea",
                "url": "http://127.0.0.1:8000/test-plan/lesson-one/#2-second-idea",
            },
        },
    }


def test_site_url_from_mkdocs_yml(make_course: MakeCourse, tmp_path: Path) -> None:
    root = make_course(
        {
            "mkdocs.yml": MKDOCS + "site_url: 'https://learn.example.org/course/'"
            "  # published\nmarkdown_extensions:\n  - x: !!python/name:y.z\n"
        }
    )
    found = catalog.find("lesson-one", cwd=root, cache_dir=tmp_path / "cache")
    assert found.site == "published"
    assert found.lesson is not None
    assert found.lesson["sections"]["a-detail"]["url"] == (
        "https://learn.example.org/course/test-plan/lesson-one/#a-detail"
    )


def test_bank_by_path_outside_any_course(
    tmp_path_factory: pytest.TempPathFactory, course: Path
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    loose = outside / "elsewhere" / "my-bank.yml"
    loose.parent.mkdir()
    loose.write_bytes((course / "quizzes" / "lesson-one.yml").read_bytes())
    found = catalog.find("elsewhere/my-bank.yml", cwd=outside, cache_dir=outside / "cache")
    assert (found.slug, found.lesson, found.bank["title"]) == ("my-bank", None, "Lesson one quiz")


def test_unknown_slug_suggests_a_close_one(course: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        catalog.find("lesson-on", cwd=course, cache_dir=tmp_path / "cache")
    assert str(caught.value) == "no quiz called `lesson-on` (did you mean `lesson-one`?)"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "nowhere/bank.yml",
            "nowhere/bank.yml: not found; give a bank file such as quizzes/SLUG.yml",
        ),
        (
            "quizzes/",
            "quizzes/: a directory, not a bank file; give a bank file such as quizzes/SLUG.yml",
        ),
    ],
)
def test_bad_paths_are_usage_errors(
    course: Path, tmp_path: Path, target: str, message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        catalog.find(target, cwd=course, cache_dir=tmp_path / "cache")
    assert str(caught.value) == message


def test_invalid_bank_is_a_content_error_with_positions(
    make_course: MakeCourse, tmp_path: Path
) -> None:
    root = make_course(
        {
            "mkdocs.yml": MKDOCS,
            "quizzes/lesson-one.yml": "lesson: lesson-one\ntitle: T\npass_mark: 2\nquestions: []\n",
        }
    )
    with pytest.raises(ContentError) as caught:
        catalog.find("lesson-one", cwd=root, cache_dir=tmp_path / "cache")
    assert [(p.line, p.column) for p in caught.value.problems] == [(3, 12), (4, 12)]
    assert all(p.path.endswith("quizzes/lesson-one.yml") for p in caught.value.problems)


def fail_compiling(path: Path) -> dict[str, Any]:
    raise AssertionError(f"compiled {path} again instead of using the cache")


def test_cache_answers_until_a_source_changes(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = catalog.find("lesson-one", cwd=course, cache_dir=cache)
    real_compile = catalog.compile_bank
    monkeypatch.setattr(catalog, "compile_bank", fail_compiling)
    assert catalog.find("lesson-one", cwd=course, cache_dir=cache) == first
    # An edit to the lesson (not the bank) must show up too.
    lesson = course / "content" / "test-plan" / "lesson-one.md"
    lesson.write_text(lesson.read_text().replace("title: Lesson one", "title: Lesson 1"))
    monkeypatch.setattr(catalog, "compile_bank", real_compile)
    again = catalog.find("lesson-one", cwd=course, cache_dir=cache)
    assert again.lesson is not None and again.lesson["title"] == "Lesson 1"


def test_compiled_bank_carries_each_questions_key_hash(course: Path, tmp_path: Path) -> None:
    from lessonkit.bank.loader import load_bank
    from lessonkit.questiontypes import registry

    bank = load_bank(course / "quizzes" / "lesson-one.yml")
    expected = {q.id: registry.key_hash(registry.runtime(q)) for q in bank.questions}
    for _ in range(2):  # compiled, then from the cache
        found = catalog.find("lesson-one", cwd=course, cache_dir=tmp_path / "cache")
        assert found.keys == expected


def test_cache_from_another_version_is_ignored(course: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    catalog.find("lesson-one", cwd=course, cache_dir=cache)
    (entry,) = (cache / "banks").iterdir()
    data = json.loads(entry.read_text())
    data["lessonkit"] = "0.0.0"
    data["bank"]["title"] = "stale"
    entry.write_text(json.dumps(data))
    assert catalog.find("lesson-one", cwd=course, cache_dir=cache).bank["title"] != "stale"


def test_unwritable_cache_still_quizzes(course: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    found = catalog.find("lesson-one", cwd=course, cache_dir=blocker)
    assert found.slug == "lesson-one"


def test_cache_folder_follows_lessonkit_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LESSONKIT_HOME", str(tmp_path))
    assert catalog.cache_folder() == tmp_path / "cache"
    assert catalog.cache_folder(tmp_path / "x") == tmp_path / "x"


def test_slugs_lists_the_checkout_and_the_package(course: Path) -> None:
    assert "lesson-one" in catalog.slugs(course)


def test_cached_source_is_relative_to_where_you_stand(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(course)
    catalog.find("lesson-one", cache_dir=tmp_path / "cache")
    found = catalog.find("lesson-one", cache_dir=tmp_path / "cache")
    assert found.source == str(Path("quizzes", "lesson-one.yml"))


def test_installed_course_is_found_from_any_folder(
    course: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a wheel installs: the course under lessonkit/_course, used outside any checkout."""
    packaged = tmp_path_factory.mktemp("site-packages") / "_course"
    for part in ("quizzes", "content"):
        shutil.copytree(course / part, packaged / part)
    shutil.copy(course / "mkdocs.yml", packaged / "mkdocs.yml")
    monkeypatch.setattr(catalog, "PACKAGED", packaged)
    anywhere = tmp_path_factory.mktemp("anywhere")
    found = catalog.find("lesson-one", cwd=anywhere, cache_dir=anywhere / "cache")
    assert found.lesson is not None and found.lesson["title"] == "Lesson one"
    assert found.source.endswith("_course/quizzes/lesson-one.yml")


WHEEL_COURSE = {
    "quizzes": "lessonkit/_course/quizzes",
    "content": "lessonkit/_course/content",
    "mkdocs.yml": "lessonkit/_course/mkdocs.yml",
}


def test_the_wheel_carries_the_course() -> None:
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    wheel = tomllib.loads(pyproject.read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    if "force-include" not in wheel:
        pytest.skip(
            "pyproject.toml needs [tool.hatch.build.targets.wheel.force-include] "
            f"with {WHEEL_COURSE} so that `pip install .` carries the course"
        )
    assert {k: v for k, v in wheel["force-include"].items() if k in WHEEL_COURSE} == WHEEL_COURSE
    package = Path(catalog.__file__).resolve().parents[1]  # lessonkit/, above course/
    assert catalog.PACKAGED.relative_to(package) == Path("_course")


@pytest.mark.parametrize(
    ("line", "env", "site", "base"),
    [
        (
            "site_url: !ENV SITE_URL",
            {"SITE_URL": "https://pages.example.net/c/"},
            "published",
            "https://pages.example.net/c/",
        ),
        ("site_url: !ENV SITE_URL", {}, "local", catalog.LOCAL_SITE),
        ('site_url: !ENV [SITE_URL, ""]', {}, "local", catalog.LOCAL_SITE),
        ("site_url: !ENV [SITE_URL, null]", {}, "local", catalog.LOCAL_SITE),
        ("site_url: !ENV [SITE_URL, ~]", {}, "local", catalog.LOCAL_SITE),
        ("site_url: null", {}, "local", catalog.LOCAL_SITE),
        ("site_url: '~/pages/'", {}, "published", "~/pages/"),
        (
            'site_url: !ENV [SITE_URL, ""]  # set by the publishing workflow',
            {"SITE_URL": ""},
            "local",
            catalog.LOCAL_SITE,
        ),
        (
            "site_url: !ENV [SITE_URL, 'https://fallback.example.net/']",
            {},
            "published",
            "https://fallback.example.net/",
        ),
        (
            "site_url: !ENV [SITE_URL, 'https://fallback.example.net/']",
            {"SITE_URL": "https://pages.example.net/"},
            "published",
            "https://pages.example.net/",
        ),
    ],
)
def test_site_url_from_the_environment_as_mkdocs_reads_it(
    make_course: MakeCourse,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    line: str,
    env: dict[str, str],
    site: str,
    base: str,
) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    root = make_course({"mkdocs.yml": MKDOCS + line + "\n"})
    found = catalog.find("lesson-one", cwd=root, cache_dir=tmp_path / "cache")
    assert found.site == site
    assert found.lesson is not None
    assert found.lesson["sections"]["a-detail"]["url"] == f"{base}test-plan/lesson-one/#a-detail"


def test_a_changed_site_url_variable_is_not_answered_from_the_cache(
    make_course: MakeCourse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course({"mkdocs.yml": MKDOCS + 'site_url: !ENV [SITE_URL, ""]\n'})
    monkeypatch.delenv("SITE_URL", raising=False)
    assert catalog.find("lesson-one", cwd=root, cache_dir=tmp_path / "c").site == "local"
    monkeypatch.setenv("SITE_URL", "https://pages.example.net/")
    assert catalog.find("lesson-one", cwd=root, cache_dir=tmp_path / "c").site == "published"


def test_a_slug_in_capitals_gets_a_suggestion(course: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"did you mean `lesson-one`\?"):
        catalog.find("LESSON-ONE", cwd=course, cache_dir=tmp_path / "cache")


def test_the_real_course_links_to_the_local_site_unless_site_url_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # mkdocs.yml reads site_url from the environment with a YAML null default: unset here.
    monkeypatch.delenv("SITE_URL", raising=False)
    found = catalog.find("gpu-vs-tpu", cwd=ROOT, cache_dir=tmp_path / "cache")
    assert found.site == "local"
    assert found.lesson is not None
    urls = [section["url"] for section in found.lesson["sections"].values()]
    assert urls and all(url.startswith(catalog.LOCAL_SITE) for url in urls), urls[:3]
