"""Typed Ask fields in the player's words (issue 34, points 1, 2, 3 and 7), both languages: lists of choices as labelled
chips, open choices with «another faction», counts, boxes and 1 | 2 buttons; what the panel cannot read it refuses in
the page's language, a shared link too (unknown values, numbers out of range, lists past the limit, deep nesting);
a link restores its situation exactly and answers as Python does; field help instead of form talk in clarifications."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from generator.evaluate.values import exact_json
from generator.kb.load import load
from generator.kb.value_types import MAX_ITEMS, field_of

from ..value_faults import plain
from .test_ask import answer, field, panel, verdict

ROOT = Path(__file__).resolve().parents[2]
_KB, _PROBLEMS = load(ROOT)

STRIDER = {  # page language -> (the marsh's label, the answers for a Strider (Marsh) model in a marsh)
    "ru": ("болото", "Без штрафа", "Штраф действует"),
    "en": ("marsh", "No penalty", "The penalty applies"),
}


def chip(form, argument: str, words: str):
    """The chip (a labelled box or button) of a field that reads exactly `words`."""
    return field(form, argument).locator("label.kb-ask__chip").filter(has_text=re.compile(f"^{re.escape(words)}$"))


def recap(form):
    return form.locator(".kb-ask__recap")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_strider_terrain_is_ticked_from_labelled_chips_in_the_pages_language(phone, base_url, lang):
    marsh, free, penalty = STRIDER[lang]
    phone.goto(base_url + f"{lang}/wap/strider/")
    form = panel(phone, "movement_penalty_applies")
    strider = field(form, "strider")
    assert strider.locator("input[type=text]").count() == 0  # no JSON to type
    assert strider.locator("input[type=checkbox]").count() == 7
    expect(strider.locator("legend")).not_to_contain_text("[")
    expect(strider.locator(".kb-ask__help")).to_have_count(1)
    field(form, "terrain").locator("select").select_option("marsh")
    for box in strider.locator("input:checked").all():
        box.uncheck()
    expect(verdict(form, "movement_penalty_applies")).to_have_text(penalty)
    chip(form, "strider", marsh).click()
    expect(verdict(form, "movement_penalty_applies")).to_have_text(free)
    expect(answer(form, "movement_penalty_applies")).to_contain_text(marsh)  # the reason names the label, not "marsh"
    assert phone.evaluate("() => KbAsk.state('movement_penalty_applies').given.strider") == ["marsh"]


@pytest.mark.parametrize("lang, other, no_hatred", [("ru", "другая фракция", "Ненависти нет"),
                                                     ("en", "another faction", "No Hatred")])
def test_an_open_set_offers_the_named_factions_and_another_and_a_links_own_id_is_kept(page, base_url, lang, other,
                                                                                       no_hatred):
    page.goto(base_url + f"{lang}/wap/daemon-of-nurgle/")
    form = panel(page, "hates")
    select = field(form, "target").locator("select")
    assert select.locator("option").count() == 5
    expect(select.locator("option").last).to_have_text(other)
    select.select_option(label=other)
    expect(verdict(form)).to_have_text(no_hatred)
    expect(answer(form)).to_contain_text(other)
    assert "daemons-of" not in form.inner_text()
    # RULES.md: any other id is another faction. A link's own id is kept (and answered as Python does).
    page.goto(base_url + f"{lang}/wap/daemon-of-nurgle/#ask-hates?target=empire")
    page.reload()
    form = panel(page, "hates")
    expect(recap(form)).to_contain_text(other)
    expect(verdict(form)).to_have_text(no_hatred)
    assert page.evaluate("() => KbAsk.state('hates').given.target") == "empire"
    assert "empire" not in form.inner_text()


@pytest.mark.parametrize("lang, save", [("ru", "Уклонение 5+"), ("en", "5+ Dodge save")])
def test_dodge_sources_are_counted_with_steppers_and_styles_typed_in_the_players_words(page, base_url, lang, save):
    page.goto(base_url + f"{lang}/wap/dodge/")
    form = panel(page, "dodge_save")
    six = field(form, "sources").locator('.kb-ask__count[data-value="6"]')
    field(form, "sources").locator(".kb-ask__count output").evaluate_all("outs => outs.forEach(o => o.textContent = '0')")
    six.locator('button[data-step="1"]').click()
    six.locator('button[data-step="1"]').click()
    expect(verdict(form)).to_have_text(save)
    assert page.evaluate("() => KbAsk.state('dodge_save').given.sources") == [6, 6]
    page.goto(base_url + f"{lang}/wap/martial-arts/")
    form = panel(page, "sequence_ok")
    field(form, "styles").locator("input").fill("Журавль, Тигр, Тигр")
    expect(verdict(form)).to_have_text({"ru": "Недопустимо: стиль повторяется", "en": "Not legal: a style repeats"}[lang])
    assert page.evaluate("() => KbAsk.state('sequence_ok').given.styles") == ["Журавль", "Тигр", "Тигр"]


def test_front_rank_contact_is_a_box_per_model_and_the_step_is_two_buttons(page, base_url):
    page.goto(base_url + "ru/wap/skirmishers/")
    form = panel(page, "tighten_anchor")
    boxes = field(form, "front_rank_contact")
    count = boxes.locator("input[type=checkbox]").count()
    boxes.get_by_role("button", name="Добавить модель").click()
    expect(boxes.locator("input[type=checkbox]")).to_have_count(count + 1)
    boxes.locator("input[type=checkbox]").last.check()
    given = page.evaluate("() => KbAsk.state('tighten_anchor').given.front_rank_contact")
    assert len(given) == count + 1 and given[-1] is True
    page.goto(base_url + "en/battlesystem/fighting-withdrawal/")
    form = panel(page, "special_combat")
    chip(form, "step", "2").click()
    expect(verdict(form, "special_combat")).to_have_text("Special combat: the enemy strikes")
    assert field(form, "step").locator("input[type=radio]").count() == 2


# --- point 2: what the panel cannot read, it refuses ---------------------------------------------------------

REFUSED = [  # (page, link, the field's words in the refusal, what it accepts)
    ("ru/wap/strider/", '#ask-movement_penalty_applies?strider=["Marsh"]&terrain=marsh',
     "виды местности, названные в «Следопыте» модели", "Элемент 1, «Marsh», — не из списка: лес, болото"),
    ("en/wap/strider/", '#ask-movement_penalty_applies?strider=["болото"]&terrain=marsh',
     "the terrain types named in the model's Strider", "Item 1, «болото», is not one of the choices: forest, marsh"),
    ("ru/t9a/scout/", "#ask-deploy_ok?in_own_zone=0&enemy_distance=14&terrain=swamp",
     "", "«swamp»\u00a0— не из списка"),
    ("en/battlesystem/fighting-withdrawal/", "#ask-special_combat?step=3", "movement step", "Enter a number from 1 to 2."),
    ("ru/wap/dodge/", "#ask-dodge_save?sources=[6,7]&arc=front", "Уклонения модели", "не в пределах от 2 до 6"),
]


@pytest.mark.parametrize("address, link, words, accepts", REFUSED)
def test_a_link_with_a_value_the_field_does_not_take_is_refused_in_the_recap_with_no_verdict(page, base_url, address,
                                                                                                link, words, accepts):
    page.goto(base_url + address + link)
    form = page.locator("form.kb-ask").filter(has=page.locator(".kb-ask__recap:not([hidden])"))
    expect(form).to_have_count(1)
    refusal = recap(form)
    expect(refusal).to_contain_text(accepts)
    expect(refusal).to_contain_text(words)
    expect(form.locator(".kb-ask__verdict")).to_have_count(0)


@pytest.mark.parametrize("lang, limit", [("ru", f"Не больше {MAX_ITEMS} элементов, а здесь 10000"),
                                         ("en", f"At most {MAX_ITEMS} items; this one has 10000")])
def test_a_link_with_ten_thousand_points_is_refused_before_any_row_is_made(page, base_url, lang, limit):
    figures = ";".join(f"{i % 100},{i // 100}" for i in range(10_000))
    page.goto(base_url + f"{lang}/battlesystem/skirmishers/#ask-formation_ok?figures={figures}&base=1")
    form = panel(page, "formation_ok")
    expect(recap(form)).to_contain_text(limit)
    assert field(form, "figures").locator(".kb-ask__points li").count() < 10
    expect(form.locator(".kb-ask__verdict")).to_have_count(0)


@pytest.mark.parametrize("lang, argument, address", [("en", "styles", "wap/martial-arts/#ask-sequence_ok?styles="),
                                                     ("ru", "styles", "wap/martial-arts/#ask-sequence_ok?styles="),
                                                     ("ru", "sources", "wap/dodge/#ask-dodge_save?arc=front&sources=")])
def test_a_list_nested_five_thousand_deep_in_a_link_is_refused_not_a_blank_panel(page, base_url, lang, argument,
                                                                                  address):
    page.goto(base_url + f"{lang}/" + address + "[" * 5000 + "]" * 5000)
    form = page.locator("form.kb-ask").filter(has=page.locator(".kb-ask__recap:not([hidden])"))
    expect(recap(form)).to_contain_text({"ru": "глубже 50 уровней", "en": "more than 50 levels deep"}[lang])
    expect(form.locator(".kb-ask__verdict")).to_have_count(0)


def test_an_edit_after_a_refused_link_answers_again(page, base_url):
    page.goto(base_url + 'ru/wap/strider/#ask-movement_penalty_applies?strider=["Marsh"]&terrain=marsh')
    form = panel(page, "movement_penalty_applies")
    expect(recap(form)).to_be_visible()
    chip(form, "strider", "болото").click()
    expect(recap(form)).to_be_hidden()
    expect(verdict(form, "movement_penalty_applies")).to_have_text("Без штрафа")


# --- point 3: a link restores exactly what was sent --------------------------------------------------------

EXACT = {"decimal": 17.9999999, "whole": 7, "model": 2, "segments": 2}  # a value of each numeric field kind


def numeric_links() -> list:
    """(page, predicate, link arguments, Python's situation) for every predicate with a numeric field: each decimal
    at 7 decimals (and every coordinate of a point), whole numbers and models as themselves, the rest from the
    predicate's first worked example."""
    assert not _PROBLEMS
    found = []
    for key, rule in sorted(_KB.rules.items()):
        for predicate in rule.predicates:
            first = next((e for e in rule.examples if e.predicate == predicate.name), None)
            if first is None:
                continue
            situation, numeric = dict(first.given), False
            for argument in predicate.args:
                kind = field_of(argument)
                if kind in EXACT and situation.get(argument.name) is not None:
                    low = argument.min if argument.min is not None else 0
                    situation[argument.name] = max(low, EXACT[kind]) if kind != "segments" else argument.max
                    numeric = True
                elif kind in ("point", "size") and situation.get(argument.name) is not None:
                    situation[argument.name] = [v + 0.1234567 for v in situation[argument.name]]
                    numeric = True
                elif kind == "points" and situation.get(argument.name):
                    situation[argument.name] = [[x + 0.1234567, y] for x, y in situation[argument.name]]
                    numeric = True
            if numeric:
                found.append((rule, predicate, situation))
    return found


def link_of(predicate, situation: dict) -> str:
    """The link's query as ask.js writes it (encodeScenario): numbers as JavaScript's String() writes them."""

    def text(argument, value):
        kind = field_of(argument)
        if value is None:
            return ""
        if kind == "yesno":
            return "1" if value else "0"
        if kind in ("point", "size", "dice"):
            return ",".join(map(repr, value))
        if kind == "points":
            return ";".join(",".join(map(repr, p)) for p in value)
        if isinstance(value, list):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return repr(value) if isinstance(value, float) else str(value)

    return urlencode({argument.name: text(argument, situation[argument.name]) for argument in predicate.args})


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_numeric_field_restores_the_links_value_exactly_and_answers_as_python(page, base_url, lang):
    checked = 0
    for rule, predicate, situation in numeric_links():
        page.goto(base_url + f"{lang}/{rule.key}/#ask-{predicate.name}?{link_of(predicate, situation)}")
        page.reload()  # a fragment change alone on the same page is a hashchange: a fresh load is what a friend gets
        state = page.evaluate(f"() => KbAsk.state({predicate.name!r})")
        assert state["given"] is not None, (rule.key, predicate.name, situation)
        restored = {name: state["given"][name] for name in predicate.params}
        # Across JSON (and so in both engines) a whole float is an int: 0.0 in a link is the number 0.
        sent = {name: plain(value) for name, value in situation.items()}
        assert exact_json(restored) == exact_json(sent), (rule.key, predicate.name)
        python = predicate.snippet(**sent)
        # The page hands its result over as a plain JavaScript number, where 0.0 and 0 are one number.
        assert exact_json(state["values"][predicate.name]) == exact_json(plain(json.loads(json.dumps(python)))), \
            (rule.key, predicate.name)
        checked += 1
    assert checked >= 15, checked


@pytest.mark.parametrize("lang, shown, words", [("ru", "17,9999999", "Нельзя"), ("en", "17.9999999", "Not allowed")])
def test_the_reviews_scout_link_keeps_every_digit_and_says_not_allowed(page, base_url, lang, shown, words):
    page.goto(base_url + f"{lang}/t9a/scout/#ask-deploy_ok?in_own_zone=0&enemy_distance=17.9999999&terrain=open")
    form = panel(page, "deploy_ok")
    expect(field(form, "enemy_distance").locator("input")).to_have_value(shown)
    expect(verdict(form)).to_have_text(words)
    expect(recap(form)).to_contain_text(shown)
    deploy_ok = _KB.rules["t9a/scout"].predicate("deploy_ok").snippet
    assert deploy_ok(in_own_zone=False, enemy_distance=17.9999999, terrain="open") is False
    assert not math.isclose(17.9999999, 18, abs_tol=0)


# --- point 7: clarifications speak about the rules; the form's help goes under the field --------------------

@pytest.mark.parametrize("lang, form_words", [("ru", re.compile(r"форм[аеуы]|пол[еяю]\b|впишите", re.I)),
                                              ("en", re.compile(r"\b(ask|the|this) form\b|\bfield\b|\btype (it|one|the)\b", re.I))])
def test_clarifications_of_the_three_rules_speak_about_the_rules_and_fields_carry_the_help(page, base_url, lang,
                                                                                           form_words):
    for key, helped in (("wap/strider", "strider"), ("wap/daemon-of-nurgle", None), ("wap/martial-arts", "styles")):
        page.goto(base_url + f"{lang}/{key}/")
        clarifications = page.locator('[id^="clarification-"]').evaluate_all(
            "nodes => nodes.map(n => n.closest('details, div, section') ? n.closest('details, div, section').innerText : n.innerText)")
        assert clarifications, key
        for text in clarifications:
            assert not form_words.search(text), (key, text)
            assert "`" not in text and '["' not in text, (key, text)
        if helped:
            help_line = page.locator(f'.kb-ask__field[data-arg="{helped}"] .kb-ask__help').first
            expect(help_line).to_be_visible()
            assert "\n" not in help_line.inner_text()
