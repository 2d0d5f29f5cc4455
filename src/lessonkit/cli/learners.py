"""Learners' commands: `quiz`, `read`, `review`, `history` (and `history --export`), `list`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lessonkit.cli.exits import EXIT_OK, Commands
from lessonkit.errors import UsageError


def _quiz(args: argparse.Namespace) -> int:
    from lessonkit.quiz.runner import quiz_command

    resume = True if args.resume else False if args.restart else None
    answers = Path(args.answers) if args.answers else None
    return quiz_command(args.target, seed=args.seed, answers=answers, as_json=args.json,
                        no_color=args.no_color, data_dir=_data_dir(args), resume=resume,
                        pause=not args.no_pause)  # fmt: skip


def _pause_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-pause",
        action="store_true",
        help="go straight on after each answer's feedback instead of waiting for Enter "
        "(also LESSONKIT_NO_PAUSE=1; piped answers never wait)",
    )


def add_quiz(commands: Commands) -> None:
    parser = commands.add_parser(
        "quiz",
        help="take a lesson's quiz in the terminal, graded locally",
        description="Take a quiz one question at a time; every answer is saved as it is given. "
        "TARGET is a quiz slug (e.g. gpu-vs-tpu) or a bank file (quizzes/SLUG.yml).",
    )
    parser.add_argument("target", metavar="TARGET", help="quiz slug or bank file")
    parser.add_argument(
        "--seed", type=int, metavar="N", help="shuffle and draw numbers with seed N (repeatable)"
    )
    parser.add_argument(
        "--answers",
        metavar="FILE",
        help="grade a YAML file of `question-id: answer` without asking",
    )
    parser.add_argument(
        "--json", action="store_true", help="with --answers: print the result as JSON"
    )
    parser.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR=1)")
    _pause_option(parser)
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="history folder (default: LESSONKIT_HOME or the platform's)",
    )
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", help="resume an unfinished attempt")
    again.add_argument("--restart", action="store_true",
                       help="set an unfinished attempt aside and start afresh")  # fmt: skip
    parser.set_defaults(handler=_quiz)


def _read(args: argparse.Namespace) -> int:
    from lessonkit.quiz.reader import read_command

    return read_command(args.slug, args.section, no_color=args.no_color)


def add_read(commands: Commands) -> None:
    parser = commands.add_parser(
        "read",
        help="read a lesson, or one section of it, in the terminal (offline)",
        description="Show a lesson in the terminal, through a pager when it is longer than the "
        "screen. SECTION is a heading's anchor, as the quiz's Re-read lines give it, e.g. "
        "`lessonkit read gpu-vs-tpu 2-where-tpus-are-strongest`; its number (`2`) or the start "
        "of its name (`where-tpus`) will do.",
    )
    parser.add_argument("slug", metavar="SLUG", help="the lesson, e.g. gpu-vs-tpu")
    parser.add_argument(
        "section", nargs="?", metavar="SECTION", help="a section: its anchor, number or name"
    )
    parser.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR=1)")
    parser.set_defaults(handler=_read)


def _data_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.data_dir) if args.data_dir else None


def _history(args: argparse.Namespace) -> int:
    if args.export or args.reset_pseudonym:
        if args.attempt is not None:
            raise UsageError("--export writes every attempt at a quiz: leave out the attempt's N")
        return _share(args)
    if args.attempt is not None:
        from lessonkit.quiz.transcript import attempt_command

        return attempt_command(args.slug, args.attempt, data_dir=_data_dir(args),
                               no_color=args.no_color)  # fmt: skip
    from lessonkit.history.tables import history_command

    return history_command(args.slug, data_dir=_data_dir(args), no_color=args.no_color)


def _review(args: argparse.Namespace) -> int:
    from lessonkit.quiz.review import review_command

    return review_command(
        args.slug, data_dir=_data_dir(args), no_color=args.no_color, seed=args.seed,
        pause=not args.no_pause,
    )  # fmt: skip


def _list(args: argparse.Namespace) -> int:
    from lessonkit.history.tables import list_command

    return list_command(data_dir=_data_dir(args), no_color=args.no_color)


def _learner_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR=1)")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="history folder (default: LESSONKIT_HOME or the platform's)",
    )


def add_history(commands: Commands) -> None:
    parser = commands.add_parser(
        "history",
        help="your quiz attempts: date, score, pass or fail, duration",
        description="List your attempts, oldest first, with score, result and duration. "
        "With a quiz and an attempt's number (the # column) or `last`, show that attempt "
        "question by question: your answer, the right one, why, and where to re-read. "
        "--export writes them to a file you can share with a teacher or author, under a "
        "random pseudonym and with no name, machine id or path (RESULTS.md).",
    )
    parser.add_argument("slug", nargs="?", metavar="SLUG", help="one quiz (default: all)")
    parser.add_argument(
        "attempt", nargs="?", metavar="N", help="one attempt at SLUG: its number, or `last`"
    )
    _learner_options(parser)
    _share_options(parser)
    parser.set_defaults(handler=_history)


def add_review(commands: Commands) -> None:
    parser = commands.add_parser(
        "review",
        help="ask again the questions you missed or that are due (spaced repetition)",
        description="Ask again the questions you missed, then those due for review, scheduled "
        "with spaced repetition (FSRS). Answers are saved as you give them.",
    )
    parser.add_argument("slug", nargs="?", metavar="SLUG", help="one quiz (default: all taken)")
    parser.add_argument(
        "--seed", type=int, metavar="N", help="shuffle and draw new numbers with seed N"
    )
    _pause_option(parser)
    _learner_options(parser)
    parser.set_defaults(handler=_review)


def add_list(commands: Commands) -> None:
    parser = commands.add_parser(
        "list",
        help="learning plans and lessons, with question counts and your best scores",
        description="List the learning plans and their lessons in reading order, each with its "
        "quiz, number of questions and your best score.",
    )
    _learner_options(parser)
    parser.set_defaults(handler=_list)


def _share(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from lessonkit.history.tables import open_store
    from lessonkit.results.sharing import export_history

    with open_store(_data_dir(args), lambda text: print(text, file=sys.stderr)) as store:
        if args.reset_pseudonym:
            print(f"Your new pseudonym is {store.pseudonym(renew=True)}; files you export from "
                  "now on carry it. Files you shared before keep the old one.")  # fmt: skip
        if not args.export:
            return EXIT_OK
        path = None if args.export == "-" else Path(args.export)
        shared, text = export_history(store, args.slug, path, now=datetime.now(UTC))
    if text is not None:
        sys.stdout.write(text)
        return EXIT_OK
    quizzes = ", ".join(shared.banks) or "no quiz yet"
    counts = f"{shared.attempts} attempt{'' if shared.attempts == 1 else 's'}, " \
             f"{shared.answers} answer{'' if shared.answers == 1 else 's'}"  # fmt: skip
    print(f"wrote {path}: {counts} ({quizzes}), as learner {shared.learner}. It holds no "
          "name, machine id or path; its first line says what it holds.")  # fmt: skip
    return EXIT_OK


def _share_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--export",
        metavar="FILE",
        help="write your attempts (SLUG's, or all) to FILE as JSON Lines to share with a "
        "teacher or author (`-`: standard output); see `lessonkit results`",
    )
    parser.add_argument(
        "--reset-pseudonym",
        action="store_true",
        help="replace the random learner id your exported files carry",
    )
