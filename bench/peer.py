"""mkdocs-quiz, the peer lessonkit is measured against, installed once per `make bench`.

`bench/startup.py` times its terminal runner and `bench/site.py` weighs what its plugin adds
to a page; both use this one venv, made in the run that measures. mkdocs-material goes in
at lessonkit's own version, so a page built there differs from ours only by the quiz tool.
"""

from __future__ import annotations

import atexit
import functools
import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


@functools.cache
def install() -> tuple[Path | None, str]:
    """The peer venv's python and "mkdocs-quiz VERSION", or None and why it could not be."""
    work = Path(tempfile.mkdtemp(prefix="lessonkit-peer-"))
    atexit.register(shutil.rmtree, work, True)
    theme = f"mkdocs-material=={importlib.metadata.version('mkdocs-material')}"
    try:
        subprocess.run([sys.executable, "-m", "venv", str(work)], check=True, timeout=300)
        python = work / "bin" / "python"
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "mkdocs-quiz", theme],
            check=True, capture_output=True, timeout=900,
        )  # fmt: skip
        version = subprocess.run(
            [str(python), "-c", "import importlib.metadata as m; print(m.version('mkdocs-quiz'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (subprocess.SubprocessError, OSError) as error:
        return None, f"mkdocs-quiz could not be installed here ({type(error).__name__}); no figure"
    return python, f"mkdocs-quiz {version}"
