"""Command line: check, site, serve, and the translators' i18n commands."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_MALFORMED = 0, 1, 2


def _root(args) -> Path:
    return Path(args.root).resolve()


def _given_path(root: Path, item: str) -> Path:
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
    from .examples import read_scenarios
    from .parts import rules_under

    selected, scenarios = None, []
    for item in items:
        path = _given_path(root, item)
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
    from .examples import run_case
    from .report_formats import GITHUB, outcome_annotation

    passed = failed = 0
    for case in cases:
        outcome = run_case(kb, case)
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
    from .load import bulk_allocation

    with bulk_allocation():  # a one-shot command that builds one knowledge base and keeps it to the end
        return _check(args)


def _check(args) -> int:
    from .examples import external_cases, rule_cases
    from .load import load_and_validate
    from .problems import Problems
    from .report_formats import chosen_format, print_problems

    root = _root(args)
    output_format = chosen_format(args.format)
    external = Problems()
    selected, scenarios = _selection(root, args.files, external)
    everything = args.all or not args.files
    asked = None if everything else (selected or set()) | {key for s in scenarios for key in s.rule_keys()}
    kb, problems = load_and_validate(root, asked)
    rules_ok = not problems  # examples run on a whole, valid knowledge base only (catalogs do not matter to them)
    if everything:  # catalogs are checked with the whole knowledge base only
        from .i18n.translate import Translations
        from .mkdocs_config import read_languages  # not .site: check needs no renderer (a third of its start-up)

        checked = kb if rules_ok else None  # references are checked against a knowledge base that loaded cleanly
        for language in read_languages(root):
            Translations.load(root, language["code"], problems, checked)
    cases = []
    if rules_ok:
        cases = rule_cases(kb) if everything else [case for case in rule_cases(kb) if case.rule in (selected or ())]
        for scenario in scenarios:
            cases.extend(external_cases(kb, scenario, external))
    problems.extend(external)
    print_problems(problems, output_format)
    failed = _run_cases(kb, cases, args.verbose, output_format) if rules_ok else 0
    if not rules_ok:
        print("examples not run: the rules have problems")
    if problems:
        log.error("%d problem(s) in the input; fix them and run again", len(problems))
        return EXIT_MALFORMED
    return EXIT_FAILED if failed else EXIT_OK


def cmd_site(args) -> int:
    from .problems import InputError
    from .site import build_site

    try:
        out = build_site(_root(args), Path(args.out) if args.out else None, isolated=True)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr)
        log.error("%d problem(s); nothing was written", len(error.problems))
        return EXIT_MALFORMED
    print(f"site built in {out}")
    return EXIT_OK


def cmd_serve(args) -> int:
    """Build, serve site/ on 127.0.0.1, and rebuild whenever a rule, catalog or template changes."""
    from .serve import serve

    serve(_root(args), args.host, args.port)
    return EXIT_OK


def cmd_i18n(args) -> int:
    """`i18n update|init|status|check|review`: load and validate the rules, then run the subcommand."""
    from .load import bulk_allocation

    # One-shot, like check: the base and its ~43,000 messages live to the end, and every young collection
    # walked them (at 1,000 rules a third of i18n status's CPU time).
    with bulk_allocation():
        return _i18n(args)


def _i18n(args) -> int:
    from .load import load, load_and_validate
    from .mkdocs_config import read_languages  # not .site: the i18n commands need no renderer

    root = _root(args)
    # Status only counts the catalogs' messages, which need rules that load; whether their references and
    # examples hold is for `check` to say (at 1,000 rules validating was a fifth of status's time).
    # update and init write every message's line into the catalogs: a file parsed now keeps its map of lines.
    kb, problems = load(root) if args.action == "status" else \
        load_and_validate(root, with_lines=args.action in ("update", "init"))
    if problems and args.action != "check":
        print(problems.report(), file=sys.stderr)
        log.error("fix the rule files first: catalogs are made from them")
        return EXIT_MALFORMED
    languages = [language["code"] for language in read_languages(root)]
    if args.action == "review":
        from .i18n.review import review_command

        return review_command(root, kb, languages, args)
    actions = {"update": _i18n_update, "init": _i18n_init, "status": _i18n_status, "check": _i18n_check}
    if args.action not in actions:
        return EXIT_MALFORMED
    return actions[args.action](args, root, kb, problems, languages)


def _i18n_update(args, root: Path, kb, _problems, languages: list[str]) -> int:
    """Bring the catalogs of the languages in line with the sources; nothing is written if one cannot be read."""
    from .i18n.extract import knowledge_base_messages
    from .i18n.update import plan_update, write_outputs

    all_outputs, failed = {}, False
    messages = knowledge_base_messages(kb)  # every language's catalogs are made from the same messages
    for lang in args.lang or languages:
        outputs, summary, found = plan_update(root, kb, lang, args.only, messages)
        if found:
            print(found.report(), file=sys.stderr)
            failed = True
        all_outputs.update(outputs)
        print(f"{lang}: {summary['files']} file(s) changed; {summary['added']} new, {summary['kept']} kept, "
              f"{summary['fuzzied']} marked fuzzy, {summary['obsoleted']} made obsolete, "
              f"{summary['prefilled']} pre-filled from translation memory")
    if failed:
        log.error("nothing was written")
        return EXIT_MALFORMED
    write_outputs(all_outputs)
    return EXIT_OK


def _i18n_init(args, root: Path, kb, _problems, _languages) -> int:
    """Create the catalogs of a new language."""
    from .i18n.catalog import locale_exists
    from .i18n.update import init_language
    from .problems import InputError

    lang = args.only[0] if args.only else None
    if not lang or not locale_exists(lang):
        log.error("unknown language code %r; use a code like de, fr, pl", lang)
        return EXIT_MALFORMED
    try:
        written = init_language(root, kb, lang)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr)
        return EXIT_MALFORMED
    print(f"{lang}: created {len(written)} catalog(s) under translations/{lang}/")
    print(f"next: add '- {{code: {lang}, name: <name>}}' under extra.kb_languages in mkdocs.yml")
    return EXIT_OK


def _i18n_status(args, root: Path, kb, _problems, languages: list[str]) -> int:
    """How much of each language is translated, as text or JSON."""
    from .i18n.extract import knowledge_base_messages
    from .i18n.status import language_status
    from .i18n.translate import Translations
    from .problems import Problems

    found = Problems()
    messages = knowledge_base_messages(kb)  # counted once per language
    report = [language_status(kb, Translations.load(root, lang, found), messages) for lang in (args.lang or languages)]
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


def _i18n_check(args, root: Path, kb, problems, languages: list[str]) -> int:
    """Every translation problem and consistency warning (of the paths given, or of everything)."""
    from .i18n.checks import check_catalogs
    from .i18n.extract import knowledge_base_messages
    from .i18n.memory import consistency_warnings
    from .i18n.reader import catalogs_read_once
    from .report_formats import WARNING, chosen_format, print_problems

    output_format = chosen_format(args.format)
    if problems:
        print_problems(problems, output_format)
        return EXIT_MALFORMED
    prefixes, wanted = _catalog_paths(root, args.only)
    if prefixes is None:
        return EXIT_MALFORMED
    checked = args.lang or wanted or languages
    with catalogs_read_once():  # the checks, the typography and the translation memory each read every catalog
        found = check_catalogs(root, kb, checked, knowledge_base_messages(kb))
        all_warnings = consistency_warnings(root, checked)
    found = [problem for problem in found if not prefixes or problem.file.startswith(prefixes)]
    print_problems(found, output_format)
    warnings = [warning for warning in all_warnings if not prefixes or warning.file.startswith(prefixes)]
    print_problems(warnings, output_format, WARNING)
    print(f"{len(found)} translation problem(s), {len(warnings)} consistency warning(s)")
    return EXIT_MALFORMED if found else EXIT_OK


def _catalog_paths(root: Path, items: list[str]):
    """`i18n check PATH…`: the path prefixes (relative to root) to report and the languages they name.

    Returns (None, None) after logging an error if a path is not under translations/<lang>/.
    """
    prefixes, languages = [], []
    for item in items:
        path = _given_path(root, item).absolute()
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            parts = ()
        if len(parts) < 2 or parts[0] != "translations":
            log.error("%s: not a path under translations/<lang>/ — give e.g. translations/ru/rules/wap/", item)
            return None, None
        prefixes.append("/".join(parts))
        if parts[1] not in languages:
            languages.append(parts[1])
    return tuple(prefixes), languages


def add_format_option(parser: argparse.ArgumentParser):
    from .report_formats import FORMATS

    parser.add_argument("--format", choices=FORMATS, help="github: also print each problem as a workflow annotation "
                                                          "(the default when GITHUB_ACTIONS=true); plain otherwise")


def build_parser() -> argparse.ArgumentParser:
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
