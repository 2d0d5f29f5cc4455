"""Is requirements/dev.txt still the lock of what pyproject.toml asks for?

`make lock` writes the lock with uv and, beside it, a fingerprint of the inputs it was
made from: the dependencies, every extra, the build requirements and requires-python.
`make install` and `make test` run this first, so a range edited without re-locking
stops the run with the command to type, instead of testing on versions nobody chose.

Standard library only: it runs before the virtual environment exists.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINT = Path(__file__).with_name("dev.inputs.sha256")


def inputs_digest(pyproject: Path = ROOT / "pyproject.toml") -> str:
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    project = data.get("project", {})
    inputs = {
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
        "requires-python": project.get("requires-python", ""),
        "build-system": data.get("build-system", {}).get("requires", []),
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def main(argv: list[str]) -> int:
    digest = inputs_digest()
    if argv[1:] == ["--write"]:
        FINGERPRINT.write_text(digest + "\n", encoding="utf-8")
        return 0
    recorded = FINGERPRINT.read_text(encoding="utf-8").strip() if FINGERPRINT.exists() else ""
    if recorded == digest:
        return 0
    print(
        "pyproject.toml: its dependencies changed since requirements/dev.txt was locked, "
        "so the tests would not run on the versions the lock records.\n"
        "Re-lock, then commit both files:  make lock",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
