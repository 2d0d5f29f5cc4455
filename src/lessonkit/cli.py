"""The `lessonkit` command: thin subcommands over the library.

Exit codes: 0 all good, 1 content problems (or a failed quiz check), 2 usage errors.
argparse rather than click: the quiz must show its first question fast, and click
alone costs ~40 ms of start-up here. Heavy modules are imported inside handlers.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from lessonkit.errors import ContentError, LessonkitError, UsageError

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

Handler = Callable[[argparse.Namespace], int]


# --- validate / schema (the foundation) ------------------------------------------


def _validate(args: argparse.Namespace) -> int:
    from lessonkit.authoring.validate import validate_paths

    github = args.format == "github" or (
        args.format is None and os.environ.get("GITHUB_ACTIONS") == "true"
    )
    # A one-shot command builds hundreds of thousands of objects and keeps them until it
    # exits: the cyclic collector would only re-scan them (a third of the run on a large
    # bank), and the process ends before any cycle could matter.
    gc.disable()
    report = validate_paths([Path(p) for p in args.paths], full=args.full)
    for problem in report.problems:
        print(problem)
        if github:
            print(problem.github())
    print(report.summary_line())
    return EXIT_PROBLEMS if report.failed else EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    from lessonkit.bank.schema import write_schemas

    for path, changed in write_schemas(Path(args.output), check=args.check):
        state = ("is stale" if args.check else "written") if changed else "is up to date"
        print(f"{path} {state}")
        if changed and args.check:
            print("run `lessonkit schema` and commit the result", file=sys.stderr)
            return EXIT_PROBLEMS
    return EXIT_OK


def _add_validate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "validate",
        help="check banks and lessons; print every problem as file:line:col",
        description="Check question banks and lessons against the rule book (CONTRIBUTING.md) "
        "and report every problem at once. With no paths, checks the course's quizzes/ and "
        "content/. Exits 1 on any problem, and when a path holds nothing to check.",
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="bank files, lesson files or folders"
    )
    parser.add_argument(
        "--format",
        choices=["text", "github"],
        help="`github` also prints GitHub Actions annotations (automatic when GITHUB_ACTIONS=true)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="read every file again instead of only those changed since the last check "
        "(the same problems either way; CI runs this)",
    )
    parser.set_defaults(handler=_validate)


def _add_schema(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "schema",
        help="write the JSON Schemas for banks and front matter (for editors)",
        description="Generate JSON Schemas from the models so editors can autocomplete banks.",
    )
    parser.add_argument(
        "--output", default="schemas", metavar="DIR", help="folder (default: schemas)"
    )
    parser.add_argument("--check", action="store_true", help="only check the files are up to date")
    parser.set_defaults(handler=_schema)


# --- quiz (the terminal quiz; lessonkit.quiz.runner) -------------------------------


def _quiz(args: argparse.Namespace) -> int:
    from lessonkit.quiz.runner import quiz_command

    resume = True if args.resume else False if args.restart else None
    data_dir = Path(args.data_dir) if args.data_dir else None
    answers = Path(args.answers) if args.answers else None
    return quiz_command(args.target, seed=args.seed, answers=answers, as_json=args.json,
                        no_color=args.no_color, data_dir=data_dir, resume=resume)  # fmt: skip


def _add_quiz(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "quiz",
        help="take a lesson's quiz in the terminal, graded locally",
        description="Take a quiz one question at a time; every answer is saved as it is given. "
        "TARGET is a quiz slug (e.g. gpu-vs-tpu) or a bank file (quizzes/SLUG.yml).",
    )
    parser.add_argument("target", metavar="TARGET", help="quiz slug or bank file")
    parser.add_argument("--seed", type=int, metavar="N", help="shuffle with seed N (repeatable)")
    parser.add_argument(
        "--answers",
        metavar="FILE",
        help="grade a YAML file of `question-id: answer` without asking",
    )
    parser.add_argument(
        "--json", action="store_true", help="with --answers: print the result as JSON"
    )
    parser.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR=1)")
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


# --- read (the lesson in the terminal; quiz/reader.py) ---------------------------------------


def _read(args: argparse.Namespace) -> int:
    from lessonkit.quiz.reader import read_command

    return read_command(args.slug, args.section, no_color=args.no_color)


def _add_read(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "read",
        help="read a lesson, or one section of it, in the terminal (offline)",
        description="Show a lesson in the terminal, through a pager when it is longer than the "
        "screen. SECTION is a heading's anchor, as the quiz's Re-read lines give it, e.g. "
        "`lessonkit read gpu-vs-tpu 2-where-tpus-are-strongest`.",
    )
    parser.add_argument("slug", metavar="SLUG", help="the lesson, e.g. gpu-vs-tpu")
    parser.add_argument("section", nargs="?", metavar="SECTION", help="a section's anchor")
    parser.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR=1)")
    parser.set_defaults(handler=_read)


# --- new lesson (authors) ---------------------------------------------------------


def _course_root() -> Path:
    from lessonkit.course.folder import find_root

    root = find_root(Path.cwd())
    if root is None:
        raise UsageError("no course here: run this inside a folder with content/ and quizzes/")
    return root


def _new_lesson(args: argparse.Namespace) -> int:
    import datetime as dt

    from lessonkit.authoring.scaffold import new_lesson
    from lessonkit.errors import display_path

    root = _course_root()
    for change in new_lesson(root, args.slug, args.plan, args.title, dt.date.today()):
        print(f"{'created' if change.created else 'updated'} {display_path(change.path)}")
    print(
        f"next: replace every TODO(lessonkit) placeholder, then run "
        f"`lessonkit validate` and `lessonkit report {args.slug}`"
    )
    return EXIT_OK


def _add_new(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "new",
        help="start new content from a template (`new lesson`)",
        description="Start new content from the templates.",
    )
    kinds = parser.add_subparsers(title="what to create", metavar="KIND", required=True)
    lesson = kinds.add_parser(
        "lesson",
        help="a lesson page, its question bank, and its entries in the plan and the nav",
        description="Create content/PLAN/SLUG.md and quizzes/SLUG.yml from the templates, add "
        "SLUG to the plan's `lessons` and the page to mkdocs.yml's nav. Refuses (and changes "
        "nothing) for a taken or invalid slug or an unknown plan.",
    )
    lesson.add_argument("slug", metavar="SLUG", help="file name of the lesson, e.g. `gpu-vs-tpu`")
    lesson.add_argument("--plan", required=True, help="the learning plan (folder under content/)")
    lesson.add_argument("--title", required=True, help="the lesson title, in quotes")
    lesson.set_defaults(handler=_new_lesson)


# --- report (authors and reviewers) --------------------------------------------------


def _report(args: argparse.Namespace) -> int:
    from lessonkit.authoring.report import (
        github_annotations,
        render_text,
        report_course,
        unreported,
    )
    from lessonkit.authoring.rulebook import check_course

    course = check_course(_course_root())
    reports = report_course(course, args.slug)
    print(render_text(reports), end="")
    if course.problems:
        count = len(course.problems)
        print(f"note: {count} validation problem{'' if count == 1 else 's'}; "
              "run `lessonkit validate`")  # fmt: skip
    if args.format == "github":
        for line in github_annotations(reports):
            print(line)
    missing = unreported(course, args.slug)
    for path in missing:
        print(f"lessonkit: could not report on {path}: it does not load; "
              "`lessonkit validate` says why", file=sys.stderr)  # fmt: skip
    return EXIT_PROBLEMS if missing else EXIT_OK


def _add_report(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "report",
        help="question quality per lesson: coverage, type mix, item-writing warnings",
        description="Report, for each lesson, questions per insight and per objective, the mix "
        "of question types, where the correct option sits, item-writing warnings, word count "
        "and reading time. Warnings never fail: exits 0 with warnings, 1 only when a lesson "
        "or bank could not be read (it names the files).",
    )
    parser.add_argument("slug", nargs="?", metavar="SLUG", help="one lesson (default: all)")
    parser.add_argument(
        "--format",
        choices=["text", "github"],
        default="text",
        help="`github` also prints warnings as GitHub Actions annotations",
    )
    parser.set_defaults(handler=_report)


# --- diff (reviewers) -------------------------------------------------------------------


def _diff(args: argparse.Namespace) -> int:
    from lessonkit.authoring.bankdiff import diff_revisions, render_markdown

    print(render_markdown(diff_revisions(_course_root(), args.base, args.head)), end="")
    return EXIT_OK


def _add_diff(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "diff",
        help="bank changes between git revisions, as Markdown for a pull request",
        description="Compare the question banks at BASE with HEAD (default: the working tree) "
        "question by question: added, removed, reworded (word by word), reordered, and answer "
        "keys or points changed. Exits 1 with validate's messages when a bank is invalid.",
    )
    parser.add_argument("base", metavar="BASE", help="revision to compare from, e.g. origin/main")
    parser.add_argument(
        "head", nargs="?", metavar="HEAD", help="revision to compare to (default: working tree)"
    )
    parser.set_defaults(handler=_diff)


# --- history / review / list (the learner's record: history/tables.py, quiz/review.py) ------


def _data_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.data_dir) if args.data_dir else None


def _history(args: argparse.Namespace) -> int:
    from lessonkit.history.tables import history_command

    return history_command(args.slug, data_dir=_data_dir(args), no_color=args.no_color)


def _review(args: argparse.Namespace) -> int:
    from lessonkit.quiz.review import review_command

    return review_command(
        args.slug, data_dir=_data_dir(args), no_color=args.no_color, seed=args.seed
    )


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


def _add_history(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "history",
        help="your quiz attempts: date, score, pass or fail, duration",
        description="List your attempts, oldest first, with score, result and duration.",
    )
    parser.add_argument("slug", nargs="?", metavar="SLUG", help="one quiz (default: all)")
    _learner_options(parser)
    parser.set_defaults(handler=_history)


def _add_review(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "review",
        help="ask again the questions you missed or that are due (spaced repetition)",
        description="Ask again the questions you missed, then those due for review, scheduled "
        "with spaced repetition (FSRS). Answers are saved as you give them.",
    )
    parser.add_argument("slug", nargs="?", metavar="SLUG", help="one quiz (default: all taken)")
    parser.add_argument("--seed", type=int, metavar="N", help="shuffle options with seed N")
    _learner_options(parser)
    parser.set_defaults(handler=_review)


def _add_list(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "list",
        help="learning plans and lessons, with question counts and your best scores",
        description="List the learning plans and their lessons in reading order, each with its "
        "quiz, number of questions and your best score.",
    )
    _learner_options(parser)
    parser.set_defaults(handler=_list)


# --- export (Anki, Canvas QTI, Moodle; logic in export/) ----------------------------------


def _export(args: argparse.Namespace) -> int:
    from lessonkit.export import SUFFIXES, convert
    from lessonkit.export.common import summary
    from lessonkit.export.sources import gather, is_plan

    sources = gather(args.target)
    exports = [(source, convert(source, args.to)) for source in sources]
    for source, export in exports:
        for loss in export.losses:
            print(f"{source.slug}: {loss}", file=sys.stderr)
    print(summary([export for _, export in exports]), file=sys.stderr)
    if args.strict and any(export.losses for _, export in exports):
        print("lessonkit: nothing written (--strict and some questions lost something)",
              file=sys.stderr)  # fmt: skip
        return EXIT_PROBLEMS
    single = args.out and not is_plan(args.target) and not Path(args.out).is_dir()
    folder = Path(args.out) if args.out and not single else Path()
    for source, export in exports:
        path = Path(args.out) if single else folder / f"{source.slug}{SUFFIXES[args.to]}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(export.data)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
        count = len(source.bank.questions)
        kept = f"{count - export.omitted} of " if export.omitted else ""
        print(f"wrote {path} ({kept}{count} question{'' if count == 1 else 's'} "
              f"from {source.slug})")  # fmt: skip
    return EXIT_OK


def _add_export(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from lessonkit.export import FORMATS

    parser = commands.add_parser(
        "export",
        help="export banks to Anki (.apkg), Canvas (QTI), Moodle XML or GIFT",
        description="Export one bank (a quiz slug or a bank file) or every bank of a learning "
        "plan (a plan slug) for Anki, Canvas or Moodle. What a format cannot express is listed "
        "per question on stderr. The same bank always gives the same bytes.",
    )
    parser.add_argument("target", metavar="SLUG|PATH", help="quiz slug, bank file or plan slug")
    parser.add_argument("--to", required=True, choices=FORMATS, help="the format to write")
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="file to write (a folder for a plan; default: SLUG plus the format's suffix here)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 and write nothing if anything is lost"
    )
    parser.set_defaults(handler=_export)


# --- the parser ------------------------------------------------------------------

# Each part of the CLI registers its subcommands here; the order is the order in --help.
# Learners' commands first: they are most of the people who type `lessonkit --help`.
REGISTRARS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    _add_quiz,
    _add_read,
    _add_review,
    _add_history,
    _add_list,
    _add_validate,
    _add_schema,
    _add_new,
    _add_report,
    _add_diff,
    _add_export,
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
        return 130
    except BrokenPipeError:
        # `lessonkit … | head` closed our stdout; that is not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
