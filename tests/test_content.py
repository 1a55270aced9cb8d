"""The knowledge base holds the whole inventory: every contract predicate, own words, full translations."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

import pytest

from generator.core.problems import Problems
from generator.i18n.status import language_status
from generator.i18n.translate import Translations
from generator.kb.examples import rule_cases

from . import paraphrase
from .conftest import INVENTORY, ROOT, SEEDS, needs_shared
from .languages import LANGUAGES

# The rules the inventory (../shared/RULES.md) lists: its contract is about these, whatever else rules/ holds.
INVENTORY_KEYS = ["battlesystem/skirmishers", "battlesystem/fighting-withdrawal", "battlesystem-campaign/fighting-withdrawal",
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
    assert set(CONTRACT) == set(INVENTORY_KEYS)
    assert CONTRACT["t9a/scout"]["deploy_ok"] == ["in_own_zone", "enemy_distance", "terrain"]
    assert CONTRACT["wap/strider"]["dangerous_test"] == ["strider", "terrain", "dangerous"]


@needs_shared
@pytest.mark.parametrize("key", INVENTORY_KEYS)
def test_every_contract_predicate_exists_with_exactly_its_arguments(kb, key):
    rule = kb.rules.get(key)
    assert rule is not None, f"{key} is missing"
    for name, arguments in CONTRACT[key].items():
        predicate = rule.predicate(name)
        assert predicate is not None, f"{key} lacks predicate {name}"
        assert predicate.params == arguments, f"{key}::{name} takes {predicate.params}, contract says {arguments}"


def rules_on_disk(root=ROOT) -> list[str]:
    """Every rule file's key (system/rule), read from rules/ as it is: a rule added tomorrow is in the list."""
    return sorted(f"{path.parent.name}/{path.stem}" for path in (root / "rules").glob("*/*.yaml")
                  if not path.name.startswith("_") and path.parent.name != "concepts")


def example_problems(rule) -> list[str]:
    """What a rule's worked examples leave uncovered: each predicate has one, a bool both answers, a predicate with
    several outcomes at least three examples, a choice every value."""
    found = []
    for predicate in rule.predicates:
        examples = [e for e in rule.examples if e.predicate == predicate.name]
        if not examples:
            found.append(f"{rule.key}::{predicate.name} has no worked example")
            continue
        outcomes = {repr(e.expect) for e in examples}
        if predicate.returns.type == "bool" and outcomes != {"True", "False"}:
            found.append(f"{rule.key}::{predicate.name} examples cover only {outcomes}")
        if len(outcomes) > 1 and len(examples) < 3:
            found.append(f"{rule.key}::{predicate.name} has {len(examples)} examples")
        if predicate.returns.type == "choice" and not {repr(v) for v in predicate.returns.values} <= outcomes:
            found.append(f"{rule.key}::{predicate.name} leaves outcomes without an example")
    return found


def source_problems(rule) -> list[str]:
    """Whether a rule cites its source and states at least one clarification."""
    return ([] if rule.source.page_list or rule.source.section else [f"{rule.key} cites no page or section"]) + \
        ([] if rule.clarifications else [f"{rule.key} states no clarification"])


@pytest.mark.parametrize("key", rules_on_disk())
def test_predicates_with_several_outcomes_have_three_examples_covering_each_outcome(kb, key):
    assert example_problems(kb.rules[key]) == []


@pytest.mark.parametrize("key", rules_on_disk())
def test_every_rule_cites_its_source_and_has_a_clarification(kb, key):
    assert source_problems(kb.rules[key]) == []


def test_the_content_rules_hold_a_rule_added_today_to_them(repo):
    from generator.kb.load import load_and_validate

    strider = (repo / "rules/wap/strider.yaml").read_text(encoding="utf-8")
    assert "\nclarifications:\n" in strider
    # A copy of Strider under a new name, cut to one passing example and no clarification: valid, so check
    # passes it, and the content rules must not.
    thin = strider.split("\nclarifications:\n")[0].replace("id: strider", "id: thin-strider", 1)
    (repo / "rules/wap/thin-strider.yaml").write_text(thin, encoding="utf-8")
    assert "wap/thin-strider" in rules_on_disk(repo)
    kb, _problems = load_and_validate(repo)
    rule = kb.rules["wap/thin-strider"]
    rule.examples[:] = rule.examples[:1]
    assert any("examples" in problem or "no worked example" in problem for problem in example_problems(rule))
    assert source_problems(rule) == ["wap/thin-strider states no clarification"]


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


@pytest.fixture(scope="module")
def paraphrase_findings():
    stems = paraphrase.Stems()
    return paraphrase.findings(paraphrase.our_sentences(ROOT, stems), paraphrase.seed_sentences(SEEDS, stems))


@needs_shared
def test_no_sentence_follows_a_source_sentence_with_synonyms_swapped_in(paraphrase_findings):
    found = [str(f) for f in paraphrase_findings if not paraphrase.allowed_entry(f)]
    assert not found, f"{len(found)} sentence(s) paraphrase the source (run python tests/paraphrase.py):\n" + \
        "\n".join(found[:15])


@needs_shared
def test_the_paraphrase_allow_list_is_a_handful_of_entries_each_still_needed(paraphrase_findings):
    assert len(paraphrase.ALLOWED) <= 5
    used = {paraphrase.allowed_entry(f) for f in paraphrase_findings}
    for entry in paraphrase.ALLOWED:
        assert len(entry) == 3 and entry[2].strip(), f"{entry}: give the file, the sentence's first words and why"
        assert entry in used, f"{entry[0]}: {entry[1]!r} no longer paraphrases the source; drop it from ALLOWED"


def test_a_sentence_with_synonyms_swapped_in_is_caught_and_one_rewritten_from_the_facts_is_not():
    stems = paraphrase.Stems()
    seed = paraphrase.Sentence("seed:1", "", stems(
        "Skirmishers can shoot even if they marched or reformed earlier in the turn, providing their weapon "
        "doesn't have Move or Fire."))
    swapped = paraphrase.Sentence("ours:1", "", stems(
        "Skirmishers may fire even when they marched or reformed before in that turn, provided the weapon "
        "lacks Move or Fire."))
    rewritten = paraphrase.Sentence("ours:2", "", stems(
        "Marching or reforming does not stop a skirmisher unit from shooting afterwards, unless its weapons "
        "are Move or Fire."))
    found = paraphrase.findings([swapped, rewritten], [seed])
    assert [f.ours.where for f in found] == ["ours:1"]
    assert found[0].run >= paraphrase.MIN_RUN


def test_russian_sentences_are_stemmed_so_a_change_of_case_does_not_hide_a_paraphrase():
    stems = paraphrase.Stems()
    seed = paraphrase.Sentence("seed:1", "", stems(
        "Подразделения, выставленные за пределами зоны расстановки игрока, не могут объявлять нападения "
        "в первом раунде первого игрока."))
    ours = paraphrase.Sentence("ours:1", "", stems(
        "Подразделение, выставленное за пределами своей зоны расстановки, не может объявить нападение в "
        "первом раунде первого игрока."))
    assert [f.ours.where for f in paraphrase.findings([ours], [seed])] == ["ours:1"]


def test_the_report_names_the_file_and_line_of_a_sentence_that_follows_a_source(tmp_path, capsys):
    # A "source" made of one of our own clause sentences, swapped synonyms and all: the report must find it.
    sentence = "that reform and march so that no model goes further than 8″ keep both reforms."
    path = ROOT / "rules/wap/skirmishers.yaml"
    line = next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if sentence in text)
    (tmp_path / "000_fake.txt").write_text("Skirmishers having Movement 5 which reform and march such that no "
                                           "model travels further than 8 inches retain both reforms.\n",
                                           encoding="utf-8")
    assert paraphrase.main(["paraphrase.py", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"rules/wap/skirmishers.yaml:{line}: " in out and "000_fake.txt:1" in out
    assert out.strip().splitlines()[-1].startswith("1 sentence(s) follow a source sentence")


def test_the_common_subsequence_keeps_the_order_of_words():
    assert paraphrase.common_run(tuple("abcdefg"), tuple("abcdefg")) == 7
    assert paraphrase.common_run(tuple("abcdefg"), tuple("gfedcba")) == 1
    assert paraphrase.common_run(tuple("axbycz"), tuple("abc")) == 3


# --- translations complete ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang in ("en", "ru")])  # the languages complete
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
