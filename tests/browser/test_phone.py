"""Every page on a phone (390×844) and a desktop (1280×800), both languages (issue 23): one tap to any part of a
rule page, the drawer's table of contents, targets of at least 24×24 px, a visible focus ring, nothing over a
field, and no page wider than the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Guard, _check, _new_page
from .sweep import PHONE_WIDTH, SECTIONS, SIZES, bar_stuck_under_header, rules, site_pages
from ..languages import LANGUAGES

@pytest.fixture
def sized(browser, request):
    """A guarded page at the size named by the test's parameter, one context for the whole test."""
    guard = Guard()
    context, page = _new_page(browser, SIZES[request.param]["viewport"], guard,
                              **{k: v for k, v in SIZES[request.param].items() if k != "viewport"})
    yield page
    context.close()
    _check(guard)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_rule_page_has_a_section_bar_naming_its_parts_and_one_tap_on_ask_shows_the_first_field(every_page, size):
    swept = every_page.at(size, "light")  # tests/browser/sweep.py: one visit per page for every check at this size
    assert not swept.misbehaved, swept.misbehaved
    checked = {path for path, found in swept.pages.items() if "sections" in found}
    assert checked == {f"{lang}/{rule.key}/" for rule in rules() for lang in LANGUAGES}, checked
    problems = {path: found["sections"] for path, found in swept.pages.items() if found.get("sections")}
    assert not problems, problems


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_on_every_page_controls_are_24_px_focus_shows_nothing_covers_a_field_and_nothing_overflows(every_page, size):
    swept = every_page.at(size, "light")
    assert not swept.misbehaved, swept.misbehaved
    width = SIZES[size]["viewport"]["width"]
    problems, focused = {}, 0
    for path, found in swept.pages.items():
        controls = found["controls"]
        focused += controls["focused"]
        wrong = {key: controls[key] for key in ("small", "unringed", "covered", "backToTop") if controls[key]}
        if controls["width"] > width:
            wrong["width"] = controls["width"]
        if wrong:
            problems[path] = wrong
    assert not problems, problems
    assert focused > 1000, focused  # the sweep reached the pages' controls
    assert "" in swept.pages and len(swept.pages) == len(site_pages(every_page.site))


@pytest.mark.parametrize("sized", ["phone"], indirect=True)
def test_the_section_bar_stays_under_the_header_all_the_way_down_the_russian_scout_page(sized, base_url, shot):
    page = sized
    page.goto(base_url + "ru/t9a/scout/")
    shot(page, "scout-top")
    for part in ("examples", "clarifications"):
        page.locator(f"#{part}").scroll_into_view_if_needed()
        page.mouse.wheel(0, 400)
        bar = bar_stuck_under_header(page)
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
    bar, heading = bar_stuck_under_header(page), page.locator("h2#clarifications").bounding_box()
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
