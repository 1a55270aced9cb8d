"""The JSON export: every rule and term in each language, in the published schema, deterministic."""

from __future__ import annotations

import json

import pytest

from generator.evaluate import Snippet
from generator.kb.examples import same
from generator.render.export import DATA_FILE, SCHEMA_FILE, Export, export_files, export_json, export_schema
from generator.site.build import prepare

from .conftest import ROOT
from .languages import LANGUAGES


@pytest.fixture(scope="module")
def prepared():
    return prepare(ROOT)


@pytest.fixture(scope="module", params=LANGUAGES)
def exported(request, prepared) -> dict:
    return json.loads(export_json(prepared.kb, prepared.translations[request.param]))


def test_every_rule_and_glossary_term_is_exported_in_each_language(exported, kb):
    assert [rule["id"] for rule in exported["rules"]] == sorted(kb.rules)
    assert sorted(term["id"] for term in exported["glossary"]) == sorted(kb.terms)
    for rule in exported["rules"]:
        assert rule["url"] == f"/{exported['lang']}/{rule['id']}/"


def test_the_export_validates_against_its_own_model(exported):
    Export.model_validate(exported)  # raises on any field the schema does not allow


def test_texts_are_in_the_export_language_and_source_titles_are_kept(prepared):
    english = json.loads(export_json(prepared.kb, prepared.translations["en"]))
    russian = json.loads(export_json(prepared.kb, prepared.translations["ru"]))
    scout_en = next(rule for rule in english["rules"] if rule["id"] == "t9a/scout")
    scout_ru = next(rule for rule in russian["rules"] if rule["id"] == "t9a/scout")
    assert scout_en["title"] == "Scout" and scout_ru["title"] == "Разведчик"
    assert scout_en["source_title"] == scout_ru["source_title"] == "Разведчик"
    daemonic_ru = next(rule for rule in russian["rules"] if rule["id"] == "wap/daemonic")
    assert daemonic_ru["title"] != daemonic_ru["source_title"]
    assert [c["id"] for c in scout_en["clauses"]] == [c["id"] for c in scout_ru["clauses"]]


def test_every_exported_example_gives_its_expected_answer_when_its_exported_code_is_run(exported, kb):
    checked = 0
    for rule in exported["rules"]:
        snippets = {p["name"]: Snippet.compile(p["code"], [a["name"] for a in p["args"]]) for p in rule["predicates"]}
        for example in rule["examples"]:
            got = snippets[example["predicate"]](**example["given"])
            assert same(example["expect"], got), f"{rule['id']}::{example['id']}: expected {example['expect']!r}, got {got!r}"
            checked += 1
    assert checked == sum(len(rule.examples) for rule in kb.rules.values())


def test_the_published_schema_describes_every_field_and_requires_the_top_level_ones():
    schema = json.loads(export_schema())
    assert schema["$schema"].endswith("2020-12/schema")
    assert set(schema["required"]) == {"schema_version", "lang", "rules", "glossary"}
    rule = schema["$defs"]["ExportRule"]
    assert rule["additionalProperties"] is False
    undocumented = [f"{name}.{field}" for name, definition in schema["$defs"].items()
                    for field, spec in definition["properties"].items()
                    if "description" not in spec and "$ref" not in spec and "items" not in spec]
    assert not undocumented, undocumented


def test_the_export_is_byte_identical_across_builds():
    first = prepare(ROOT)
    second = prepare(ROOT)
    for lang in LANGUAGES:
        assert export_files(first.kb, first.translations[lang]) == export_files(second.kb, second.translations[lang])
    assert set(export_files(first.kb, first.translations["en"])) == {DATA_FILE, SCHEMA_FILE}


def test_the_export_put_together_from_one_text_per_rule_is_the_dump_of_the_whole_model(prepared):
    from generator.render.export import LanguageExport, _dump, export_data

    for lang, tr in prepared.translations.items():
        assert LanguageExport(prepared.kb, tr).json() == _dump(export_data(prepared.kb, tr).model_dump(mode="json"))


def test_an_export_updated_for_edited_rules_is_the_export_made_afresh(repo):
    from generator.render.export import LanguageExport
    from generator.serve.edits import reprepare

    before = prepare(repo)
    path = repo / "rules/wap/strider.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: Strider", "title: Strider Edited", 1),
                    encoding="utf-8")
    after = reprepare(before, {"rules/wap/strider.yaml"})
    for lang in LANGUAGES:
        kept = LanguageExport(before.kb, before.translations[lang])
        updated = kept.updated(after.kb, after.translations[lang], {"wap/strider"})
        assert updated.files() == LanguageExport(after.kb, after.translations[lang]).files()
        assert updated.files() != kept.files()  # the served export is left as it was


def test_each_predicate_carries_its_answers_in_the_language_and_its_clause_notation(prepared):
    english = json.loads(export_json(prepared.kb, prepared.translations["en"]))
    russian = json.loads(export_json(prepared.kb, prepared.translations["ru"]))

    def predicate(export, rule, name):
        found = next(r for r in export["rules"] if r["id"] == rule)
        return next(p for p in found["predicates"] if p["name"] == name)

    scout_en, scout_ru = predicate(english, "t9a/scout", "deploy_ok"), predicate(russian, "t9a/scout", "deploy_ok")
    assert (scout_en["answers"], scout_ru["answers"]) == ({"true": "Allowed", "false": "Not allowed"},
                                                          {"true": "Можно", "false": "Нельзя"})
    assert scout_en["clauses"] == [{"line": 1, "clause": "placement"}, {"line": 3, "clause": "terrain"},
                                   {"line": 5, "clause": "placement"}]
    # Another tool can replay the reasons: the notation names the lines of the same snippet the trace runs.
    snippet = Snippet.compile(scout_en["code"], [a["name"] for a in scout_en["args"]])
    _value, steps = snippet.explain(in_own_zone=False, enemy_distance=14, terrain="forest")
    noted = {note["line"]: note["clause"] for note in scout_en["clauses"]}
    assert steps[-1]["clause"] == noted[3] == "terrain"
    wounds = predicate(russian, "wap/daemonic", "instability")["answers"]
    assert "{" in wounds["other"] and "|" in wounds["other"]  # the plural pattern, as translators write it
