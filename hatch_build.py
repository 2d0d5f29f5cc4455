"""Wheel build hook: the installed course carries its banks already checked and compiled.

Without it a learner's first quiz after `pip install` would parse the YAML and build
the pydantic models before question 1 (several times the start-up budget). The hook
runs lessonkit's own compiler on every bank and puts the JSON beside the course as
``lessonkit/_course/compiled/<slug>.json``; ``catalog`` uses it for packaged banks.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileBanks(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install reads the checkout, which has its own cache
        root = Path(self.root)
        sys.path.insert(0, str(root / "src"))
        from lessonkit.course import catalog, compiled

        out = Path(tempfile.mkdtemp(prefix="lessonkit-compiled-"))
        for bank in sorted((root / "quizzes").glob("*.yml")):
            data = catalog.compile_bank(bank)
            data["deps"] = []  # build-machine paths mean nothing once installed
            data["source"] = f"quizzes/{bank.name}"
            target = out / f"{bank.stem}.json"
            compiled.save(target, data)
            build_data["force_include"][str(target)] = f"lessonkit/_course/compiled/{target.name}"
        # The course's facts, when it has any: `lessonkit read` shows a lesson's references
        # from them (the compiled banks already hold their values).
        for fact_file in sorted((root / "facts").glob("*.y*ml")):
            build_data["force_include"][str(fact_file)] = (
                f"lessonkit/_course/facts/{fact_file.name}"
            )
