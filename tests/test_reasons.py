"""Reasons in words: a reviewed list of every predicate's reasons in both languages, each label on its own number
on either side of a comparison, the computation of a computed value, and a reason for every answer."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.core.problems import Problems
from generator.evaluate.snippet import Snippet
from generator.i18n.translate import Translations
from generator.kb.examples import rule_cases
from generator.kb.load import load
from generator.render.reasons import Explainer

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = yaml.safe_load((ROOT / "tests" / "reasons_expected.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def knowledge():
    kb, problems = load(ROOT)
    assert not problems
    return kb


@pytest.fixture(scope="module")
def explainers(knowledge):
    found = Problems()
    made = {lang: Explainer(knowledge, Translations.load(ROOT, lang, found)) for lang in ("en", "ru")}
    assert not found
    return made


def said(explainer, rule, predicate, given) -> list[str]:
    return [f"{reason.clause}: {reason.text}" for reason in explainer.explain(rule, predicate, given).reasons]


def test_the_reviewed_reasons_cover_every_predicate_of_every_rule(knowledge):
    covered = {tuple(key.split(" ")[:2]) for key in EXPECTED}
    every = {(rule.key, predicate.name) for rule in knowledge.rules.values() for predicate in rule.predicates}
    assert every <= covered, sorted(every - covered)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_check_explain_gives_the_reviewed_reasons_in_both_languages(knowledge, explainers, key):
    rule_key, predicate_name, example = key.split(" ")
    rule = knowledge.rules[rule_key]
    case = next(case for case in rule_cases(knowledge)
                if case.rule == rule_key and case.predicate == predicate_name and case.case_id == example)
    for lang in ("en", "ru"):
        assert said(explainers[lang], rule, rule.predicate(predicate_name), case.given) == EXPECTED[key][lang], lang


def test_every_worked_example_has_a_reason_and_none_ends_in_a_bare_equality(knowledge, explainers):
    for lang, explainer in explainers.items():
        for case in rule_cases(knowledge):
            rule = knowledge.rules[case.rule]
            texts = [reason.text for reason in explainer.explain(rule, rule.predicate(case.predicate), case.given).reasons]
            assert texts, (lang, case.test_id)
            for text in texts:
                last = text.split("; ")[-1]
                sides = last.split(" = ")
                assert not (len(sides) == 2 and sides[0] == sides[1]), (lang, case.test_id, text)


@pytest.mark.parametrize("code, expected", [
    ("return 8 > leadership  # clause: wounds", "wounds: 8 > 5 (the Leadership used for the test"),
    ("return leadership < 8  # clause: wounds", "wounds: 5 (the Leadership used for the test"),
    ("return 8 - lost_by > leadership  # clause: wounds", "wounds: by how many points the unit lost the combat: 2; "
                                                          "8 − 2 = 6 > 5 (the Leadership used for the test"),
])
def test_a_label_stands_on_its_own_number_whichever_side_of_the_comparison_it_is(knowledge, explainers, code,
                                                                               expected):
    rule = knowledge.rules["wap/daemonic"]
    real = rule.predicate("instability")
    planted = real.model_copy(update={"code": code, "snippet": Snippet.compile(code, real.params)})
    given = {"dice": [3, 4], "leadership": 5, "lost_by": 2, "stubborn_or_steadfast": False, "unbreakable": False}
    reasons = said(explainers["en"], rule, planted, given)
    assert len(reasons) == 1 and reasons[0].startswith(expected), reasons
    assert reasons[0].count("the Leadership used for the test") == 1
    assert not reasons[0].startswith("wounds: the Leadership")  # the old words: the label on the other side's number


def test_a_label_with_a_colon_of_its_own_takes_a_dash(knowledge):
    from generator.kb.texts import declared_context
    from generator.render.reasons import Words, step_text

    rule = knowledge.rules["battlesystem/fighting-withdrawal"]
    predicate = rule.predicate("may_withdraw")
    found = Problems()
    words = Words(rule, predicate, Translations.load(ROOT, "en", found),
                  lambda name: "how far it can move back: clear of enemies",
                  lambda name: declared_context(rule.key, predicate.name, name))
    step = {"kind": "return", "line": 1, "column": 0, "clause": "restrictions", "outcome": True,
            "reads": [["clear_distance", 4]], "compares": [[4, "==", 4, True, "clear_distance", None]]}
    assert step_text(step, words, {"clear_distance": 4}) == "how far it can move back: clear of enemies — 4″"
