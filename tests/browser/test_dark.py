"""The light and the dark colour scheme (issue 23): the site follows the reader's system until they pick one with
the header's toggle; its own colours, the verdicts, badges and diagrams read in both; and axe-core finds no serious
or critical violation on any page at either size in either scheme."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Guard, _check, _new_page
from .sweep import SIZES, site_pages

TOGGLE = {("en", "light"): "Switch to the dark colour scheme", ("en", "dark"): "Switch to the light colour scheme",
          ("ru", "light"): "Включить тёмную тему", ("ru", "dark"): "Включить светлую тему"}


@pytest.fixture
def schemed(browser, request):
    """A guarded page at (size, scheme) = the test's parameter, one context for the whole test."""
    size, scheme = request.param
    guard = Guard()
    options = {k: v for k, v in SIZES[size].items() if k != "viewport"}
    context, page = _new_page(browser, SIZES[size]["viewport"], guard, color_scheme=scheme, **options)
    yield page
    context.close()
    _check(guard)


def _rgb(text: str) -> tuple[float, ...]:
    return tuple(float(part) for part in re.findall(r"[\d.]+", text)[:3])


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS rgb() colours."""
    def luminance(rgb):
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(_rgb(one)), luminance(_rgb(other))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("schemed, lang", [(("phone", "dark"), "ru"), (("desktop", "light"), "en")],
                         indirect=["schemed"], ids=["ru-phone-dark", "en-desktop-light"])
def test_the_scheme_follows_the_system_until_the_toggle_in_the_pages_language_picks_one(schemed, base_url, lang):
    page = schemed
    page.goto(f"{base_url}{lang}/t9a/scout/")
    system = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'")
    other = "light" if system == "dark" else "dark"
    body = page.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", "slate" if system == "dark" else "default")
    toggle = page.locator("form[data-md-component=palette] label:visible")
    expect(toggle).to_have_attribute("title", TOGGLE[(lang, system)])
    toggle.click()
    expect(body).to_have_attribute("data-md-color-scheme", "slate" if other == "dark" else "default")
    expect(page.locator("form[data-md-component=palette] label:visible")).to_have_attribute("title",
                                                                                          TOGGLE[(lang, other)])
    page.goto(f"{base_url}{lang}/wap/dodge/")  # the choice holds on the next page
    expect(body).to_have_attribute("data-md-color-scheme", "slate" if other == "dark" else "default")
    page.goto(f"{base_url}{'en' if lang == 'ru' else 'ru'}/wap/dodge/")  # and in the other language
    expect(body).to_have_attribute("data-md-color-scheme", "slate" if other == "dark" else "default")


def _colours(page) -> dict:
    """The page's background and the colours the site sets itself, as the browser computes them."""
    return page.evaluate("""() => {
        const style = selector => getComputedStyle(document.querySelector(selector));
        return {
            background: getComputedStyle(document.body).backgroundColor,
            no: style('.kb-value--no').color, yes: style('.kb-value--yes').color,
            bad: style('.kb-value--bad').color, good: style('.kb-value--good').color,
            link: style('.kb-sections a').color, text: getComputedStyle(document.body).color,
            ok_stroke: style('.kb-diagram__svg [style*="stroke:var(--kb-paint-ok"]').stroke,
            bad_fill: style('.kb-diagram__svg [style*="fill:var(--kb-paint-bad"]').fill,
            label: style('.kb-diagram__svg text').fill,
        };
    }""")


def test_verdicts_links_and_diagrams_take_each_schemes_colours_and_read_on_its_background(browser, base_url, shot):
    seen = {}
    for scheme in ("light", "dark"):
        guard = Guard()
        context, page = _new_page(browser, SIZES["phone"]["viewport"], guard, color_scheme=scheme)
        page.goto(base_url + "ru/t9a/scout/")
        figure = page.locator("figure#diagram-forest-at-14")
        figure.locator("xpath=ancestor::details").locator("summary").click()
        figure.scroll_into_view_if_needed()
        shot(figure, f"diagram-{scheme}")
        colours = seen[scheme] = _colours(page)
        for text in ("no", "yes", "bad", "good", "link", "text"):  # text: 4.5:1 (WCAG 1.4.3)
            assert contrast(colours[text], colours["background"]) >= 4.5, (scheme, text, colours)
        for graphic in ("ok_stroke", "bad_fill", "label"):  # parts of a drawing: 3:1 (WCAG 1.4.11)
            assert contrast(colours[graphic], colours["background"]) >= 3, (scheme, graphic, colours)
        context.close()
        _check(guard)
    changed = [key for key in seen["light"] if seen["light"][key] != seen["dark"][key]]
    assert set(changed) == set(seen["light"]), changed  # every one of them follows the scheme


@pytest.mark.parametrize("size, scheme", [("phone", "light"), ("phone", "dark"), ("desktop", "light"),
                                          ("desktop", "dark")], ids=["phone-light", "phone-dark", "desktop-light",
                                                                     "desktop-dark"])
def test_axe_finds_no_serious_or_critical_violation_on_any_page(every_page, size, scheme):
    swept = every_page.at(size, scheme)  # tests/browser/sweep.py: one visit per page for every check at this size
    assert not swept.misbehaved, swept.misbehaved
    found = {path: seen["axe"] for path, seen in swept.pages.items() if seen["axe"]}
    assert not found, found
    assert len(swept.pages) == len(site_pages(every_page.site))


def test_the_root_page_follows_a_dark_system_too(browser, base_url):
    guard = Guard()  # a browser language the site lacks: the root stays, as the reader's choice of language
    context, page = _new_page(browser, SIZES["desktop"]["viewport"], guard, locale="de-DE", color_scheme="dark")
    page.goto(base_url)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    colours = page.evaluate("[getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]")
    assert contrast(*colours) >= 4.5 and _rgb(colours[1])[0] < 80, colours  # light text on a dark page
    context.close()
    _check(guard)
