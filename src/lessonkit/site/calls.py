"""The calls to action a page carries: install lessonkit, then take a lesson's quiz.

Pure string work; the extension (``extension``) puts them where the page's markers are.
"""

from __future__ import annotations

import html as _html

__all__ = ["QUIZ_ANCHOR", "QUIZ_TITLE", "install_call", "quiz_call"]

QUIZ_TITLE = "Take the quiz in your terminal"
QUIZ_ANCHOR = "take-the-quiz"


# Where the commands put lessonkit: a private environment of its own, as README's "For
# learners" does, since Debian's and Ubuntu's own pip refuses to install into the system
# Python (externally-managed-environment).
VENV = "~/.lessonkit"


def _commands(repo_url: str | None, slug: str | None) -> str:
    # Installing from the repository needs its address; without one (a local build) the
    # page says where the command runs instead of showing a made-up address.
    source = f'"git+{repo_url}"' if repo_url else "."
    lines = [f"python3 -m venv {VENV}", f"{VENV}/bin/pip install {source}"]
    lines += [f"{VENV}/bin/lessonkit quiz {slug}"] if slug else []
    code = "\n".join(_escape(line) for line in lines)
    return f'<div class="highlight"><pre><span></span><code>{code}</code></pre></div>'


def _where(repo_url: str | None) -> str:
    if repo_url:
        return (
            f'lessonkit comes from <a href="{_escape(repo_url)}">{_escape(repo_url)}</a>. '
            "Install it with Python 3.11 or newer, in an environment of its own:"
        )
    return (
        "In a clone of the lessonkit repository, with Python 3.11 or newer, in an "
        "environment of its own:"
    )


# Said under the commands: why an environment of its own, and the other ways in.
_AFTER = (
    "<p>The environment keeps lessonkit apart from your system's Python, whose own "
    "<code>pip install</code> Debian and Ubuntu refuse. If <code>python3 -m venv</code> "
    "says ensurepip is not available, run <code>sudo apt install python3-venv</code> first. "
    "<code>pipx install</code> or <code>uv tool install</code> with the same source work "
    "too, and let you type just <code>lessonkit</code>.</p>"
)


def quiz_call(slug: str, repo_url: str | None = None) -> str:
    """The call to action at the end of a lesson: install lessonkit, then take the quiz."""
    return (
        '<div class="lk-quiz-call">\n'
        "<p>The terminal quiz asks every question on this lesson, shuffled, grades your "
        "answers and keeps your history on your own machine. "
        f"{_where(repo_url)}</p>\n"
        f"{_commands(repo_url, slug)}\n"
        f"{_AFTER}\n"
        "</div>"
    )


def install_call(repo_url: str | None = None) -> str:
    """The install command alone, for pages that name no lesson (the home page)."""
    commands = _commands(repo_url, None)
    return f'<div class="lk-quiz-call">\n<p>{_where(repo_url)}</p>\n{commands}\n{_AFTER}\n</div>'


def _escape(value: str) -> str:
    return _html.escape(value, quote=True)
