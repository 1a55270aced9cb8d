"""The knowledge base holds the whole inventory: every contract predicate, own words, full translations."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

import pytest

from generator.examples import rule_cases
from generator.i18n.status import language_status
from generator.i18n.translate import Translations
from generator.problems import Problems

from .conftest import ROOT, SHARED

INVENTORY = SHARED / "RULES.md"
SEEDS = SHARED / "seeds"
# The inventory and the seeds live beside the checkout, not in it: a plain clone skips what needs them.
needs_shared = pytest.mark.skipif(not INVENTORY.is_file() or not SEEDS.is_dir(),
                                  reason=f"{SHARED} (RULES.md and seeds/) is not beside this checkout")
RULE_KEYS = ["battlesystem/skirmishers", "battlesystem/fighting-withdrawal", "battlesystem-campaign/fighting-withdrawal",
             "wap/skirmishers", "wap/immunity", "wap/strider", "wap/dodge", "wap/daemonic", "wap/daemon-of-nurgle",
             "wap/martial-arts", "t9a/requires-two-hands", "t9a/scout", "t9a/light-infantry"]


def contract() -> dict[str, dict[str, list[str]]]:
    """{rule: {predicate: [arguments]}} read from the inventory's tables and inline signatures."""
    text = INVENTORY.read_text(encoding="utf-8")
    found: dict[str, dict[str, list[str]]] = defaultdict(dict)
    sections = re.split(r"^## ", text, flags=re.M)
    for section in sections:
        heading = re.match(r"([a-z0-9-]+/[a-z0-9-]+)", section)
        if not heading:
            continue
        rule = heading.group(1)
        for name, arguments in re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, flags=re.M):
            found[rule][name] = re.findall(r"`([a-z_]+)`", re.sub(r"\([^)]*\)", "", arguments))
        for name, arguments in re.findall(r"`([a-z_]+)\(([a-z_, ]*)\)`", section):
            found[rule][name] = [a.strip() for a in arguments.split(",") if a.strip()]
    return found


CONTRACT = contract() if INVENTORY.is_file() else {}


@needs_shared
def test_the_inventory_was_read():
    assert set(CONTRACT) == set(RULE_KEYS)
    assert CONTRACT["t9a/scout"]["deploy_ok"] == ["in_own_zone", "enemy_distance", "terrain"]
    assert CONTRACT["wap/strider"]["dangerous_test"] == ["strider", "terrain", "dangerous"]


@needs_shared
@pytest.mark.parametrize("key", RULE_KEYS)
def test_every_contract_predicate_exists_with_exactly_its_arguments(kb, key):
    rule = kb.rules.get(key)
    assert rule is not None, f"{key} is missing"
    for name, arguments in CONTRACT[key].items():
        predicate = rule.predicate(name)
        assert predicate is not None, f"{key} lacks predicate {name}"
        assert predicate.params == arguments, f"{key}::{name} takes {predicate.params}, contract says {arguments}"


@pytest.mark.parametrize("key", RULE_KEYS)
def test_predicates_with_several_outcomes_have_three_examples_covering_each_outcome(kb, key):
    rule = kb.rules[key]
    for predicate in rule.predicates:
        examples = [e for e in rule.examples if e.predicate == predicate.name]
        assert examples, f"{key}::{predicate.name} has no worked example"
        outcomes = {repr(e.expect) for e in examples}
        if predicate.returns.type == "bool" and predicate.name not in ("rank_bonus",):
            assert outcomes == {"True", "False"}, f"{key}::{predicate.name} examples cover only {outcomes}"
        if len(outcomes) > 1:
            assert len(examples) >= 3, f"{key}::{predicate.name} has {len(examples)} examples"
        if predicate.returns.type == "choice":
            assert {repr(v) for v in predicate.returns.values} <= outcomes, \
                f"{key}::{predicate.name} leaves outcomes without an example"


@pytest.mark.parametrize("key", RULE_KEYS)
def test_every_rule_cites_its_source_and_has_a_clarification(kb, key):
    rule = kb.rules[key]
    assert rule.source.page_list or rule.source.section
    assert rule.clarifications, f"{key} states no clarification"


def test_the_alias_of_t9a_light_infantry_is_recorded(kb):
    aliases = {(alias.name, alias.lang) for alias in kb.rules["t9a/light-infantry"].aliases}
    assert ("Skirmisher", "en") in aliases


@needs_shared
def test_every_term_the_inventory_lists_has_a_glossary_entry(kb):
    text = INVENTORY.read_text(encoding="utf-8")
    listed = text.split("## Terms referenced but not defined in the sources", 1)[1].split("Each needs")[0]
    names = [re.sub(r"\s*\(.*\)", "", name).strip().rstrip(".") for name in listed.replace("\n", " ").split(",")]
    known = {term.term.casefold() for term in kb.terms.values()}
    translations = Translations.load(ROOT, "en", Problems())
    known |= {translations.text(f"term:{t.id}:term", t.term, kb.term_lang(t)).value.casefold()
              for t in kb.terms.values()}
    missing = [name for name in names if name and name.casefold() not in known]
    assert not missing, f"no glossary entry for: {missing}"


# --- own words ------------------------------------------------------------------------------------

def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower().replace("ё", "е")
    return re.findall(r"[a-zа-я0-9]+", text)


def _grams(words, n=8):
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


@needs_shared
def test_no_run_of_eight_words_from_the_source_documents_appears_in_rules_or_translations():
    source = set()
    for seed in sorted(SEEDS.glob("*")):
        source |= _grams(_words(seed.read_text(encoding="utf-8")))
    copied = []
    for folder in ("rules", "translations"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".yaml", ".po", ".md"):
                for gram in sorted(_grams(_words(path.read_text(encoding="utf-8"))) & source):
                    copied.append(f"{path.relative_to(ROOT)}: {gram}")
    assert not copied, "\n".join(copied[:20])


# --- translations complete ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_message_is_translated_and_none_is_fuzzy(kb, lang):
    problems = Problems()
    status = language_status(kb, Translations.load(ROOT, lang, problems))
    assert not problems
    gaps = {name: counts for name, counts in status["catalogs"].items() if counts["fuzzy"] or counts["missing"]}
    assert not gaps, gaps


def test_every_example_states_the_clause_it_illustrates(kb):
    for case in rule_cases(kb):
        rule = kb.rules[case.rule]
        example = next(e for e in rule.examples if e.id == case.case_id)
        assert rule.clause(example.clause) is not None
