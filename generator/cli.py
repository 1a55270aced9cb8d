"""Command line: check, site, serve, and the translators' i18n commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXIT_OK, EXIT_FAILED, EXIT_MALFORMED = 0, 1, 2


def _root(args) -> Path:
    return Path(args.root).resolve()


def cmd_check(args) -> int:
    """Load and validate everything, run every worked example (and those in FILEs)."""
    from .examples import external_cases, rule_cases, run_case
    from .load import load
    from .problems import Problems
    from .site import read_languages
    from .i18n.translate import Translations
    from .validate import validate

    root = _root(args)
    kb, problems = load(root)
    problems.extend(validate(kb))
    checked = kb if not problems else None  # references are checked against a knowledge base that loaded cleanly
    for language in read_languages(root):
        Translations.load(root, language["code"], problems, checked)
    cases = rule_cases(kb) if not args.files or args.all else []
    external = Problems()
    for file in args.files:
        cases.extend(external_cases(kb, Path(file), root, external))
    problems.extend(external)
    for problem in problems:
        print(problem)
    passed = failed = 0
    for case in cases:
        outcome = run_case(kb, case)
        if outcome.passed:
            passed += 1
            if args.verbose:
                print(outcome.describe())
        else:
            failed += 1
            print(outcome.describe())
    print(f"{passed} passed, {failed} failed")
    if problems:
        print(f"{len(problems)} problem(s) in the input; fix them and run again", file=sys.stderr)
        return EXIT_MALFORMED
    return EXIT_FAILED if failed else EXIT_OK


def cmd_site(args) -> int:
    from .problems import InputError
    from .site import build_site

    try:
        out = build_site(_root(args), Path(args.out) if args.out else None)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr)
        print(f"{len(error.problems)} problem(s); nothing was written", file=sys.stderr)
        return EXIT_MALFORMED
    print(f"site built in {out}")
    return EXIT_OK


def cmd_serve(args) -> int:
    """Build, serve site/ on 127.0.0.1, and rebuild whenever a rule, catalog or template changes."""
    from .serve import serve

    serve(_root(args), args.host, args.port)
    return EXIT_OK


def cmd_i18n(args) -> int:
    from .load import load
    from .problems import InputError
    from .site import read_languages
    from .validate import validate

    root = _root(args)
    kb, problems = load(root)
    if not problems:
        problems.extend(validate(kb))
    if problems and args.action != "check":
        print(problems.report(), file=sys.stderr)
        print("fix the rule files first: catalogs are made from them", file=sys.stderr)
        return EXIT_MALFORMED
    languages = [language["code"] for language in read_languages(root)]
    if args.action == "update":
        from .i18n.update import plan_update, write_outputs

        targets = [lang for lang in (args.lang or languages)]
        all_outputs, failed = {}, False
        for lang in targets:
            outputs, summary, found = plan_update(root, kb, lang, args.only)
            if found:
                print(found.report(), file=sys.stderr)
                failed = True
            all_outputs.update(outputs)
            print(f"{lang}: {summary['files']} file(s) changed; {summary['added']} new, {summary['kept']} kept, "
                  f"{summary['fuzzied']} marked fuzzy, {summary['obsoleted']} made obsolete")
        if failed:
            print("nothing was written", file=sys.stderr)
            return EXIT_MALFORMED
        write_outputs(all_outputs)
        return EXIT_OK
    if args.action == "init":
        from .i18n.catalog import locale_exists
        from .i18n.update import init_language

        lang = args.only[0] if args.only else None
        if not lang or not locale_exists(lang):
            print(f"unknown language code {lang!r}; use a code like de, fr, pl", file=sys.stderr)
            return EXIT_MALFORMED
        try:
            written = init_language(root, kb, lang)
        except InputError as error:
            print(error.problems.report(), file=sys.stderr)
            return EXIT_MALFORMED
        print(f"{lang}: created {len(written)} catalog(s) under translations/{lang}/")
        print(f"next: add '- {{code: {lang}, name: <name>}}' under extra.kb_languages in mkdocs.yml")
        return EXIT_OK
    if args.action == "status":
        from .i18n.status import language_status
        from .i18n.translate import Translations
        from .problems import Problems

        found = Problems()
        report = [language_status(kb, Translations.load(root, lang, found)) for lang in (args.lang or languages)]
        if found:
            print(found.report(), file=sys.stderr)
            return EXIT_MALFORMED
        if args.json:
            print(json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True))
            return EXIT_OK
        for entry in report:
            total = entry["total"]
            print(f"{entry['lang']}: {total['translated']}/{total['messages']} translated ({total['percent']}%), "
                  f"{total['fuzzy']} fuzzy, {total['missing']} missing")
            for name, counts in entry["catalogs"].items():
                print(f"  {name}: {counts['translated']} translated, {counts['fuzzy']} fuzzy, {counts['missing']} missing")
        return EXIT_OK
    if args.action == "check":
        from .i18n.checks import check_catalogs

        if problems:
            print(problems.report())
            return EXIT_MALFORMED
        found = check_catalogs(root, kb, args.lang or languages)
        for problem in found:
            print(problem)
        print(f"{len(found)} translation problem(s)")
        return EXIT_MALFORMED if found else EXIT_OK
    return EXIT_MALFORMED


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    parser.add_argument("--root", default=".", help="repository root (default: current folder)")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="validate everything and run the worked examples")
    check.add_argument("files", nargs="*", help="extra YAML files of examples {rule, predicate, given, expect}")
    check.add_argument("--all", action="store_true", help="with FILEs, also run the rules' own examples")
    check.add_argument("-v", "--verbose", action="store_true", help="list passing examples too")
    check.set_defaults(run=cmd_check)

    site = commands.add_parser("site", help="build the static site into site/")
    site.add_argument("--out", help="output folder (default: site/)")
    site.set_defaults(run=cmd_site)

    serve = commands.add_parser("serve", help="build, serve and rebuild on change")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=cmd_serve)

    i18n = commands.add_parser("i18n", help="translation catalogs: update, check, status, init")
    i18n.add_argument("action", choices=["update", "check", "status", "init"])
    i18n.add_argument("only", nargs="*", help="update: limit to these rules/catalogs (e.g. wap/strider, glossary, "
                                              "ui); init: the new language code")
    i18n.add_argument("--lang", action="append", help="limit to this language (repeatable)")
    i18n.add_argument("--json", action="store_true", help="status: print JSON")
    i18n.set_defaults(run=cmd_i18n)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    # Names may follow options (`i18n update --lang ru wap/strider`), which plain argparse refuses.
    args, extra = parser.parse_known_args(argv)
    unknown = [item for item in extra if item.startswith("-") or args.command != "i18n"]
    if unknown:
        parser.error("unrecognized arguments: " + " ".join(unknown))
    if args.command == "i18n":
        args.only = list(args.only) + extra
    try:
        return args.run(args)
    except BrokenPipeError:  # output piped into `head` and the like
        return EXIT_OK
