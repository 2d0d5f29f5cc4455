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
    report = validate_paths([Path(p) for p in args.paths], strict=args.strict, full=args.full)
    for level, problem in report.lines():
        # `file:line:col: warning: …`, as compilers print a warning.
        print(problem if level == "error" else str(problem).replace(": ", ": warning: ", 1))
        if github:
            print(problem.github(level))
    print(report.summary_line())
    return EXIT_PROBLEMS if report.failed else EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    from pydantic import BaseModel

    from lessonkit.authoring.policy import SCHEMA_FILE, policy_model
    from lessonkit.authoring.rulebook import RULES
    from lessonkit.bank.schema import write_schemas
    from lessonkit.results.records import SCHEMA_NAME, AttemptsLine

    extra: dict[str, type[BaseModel]] = {
        SCHEMA_FILE: policy_model(RULES),
        SCHEMA_NAME: AttemptsLine,
    }
    for path, changed in write_schemas(Path(args.output), check=args.check, extra=extra):
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
        description="Check question banks and lessons against the rule book (`lessonkit rules`) "
        "as the course's lessonkit.yml sets it, and report every problem at once: errors "
        "first, then warnings, then the template placeholders left, one line per file. With no "
        "paths, checks the course's quizzes/, content/, lessonkit.yml and mkdocs.yml. Exits 1 "
        "on any error (with --strict, on any warning too), and when a path holds nothing to "
        "check.",
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
        "--strict",
        action="store_true",
        help="fail on warnings too (a lesson past its review date…), as the strict site build does",
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
        help="write the JSON Schemas for banks, front matter and attempts files",
        description="Generate JSON Schemas from the models so editors can autocomplete banks "
        "and other tools can check attempts files (`lessonkit history --export`).",
    )
    parser.add_argument(
        "--output", default="schemas", metavar="DIR", help="folder (default: schemas)"
    )
    parser.add_argument("--check", action="store_true", help="only check the files are up to date")
    parser.set_defaults(handler=_schema)


# --- rules (the rule book as this course sets it) ------------------------------------


def _rules(args: argparse.Namespace) -> int:
    import difflib
    import shutil

    from lessonkit.authoring.handbook import rules_markdown, rules_text
    from lessonkit.authoring.policy import Policy
    from lessonkit.authoring.rulebook import RULES, read_policy
    from lessonkit.course.folder import find_root

    root = find_root(Path.cwd())
    policy, problems = read_policy(root) if root is not None else (Policy(""), [])
    chosen = [rule for rule in RULES if not args.ids or rule.id in args.ids]
    unknown = [name for name in args.ids if name not in {rule.id for rule in RULES}]
    if unknown:
        close = difflib.get_close_matches(unknown[0], [rule.id for rule in RULES], n=1)
        hint = f"did you mean `{close[0]}`?" if close else "`lessonkit rules` lists them all"
        raise UsageError(f"no rule `{unknown[0]}`; {hint}")
    if args.format == "markdown":
        print(rules_markdown(policy), end="")
    else:
        width = min(shutil.get_terminal_size((100, 24)).columns, 100) - 1
        print(rules_text(policy, chosen, width), end="")
    for problem in problems:  # the entries they name are shown at their defaults
        print(problem, file=sys.stderr)
    return EXIT_PROBLEMS if problems else EXIT_OK


def _add_rules(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "rules",
        help="the rule book: each rule, why it exists, its default and this course's setting",
        description="Print every rule lessonkit checks: its id, what it asks and why, how this "
        "course's lessonkit.yml sets it (error, warn, advice or off) against the default, and "
        "its numbers. Rules shown as `always` keep every course correct and cannot be changed.",
    )
    parser.add_argument("ids", nargs="*", metavar="RULE", help="only these rules, by id")
    parser.add_argument(
        "--format",
        choices=["text", "markdown"],
        default="text",
        help="`markdown` prints the list CONTRIBUTING.md shows",
    )
    parser.set_defaults(handler=_rules)


# --- quiz (the terminal quiz; lessonkit.quiz.runner) -------------------------------


def _quiz(args: argparse.Namespace) -> int:
    from lessonkit.quiz.runner import quiz_command

    resume = True if args.resume else False if args.restart else None
    data_dir = Path(args.data_dir) if args.data_dir else None
    answers = Path(args.answers) if args.answers else None
    return quiz_command(args.target, seed=args.seed, answers=answers, as_json=args.json,
                        no_color=args.no_color, data_dir=data_dir, resume=resume,
                        pause=not args.no_pause)  # fmt: skip


def _pause_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-pause",
        action="store_true",
        help="go straight on after each answer's feedback instead of waiting for Enter "
        "(also LESSONKIT_NO_PAUSE=1; piped answers never wait)",
    )


def _add_quiz(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    from lessonkit.authoring.scaffold import new_lesson
    from lessonkit.course.day import today
    from lessonkit.errors import display_path

    root = _course_root()
    for change in new_lesson(root, args.slug, args.plan, args.title, today()):
        print(f"{'created' if change.created else 'updated'} {display_path(change.path)}")
    print(
        f"next: replace every TODO(lessonkit) placeholder, then run "
        f"`lessonkit validate` and `lessonkit report {args.slug}`"
    )
    return EXIT_OK


def _new_course(args: argparse.Namespace) -> int:
    from lessonkit.authoring.starter import new_course
    from lessonkit.course.day import today
    from lessonkit.errors import display_path

    target = Path(args.dir)
    title = args.title or target.resolve().name.replace("-", " ").replace("_", " ").capitalize()
    written = new_course(target, title, today())
    shown = display_path(target)
    print(f"created {shown}/ with {len(written)} files: a sample lesson, its quiz, "
          "lessonkit.yml, mkdocs.yml, README.md, a CI workflow and pre-commit hooks")  # fmt: skip
    print(f"next: cd {shown}, then follow README.md (two set-up commands), "
          "`lessonkit validate` and `mkdocs serve`")  # fmt: skip
    return EXIT_OK


def _add_new(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "new",
        help="start new content from a template (`new lesson`, `new course`)",
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
    course = kinds.add_parser(
        "course",
        help="a course of your own in a new folder, ready to build and check",
        description="Create DIR (new or empty) with a course that builds and passes its own "
        "checks at once: mkdocs.yml, content/ with a plan and a sample lesson, quizzes/ with "
        "its bank, lessonkit.yml (the course's policy, every rule at its default), schemas/ "
        "for editors, README.md with the set-up commands, a CI workflow that validates, "
        "builds the site strictly and uploads it, and a pre-commit configuration.",
    )
    course.add_argument("dir", metavar="DIR", help="the folder to create")
    course.add_argument("--title", help="the site's title (default: from the folder's name)")
    course.set_defaults(handler=_new_course)


# --- report (authors and reviewers) --------------------------------------------------


def _report(args: argparse.Namespace) -> int:
    from lessonkit.authoring.report import (
        github_annotations,
        render_text,
        report_course,
        unreported,
    )
    from lessonkit.authoring.rulebook import check_course

    course = check_course(_course_root(), advice=True)
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
        "of question types, where the correct option sits, word count and reading time, the "
        "review date and the age of each dated figure, every waiver with its reason, and the "
        "warnings and advice of the rule book under the course's policy. Warnings never fail "
        "here: exits 0 with warnings, 1 only when a lesson or bank could not be read (it "
        "names the files).",
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


def _add_history(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _add_review(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _add_list(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "list",
        help="learning plans and lessons, with question counts and your best scores",
        description="List the learning plans and their lessons in reading order, each with its "
        "quiz, number of questions and your best score.",
    )
    _learner_options(parser)
    parser.set_defaults(handler=_list)


# --- class results (sharing attempts, reading a class's files; results/) -------------------


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


def _results(args: argparse.Namespace) -> int:
    import json

    from lessonkit.results.collection import collect
    from lessonkit.results.summary import render_text, to_json

    gc.disable()  # as in `validate`: a million answers are kept to the end, and never cyclic
    found = collect([Path(p) for p in args.files], bank=args.bank)
    for refusal in found.refused:
        print(f"lessonkit: refused {refusal}", file=sys.stderr)
    if args.html:
        from lessonkit.results.page import render_page
        from lessonkit.results.sharing import write_atomically

        write_atomically(Path(args.html), render_page(found))
        print(f"wrote {args.html}", file=sys.stderr)
    if args.json:
        refused = [str(r) for r in found.refused]
        print(json.dumps(to_json(found.banks, files=found.files, refused=refused), indent=2))
    else:
        print(render_text(found.banks, files=found.files), end="")
    if found.refused:
        print(f"lessonkit: {len(found.refused)} of {found.files} files refused (above); the "
              "results are from the others", file=sys.stderr)  # fmt: skip
        return EXIT_PROBLEMS
    return EXIT_OK


def _add_results(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "results",
        help="item analysis of a class from learners' exported attempts files",
        description="Read attempts files that learners exported with `lessonkit history "
        "--export` (files, folders of them, or an LMS's zip download) and report per quiz: "
        "difficulty, discrimination, option choices, time, hints and common wrong answers per "
        "question, score distribution and reliability, and flags naming each question's line. "
        "Malformed or edited files are refused (exit 1) and the rest analysed.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="attempts files, folders, zips")
    parser.add_argument("--bank", metavar="SLUG", help="only this quiz (a slug or a bank file)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--html", metavar="FILE", help="also write a results page (one HTML file)")
    parser.set_defaults(handler=_results)


# --- export (Anki, Canvas QTI, Moodle; logic in export/) ----------------------------------


def _export(args: argparse.Namespace) -> int:
    from lessonkit.export import SUFFIXES, convert
    from lessonkit.export.common import NO_LINKS, summary
    from lessonkit.export.sources import gather, is_plan

    sources = gather(args.target)
    exports = [(source, convert(source, args.to)) for source in sources]
    unlinked = [s for s in sources if s.lesson is not None and not s.links]
    for source, export in exports:
        for loss in export.losses:
            print(f"{source.slug}: {loss}", file=sys.stderr)
        if source in unlinked:
            print(f"{source.slug}: {NO_LINKS}", file=sys.stderr)
    print(summary([export for _, export in exports]), file=sys.stderr)
    if args.strict and (unlinked or any(export.losses for _, export in exports)):
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


# --- import (Moodle XML, GIFT, QTI, mkdocs-quiz; logic in imports/) --------------------------


def _import(args: argparse.Namespace) -> int:
    import datetime as dt

    from lessonkit.errors import display_path
    from lessonkit.imports import read
    from lessonkit.imports.bankfile import place, write

    root = _course_root()
    imported = read(Path(args.file), args.source_format)
    placed = place(root, imported, slug=args.slug, plan=args.plan, today=dt.date.today(),
                   replace=args.replace)  # fmt: skip
    for loss in placed.losses:
        print(loss, file=sys.stderr)
    count, lossy = placed.questions, len({(x.source, x.question) for x in placed.losses})
    lost = f"{lossy} with losses or left out" if lossy else "nothing lost"
    print(f"{count} question{'' if count == 1 else 's'} imported; {lost}", file=sys.stderr)
    if args.strict and placed.losses:
        print("lessonkit: nothing written (--strict and some questions lost something)",
              file=sys.stderr)  # fmt: skip
        return EXIT_PROBLEMS
    if not count:
        print(f"lessonkit: nothing written: no question of {args.file} could be imported",
              file=sys.stderr)  # fmt: skip
        return EXIT_PROBLEMS
    write(placed.changes)
    for change in placed.changes:
        print(f"{'created' if change.created else 'updated'} {display_path(change.path)}")
    print(f"next: `lessonkit validate`, then `lessonkit quiz {placed.slug}`")
    return EXIT_OK


def _add_import(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from lessonkit.imports import FORMATS

    parser = commands.add_parser(
        "import",
        help="import a bank from Moodle XML, GIFT, Canvas QTI or mkdocs-quiz",
        description="Turn FILE into quizzes/SLUG.yml in this course, with a lesson stub when "
        "the lesson does not exist yet. Question ids come from the source's own ids or names, "
        "so importing the same file again gives the same ids. What the bank format cannot "
        "hold is listed per question on stderr.",
    )
    parser.add_argument("file", metavar="FILE", help="the exported file (.xml, .txt, .zip, .md)")
    parser.add_argument("--from", dest="source_format", required=True, choices=FORMATS,
                        help="the file's format (qti: a Canvas or text2qti export)")  # fmt: skip
    parser.add_argument("--slug", help="the bank's slug (default: from the file name)")
    parser.add_argument("--plan", help="the plan a new lesson stub joins (default: the only one)")
    parser.add_argument("--replace", action="store_true", help="import over an existing bank")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 and write nothing if anything is lost"
    )
    parser.set_defaults(handler=_import)


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
    _add_rules,
    _add_schema,
    _add_new,
    _add_report,
    _add_diff,
    _add_export,
    _add_import,
    _add_results,
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said with the usage of the command they were given to, not the top level's
        words = list(sys.argv[1:] if argv is None else argv)
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
        return 130
    except BrokenPipeError:
        # `lessonkit … | head` closed our stdout; that is not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
