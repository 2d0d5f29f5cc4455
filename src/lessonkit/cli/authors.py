"""Authors' and reviewers' commands: `validate`, `rules`, `schema`, `new`, `report`, `diff`,
`facts`, `import`."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

from lessonkit.cli.exits import EXIT_OK, EXIT_PROBLEMS, Commands
from lessonkit.errors import UsageError


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


def add_validate(commands: Commands) -> None:
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


def add_schema(commands: Commands) -> None:
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


def add_rules(commands: Commands) -> None:
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


def _new_plan(args: argparse.Namespace) -> int:
    from lessonkit.authoring.scaffold import new_plan
    from lessonkit.course.day import today
    from lessonkit.errors import display_path

    root = _course_root()
    lesson_title = args.lesson_title or args.lesson.replace("-", " ").capitalize()
    for change in new_plan(root, args.plan, args.title, args.lesson, lesson_title, today()):
        print(f"{'created' if change.created else 'updated'} {display_path(change.path)}")
    print(
        "next: replace every TODO(lessonkit) placeholder, link the plan from the home page, "
        "then run `lessonkit validate`"
    )
    return EXIT_OK


def _new_course(args: argparse.Namespace) -> int:
    from lessonkit import __version__
    from lessonkit.authoring.origin import installed_origin
    from lessonkit.authoring.starter import new_course
    from lessonkit.course.day import today
    from lessonkit.errors import display_path

    target = Path(args.dir)
    title = args.title or target.resolve().name.replace("-", " ").replace("_", " ").capitalize()
    origin = installed_origin(__version__)
    written = new_course(target, title, today(), origin)
    shown = display_path(target)
    print(f"created {shown}/ with {len(written)} files: a sample lesson, its quiz, "
          "lessonkit.yml, mkdocs.yml, README.md, a CI workflow and pre-commit hooks")  # fmt: skip
    if origin.ci is None:
        print(f"to do: {origin.todo}")
    print(f"next: cd {shown}, then follow README.md (two set-up commands), "
          "`lessonkit validate` and `mkdocs serve`")  # fmt: skip
    return EXIT_OK


def add_new(commands: Commands) -> None:
    parser = commands.add_parser(
        "new",
        help="start new content from a template (`new lesson`, `new plan`, `new course`)",
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
    plan = kinds.add_parser(
        "plan",
        help="a learning plan with its first lesson, and its section in the nav",
        description="Create content/PLAN/index.md listing a first lesson, that lesson and "
        "its bank (as `new lesson` makes them), and the plan's section at the end of "
        "mkdocs.yml's nav. Refuses (and changes nothing) for an existing plan, a taken or "
        "invalid slug.",
    )
    plan.add_argument(
        "plan", metavar="PLAN", help="the plan's folder under content/, e.g. `statistics`"
    )
    plan.add_argument("--title", required=True, help="the plan's title, in quotes")
    plan.add_argument("--lesson", required=True, metavar="SLUG", help="its first lesson's slug")
    plan.add_argument(
        "--lesson-title", metavar="TITLE", help="its first lesson's title (default: from SLUG)"
    )
    plan.set_defaults(handler=_new_plan)
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


def add_report(commands: Commands) -> None:
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


def _facts(args: argparse.Namespace) -> int:
    import json

    from lessonkit.authoring import factlist
    from lessonkit.bank.loader import read_facts
    from lessonkit.course.day import today
    from lessonkit.course.factpages import course_uses
    from lessonkit.errors import ContentError

    if args.units:
        print(factlist.unit_table(), end="")
        return EXIT_OK
    root = _course_root()
    book = read_facts(root)
    if book.problems:
        raise ContentError(book.problems)
    uses = course_uses(root)
    if args.used_by:
        found = factlist.used_by(book, uses, args.used_by)
        data: object = factlist.use_json(found)
        text = factlist.use_lines(found) or f"fact `{args.used_by}` is shown nowhere"
    else:
        rows = factlist.rows(book, uses, today())
        data, text = factlist.as_json(rows), factlist.text(rows)
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else text.rstrip("\n"))
    return EXIT_OK


def add_facts(commands: Commands) -> None:
    parser = commands.add_parser(
        "facts",
        help="the course's facts by age and kind of source, and where each is shown",
        description="List the facts in facts/*.yml, the longest unchecked first, with kind, "
        "value, dates, whether the source is primary or a copy, and how many places show "
        "each. With --used-by, every lesson line and question that shows one fact, as "
        "file:line:col: the checklist for updating a price.",
    )
    parser.add_argument("--used-by", metavar="ID", help="where one fact is shown")
    parser.add_argument("--json", action="store_true", help="print JSON, for scripts")
    parser.add_argument("--units", action="store_true", help="print the table of units")
    parser.set_defaults(handler=_facts)


def _diff(args: argparse.Namespace) -> int:
    from lessonkit.authoring.bankdiff import diff_revisions, render_markdown

    print(render_markdown(diff_revisions(_course_root(), args.base, args.head)), end="")
    return EXIT_OK


def add_diff(commands: Commands) -> None:
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


def _import(args: argparse.Namespace) -> int:
    from lessonkit.course.day import today
    from lessonkit.errors import display_path
    from lessonkit.imports import read
    from lessonkit.imports.bankfile import place, write

    root = _course_root()
    imported = read(Path(args.file), args.source_format)
    placed = place(root, imported, slug=args.slug, plan=args.plan, today=today(),
                   replace=args.replace or args.force, force=args.force)  # fmt: skip
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
    for line in placed.discarded:
        print(f"discarded (--force): {line}", file=sys.stderr)
    for change in placed.changes:
        print(f"{'created' if change.created else 'updated'} {display_path(change.path)}")
    print(f"next: `lessonkit validate`, then `lessonkit quiz {placed.slug}`")
    return EXIT_OK


def add_import(commands: Commands) -> None:
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
    parser.add_argument(
        "--replace",
        action="store_true",
        help="import over an existing bank; refused, with what would be discarded, if the "
        "bank was edited since",
    )
    parser.add_argument(
        "--force", action="store_true", help="import over an existing bank, discarding its edits"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 and write nothing if anything is lost"
    )
    parser.set_defaults(handler=_import)
