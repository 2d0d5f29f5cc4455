"""What every command shares: its exit codes and the type argparse gives its subcommands."""

from __future__ import annotations

import argparse
from typing import TypeAlias

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
# `quiz` and `review` only: input ended (a pipe ran dry, Ctrl-D) before the last question.
# The answers so far are kept, as after `q` (which exits 0). The quiz returns it itself
# (`quiz.loop.EXIT_ENDED`, kept equal by a test): the layers below the CLI cannot import it.
EXIT_ENDED = 3
# Ctrl-C: stopped, the answers so far kept.
EXIT_INTERRUPTED = 130

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
