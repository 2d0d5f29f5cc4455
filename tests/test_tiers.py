"""`make check` leaves out exactly the tests that need a browser, a terminal, a wheel or a build."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _collected(*args: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return {line for line in result.stdout.splitlines() if "::" in line}


def test_the_fast_tier_is_the_suite_without_browsers_terminals_wheels_or_builds() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^FAST := (.+)$", makefile, re.M)
    assert found
    everything, fast = _collected(), _collected("-m", found.group(1))
    left_out = everything - fast
    modules = {test.split("::")[0] for test in left_out}
    # Whole modules that drive Chromium or a pseudo-terminal are left out, …
    assert {"tests/test_browser.py", "tests/test_quiz_pty.py", "tests/test_reading.py"} <= modules
    # … and so is each test that asks for a wheel or a built site, wherever it lives.
    assert any("test_wheel.py" in t for t in left_out)
    assert not any(t.startswith(("tests/test_browser.py", "tests/test_quiz_pty.py")) for t in fast)
    # Most of the suite still runs: the fast tier is for the edit-test loop, not a sample.
    assert len(fast) > 0.8 * len(everything)
