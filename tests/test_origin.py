"""Where lessonkit was installed from (PEP 610's `direct_url.json`), and how a new course
installs the same lessonkit: the README's requirement, CI's, and what the author is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.authoring.origin import installed_origin, origin_from

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("direct_url", "readme", "ci", "about"),
    [
        (
            None,
            '"lessonkit[site]==0.1.0"',
            '"lessonkit[site]==0.1.0"',
            "lessonkit 0.1.0 comes from a package index.",
        ),
        (
            '{"url": "https://github.com/ana/lessonkit.git", "vcs_info": {"vcs": "git", '
            f'"commit_id": "{COMMIT}", "requested_revision": "main"}}}}',
            f'"lessonkit[site] @ git+https://github.com/ana/lessonkit.git@{COMMIT}"',
            f'"lessonkit[site] @ git+https://github.com/ana/lessonkit.git@{COMMIT}"',
            "lessonkit comes from https://github.com/ana/lessonkit.git, at commit 0123456789ab.",
        ),
        (
            '{"url": "https://files.ana.dev/lessonkit-0.1.0-py3-none-any.whl", "archive_info": {}}',
            '"lessonkit[site] @ https://files.ana.dev/lessonkit-0.1.0-py3-none-any.whl"',
            '"lessonkit[site] @ https://files.ana.dev/lessonkit-0.1.0-py3-none-any.whl"',
            "lessonkit comes from https://files.ana.dev/lessonkit-0.1.0-py3-none-any.whl.",
        ),
        (
            '{"url": "file:///home/ana/gone/lessonkit-0.1.0-py3-none-any.whl", "archive_info": {}}',
            '"lessonkit[site] @ git+https://github.com/OWNER/lessonkit@COMMIT"',
            None,
            "lessonkit was installed from /home/ana/gone/lessonkit-0.1.0-py3-none-any.whl, "
            "which is no longer there. Write where lessonkit comes from in the install above "
            'and in the "Install lessonkit" step of .github/workflows/site.yml, such as '
            '`"lessonkit[site] @ git+https://github.com/OWNER/lessonkit@COMMIT"` for the '
            "repository you got lessonkit from, or a wheel you commit under wheels/.",
        ),
        (
            '{"url": "file:///home/ana/lessonkit", "dir_info": {}}',
            '"/home/ana/lessonkit[site]"',
            None,
            "lessonkit was installed from /home/ana/lessonkit, a folder on this machine: the "
            "install above works on this machine only, and CI cannot reach it. Before the "
            'first push, replace the lines of the "Install lessonkit" step in '
            ".github/workflows/site.yml with an install CI can run, such as "
            '`"lessonkit[site] @ git+https://github.com/OWNER/lessonkit@COMMIT"` for the '
            "repository you got lessonkit from, or a wheel you commit under wheels/.",
        ),
        (
            "{not json",
            '"lessonkit[site] @ git+https://github.com/OWNER/lessonkit@COMMIT"',
            None,
            "pip's record of where lessonkit came from cannot be read. Write where",
        ),
    ],
    ids=["index", "git", "https-wheel", "missing-wheel", "folder", "unreadable"],
)
def test_each_origin_gives_its_install(
    direct_url: str | None, readme: str, ci: str | None, about: str
) -> None:
    origin = origin_from(direct_url, "0.1.0")
    assert (origin.readme, origin.ci) == (readme, ci)
    assert origin.about.startswith(about)


def test_a_wheel_on_this_machine_is_copied_into_the_course(tmp_path: Path) -> None:
    wheel = tmp_path / "lessonkit-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK wheel bytes")
    origin = origin_from(f'{{"url": "{wheel.as_uri()}", "archive_info": {{}}}}', "0.1.0")
    assert origin.readme == origin.ci == '"./wheels/lessonkit-0.1.0-py3-none-any.whl[site]"'
    assert origin.files == {"wheels/lessonkit-0.1.0-py3-none-any.whl": b"PK wheel bytes"}


def test_this_checkout_is_a_folder_ci_cannot_reach() -> None:
    """The dev install (`make install`: pip install --editable .) is what an author who
    cloned lessonkit has: the README works here, and CI must be told."""
    origin = installed_origin("0.1.0")
    assert origin.ci is None and origin.readme.startswith('-e "/')
