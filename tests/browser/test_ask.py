"""The "Ask this rule" panel: forms from declared types, answers in the page's words, shared links,
copied worked examples, the geometry board by keyboard and mouse, and accessibility (axe-core)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.conftest import run_generator

from .test_search import search
from ..languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SERIOUS = ("serious", "critical")  # axe impacts that fail the test


def panel(page, predicate: str):
    """The form that asks `predicate` (alone, or with the predicates of its rule that share its arguments)."""
    return page.locator(f'form.kb-ask[data-predicates~="{predicate}"]')


def answer(form, predicate: str | None = None):
    """The answer of one predicate of the form (its only one, if not named)."""
    return form.locator(".kb-ask__result" + (f'[data-predicate="{predicate}"]' if predicate else "")).first


def field(form, argument: str):
    return form.locator(f'.kb-ask__field[data-arg="{argument}"]')


def verdict(form, predicate: str | None = None):
    return answer(form, predicate).locator(".kb-ask__verdict strong")


def roll(form, first: int, second: int):
    """Tap the two dice's faces, as a player does (one row of 1–6 buttons per die)."""
    dice = field(form, "dice").locator(".kb-ask__die")
    for index, face in enumerate((first, second)):
        dice.nth(index).locator(f'input[value="{face}"]').check()


def ask_scout_placement(page, base_url, distance: str, terrain: str):
    """The Russian Scout page's deploy_ok panel, outside the own zone, at a distance typed as written."""
    page.goto(base_url + "ru/t9a/scout/")
    form = panel(page, "deploy_ok")
    field(form, "in_own_zone").get_by_label("нет").check()
    field(form, "enemy_distance").locator("input").fill(distance)
    field(form, "terrain").locator("select").select_option(label=terrain)
    return form


def rule_pages() -> list[str]:
    """Every rule page with predicates, in both languages."""
    from generator.kb.load import load

    kb, problems = load(ROOT)
    assert not problems
    return [f"{lang}/{rule.key}/" for rule in sorted(kb.rules.values(), key=lambda r: r.key) if rule.predicates
            for lang in LANGUAGES]


# What each panel of a page shows, read in one call (about a hundred panels: one call per panel and check took a third
# of the test): its verdicts and how many are visible (as Playwright sees it: a box, not visibility:hidden), its
# errors, and where its example links point.
PANEL_STATES = """forms => forms.map(form => {
    const shown = element => { const box = element.getBoundingClientRect();
        return getComputedStyle(element).visibility !== "hidden" && box.width > 0 && box.height > 0; };
    const verdicts = [...form.querySelectorAll(".kb-ask__answer .kb-ask__verdict strong")];
    return {predicates: form.dataset.predicates.split(" ").length, verdicts: verdicts.length,
            visible: verdicts.filter(shown).length, errors: form.querySelectorAll(".kb-ask__answer .kb-ask__error").length,
            decided: form.querySelectorAll(".kb-ask__answer .kb-ask__clause a[href^='#']").length};
})"""
EVERY_PANEL_ANSWERED = """() => [...document.querySelectorAll("form.kb-ask")].every(
    form => form.querySelector(".kb-ask__answer .kb-ask__verdict strong"))"""


def test_every_predicate_on_every_rule_page_answers_with_the_clause_that_decides(page, base_url):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for path in rule_pages():
        page.goto(base_url + path)
        try:
            page.wait_for_function(EVERY_PANEL_ANSWERED)  # ask.js answers once the page has loaded
        except PlaywrightTimeout:
            pass  # the assertions below name the panels without an answer
        states = page.locator("form.kb-ask").evaluate_all(PANEL_STATES)
        assert len(states) == page.locator("h3[id^=predicate-]").count() > 0, path
        for index, state in enumerate(states):
            # A visible verdict per predicate of the form, each naming the clause that decided it, and no error.
            count = state["predicates"]
            assert (state["verdicts"], state["visible"], state["decided"], state["errors"]) == (count, count, count, 0), \
                f"{path} #{index}: {state}"


def test_yes_no_inches_with_a_decimal_comma_and_a_labelled_choice(page, base_url, shot):
    form = ask_scout_placement(page, base_url, "11,9", "Лес")
    expect(verdict(form)).to_have_text("Нельзя")  # the rule's declared answer, not "такое размещение разрешено: нет"
    expect(answer(form).locator(".kb-ask__meaning")).to_have_count(0)
    expect(answer(form).locator(".kb-ask__clause a")).to_have_text("§4")
    field(form, "enemy_distance").locator("input").fill("12")
    expect(verdict(form)).to_have_text("Можно")
    # The clarifications of the deciding clause are listed by their question, and link to it.
    expect(answer(form).locator(".kb-ask__clarifications a[href='#clarification-terrain-types']")).to_have_text(
        "Какая местность даёт сокращение до 12″?")
    field(form, "terrain").locator("select").select_option(label="открытая местность")
    expect(verdict(form)).to_have_text("Нельзя")
    expect(answer(form).locator(".kb-ask__clause a")).to_have_text("§3")
    shot(form)


def test_whole_numbers_refuse_a_fraction_with_a_message_in_the_page_language(page, base_url):
    page.goto(base_url + "ru/t9a/scout/")
    form = panel(page, "may_charge")
    turn = field(form, "player_turn").locator("input")
    turn.fill("1,5")
    expect(field(form, "player_turn").locator(".kb-ask__problem")).to_have_text("Введите целое число.")
    expect(turn).to_have_attribute("aria-invalid", "true")
    expect(verdict(form)).to_have_count(0)
    turn.fill("3")
    expect(verdict(form)).to_have_text("Запрет не действует")


def test_a_choice_result_reads_as_its_declared_answer(page, base_url):
    page.goto(base_url + "en/battlesystem/fighting-withdrawal/")
    form = panel(page, "movement")
    field(form, "step").get_by_label("2").check()
    field(form, "morale").locator("select").select_option(label="rout")
    expect(verdict(form, "movement")).to_have_text("Routs")
    page.goto(base_url + "ru/battlesystem/fighting-withdrawal/")
    form = panel(page, "movement")
    field(form, "step").get_by_label("2").check()
    field(form, "morale").locator("select").select_option(label="паническое бегство")
    expect(verdict(form, "movement")).to_have_text("Обращается в паническое бегство")


def test_a_counted_answer_takes_the_russian_plural_form_of_its_number(page, base_url, shot):
    page.goto(base_url + "ru/wap/daemonic/")
    form = panel(page, "instability")
    roll(form, 4, 3)
    field(form, "leadership").locator("input").fill("8")
    field(form, "stubborn_or_steadfast").get_by_label("нет").check()
    field(form, "unbreakable").get_by_label("нет").check()
    lost_by = field(form, "lost_by").locator("input")
    for lost, words in (("2", "1 дополнительная Рана"), ("3", "2 дополнительные Раны"), ("6", "5 дополнительных Ран"),
                        ("0", "Дополнительных Ран нет")):
        lost_by.fill(lost)
        expect(verdict(form, "instability")).to_have_text(words)
        if lost == "3":
            shot(form)
    roll(form, 6, 6)
    expect(verdict(form, "instability")).to_have_text("Отряд изгнан")


def test_a_modifier_reads_as_a_signed_number_with_its_words(page, base_url):
    page.goto(base_url + "ru/t9a/light-infantry/")
    form = panel(page, "to_hit_modifier")
    models = field(form, "light_infantry_models").locator("input")
    models.fill("3")
    expect(verdict(form)).to_have_text("−1 к попаданию")
    models.fill("0")
    expect(verdict(form)).to_have_text("Без модификатора")
    # The worked examples' one-line answers use the same words, built in Python.
    expect(page.locator("#example-full-unit-minus-one .kb-example__answer")).to_have_text("→ −1 к попаданию")


def test_a_closed_set_of_terrain_is_a_list_of_labelled_options(page, base_url, shot):
    page.goto(base_url + "ru/wap/strider/")
    form = panel(page, "combat_as_open")
    terrain = field(form, "terrain").locator("select")
    terrain.select_option(label="открытая местность")
    expect(verdict(form, "combat_as_open")).to_have_text("Сражается как на открытой местности")
    terrain.select_option(label="лес")
    expect(terrain).to_have_value("forest")  # the code stays the value (URLs, scenario files)
    expect(verdict(form, "combat_as_open")).to_have_text("Сражается по правилам местности")
    shot(form)


def test_a_list_result_reads_as_its_items_in_the_declared_answer(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    form = panel(page, "deploy_order")
    # The first worked example's answer, written in Python on the page and by ask.js in the panel alike.
    expect(verdict(form)).to_have_text(re.compile(r"^Deployment order: ([AB], )*[AB]$"))
    first = form.get_attribute("data-kb-ask")
    assert '"pattern"' in first
    example = page.locator(".kb-example__answer").filter(has_text="Deployment order").first
    expect(example).to_have_text(re.compile(r"^→ Deployment order: ([AB], )*[AB]$"))


def test_two_dice_are_two_rows_of_tap_buttons_one_to_six(page, base_url):
    page.goto(base_url + "en/wap/daemonic/")
    form = panel(page, "instability")
    dice = field(form, "dice").locator(".kb-ask__die")
    assert dice.count() == 2 and dice.nth(0).locator("input[type=radio]").count() == 6
    roll(form, 1, 1)
    expect(verdict(form, "instability")).not_to_be_empty()
    first = answer(form, "instability").inner_text()
    roll(form, 6, 6)
    expect(answer(form, "instability")).not_to_have_text(first)
    assert field(form, "dice").locator("select").count() == 0


def test_base_size_in_millimetres_and_an_angle_in_degrees(page, base_url):
    page.goto(base_url + "en/t9a/light-infantry/")
    form = panel(page, "mismatching_base")
    sizes = form.locator('.kb-ask__field[data-arg="character_base"] input')
    assert sizes.count() == 2
    expect(verdict(form)).not_to_be_empty()
    page.goto(base_url + "en/battlesystem/skirmishers/")
    form = panel(page, "withdraw_angle_ok")
    angle = field(form, "angle").locator("input")
    angle.fill("45")
    expect(verdict(form)).to_have_text("Allowed")
    angle.fill("46")
    expect(verdict(form)).to_have_text("Not allowed")


def test_no_field_of_any_rule_asks_for_json_an_id_or_code(page, base_url):
    """Every panel of every rule page, both languages: no field is a JSON text box, no label or help shows a code
    span, brackets of a list or an id with hyphens."""
    for address in rule_pages():
        page.goto(base_url + address)
        fields = page.locator(".kb-ask__field")
        assert page.locator('.kb-ask__field[data-field="list"]').count() == 0, address
        for text in fields.evaluate_all("nodes => nodes.map(n => (n.querySelector('legend, label') || n).textContent + "
                                        "' ' + ((n.querySelector('.kb-ask__help') || {}).textContent || ''))"):
            assert not re.search(r'[\[\]`"]|daemons-of-|\bstyle-[a-c]\b|\(list\)|\(списком\)', text), (address, text)


def _coordinates(form, argument: str) -> list[list[str]]:
    rows = form.locator(f'.kb-ask__field[data-arg="{argument}"] .kb-ask__points li')
    return [rows.nth(i).locator("input").evaluate_all("inputs => inputs.map(i => i.value)") for i in range(rows.count())]


def test_the_board_moves_a_focused_model_with_the_arrow_keys(page, base_url, shot):
    page.goto(base_url + "en/t9a/light-infantry/")
    form = panel(page, "anchor_candidates")
    before = answer(form).inner_text()
    enemy = form.locator(".kb-ask__model--1")
    enemy.focus()
    start = _coordinates(form, "enemy")[0]
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowUp")
    moved = _coordinates(form, "enemy")[0]
    assert float(moved[0]) == pytest.approx(float(start[0]) + 4) and float(moved[1]) == pytest.approx(float(start[1]) + 0.1)
    expect(form.locator(".kb-ask__moved")).to_contain_text(moved[0])
    expect(answer(form)).not_to_have_text(before)  # the nearest model is now another one
    # Focus stays on the model being moved, so the keys keep working.
    assert page.evaluate("document.activeElement.classList.contains('kb-ask__model--1')")
    shot(form)


def test_the_board_drags_a_model_with_the_mouse(page, base_url, shot):
    page.goto(base_url + "en/battlesystem/skirmishers/")
    form = panel(page, "formation_ok")
    figure = form.locator(".kb-ask__model--0").first
    figure.scroll_into_view_if_needed()
    before = _coordinates(form, "figures")[0]
    box = figure.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 120, box["y"] + 60, steps=6)
    page.mouse.up()
    after = _coordinates(form, "figures")[0]
    assert after != before
    # A figure dragged far from the others breaks the chain.
    expect(verdict(form)).to_have_text("Not legal")
    shot(form)


def test_typed_coordinates_are_the_accessible_way_to_place_a_model(page, base_url):
    page.goto(base_url + "en/battlesystem/skirmishers/")
    form = panel(page, "formation_ok")
    x = form.get_by_label("Model 2: x")  # models are counted from 1, as the answers count them
    x.fill("40")
    expect(verdict(form)).to_have_text("Not legal")
    circle = form.locator(".kb-ask__model--0").nth(1)
    expect(circle).to_have_attribute("aria-label", re.compile("Model 2"))


def copied(page, form, button: str, said: str) -> str:
    """What a copy button put on the clipboard, once the form has said so."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    form.locator(button).click()
    expect(form.locator(".kb-ask__status")).to_have_text(said)
    return page.evaluate("navigator.clipboard.readText()")


def test_a_shared_link_restores_the_question_in_the_other_language(browser, page, base_url, shot):
    form = ask_scout_placement(page, base_url, "13", "Лес")
    expect(verdict(form)).to_have_text("Можно")
    link = copied(page, form, ".kb-ask__share", "Ссылка скопирована")
    assert link.endswith("#ask-deploy_ok?in_own_zone=0&enemy_distance=13&terrain=forest"), link
    assert page.url == link  # the address bar carries the scenario as the reader types
    english = link.replace("/ru/", "/en/")
    context = browser.new_context()
    fresh = context.new_page()
    fresh.goto(english)
    form = panel(fresh, "deploy_ok")
    expect(verdict(form)).to_have_text("Allowed")
    expect(answer(form).locator(".kb-ask__clause")).to_have_text("Decided by §4")
    expect(field(form, "terrain").locator("select")).to_have_value("forest")
    expect(field(form, "enemy_distance").locator("input")).to_have_value("13")
    shot(form)
    context.close()


def test_copy_as_a_worked_example_gives_a_scenario_that_generator_check_accepts(page, base_url, tmp_path):
    form = ask_scout_placement(page, base_url, "17,9", "открытая местность")
    expect(verdict(form)).to_have_text("Нельзя")
    scenario = copied(page, form, ".kb-ask__yaml", "Скопировано")
    assert "predicate: deploy_ok" in scenario and "expect: false" in scenario and "17.9" in scenario
    path = tmp_path / "question.yaml"
    path.write_text(scenario, encoding="utf-8")
    done = run_generator(ROOT, "check", path)
    assert done.returncode == 0, done.stdout + done.stderr
    # And a wrong answer in the same file is caught: the check is real.
    path.write_text(scenario.replace("expect: false", "expect: true"), encoding="utf-8")
    done = run_generator(ROOT, "check", path)
    assert done.returncode != 0


def test_a_copied_worked_example_keeps_line_separators_in_a_text_exactly(page, base_url, tmp_path):
    # YAML reads a raw NEL, LINE or PARAGRAPH SEPARATOR in a quoted string as a space or a line break
    # (security review N14): the copy escapes them, so the scenario asks what the form asked.
    typed = "Plague\u0085Toads\u2028of\u2029Chaos"
    page.goto(base_url + "en/wap/martial-arts/")
    form = panel(page, "may_choose")
    field(form, "previous").locator("input").fill("Toads")
    field(form, "style").locator("input").fill(typed)
    expect(verdict(form, "may_choose")).to_have_text("Allowed")
    scenario = copied(page, form, ".kb-ask__yaml", "Copied")
    [question] = yaml.safe_load(scenario)
    assert question["given"]["style"] == typed
    path = tmp_path / "question.yaml"
    path.write_text(scenario, encoding="utf-8")
    done = run_generator(ROOT, "check", path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_panel_works_by_keyboard_alone_with_labelled_fields(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    form = panel(page, "deploy_ok")
    unlabelled = form.locator("input, select, button").evaluate_all("""controls => controls.filter(c =>
        !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !(c.tagName === 'BUTTON' && c.textContent.trim())
    ).map(c => c.outerHTML)""")
    assert not unlabelled, unlabelled
    form.locator("input[type=radio]:checked").first.focus()
    # From the first field, Tab reaches the distance, then the terrain; keys alone change the answer.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.kb-ask__field').dataset.arg") == "enemy_distance"
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.kb-ask__field').dataset.arg") == "terrain"
    page.keyboard.press("ArrowDown")
    expect(verdict(form)).not_to_be_empty()


def _serious(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in SERIOUS]


@pytest.mark.parametrize("path", ["ru/t9a/scout/", "en/t9a/light-infantry/", ""], ids=["rule-ru", "rule-board-en", "root"])
def test_axe_finds_no_serious_or_critical_violation(page, base_url, path):
    page.goto(base_url + path)
    page.wait_for_load_state("load")
    assert not _serious(page)


def test_axe_finds_no_serious_or_critical_violation_in_search_results(page, base_url):
    page.goto(base_url + "ru/")
    search(page, "разведчика")
    assert not _serious(page)
