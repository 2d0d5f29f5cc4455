"""The `lessonkit` command: thin subcommands over the library.

Exit codes (``exits``): 0 all good, 1 content problems (or a failed quiz check), 2 usage
errors, 3 input ended before a quiz or review did, 130 Ctrl-C.
argparse rather than click: the quiz must show its first question fast, and click
alone costs ~40 ms of start-up here. Heavy modules are imported inside handlers.
The commands sit in one module per audience: ``learners``, ``authors``, ``teachers``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from lessonkit.cli import authors, learners, teachers
from lessonkit.cli.exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, Commands
from lessonkit.errors import ContentError, LessonkitError, UsageError

__all__ = ["build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]

# --- the parser ------------------------------------------------------------------

# Each part of the CLI registers its subcommands here; the order is the order in --help.
# Learners' commands first: they are most of the people who type `lessonkit --help`.
REGISTRARS: list[Callable[[Commands], None]] = [
    learners.add_quiz,
    learners.add_read,
    learners.add_review,
    learners.add_history,
    learners.add_list,
    authors.add_validate,
    authors.add_rules,
    authors.add_schema,
    authors.add_new,
    authors.add_report,
    authors.add_diff,
    authors.add_facts,
    teachers.add_export,
    authors.add_import,
    teachers.add_results,
]


def build_parser() -> argparse.ArgumentParser:
    from lessonkit import __version__

    parser = argparse.ArgumentParser(
        prog="lessonkit",
        description="Lessons on a static site; quizzes taken and graded locally in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"lessonkit {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for register in REGISTRARS:
        register(commands)
    return parser


def _innermost(parser: argparse.ArgumentParser, words: Sequence[str]) -> argparse.ArgumentParser:
    """The (sub)command parser the words name: `history -v` is history's mistake to explain."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for at, word in enumerate(words):
                if word in action.choices:
                    return _innermost(action.choices[word], words[at + 1 :])
    return parser


def _unknown_command(parser: argparse.ArgumentParser, words: Sequence[str]) -> str | None:
    """What to say when the first word is no command: the nearest one, or where they are.

    argparse would list every command, with no hint which one was meant.
    """
    if not words or words[0].startswith("-"):
        return None
    commands = [
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    ]
    if words[0] in commands:
        return None
    import difflib  # only on this error path

    from lessonkit.course.invocation import program

    close = difflib.get_close_matches(words[0].casefold(), commands, n=1, cutoff=0.6)
    hint = f"did you mean `{close[0]}`?" if close else f"see `{program()} --help`"
    return f"lessonkit: no command `{words[0]}` ({hint})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    unknown = _unknown_command(parser, words)
    if unknown is not None:
        print(unknown, file=sys.stderr)
        return EXIT_USAGE
    args, extra = parser.parse_known_args(argv)
    if extra:  # said with the usage of the command they were given to, not the top level's
        _innermost(parser, words).error(f"unrecognized arguments: {' '.join(extra)}")
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return handler(args)
    except ContentError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return EXIT_PROBLEMS
    except UsageError as error:
        print(f"lessonkit: {error}", file=sys.stderr)
        return EXIT_USAGE
    except LessonkitError as error:
        print(f"lessonkit: {error}", file=sys.stderr)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `lessonkit … | head` closed our stdout; that is not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
