"""`make bench`: run every benchmark once and print its figures and ratios."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Each module measures one target from the issues; missing ones say so instead of failing.
MODULES = (
    "bench.validate", "bench.startup", "bench.site", "bench.scale", "bench.sitescale",
    "bench.results",
)  # fmt: skip


def main() -> int:
    # --quick (CI): the scale benchmarks skip their 1,000-lesson courses.
    quick = "--quick" in sys.argv[1:]
    # This sandbox sets PYTHONDONTWRITEBYTECODE, so every process would compile lessonkit
    # from source: a cost no installed or editable copy pays after its first run.
    # Measure what learners and authors get.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print("(child processes write and reuse .pyc files, as a normal install does)\n")
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            print(f"{name}: not yet")
            continue
        takes_quick = "quick" in inspect.signature(module.run).parameters
        for line in module.run(quick=quick) if takes_quick else module.run():
            print(line, flush=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
