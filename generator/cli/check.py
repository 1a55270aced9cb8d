"""`python -m generator check [PATH…|FILE…]`: validate the rules and catalogs, then run the worked examples."""

from __future__ import annotations

import logging
from pathlib import Path

from ..core.problems import Problems
from ..core.report_formats import GITHUB, chosen_format, outcome_annotation, plain, print_command, print_problems
from ..evaluate import SnippetRuntimeError
from ..i18n.limits import length_problems, needed_catalogs, stray_problems
from ..i18n.po.catalogs import catalog_path
from ..i18n.po.reader import catalogs_read_once, read_entries
from ..i18n.translate import Translations, load_with_fallbacks
from ..kb.examples import external_cases, read_scenarios, rule_cases, run_cases
from ..kb.load import bulk_allocation, load, validated
from ..kb.parts import rules_under
from ..kb.texts import knowledge_base_texts
from ..render.reasons import Explainer
from ..site.mkdocs_config import read_languages
from .common import EXIT_FAILED, EXIT_MALFORMED, EXIT_OK, given_path, repository_root, under

log = logging.getLogger(__name__)


def _selection(root: Path, items: list[str], problems):
    """Split check's arguments into the rules named by paths under rules/ (None if none) and scenario files."""
    selected, scenarios = None, []
    for item in items:
        path = given_path(root, item)
        keys = rules_under(root, path)
        if keys is None and under(path, root / "translations"):
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


def _print_outcomes(outcomes, verbose: bool, output_format: str) -> int:
    """Print the worked examples' failures (and passes if verbose) and the tally; return how many failed."""
    passed = failed = 0
    for outcome in outcomes:
        if outcome.passed:
            passed += 1
            if verbose:
                print(plain(outcome.describe()))
        else:
            failed += 1
            print(plain(outcome.describe()))  # names, values and errors an example's file gave
            if output_format == GITHUB:
                print_command(outcome_annotation(outcome))
    print(f"{passed} passed, {failed} failed")
    return failed


@bulk_allocation()  # a one-shot command that builds one knowledge base and keeps it to the end
def cmd_check(args) -> int:
    """Load and validate the rules (all, or those under PATHs and those FILEs ask about), check the catalogs (with
    the whole base only), run the worked examples, and report."""
    root = repository_root(args)
    output_format = chosen_format(args.format)
    external = Problems()
    selected, scenarios = _selection(root, args.files, external)
    everything = args.all or not args.files
    asked = None if everything else (selected or set()) | {key for s in scenarios for key in s.rule_keys()}
    languages = _catalog_languages(root) if everything else []

    kb, problems = load(root, asked)
    rules_ok = not validated(kb, problems, asked)
    problems.items.extend(_catalog_problems(root, languages, kb if rules_ok else None, problems))
    scenario_problems = Problems()
    cases = _cases(kb, None if everything else selected or set(), scenarios, scenario_problems)
    if rules_ok:  # examples run on a whole, valid knowledge base only (catalogs do not matter to them)
        external.extend(scenario_problems)
    outcomes = list(run_cases(kb, cases)) if rules_ok else []
    problems.extend(external)

    print_problems(problems, output_format)
    if rules_ok and args.explain:
        _explain(root, kb, [outcome.case for outcome in outcomes], args.lang, problems)  # those run within the budget
        print_problems(problems, output_format)
    failed = _print_outcomes(outcomes, args.verbose, output_format) if rules_ok else 0
    if not rules_ok:
        print("examples not run: the rules have problems")
    if problems:
        log.error("%d problem(s) in the input; fix them and run again", len(problems))
        return EXIT_MALFORMED
    return EXIT_FAILED if failed else EXIT_OK


def _catalog_problems(root: Path, languages: list[str], kb, problems: Problems) -> list:
    """One language after another: what reading its catalogs found, and with valid rules (`kb`; None: the rules have
    problems, and only reading is checked) the catalogs no source needs and the translations too long for their
    source not reported already (reading measured each against its msgid: mostly the same)."""
    texts = list(knowledge_base_texts(kb, details=False)) if languages and kb is not None else None
    with catalogs_read_once():  # reading and measuring each read every catalog: the second reuses the first's
        read, lengths = _read_and_measured(root, languages, kb, texts)
    stray = _stray_problems(root, languages, texts) if texts is not None else {}
    found = []
    for language in languages:
        found += read[language] + stray.get(language, [])
        reported = set(problems.items) | set(found)
        found += [problem for problem in lengths.get(language, []) if problem not in reported]
    return found


def _explain(root: Path, kb, cases: list, lang: str | None, problems: Problems) -> None:
    """Each question's answer, the clause that decided it and the reasons, in `lang` (or the rule's own language)."""
    known = _catalog_languages(root)
    if lang is not None and lang not in known:
        problems.add("mkdocs.yml", 0, "", f"--lang {lang} is not a language of the site", "use one of: "
                     + ", ".join(known))
        return
    explainers: dict[str, Explainer] = {}
    for case in cases:
        rule = kb.rules[case.rule]
        predicate = rule.predicate(case.predicate)
        language = lang or rule.lang
        if language not in explainers:
            configured = {entry["code"]: entry for entry in read_languages(root)}
            explainers[language] = Explainer(kb, load_with_fallbacks(root, configured.get(language, {"code": language}),
                                                                     problems, kb))
        try:
            explained = explainers[language].explain(rule, predicate, case.given)
        except SnippetRuntimeError as error:
            print(f"{case.test_id}: {case.name}\n  the predicate stopped: {plain(str(error))}")
            continue
        clause_ids = [clause.id for clause in rule.clauses]
        print(f"{case.test_id}: {plain(case.name)}")
        print(f"  {plain(explained.answer)}")
        print(f"  decided by {rule.key}#{explained.decided_by}")
        for reason in explained.reasons:
            number = f"§{clause_ids.index(reason.clause) + 1} " if reason.clause in clause_ids else ""
            print(f"  {number}{plain(reason.text)}")


def _catalog_languages(root: Path) -> list[str]:
    """The languages whose catalogs `check` checks: every language of mkdocs.yml."""
    return [language["code"] for language in read_languages(root)]


def _cases(kb, selected: set[str] | None, scenarios: list, external) -> list:
    """The worked examples to run: every rule's (selected None) or the selected rules', and the scenarios' cases."""
    cases = [case for case in rule_cases(kb) if selected is None or case.rule in selected]
    for scenario in scenarios:
        cases.extend(external_cases(kb, scenario, external))
    return cases


def _read_and_measured(root: Path, languages: list[str], kb, texts: list | None = None) -> tuple[dict, dict]:
    """Per language, what reading its catalogs finds (sizes, syntax, lengths against the msgid, references checked
    against `kb`; None: rules with problems) and, given the knowledge base's `texts`, the translations far longer
    than their source text (generator/i18n/limits.py)."""
    read, lengths = {}, {}
    for language in languages:
        problems = Problems()
        translations = Translations.load(root, language, problems, kb)
        read[language] = problems.items
        if texts is not None:
            sources = {text.context: text.source for text in texts if text.lang != language}
            lengths[language] = []
            for name in translations.catalogs:  # those read: not refused for their size or syntax
                path = catalog_path(root, language, name)
                lengths[language] += length_problems(root, path, read_entries(path, language, root), sources)
    return read, lengths


def _stray_problems(root: Path, languages: list[str], texts: list) -> dict[str, list]:
    """Per language, the catalogs no source needs among the knowledge base's `texts` (generator/i18n/limits.py):
    their messages would otherwise pass unchecked."""
    return {language: stray_problems(root, language, needed_catalogs(texts, language)) for language in languages}
