"""Command line: check, site and serve, and the parser that also routes to the translators' i18n commands."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_MALFORMED = 0, 1, 2


def repository_root(args) -> Path:
    return Path(args.root).resolve()


def given_path(root: Path, item: str) -> Path:
    """A path from the command line: from the current folder, or from --root when that is where it lies."""
    path = Path(item)
    if path.is_absolute() or not (root / path).exists():
        return path
    return path if _under(path, root) else root / path


def _under(path: Path, folder: Path) -> bool:
    here = path.absolute()
    return here == folder or folder in here.parents


def _selection(root: Path, items: list[str], problems):
    """Split check's arguments into the rules named by paths under rules/ (None if none) and scenario files."""
    from ..kb.examples import read_scenarios
    from ..kb.parts import rules_under

    selected, scenarios = None, []
    for item in items:
        path = given_path(root, item)
        keys = rules_under(root, path)
        if keys is None and _under(path, root / "translations"):
            problems.add(item, 0, "", "is a translation path", f"check catalogs with: i18n check {item}")
        elif keys is None:
            scenario = read_scenarios(path, root, problems)
            if scenario is not None:
                scenarios.append(scenario)
        elif not keys:
            problems.add(item, 0, "", "holds no rule files", "give a system folder or a rule file under rules/")
        else:
            selected = (selected or set()) | keys
    return selected, scenarios


def _run_cases(kb, cases, verbose: bool, output_format: str) -> int:
    """Run the worked examples, print failures (and passes if verbose) and the tally; return how many failed."""
    from ..kb.examples import run_cases
    from ..core.report_formats import GITHUB, outcome_annotation

    passed = failed = 0
    for outcome in run_cases(kb, cases):
        if outcome.passed:
            passed += 1
            if verbose:
                print(outcome.describe())
        else:
            failed += 1
            print(outcome.describe())
            if output_format == GITHUB:
                print(outcome_annotation(outcome))
    print(f"{passed} passed, {failed} failed")
    return failed


def cmd_check(args) -> int:
    """Load and validate the rules (all, or those under PATHs and those FILEs ask about) and run their examples."""
    from ..kb.load import bulk_allocation

    with bulk_allocation():  # a one-shot command that builds one knowledge base and keeps it to the end
        return _check(args)


def _check(args) -> int:
    from ..kb.load import load_and_validate
    from ..core.problems import Problems
    from ..core.report_formats import chosen_format, print_problems

    root = repository_root(args)
    output_format = chosen_format(args.format)
    external = Problems()
    selected, scenarios = _selection(root, args.files, external)
    everything = args.all or not args.files
    asked = None if everything else (selected or set()) | {key for s in scenarios for key in s.rule_keys()}
    languages = _catalog_languages(root) if everything else []  # catalogs are checked with the whole base only
    kb, problems = load_and_validate(root, asked)
    rules_ok = not problems  # examples run on a whole, valid knowledge base only (catalogs do not matter to them)
    cases = _cases(kb, None if everything else selected or set(), scenarios, external) if rules_ok else []
    _check_catalogs(root, languages, kb if rules_ok else None, problems)
    problems.extend(external)
    print_problems(problems, output_format)
    failed = _run_cases(kb, cases, args.verbose, output_format) if rules_ok else 0
    if not rules_ok:
        print("examples not run: the rules have problems")
    if problems:
        log.error("%d problem(s) in the input; fix them and run again", len(problems))
        return EXIT_MALFORMED
    return EXIT_FAILED if failed else EXIT_OK


def _catalog_languages(root: Path) -> list[str]:
    """The languages whose catalogs `check` checks: every language of mkdocs.yml."""
    from ..site.mkdocs_config import read_languages  # not .site: check needs no renderer (a third of its start-up)

    return [language["code"] for language in read_languages(root)]


def _cases(kb, selected: set[str] | None, scenarios: list, external) -> list:
    """The worked examples to run: every rule's (selected None) or the selected rules', and the scenarios' cases."""
    from ..kb.examples import external_cases, rule_cases

    cases = [case for case in rule_cases(kb) if selected is None or case.rule in selected]
    for scenario in scenarios:
        cases.extend(external_cases(kb, scenario, external))
    return cases


def _check_catalogs(root: Path, languages: list[str], clean_kb, problems) -> None:
    """Every catalog of `languages` into `problems`; references checked against `clean_kb` (None: rules with problems)."""
    if languages:
        from ..i18n.translate import Translations

        for language in languages:
            Translations.load(root, language, problems, clean_kb)


def cmd_site(args) -> int:
    from ..core.problems import InputError
    from ..site.build import build_site

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
    from ..serve.server import serve

    serve(repository_root(args), args.host, args.port)
    return EXIT_OK


def add_format_option(parser: argparse.ArgumentParser):
    from ..core.report_formats import FORMATS

    parser.add_argument("--format", choices=FORMATS, help="github: also print each problem as a workflow annotation "
                                                          "(the default when GITHUB_ACTIONS=true); plain otherwise")


def build_parser() -> argparse.ArgumentParser:
    from .i18n import cmd_i18n  # the translators' commands live with the catalogs they work on

    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    parser.add_argument("--root", default=".", help="repository root (default: current folder)")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="validate everything and run the worked examples")
    check.add_argument("files", nargs="*", help="paths under rules/ to check only those rules, or players' YAML files "
                                                "of examples {rule, predicate, given, expect}")
    check.add_argument("--all", action="store_true", help="with FILEs, also run the rules' own examples")
    check.add_argument("-v", "--verbose", action="store_true", help="list passing examples too")
    add_format_option(check)
    check.set_defaults(run=cmd_check)

    site = commands.add_parser("site", help="build the static site into site/")
    site.add_argument("--out", help="output folder (default: site/)")
    site.set_defaults(run=cmd_site)

    serve = commands.add_parser("serve", help="build, serve and rebuild on change")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=cmd_serve)

    i18n = commands.add_parser("i18n", help="translation catalogs: update, check, status, init")
    i18n.add_argument("action", choices=["update", "check", "status", "init", "review"])
    i18n.add_argument("only", nargs="*", help="update: limit to these rules/catalogs (e.g. wap/strider, glossary, "
                                              "ui); check: paths under translations/; init: the new language code; "
                                              "review: the git revision to compare with (default: the merge base "
                                              "with main)")
    i18n.add_argument("--lang", action="append", help="limit to this language (repeatable)")
    i18n.add_argument("--json", action="store_true", help="status: print JSON")
    i18n.add_argument("--markdown", action="store_true", help="review: print Markdown (written to "
                                                              "$GITHUB_STEP_SUMMARY whenever that is set)")
    add_format_option(i18n)
    i18n.set_defaults(run=cmd_i18n)
    return parser


def main(argv=None) -> int:
    logging.basicConfig(format="%(message)s", level=logging.INFO)  # diagnostics to stderr, output to stdout
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
