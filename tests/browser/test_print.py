"""A rule page on paper (issue 23): its text, the answers the reader already has with the situation each answers,
the worked examples as a list and the clarifications; no forms, buttons or navigation; Scout on at most 4 A4 pages."""

from __future__ import annotations

import re

import pytest
from ..languages import LANGUAGES
from playwright.sync_api import expect

A4_PAGES = 4
# What must not reach paper: any control, the header, the sidebars and the section bar, the diagrams and the
# developers' boxes (collapsed on screen, a bar each on paper).
NOT_ON_PAPER = ("input:not([type=hidden]), select, textarea, button, .md-header, .md-sidebar, .md-footer, .kb-sections, "
                "details, nav")
SHOWN = """selector => [...document.querySelectorAll(selector)].filter(element =>
    element.checkVisibility() && element.getBoundingClientRect().height > 0).map(element =>
    element.tagName.toLowerCase() + (element.className && typeof element.className === 'string'
        ? '.' + element.className.trim().split(/\\s+/).join('.') : ''))"""


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", data))


def _printed(page):
    """Switch the page to print media and check what shows; the number of A4 pages it prints on."""
    page.emulate_media(media="print")
    assert page.evaluate(SHOWN, NOT_ON_PAPER) == []
    for part in (".kb-clause__text", ".kb-examples__list", ".kb-clarification"):
        expect(page.locator(part).first).to_be_visible()
    return pdf_pages(page.pdf(format="A4"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scout_page_prints_as_a_rule_on_at_most_four_a4_pages(page, base_url, lang):
    page.goto(f"{base_url}{lang}/t9a/scout/")
    page.wait_for_load_state("load")
    pages = _printed(page)
    assert 1 <= pages <= A4_PAGES, pages
    expect(page.locator("h2#ask")).to_be_hidden()  # nobody asked: the Ask section does not print
    expect(page.locator("form.kb-ask").first).to_be_hidden()


@pytest.mark.parametrize("how", ["typed", "shared link"])
def test_an_answer_the_reader_has_prints_with_its_situation_and_the_unasked_panels_do_not(page, base_url, how):
    if how == "typed":
        page.goto(base_url + "ru/t9a/scout/")
        form = page.locator("form#ask-deploy_ok")
        form.locator("fieldset").first.get_by_label("нет").check()
        form.get_by_label("расстояние до ближайшего").fill("14")
        form.get_by_label("местность, внутри которой").select_option(label="Лес")
    else:
        page.goto(base_url + "ru/t9a/scout/#ask-deploy_ok?in_own_zone=0&enemy_distance=14&terrain=forest")
        form = page.locator("form#ask-deploy_ok")
    expect(form.locator(".kb-ask__output").first).to_contain_text("Можно")
    page.wait_for_load_state("load")
    pages = _printed(page)
    assert pages <= A4_PAGES, pages
    expect(page.locator("h2#ask")).to_be_visible()
    expect(page.locator("h3#predicate-deploy_ok")).to_be_visible()
    expect(form.locator(".kb-ask__output").first).to_contain_text("Можно")
    recap = form.locator(".kb-print-recap")
    expect(recap).to_be_visible()
    for said in ("нет", "14″", "Лес"):
        expect(recap).to_contain_text(said)
    for unasked in ("may_charge", "deploy_order"):
        expect(page.locator(f"h3#predicate-{unasked}")).to_be_hidden()
        expect(page.locator(f"form#ask-{unasked}")).to_be_hidden()
