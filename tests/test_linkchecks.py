"""Links and footnotes on every page the site builds, in question text, and in `nav`:
what `mkdocs build --strict` would refuse, `lessonkit validate` refuses first."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FULL_BANK, PLAN, MakeCourse
from lessonkit.authoring.rulebook import check_course
from sitebuilds import build


@pytest.fixture(autouse=True)
def _in_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def problems(root: Path) -> list[str]:
    return [str(p) for p in check_course(root).problems]


HOME = """\
# Welcome

Start with [the plan](test-plan/index.md) or [its lesson](test-plan/lesson-one.md#1-first-idea).
Then [a page that is not there](test-plan/gone.md), [an anchor](test-plan/index.md#nope)
and [plain http](http://www.python.org/).[^why]
"""


def test_links_and_footnotes_on_the_home_and_plan_pages(make_course: MakeCourse) -> None:
    plan = PLAN.replace("Body.\n", "Body, [missing](../nowhere.md).[^a]\n\n[^b]: B.\n")
    root = make_course({"content/index.md": HOME, "content/test-plan/index.md": plan,
                        "quizzes/lesson-one.yml": FULL_BANK})  # fmt: skip
    assert problems(root) == [
        "content/index.md:4:6: link `test-plan/gone.md` points to a file that does not exist "
        "(check the path; it is relative to this page's folder)",
        "content/index.md:4:53: anchor `#nope` is not a heading in content/test-plan/index.md "
        "(use a heading's anchor as the site makes it: `## 2. Where TPUs are strongest` becomes "
        "`#2-where-tpus-are-strongest`)",
        "content/index.md:5:5: link `http://www.python.org/` does not use https (use the page's "
        "`https://` address; readers should not be sent over plain http)",
        "content/index.md:5:42: footnote `[^why]` has no definition, so the page shows it as "
        "text (add `[^why]: the source` on a line of its own at the end of the page)",
        "content/test-plan/index.md:7:7: link `../nowhere.md` points to a file that does not "
        "exist (check the path; it is relative to this page's folder)",
        "content/test-plan/index.md:7:32: footnote `[^a]` has no definition, so the page shows "
        "it as text (add `[^a]: the source` on a line of its own at the end of the page)",
    ]


def test_links_and_footnotes_in_question_text(make_course: MakeCourse) -> None:
    bank = FULL_BANK.replace(
        "    prompt: Pick b.\n",
        "    prompt: Pick b, as [the lesson](#1-first-idea) says.[^pg]\n",
    ).replace(
        "    explanation: Because b.\n",
        "    explanation: Because b ([see](#no-such-section), [docs](http://docs.python.org/)).\n",
    )
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert problems(root) == [
        "quizzes/lesson-one.yml:7:13: questions[0].prompt: footnote `[^pg]` shows as text: a "
        "question is shown apart from its page, where footnotes are defined (name the source "
        "in the text instead, e.g. `(see [the guide](https://…))`, or cite it in the lesson)",
        "quizzes/lesson-one.yml:10:18: questions[0].explanation: anchor `#no-such-section` is "
        "not a heading in the lesson's page (use a heading's anchor as the site makes it: "
        "`## 2. Where TPUs are strongest` becomes `#2-where-tpus-are-strongest`)",
        "quizzes/lesson-one.yml:10:18: questions[0].explanation: link "
        "`http://docs.python.org/` does not use https (use the page's `https://` address; "
        "readers should not be sent over plain http)",
    ]


NAV = """\
site_name: T
docs_dir: content
nav:
  - Home: index.md
  - Test plan:
      - test-plan/index.md
      - test-plan/lesson-one.md
      - test-plan/lesson-two.md
  - Python: https://www.python.org/
"""


def test_a_nav_entry_for_a_missing_page(make_course: MakeCourse) -> None:
    root = make_course({"mkdocs.yml": NAV, "content/index.md": "# Home\n",
                        "quizzes/lesson-one.yml": FULL_BANK})  # fmt: skip
    assert problems(root) == [
        "mkdocs.yml:8:9: nav: `test-plan/lesson-two.md` is not a file under content/, so the "
        "site has no such page and `mkdocs build --strict` stops (write the page's path "
        "relative to the docs folder, or remove the entry)",
    ]


@pytest.mark.build
@pytest.mark.parametrize(
    ("files", "refused", "mkdocs_says"),
    [
        ({"content/index.md": "# Home\n\n[Gone](test-plan/gone.md)\n"}, "content/index.md:3:1",
         "Doc file 'index.md' contains a link 'test-plan/gone.md', but the target is not found"),
        ({"mkdocs.yml": NAV}, "mkdocs.yml:8:9",
         "A reference to 'test-plan/lesson-two.md' is included in the 'nav' configuration"),
    ],
    ids=["home-link", "nav-entry"],
)  # fmt: skip
def test_what_a_strict_build_refuses_validate_refuses_first(
    make_course: MakeCourse, tmp_path: Path, files: dict[str, str], refused: str, mkdocs_says: str
) -> None:
    config = "site_name: T\ndocs_dir: content\nmarkdown_extensions:\n  - lessonkit.site.extension\n"
    root = make_course({"mkdocs.yml": config, "content/index.md": "# Home\n",
                        "quizzes/lesson-one.yml": FULL_BANK, **files})  # fmt: skip
    built = build(root, tmp_path / "site")
    assert built.returncode == 1 and f"WARNING -  {mkdocs_says}" in built.stderr
    assert [p.split(": ", 1)[0] for p in problems(root)] == [refused]


def test_question_text_cannot_link_to_a_file(make_course: MakeCourse) -> None:
    # A self-check is HTML neither engine rewrites: `index.md` stays `index.md` in the built
    # page, a 404 from the lesson's address, though the file is there.
    bank = FULL_BANK.replace(
        "    explanation: Because b.\n",
        "    explanation: Because b ([the plan](index.md), [part 1](#1-first-idea)).\n",
    )
    root = make_course({"quizzes/lesson-one.yml": bank})
    assert problems(root) == [
        "quizzes/lesson-one.yml:10:18: questions[0].explanation: link `index.md` leads to a "
        "file, which a question cannot link to: the site leaves the address as written, so it "
        "leads nowhere, and the quiz prints it as typed (link to the page's full `https://` "
        "address, or to an `#anchor` of the lesson)",
    ]
