"""Every page on a phone (390×844) and a desktop (1280×800), both languages (issue 23): one tap to any part of a
rule page, the drawer's table of contents, targets of at least 24×24 px, a visible focus ring, nothing over a
field, and no page wider than the phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import Guard, _check, _new_page
from ..languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
PHONE_WIDTH = 390
SIZES = {
    "phone": {"viewport": {"width": PHONE_WIDTH, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
HEADER = 48  # Material's header, 2.4rem
SECTIONS = {"en": {"rule-text": "Text", "ask": "Ask", "examples": "Examples", "clarifications": "Clarifications"},
            "ru": {"rule-text": "Текст", "ask": "Спросить", "examples": "Примеры", "clarifications": "Разъяснения"}}
# What a reader operates (WCAG 2.2, 2.5.8 exempts links inside running text): form controls, buttons, the labels
# of radios and checkboxes, the header's buttons, the clause numbers (they copy the clause's link), the section
# bar's links and the board's models.
CONTROLS = ("input:not([type=hidden]), select, textarea, button, summary, [role=button], label.md-header__button, "
            "label:has(> input[type=radio]), label:has(> input[type=checkbox]), a.kb-clause__anchor, .kb-sections a, "
            ".kb-ask [tabindex]")
FOCUSABLE = ("a[href], button, input:not([type=hidden]), select, textarea, summary, label[tabindex='0'], "
             "[tabindex]:not([tabindex='-1'])")

# One call per page: controls under 24 px, focusable elements without a visible ring once focused, form fields
# that something else covers once focused (the browser scrolls each into view), and the page's width.
SWEEP = """([controls, focusable]) => {
    const shown = element => element.checkVisibility({visibilityProperty: true, opacityProperty: true})
        && element.getBoundingClientRect().width > 0 && element.getBoundingClientRect().height > 0;
    const name = element => `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}` +
        `${element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).join('.') : ''}`;
    const small = [...document.querySelectorAll(controls)].filter(shown).filter(element => {
        const box = element.getBoundingClientRect();
        return box.width < 23.99 || box.height < 23.99;
    }).map(element => { const box = element.getBoundingClientRect();
        return `${name(element)} ${box.width.toFixed(1)}×${box.height.toFixed(1)}`; });
    const unringed = [], covered = [];
    let focused = 0;
    for (const element of document.querySelectorAll(focusable)) {
        if (element.disabled || element.closest('[inert], details:not([open]) > :not(summary)')) continue;
        const field = element.matches('input, select, textarea');
        element.focus({preventScroll: !field});  // a field is scrolled to, as Tab would: is it then in the clear?
        if (document.activeElement !== element) continue;
        // A visually hidden option (Material's colour scheme radios) shows its focus on the label after it.
        const seen = shown(element) ? element
            : element.nextElementSibling && element.nextElementSibling.tagName === 'LABEL'
              && shown(element.nextElementSibling) ? element.nextElementSibling : null;
        if (!seen) continue;
        focused += 1;
        const style = getComputedStyle(seen);
        const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1.5
            || style.boxShadow !== 'none';
        if (!element.matches(':focus-visible') || !ring) unringed.push(name(element));
        if (field && seen === element) {
            const box = element.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const top = document.elementFromPoint(x, y);
            if (y > 0 && y < innerHeight && x > 0 && x < innerWidth && top && top !== element
                && !element.contains(top) && !(element.labels && [...element.labels].some(l => l.contains(top))))
                covered.push(`${name(element)} under ${name(top)}`);
        }
    }
    return {small, unringed, covered, focused, width: document.documentElement.scrollWidth,
            backToTop: document.querySelectorAll('.md-top').length};
}"""


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as a path below its address: the root, both languages' pages and 404s."""
    found = [""]
    for lang in LANGUAGES:
        found += sorted(f"{path.parent.relative_to(site).as_posix()}/" for path in (site / lang).rglob("index.html")
                        if "api" not in path.relative_to(site).parts)
        found.append(f"{lang}/404.html")
    return found


def rules():
    from generator.kb.load import load

    kb, problems = load(ROOT)
    assert not problems
    return sorted(kb.rules.values(), key=lambda rule: rule.key)


@pytest.fixture
def sized(browser, request):
    """A guarded page at the size named by the test's parameter, one context for the whole test."""
    guard = Guard()
    context, page = _new_page(browser, SIZES[request.param]["viewport"], guard,
                              **{k: v for k, v in SIZES[request.param].items() if k != "viewport"})
    yield page
    context.close()
    _check(guard)


def _bar_stuck_under_header(page) -> dict:
    return page.evaluate("""() => { const bar = document.querySelector('.kb-sections').getBoundingClientRect();
        const header = document.querySelector('.md-header').getBoundingClientRect();
        return {top: bar.top, bottom: bar.bottom, header: header.bottom}; }""")


@pytest.mark.parametrize("sized", ["phone", "desktop"], indirect=True)
def test_every_rule_page_has_a_section_bar_naming_its_parts_and_one_tap_on_ask_shows_the_first_field(sized, base_url):
    tap = sized.viewport_size["width"] == PHONE_WIDTH  # a finger on the phone, the mouse on the desktop
    height = sized.viewport_size["height"]
    for rule in rules():
        wanted = ["rule-text"] + ["ask"] * bool(rule.predicates) + ["examples"] * bool(rule.examples) + \
            ["clarifications"] * bool(rule.clarifications)
        for lang in LANGUAGES:
            sized.goto(f"{base_url}{lang}/{rule.key}/")
            links = sized.locator(".kb-sections a").evaluate_all(
                "links => links.map(a => [a.getAttribute('href').slice(1), a.textContent.trim()])")
            assert links == [[part, SECTIONS[lang][part]] for part in wanted], (rule.key, lang, links)
            present = sized.evaluate("ids => ids.filter(id => document.getElementById(id))", wanted)
            assert present == wanted, (rule.key, lang, present)
            if not rule.predicates:
                continue
            ask = sized.locator(".kb-sections a[href='#ask']")
            ask.tap() if tap else ask.click()
            field = sized.locator("form.kb-ask").first.locator("input:not([type=hidden]), select").first
            sized.wait_for_function("() => location.hash === '#ask' && new Promise(r => { const y = scrollY; "
                                    "requestAnimationFrame(() => r(scrollY === y)); })")  # the jump has settled
            bar = _bar_stuck_under_header(sized)
            heading, box = sized.locator("h2#ask").bounding_box(), field.bounding_box()
            assert abs(bar["top"] - bar["header"]) <= 1, (rule.key, lang, bar)  # stuck under the header
            assert bar["bottom"] <= heading["y"], (rule.key, lang, bar, heading)  # the part's title is not under it
            assert bar["bottom"] <= box["y"] and box["y"] + box["height"] <= height, (rule.key, lang, bar, box)


@pytest.mark.parametrize("sized", ["phone"], indirect=True)
def test_the_section_bar_stays_under_the_header_all_the_way_down_the_russian_scout_page(sized, base_url, shot):
    page = sized
    page.goto(base_url + "ru/t9a/scout/")
    shot(page, "scout-top")
    for part in ("examples", "clarifications"):
        page.locator(f"#{part}").scroll_into_view_if_needed()
        page.mouse.wheel(0, 400)
        bar = _bar_stuck_under_header(page)
        assert abs(bar["top"] - bar["header"]) <= 1, (part, bar)
        expect(page.locator(".kb-sections a[aria-current]")).to_have_text(SECTIONS["ru"][part])
    shot(page, "scout-section-bar-scrolled")
    page.locator(".kb-sections a[href='#rule-text']").tap()
    expect(page.locator(".kb-clause").first).to_be_in_viewport()
    # On a narrower phone the bar takes two lines, and a tapped part still lands below it.
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(base_url + "ru/t9a/scout/")
    page.locator(".kb-sections a[href='#clarifications']").tap()
    page.wait_for_function("() => location.hash === '#clarifications'")
    bar, heading = _bar_stuck_under_header(page), page.locator("h2#clarifications").bounding_box()
    assert bar["bottom"] - bar["top"] > 50, bar  # two lines
    assert bar["bottom"] <= heading["y"] <= 640, (bar, heading)


@pytest.mark.parametrize("sized", ["phone"], indirect=True)
def test_the_phone_drawer_opens_on_the_pages_contents_and_leads_back_to_its_systems_rules(sized, base_url, shot):
    sized.goto(base_url + "ru/t9a/scout/")
    sized.locator("label.md-header__button[for=__drawer]").tap()
    drawer = sized.locator(".md-sidebar--primary")
    contents = drawer.locator("nav.md-nav--secondary a.md-nav__link", has_text="Задать вопрос правилу")
    expect(contents).to_be_in_viewport()
    shot(sized, "drawer-contents")
    contents.tap()
    sized.wait_for_url(re.compile("#ask$"))
    expect(sized.locator("h2#ask")).to_be_in_viewport()
    sized.locator("label.md-header__button[for=__drawer]").tap()
    drawer.locator("nav.md-nav--secondary > label.md-nav__title").tap()  # back: the page's system
    sibling = drawer.locator("a.md-nav__link", has_text="Лёгкая пехота")
    expect(sibling).to_be_in_viewport()
    expect(drawer.locator("a.md-nav__link--active").first).to_contain_text("Разведчик")
    sibling.tap()
    sized.wait_for_url(re.compile("/ru/t9a/light-infantry/$"))


@pytest.mark.parametrize("sized", ["desktop"], indirect=True)
def test_on_a_desktop_the_navigation_lists_the_pages_system_with_its_rules(sized, base_url):
    sized.goto(base_url + "en/wap/dodge/")
    nav = sized.locator(".md-sidebar--primary")
    active = nav.locator("a.md-nav__link--active").first
    expect(active).to_contain_text("Dodge")
    expect(active).to_be_visible()
    expect(nav.locator("a.md-nav__link", has_text="Strider")).to_be_visible()  # same system
    expect(nav.locator("a.md-nav__link", has_text="Scout")).to_have_count(0)  # another system's rule: pruned


@pytest.mark.parametrize("sized", ["phone", "desktop"], indirect=True)
def test_on_every_page_controls_are_24_px_focus_shows_nothing_covers_a_field_and_nothing_overflows(
        sized, base_url, clean_build):
    width = sized.viewport_size["width"]
    problems, focused = {}, 0
    for path in site_pages(clean_build[1]):
        sized.goto(base_url + path)
        sized.keyboard.press("Tab")  # the reader uses the keyboard: programmatic focus shows as :focus-visible
        found = sized.evaluate(SWEEP, [CONTROLS, FOCUSABLE])
        focused += found["focused"]
        wrong = {key: found[key] for key in ("small", "unringed", "covered", "backToTop") if found[key]}
        if found["width"] > width:
            wrong["width"] = found["width"]
        if wrong:
            problems[path] = wrong
    assert not problems, problems
    assert focused > 1000, focused  # the sweep reached the pages' controls


@pytest.mark.parametrize("sized", ["phone"], indirect=True)
def test_the_widest_table_scrolls_in_its_own_box_and_the_page_does_not_at_390_px(sized, base_url, shot):
    page = sized
    page.goto(base_url + "ru/concepts/loose-formation/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    box = page.locator(".kb-scroll")
    sizes = box.evaluate("b => ({scroll: b.scrollWidth, client: b.clientWidth})")
    assert sizes["scroll"] > sizes["client"], sizes  # the table is wider than the column: its box scrolls
    box.scroll_into_view_if_needed()
    shot(page, "loose-formation")
    label = page.locator(".kb-compare tbody th").first
    left = label.bounding_box()["x"]
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert abs(label.bounding_box()["x"] - left) <= 1  # the row's name stays in view beside the scrolled cells
    shot(page, "loose-formation-scrolled")
