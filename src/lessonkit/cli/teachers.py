"""Teachers' commands: `export` to other quiz tools, `results` of a class's attempt files."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from lessonkit.cli.exits import EXIT_OK, EXIT_PROBLEMS, Commands
from lessonkit.errors import UsageError


def _results(args: argparse.Namespace) -> int:
    import json

    from lessonkit.results.collection import collect
    from lessonkit.results.summary import render_text, to_json

    gc.disable()  # as in `validate`: a million answers are kept to the end, and never cyclic
    found = collect([Path(p) for p in args.files], bank=args.bank)
    for refusal in found.refused:
        print(f"lessonkit: refused {refusal}", file=sys.stderr)
    for passed in found.skipped:
        print(f"lessonkit: skipped {passed}", file=sys.stderr)
    if args.html:
        from lessonkit.results.page import render_page
        from lessonkit.results.sharing import write_atomically

        write_atomically(Path(args.html), render_page(found))
        print(f"wrote {args.html}", file=sys.stderr)
    if args.json:
        refused = [str(r) for r in found.refused]
        skipped = [str(s) for s in found.skipped]
        shown = to_json(found.banks, files=found.files, refused=refused, skipped=skipped)
        print(json.dumps(shown, indent=2))
    else:
        print(render_text(found.banks, files=found.files), end="")
    if found.refused:
        print(f"lessonkit: {len(found.refused)} of {found.files} files refused (above); the "
              "results are from the others", file=sys.stderr)  # fmt: skip
        return EXIT_PROBLEMS
    return EXIT_OK


def add_results(commands: Commands) -> None:
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


def add_export(commands: Commands) -> None:
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
