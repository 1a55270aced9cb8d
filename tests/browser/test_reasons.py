"""Every answer shows its reasons: the clause that decided it and the steps that led there, traced in the browser
and worded as `generator check --explain` words them; one form for predicates that share a situation; a shared
link opens on its answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

from generator.core.problems import Problems
from generator.i18n.translate import load_with_fallbacks
from generator.site.mkdocs_config import read_languages
from generator.kb.examples import rule_cases
from generator.kb.load import load
from generator.render.reasons import Explainer

from .conftest import served_site
from .test_ask import answer, field, panel, roll, verdict
from ..languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SCOUT = "ask-deploy_ok?in_own_zone={zone}&enemy_distance={distance}&terrain={terrain}"


def reasons(form, predicate: str | None = None) -> list[str]:
    return answer(form, predicate).locator(".kb-ask__reasons li").all_inner_texts()


@pytest.mark.parametrize("lang, own_zone, forest, open_ground, decided", [
    ("ru", "отряд ставится в зону расстановки своей армии: да",
     "14″ (расстояние до ближайшего уже выставленного вражеского отряда) ≥ 12″",
     "17,9″ (расстояние до ближайшего уже выставленного вражеского отряда) < 18″", "Решает"),
    ("en", "the unit is set up in its own army's Deployment Zone: yes",
     "14″ (distance to the nearest enemy unit already on the table) ≥ 12″",
     "17.9″ (distance to the nearest enemy unit already on the table) < 18″", "Decided by"),
])
def test_scout_answers_name_the_clause_of_the_step_that_decided_and_why(page, base_url, lang, own_zone, forest,
                                                                        open_ground, decided):
    page.goto(f"{base_url}{lang}/t9a/scout/#" + SCOUT.format(zone=1, distance=14, terrain="forest"))
    form = panel(page, "deploy_ok")
    expect(answer(form).locator(".kb-ask__clause")).to_have_text(f"{decided} §3")  # in its own zone: placement
    assert reasons(form) == [f"§3 {own_zone}"]
    page.goto(f"{base_url}{lang}/t9a/scout/#" + SCOUT.format(zone=0, distance=14, terrain="forest"))
    page.reload()
    form = panel(page, "deploy_ok")
    expect(answer(form).locator(".kb-ask__clause")).to_have_text(f"{decided} §4")  # the forest's 12″: terrain
    assert reasons(form)[-1] == f"§4 {forest}" and len(reasons(form)) == 3
    page.goto(f"{base_url}{lang}/t9a/scout/#" + SCOUT.format(zone=0, distance=17.9, terrain="open"))
    page.reload()
    form = panel(page, "deploy_ok")
    expect(answer(form).locator(".kb-ask__clause")).to_have_text(f"{decided} §3")  # the open's 18″: placement
    assert reasons(form)[-1] == f"§3 {open_ground}"
    # Each reason links to its clause.
    assert answer(form).locator(".kb-ask__reasons a").evaluate_all("links => links.map(a => a.hash)") == [
        "#placement", "#terrain", "#placement"]


def test_the_page_says_for_every_worked_example_what_check_explain_says_in_both_languages(page, base_url):
    kb, problems = load(ROOT)
    assert not problems
    by_rule: dict[str, list] = {}
    for case in rule_cases(kb):
        by_rule.setdefault(case.rule, []).append(case)
    compared = 0
    configured = {entry["code"]: entry for entry in read_languages(ROOT)}
    for lang in LANGUAGES:
        found = Problems()
        explainer = Explainer(kb, load_with_fallbacks(ROOT, configured[lang], found))  # as the page's build
        assert not found
        for key, cases in by_rule.items():
            page.goto(f"{base_url}{lang}/{key}/")
            page.wait_for_function("() => window.KbAsk")
            rule = kb.rules[key]
            for case in cases:
                python = explainer.explain(rule, rule.predicate(case.predicate), case.given)
                shown = page.evaluate("([p, args]) => KbAsk.explain(p, args)", [case.predicate, case.given])
                expected = {"answer": python.answer, "decidedBy": python.decided_by,
                            "reasons": [{"clause": r.clause, "text": r.text} for r in python.reasons]}
                assert shown == expected, (lang, case.test_id)
                compared += 1
    assert compared >= 500


def test_one_form_asks_the_daemonic_situation_once_and_gives_every_consequence(phone, base_url, shot):
    phone.goto(base_url + "ru/wap/daemonic/")
    form = panel(phone, "reality_blinks")
    assert form.get_attribute("data-predicates") == "instability reality_blinks"
    # Rarely true flags start at «нет»: the first answer is a real test, not «no test».
    expect(field(form, "unbreakable").locator("input:checked")).to_have_value("0")
    roll(form, 1, 1)
    field(form, "leadership").locator("input").fill("7")
    field(form, "lost_by").locator("input").fill("3")
    expect(verdict(form, "instability")).to_have_text("Дополнительных Ран нет")
    expect(verdict(form, "reality_blinks")).to_have_text("Дубль 1: Раны восстановлены")
    expect(answer(form, "reality_blinks").locator(".kb-ask__clause a")).to_have_text("§7")
    assert field(form, "dice").count() == 1  # the dice are entered once for both answers
    shot(form)


def test_a_link_shared_before_the_forms_were_joined_opens_the_same_situation_and_its_answer(page, base_url):
    page.goto(base_url + "en/wap/daemonic/#ask-reality_blinks?dice=1,1")
    form = panel(page, "reality_blinks")
    expect(verdict(form, "reality_blinks")).to_have_text("Double 1: Wounds restored")
    expect(form.locator(".kb-ask__recap")).to_be_visible()
    page.goto(base_url + "en/t9a/light-infantry/#ask-close_ranks?models=0,0;1.5,0;3,0&anchor=1&base=1")
    page.reload()
    form = panel(page, "close_ranks")
    expect(field(form, "anchor").locator("input")).to_have_value("2")  # the link's model 1, counted from 0, shown from 1
    expect(verdict(form, "close_ranks")).not_to_be_empty()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_shared_link_opens_on_a_phone_with_its_question_recap_and_answer_in_view(phone, base_url, shot, lang):
    phone.goto(f"{base_url}{lang}/t9a/scout/#" + SCOUT.format(zone=0, distance=14, terrain="forest"))
    form = panel(phone, "deploy_ok")
    expect(verdict(form)).to_be_visible()
    phone.wait_for_function("() => new Promise(r => { const y = scrollY; "
                            "requestAnimationFrame(() => r(scrollY === y)); })")  # the jump to the panel has settled
    header = phone.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    heading = phone.locator("#predicate-deploy_ok").bounding_box()
    recap = form.locator(".kb-ask__recap")
    expect(recap).to_be_visible()
    assert heading["y"] >= header - 1, (heading, header)  # below the sticky header, not under it
    assert recap.bounding_box()["y"] + recap.bounding_box()["height"] <= 844
    assert "14″" in recap.inner_text() and ("Можно" if lang == "ru" else "Allowed") in recap.inner_text()
    shot(phone, lang)


def test_sharing_on_a_phone_opens_the_system_share_sheet_with_the_link(browser, base_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script("navigator.share = data => { window.shared = data; return Promise.resolve(); };")
    page = context.new_page()
    page.goto(base_url + "ru/t9a/scout/")
    form = panel(page, "deploy_ok")
    field(form, "enemy_distance").locator("input").fill("13")
    form.locator(".kb-ask__share").click()
    page.wait_for_function("() => window.shared")
    assert page.evaluate("window.shared.url").endswith("#ask-deploy_ok?in_own_zone=0&enemy_distance=13&terrain=open")
    context.close()


def test_copying_says_it_copied(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    form = panel(page, "deploy_ok")
    form.locator(".kb-ask__share").click()
    expect(form.locator(".kb-ask__status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith("terrain=open")


@pytest.mark.parametrize("typed, shown", [("14 inches", "14″ ("), ("14 дюймов", "14″ ("), ("14″", "14″ ("),
                                          ("-3", None), ("−3", None)])
def test_a_distance_is_read_with_its_unit_and_a_negative_one_is_refused(page, base_url, typed, shown):
    page.goto(base_url + "ru/t9a/scout/")
    form = panel(page, "deploy_ok")
    field(form, "in_own_zone").get_by_label("нет").check()
    field(form, "terrain").locator("select").select_option(label="Лес")
    field(form, "enemy_distance").locator("input").fill(typed)
    if shown is None:
        expect(field(form, "enemy_distance").locator(".kb-ask__problem")).to_have_text(
            "Введите расстояние: 0 или больше.")
        expect(verdict(form)).to_have_count(0)
    else:
        expect(verdict(form)).to_have_text("Можно")
        expect(answer(form)).to_contain_text(shown)
        expect(answer(form)).to_contain_text("отряда) ≥ 12″")


@pytest.mark.parametrize("typed", ["9007199254740993", "1e400"])
def test_a_number_too_large_to_answer_exactly_is_refused_in_the_pages_language(page, base_url, typed):
    page.goto(base_url + "ru/battlesystem/fighting-withdrawal/")
    form = panel(page, "may_withdraw")
    field(form, "clear_distance").locator("input").fill(typed)
    expect(field(form, "clear_distance").locator(".kb-ask__problem")).to_have_text(
        "Введите число поменьше: правила отвечают для чисел не длиннее 15 цифр.")
    expect(verdict(form)).to_have_count(0)


def test_the_page_gives_the_reviewed_reasons_of_every_predicate_in_both_languages(page, base_url):
    expected = yaml.safe_load((ROOT / "tests" / "reasons_expected.yaml").read_text(encoding="utf-8"))
    kb, _problems = load(ROOT)
    cases = {(case.rule, case.predicate, case.case_id): case for case in rule_cases(kb)}
    by_rule: dict[str, list[str]] = {}
    for key in expected:
        by_rule.setdefault(key.split(" ")[0], []).append(key)
    for lang in ("en", "ru"):
        for rule_key, keys in by_rule.items():
            page.goto(f"{base_url}{lang}/{rule_key}/")
            page.wait_for_function("() => window.KbAsk")
            for key in keys:
                case = cases[tuple(key.split(" "))]
                shown = page.evaluate("([p, args]) => KbAsk.explain(p, args)", [case.predicate, case.given])
                assert [f"{r['clause']}: {r['text']}" for r in shown["reasons"]] == expected[key][lang], (lang, key)


def plant_a_constant_on_the_left(repo: Path) -> None:
    """Immunity's majority with a planted first test, `8 > total_models`: the argument stands on the right."""
    path = repo / "rules" / "wap" / "immunity.yaml"
    text = path.read_text(encoding="utf-8")
    old = "return immune_models > total_models / 2  # clause: panic-fear-terror"
    assert old in text
    path.write_text(text.replace(old, "return 8 > total_models and immune_models > total_models / 2  "
                                      "# clause: panic-fear-terror"), encoding="utf-8")


@pytest.fixture(scope="module")
def planted_url(tmp_path_factory):
    yield from served_site(tmp_path_factory.mktemp("reasons-planted"), plant_a_constant_on_the_left)


@pytest.mark.parametrize("lang, label", [("en", "how many models the unit has in all"),
                                         ("ru", "сколько всего моделей в отряде")])
def test_a_label_stands_on_its_own_number_when_the_argument_is_on_the_right(page, planted_url, lang, label):
    page.goto(f"{planted_url}{lang}/wap/immunity/#ask-unit_ignores?immune_models=3&total_models=4")
    form = panel(page, "unit_ignores")
    expect(answer(form).locator(".kb-ask__reasons li")).to_have_count(1)
    text = reasons(form)[0]
    assert re.match(rf"§\d+ 8 > 4 \({label}\); 3 \(", text), text
    assert text.endswith(") > 4 / 2 = 2") and text.count(label) == 1, text
