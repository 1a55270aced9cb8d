"""The translators' commands, `python -m generator i18n update|init|status|check|review`: one function each."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from ..core.parallel import alongside
from ..core.problems import InputError, Problems
from ..core.report_formats import WARNING, chosen_format, json_text, plain, print_problems
from ..i18n.extract import knowledge_base_messages
from ..i18n.po.catalogs import locale_exists
from ..i18n.po.reader import catalogs_read_once
from ..i18n.readertext import reader_text_problems
from ..i18n.translate import Translations
from ..i18n.typography import SPECIFIC as SPECIFIC_TYPOGRAPHY
from ..i18n.update import wanted_catalogs
from ..kb.load import bulk_allocation, load, load_and_validate, validated
from ..site.language_list import LanguageListError, add_language, native_name, remove_language
from ..site.mkdocs_config import read_languages
from .common import EXIT_MALFORMED, EXIT_OK, given_path, loaded_while_catalogs_read, repository_root, unless_failed

log = logging.getLogger(__name__)


def cmd_i18n(args) -> int:
    """`i18n update|init|status|check|review`: load and validate the rules, then run the subcommand."""
    # One-shot, like check: the base and its messages live to the end, and every young collection walked them.
    with bulk_allocation():
        return _i18n(args)


def _i18n(args) -> int:
    root = repository_root(args)
    # Status only counts the catalogs' messages, which need rules that load; whether their references and
    # examples hold is for `check` to say.
    # update and init write every message's line into the catalogs: a file parsed now keeps its map of lines.
    languages = [language["code"] for language in read_languages(root)]
    read = args.action in ("status", "check", "update")
    if args.action == "check":
        return _i18n_check(args, root, languages)
    if args.action == "remove":
        return _i18n_remove(args, root)

    def loading():
        return load(root) if args.action == "status" else \
            load_and_validate(root, with_lines=args.action in ("update", "init"))

    kb, problems = loaded_while_catalogs_read(root, args.lang or languages, loading, args.action == "update") \
        if read else loading()
    messages = knowledge_base_messages(kb, details=args.action == "update") if read and not problems else None
    if problems:
        print(problems.report(), file=sys.stderr)
        log.error("fix the rule files first: catalogs are made from them")
        return EXIT_MALFORMED
    actions = {"update": _i18n_update, "init": _i18n_init, "status": _i18n_status, "review": _i18n_review}
    if args.action not in actions:
        return EXIT_MALFORMED
    return actions[args.action](args, root, kb, problems, languages, messages)


def _i18n_update(args, root: Path, kb, _problems, languages: list[str], messages) -> int:
    """Bring the catalogs of the languages in line with the sources; nothing is written if one cannot be read."""
    from ..i18n.update import plan_update, write_outputs  # merging and the memory: only update and init need them

    all_outputs, failed = {}, False
    for lang in args.lang or languages:  # every language's catalogs are made from the same messages
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


def _i18n_init(args, root: Path, kb, _problems, _languages, _messages) -> int:
    """Create the catalogs of a new language and add it to the site's languages in mkdocs.yml."""
    from ..i18n.update import init_language  # merging and the memory: only update and init need them

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
    try:
        added = add_language(root, lang)
    except LanguageListError as error:
        log.error("%s: add '- {code: %s, name: %s}' under extra.kb_languages in mkdocs.yml", error, lang,
                  native_name(lang))
        return EXIT_MALFORMED
    name = next(entry["name"] for entry in read_languages(root) if entry["code"] == lang)
    print(f"{lang}: {'added to' if added else 'already in'} the site's languages in mkdocs.yml as {name!r} "
          f"(a build now makes /{lang}/; `i18n remove {lang}` takes it out again)")
    print(f"next: translate translations/{lang}/*.po and translations/{lang}/rules/, then `python -m generator "
          f"i18n update` and `python -m generator i18n check`")
    return EXIT_OK


def _i18n_remove(args, root: Path) -> int:
    """Take a language out of mkdocs.yml; its catalogs stay, so `i18n init` brings it back as it was."""
    lang = args.only[0] if args.only else None
    try:
        removed = remove_language(root, lang) if lang else False
    except LanguageListError as error:
        log.error("%s", error)
        return EXIT_MALFORMED
    if not removed:
        log.error("%r is not one of the site's languages (%s)", lang,
                  ", ".join(entry["code"] for entry in read_languages(root)))
        return EXIT_MALFORMED
    print(f"{lang}: removed from the site's languages in mkdocs.yml; translations/{lang}/ is kept "
          f"(delete it yourself if the work is no longer wanted)")
    return EXIT_OK


def _i18n_status(args, root: Path, kb, _problems, languages: list[str], messages) -> int:
    """How much of each language is translated, as text or JSON (the messages listed once for every language)."""
    from ..i18n.status import language_status  # the counting: status alone needs it

    found = Problems()
    report = [language_status(kb, Translations.load(root, lang, found), messages) for lang in (args.lang or languages)]
    if found:
        print(found.report(), file=sys.stderr)
        return EXIT_MALFORMED
    if args.json:
        print(json_text(report, indent=2, sort_keys=True))
        return EXIT_OK
    for entry in report:
        total = entry["total"]
        print(f"{entry['lang']}: {total['translated']}/{total['messages']} translated ({total['percent']}%), "
              f"{total['fuzzy']} fuzzy, {total['missing']} missing")
        for name, counts in entry["catalogs"].items():
            print(f"  {plain(name)}: {counts['translated']} translated, {counts['fuzzy']} fuzzy, {counts['missing']} missing")
        if entry["lang"] not in SPECIFIC_TYPOGRAPHY and entry["lang"] != "en":
            print(f"  typography: the general rules only; nothing specific to {entry['lang']} is checked yet "
                  f"(add its rules to SPECIFIC in generator/i18n/typography.py)")
    return EXIT_OK


def _i18n_check(args, root: Path, languages: list[str]) -> int:
    """Every translation problem and consistency warning (of the paths given, or of everything)."""
    kb, problems = loaded_while_catalogs_read(root, args.lang or languages, lambda: load(root))
    with catalogs_read_once():  # the checks, the typography and the translation memory each read every catalog
        # The reader-text check needs the loaded rules only: on a large base, another core runs it meanwhile
        # (on every language the paths may name: what they do not name is left out below).
        checked, reader = alongside(
            lambda: _catalogs_checked(args, root, kb, problems, languages),
            lambda: unless_failed(lambda: reader_text_problems(root, kb, args.lang or languages)), len(kb.rules))
    if isinstance(checked, int):
        return checked
    found, all_warnings, prefixes, checked_languages = checked
    if reader is None:
        reader = reader_text_problems(root, kb, checked_languages)
    found = [problem for problem in found + reader if not prefixes or problem.file.startswith(prefixes)]
    print_problems(found, chosen_format(args.format))
    warnings = [warning for warning in all_warnings if not prefixes or warning.file.startswith(prefixes)]
    print_problems(warnings, chosen_format(args.format), WARNING)
    print(f"{len(found)} translation problem(s), {len(warnings)} consistency warning(s)")
    return EXIT_MALFORMED if found else EXIT_OK


def _catalogs_checked(args, root: Path, kb, problems, languages: list[str]):
    """i18n check's own part, once the rules are valid: (catalog problems, consistency warnings, the path prefixes
    to report, the languages checked), or the exit status after reporting the rules' problems or a wrong path."""
    # The checks load the glossaries' stemmers and the memory its matcher: only check and review need them.
    from ..i18n.checks import catalog_problems  # see above: the checks' stemmers
    from ..i18n.memory import consistency_warnings  # see above: the memory's matcher

    if validated(kb, problems):
        print_problems(problems, chosen_format(args.format))
        return EXIT_MALFORMED
    prefixes, wanted = _catalog_paths(root, args.only)
    if prefixes is None:
        return EXIT_MALFORMED
    checked = args.lang or wanted or languages
    messages = knowledge_base_messages(kb, details=False)  # the checks show no translator comments
    return (catalog_problems(root, kb, checked, messages),
            consistency_warnings(root, {lang: wanted_catalogs(kb, lang, messages) for lang in checked}),
            prefixes, checked)


def _catalog_paths(root: Path, items: list[str]):
    """`i18n check PATH…`: the path prefixes (relative to root) to report and the languages they name.

    Returns (None, None) after logging an error if a path is not under translations/<lang>/.
    """
    prefixes, languages = [], []
    for item in items:
        path = given_path(root, item).absolute()
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


def _i18n_review(args, root: Path, kb, _problems, languages: list[str], _messages) -> int:
    """What a change did to the translations: plain text (or Markdown with --markdown), Markdown to the job summary."""
    from ..i18n.review import SUMMARY_VARIABLE, ReviewError, review  # git, the checks and the memory: review alone
    from ..i18n.reviewreport import markdown, plain_text  # with review: its two reports

    wanted = args.lang or languages
    base = args.only[0] if args.only else None
    if len(args.only) > 1:
        print(f"i18n review takes one BASE revision, not {len(args.only)}", file=sys.stderr)
        return EXIT_MALFORMED
    try:
        result = review(root, kb, wanted, base)
    except ReviewError as error:
        print(plain(error), file=sys.stderr)  # it may name a catalog file or quote git
        return EXIT_MALFORMED
    print(markdown(result) if args.markdown else plain_text(result), end="")
    summary = os.environ.get(SUMMARY_VARIABLE)
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(markdown(result))
    return EXIT_OK
