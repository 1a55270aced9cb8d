"""An answer read at a glance (issue 34, point 5): its colour and icon say whether it is good or bad news for the
unit (the rule's `news`, not true/false), the section bar marks the part in view, and an Ask section with more than
two questions opens with a list of them, each one tap from its form; phone and desktop, both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_ask import answer, panel, verdict

DEVICES = ["phone", "page"]  # a 390 px touch phone, a desktop window (tests/browser/conftest.py)
DAEMONIC = "ask-instability?dice={dice}&leadership={leadership}&lost_by={lost}&stubborn_or_steadfast=0&unbreakable=0"
NEWS_WORDS = {"en": {"good": "Good news for the unit", "bad": "Bad news for the unit"},
              "ru": {"good": "Благоприятно для отряда", "bad": "Неблагоприятно для отряда"}}
COLOURS = """el => ({colour: getComputedStyle(el).color,
    good: getComputedStyle(document.documentElement).getPropertyValue('--kb-yes').trim(),
    bad: getComputedStyle(document.documentElement).getPropertyValue('--kb-no').trim()})"""


def rgb(hex_colour: str) -> str:
    red, green, blue = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def news_shown(form, predicate=None) -> tuple[str, str]:
    """(news by colour, news said by the icon) of the form's answer."""
    strong = verdict(form, predicate)
    seen = strong.evaluate(COLOURS)
    by_colour = {rgb(seen["good"]): "good", rgb(seen["bad"]): "bad"}.get(seen["colour"], "neither")
    return by_colour, strong.locator(".kb-news").get_attribute("aria-label")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_answers_colour_and_icon_follow_its_news_for_the_unit_not_true_or_false(request, base_url, device, lang):
    page = request.getfixturevalue(device)
    words = NEWS_WORDS[lang]
    # Fighting withdrawal's second step: «special combat» is true, and bad news for the withdrawing unit.
    page.goto(f"{base_url}{lang}/battlesystem/fighting-withdrawal/#ask-special_combat?step=2&morale=none")
    form = panel(page, "special_combat")
    expect(verdict(form, "special_combat")).to_be_visible()
    assert news_shown(form, "special_combat") == ("bad", words["bad"])
    assert verdict(form, "special_combat").locator(".kb-news").get_attribute("role") == "img"
    page.goto(f"{base_url}{lang}/battlesystem/fighting-withdrawal/#ask-special_combat?step=1&morale=none")
    page.reload()
    form = panel(page, "special_combat")
    expect(verdict(form, "special_combat")).to_be_visible()
    assert news_shown(form, "special_combat") == ("good", words["good"])  # false, and good news
    # Daemonic Instability: a number of Wounds is bad news, none is good; both read from the declared news.
    page.goto(f"{base_url}{lang}/wap/daemonic/#" + DAEMONIC.format(dice="6,5", leadership=7, lost=3))
    page.reload()
    form = panel(page, "instability")
    expect(verdict(form, "instability")).to_contain_text("7")
    assert news_shown(form, "instability") == ("bad", words["bad"])
    page.goto(f"{base_url}{lang}/wap/daemonic/#" + DAEMONIC.format(dice="2,3", leadership=8, lost=2))
    page.reload()
    form = panel(page, "instability")
    expect(verdict(form, "instability")).to_be_visible()
    assert news_shown(form, "instability") == ("good", words["good"])
    # The icon differs in shape, not only in colour (WCAG 1.4.1): a tick for good news, a cross for bad.
    shapes = page.evaluate("""() => ['good', 'bad', 'neutral'].map(kind => {
        const probe = document.createElement('span'); probe.className = 'kb-news kb-news--' + kind;
        document.body.appendChild(probe); const shape = getComputedStyle(probe, '::before').content; probe.remove();
        return shape; })""")
    assert shapes == ['"✓"', '"✕"', '"–"']


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_worked_examples_colour_their_answers_by_news_too(page, base_url, lang):
    page.goto(f"{base_url}{lang}/wap/strider/")
    answers = page.locator(".kb-example__answer .kb-answer")
    classes = answers.evaluate_all("spans => spans.map(s => s.className)")
    assert classes and all("kb-value--" in c for c in classes), classes
    # «No penalty» (false) is good news; «The penalty applies» (true) bad news.
    good = page.locator(".kb-example__answer .kb-value--good").first
    bad = page.locator(".kb-example__answer .kb-value--bad").first
    expect(good).to_have_text("No penalty" if lang == "en" else "Без штрафа")
    expect(bad).to_have_text("The penalty applies" if lang == "en" else "Штраф действует")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_section_bar_marks_the_part_tapped_and_then_the_part_in_view(request, base_url, device, lang):
    page = request.getfixturevalue(device)
    for rule in ("t9a/scout", "battlesystem/skirmishers"):
        page.goto(f"{base_url}{lang}/{rule}/")
        for part in ("ask", "examples", "clarifications", "rule-text"):
            link = page.locator(f".kb-sections a[href='#{part}']")
            link.tap() if device == "phone" else link.click()
            page.wait_for_function(f"() => location.hash === '#{part}' && new Promise(r => {{ const y = scrollY; "
                                   "requestAnimationFrame(() => requestAnimationFrame(() => r(scrollY === y))); })")
            expect(page.locator(".kb-sections a[aria-current]")).to_have_attribute("href", f"#{part}")
        # Scrolled by the reader, the bar follows what is under it: the worked examples' heading at the top.
        page.mouse.wheel(0, 1)
        page.evaluate("() => { const top = document.getElementById('examples').getBoundingClientRect().top; "
                      "window.scrollBy(0, top - parseFloat(getComputedStyle(document.documentElement)"
                      ".scrollPaddingTop)); }")
        expect(page.locator(".kb-sections a[aria-current]")).to_have_attribute("href", "#examples")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_ask_section_with_more_than_two_questions_lists_them_each_one_tap_from_its_form(request, base_url, device,
                                                                                          lang):
    page = request.getfixturevalue(device)
    page.goto(f"{base_url}{lang}/battlesystem/skirmishers/")
    questions = page.locator("nav.kb-questions a")
    headings = page.locator("h3[id^='predicate-']")
    expect(questions).to_have_count(headings.count())
    assert headings.count() == 7
    assert questions.evaluate_all("links => links.map(a => a.getAttribute('href'))") == \
        headings.evaluate_all("hs => hs.map(h => '#' + h.id)")
    # The list opens the section: right under its introduction, before the first question.
    assert page.evaluate("() => document.querySelector('nav.kb-questions').compareDocumentPosition("
                         "document.querySelector('h3[id^=predicate-]')) & Node.DOCUMENT_POSITION_FOLLOWING")
    sixth = questions.nth(5)
    target = sixth.get_attribute("href")
    sixth.tap() if device == "phone" else sixth.click()
    page.wait_for_function(f"() => location.hash === '{target}'")
    heading = page.locator(target)
    expect(heading).to_be_in_viewport()
    form = page.locator(f"form.kb-ask[aria-labelledby='{target[1:]}']")
    expect(form.locator("input, select").first).to_be_in_viewport()  # its form, with no scroll more
    bar = page.locator(".kb-sections").bounding_box()
    assert bar["y"] + bar["height"] <= heading.bounding_box()["y"]
    # Two questions or fewer: no list.
    page.goto(f"{base_url}{lang}/wap/immunity/")
    expect(page.locator("h3[id^='predicate-']")).to_have_count(2)
    expect(page.locator("nav.kb-questions")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_daemonic_panel_answers_a_heavy_defeat_with_its_arithmetic_on_a_phone(phone, base_url, shot, lang):
    phone.goto(f"{base_url}{lang}/wap/daemonic/#" + DAEMONIC.format(dice="6,5", leadership=7, lost=3))
    form = panel(phone, "instability")
    expect(answer(form, "instability").locator(".kb-ask__reasons li").last).to_contain_text("11 − (7 − 3) = 7")
    expect(answer(form, "instability").locator(".kb-ask__reasons li").nth(-2)).to_contain_text("11 > 7 − 3 = 4")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    answer(form, "instability").scroll_into_view_if_needed()
    shot(form, f"daemonic-{lang}")
