"""What every command shares: its exit codes and the type argparse gives its subcommands."""

from __future__ import annotations

import argparse
from typing import TypeAlias

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
