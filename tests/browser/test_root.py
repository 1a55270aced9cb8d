"""The site root: sends readers to their language, remembers it, and is plain links without JavaScript."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, Guard, _check, _new_page
from ..languages import LACKING, LANGUAGES


@pytest.fixture
def reader(browser):
    """open(locale, javascript=True) -> a guarded page whose browser prefers `locale`."""
    opened = []

    def open_page(locale: str, javascript: bool = True):
        guard = Guard()
        context, page = _new_page(browser, DESKTOP, guard, locale=locale, java_script_enabled=javascript)
        opened.append((context, guard))
        return page

    yield open_page
    for context, guard in opened:
        context.close()
        _check(guard)


@pytest.mark.parametrize("locale, lang", [("ru-RU", "ru"), ("en-GB", "en")])
def test_the_root_sends_a_first_time_reader_to_their_browsers_language(reader, base_url, locale, lang):
    page = reader(locale)
    page.goto(base_url)
    page.wait_for_url(f"{base_url}{lang}/")
    assert page.locator("html").get_attribute("lang") == lang


def test_the_root_remembers_the_language_last_read_over_the_browsers(reader, base_url):
    page = reader("en-US")
    page.goto(base_url + "ru/t9a/scout/")
    page.goto(base_url)
    page.wait_for_url(base_url + "ru/")


def test_a_browser_language_the_site_lacks_leaves_the_choice_to_the_reader(reader, base_url):
    page = reader(LACKING)
    page.goto(base_url)
    page.wait_for_load_state("load")
    assert page.url == base_url
    page.get_by_role("link", name="Русский").click()
    page.wait_for_url(base_url + "ru/")


def test_without_javascript_the_root_is_a_styled_list_of_language_links(reader, base_url):
    page = reader("ru-RU", javascript=False)
    page.goto(base_url)
    assert page.url == base_url
    hrefs = page.locator("article a[hreflang]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs == [f"{lang}/" for lang in LANGUAGES]
    header = page.locator(".md-header")
    assert header.is_visible() and header.evaluate("e => getComputedStyle(e).position") in ("sticky", "fixed")
