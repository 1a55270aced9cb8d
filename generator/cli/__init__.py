"""Command line: the parser and the commands check, site, serve and the translators' i18n commands.

Each command's module is imported when the command runs: `check FILE` needs no renderer, and no
command but `serve` needs the web server.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import NoReturn

from ..core import cache
from ..core.problems import InputError
from ..core.report_formats import guarded_output
from .common import EXIT_MALFORMED, EXIT_OK, add_format_option, repository_root

log = logging.getLogger(__name__)


def cmd_check(args) -> int:
    from .check import cmd_check as check  # the rules, catalogs and examples, no renderer

    return check(args)


def cmd_i18n(args) -> int:
    from .i18n import cmd_i18n as i18n  # the catalogs and the knowledge base, no renderer

    return i18n(args)


def cmd_site(args) -> int:
    from ..site.build import build_site  # MkDocs, Material and Pagefind: only the site commands need them

    try:
        out = build_site(repository_root(args), Path(args.out) if args.out else None, isolated=True)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr)
        log.error("%d problem(s); nothing was written", len(error.problems))
        return EXIT_MALFORMED
    print(f"site built in {out}")
    return EXIT_OK


def cmd_serve(args) -> int:
    """Build, serve site/ on 127.0.0.1, and rebuild whenever a rule, catalog or template changes."""
    from ..serve.server import serve  # the live site and watchdog

    serve(repository_root(args), args.host, args.port)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    parser.add_argument("--root", default=".", help="repository root (default: current folder)")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="validate everything and run the worked examples")
    check.add_argument("files", nargs="*", help="paths under rules/ to check only those rules, or players' YAML files "
                                                "of examples {rule, predicate, given, expect}")
    check.add_argument("--all", action="store_true", help="with FILEs, also run the rules' own examples")
    check.add_argument("-v", "--verbose", action="store_true", help="list passing examples too")
    check.add_argument("--explain", action="store_true", help="for each question, print the answer, the clause that "
                                                              "decided it and the reasons, as the page says them")
    check.add_argument("--lang", help="with --explain: the language to explain in (default: the rule's own)")
    add_format_option(check)
    check.set_defaults(run=cmd_check, quick_exit=True)

    site = commands.add_parser("site", help="build the static site into site/")
    site.add_argument("--out", help="output folder (default: site/)")
    site.set_defaults(run=cmd_site)

    serve = commands.add_parser("serve", help="build, serve and rebuild on change")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=cmd_serve)

    i18n = commands.add_parser("i18n", help="translation catalogs: update, check, status, init, remove")
    i18n.add_argument("action", choices=["update", "check", "status", "init", "remove", "review"])
    i18n.add_argument("only", nargs="*", help="update: limit to these rules/catalogs (e.g. wap/strider, glossary, "
                                              "ui); check: paths under translations/; init/remove: the language code; "
                                              "review: the git revision to compare with (default: the merge base "
                                              "with main)")
    i18n.add_argument("--lang", action="append", help="limit to this language (repeatable)")
    i18n.add_argument("--json", action="store_true", help="status: print JSON")
    i18n.add_argument("--markdown", action="store_true", help="review: print Markdown (written to "
                                                              "$GITHUB_STEP_SUMMARY whenever that is set)")
    add_format_option(i18n)
    i18n.set_defaults(run=cmd_i18n, quick_exit=True)
    return parser


def main(argv=None) -> int:
    """Run the command `argv` (default: the process's arguments) and return its exit status."""
    return _run(argv)[0]


def run_and_exit() -> NoReturn:
    """`python -m generator`: run the command, then end the process.

    check and i18n leave nothing to tidy but a large knowledge base in memory, and freeing it object by
    object takes a tenth of a second at a thousand rules: they write the disk cache and end at once (mypy
    ends the same way). Every other command ends as usual, running what it left to finalizers.
    """
    code, quick = _run(None)
    if quick:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError):  # a reader that went away (`| head`) has all it wanted
                stream.flush()
        cache.flush()
        os._exit(code)
    sys.exit(code)


def _run(argv) -> tuple[int, bool]:
    """The command's exit status, and whether the process may end without tidying up."""
    # Every line a command prints passes the guard: a name or text read from a pull request's files never
    # starts a line the CI runner obeys as a workflow command (generator/core/report_formats.py).
    with guarded_output():
        logging.basicConfig(format="%(message)s", level=logging.INFO)  # diagnostics to stderr, output to stdout
        return _main(argv)


def _main(argv) -> tuple[int, bool]:
    parser = build_parser()
    # Names may follow options (`i18n update --lang ru wap/strider`), which plain argparse refuses.
    args, extra = parser.parse_known_args(argv)
    unknown = [item for item in extra if item.startswith("-") or args.command != "i18n"]
    if unknown:
        parser.error("unrecognized arguments: " + " ".join(unknown))
    if args.command == "i18n":
        args.only = list(args.only) + extra
    quick = getattr(args, "quick_exit", False)
    try:
        return args.run(args), quick
    except BrokenPipeError:  # output piped into `head` and the like
        return EXIT_OK, quick
