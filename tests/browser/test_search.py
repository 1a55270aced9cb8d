"""Pagefind search in the header: the page's language only, inflected Russian, aliases, highlighting."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from playwright.sync_api import expect

from .conftest import served_site

RESULT_LINKS = ".pagefind-ui__result-inner > .pagefind-ui__result-title > .pagefind-ui__result-link"


def _every_listed_result_shown(page):
    # Results arrive one by one: wait until every listed result has its link.
    page.wait_for_function("""() => {
        const items = document.querySelectorAll('.pagefind-ui__results > li');
        return items.length > 0 && [...items].every(li => li.querySelector('.pagefind-ui__result-title a'));
    }""")


def search(page, query: str, every_page: bool = False) -> list[str]:
    """Type a query into the header search box; the paths of the results listed (with `every_page`, of all
    of them, "Load more" pressed until it is gone), best first."""
    box = page.locator(".kb-search input")
    if not box.is_visible():
        page.locator(".kb-search__toggle").click()
    expect(box).to_be_visible()
    box.fill(query)
    expect(page.locator(".pagefind-ui__message")).to_contain_text(query)
    _every_listed_result_shown(page)
    more = page.locator(".pagefind-ui__button")
    while every_page and more.count():
        more.click()
        _every_listed_result_shown(page)
    hrefs = page.locator(RESULT_LINKS).evaluate_all("links => links.map(a => a.getAttribute('href'))")
    return [unquote(urlparse(href).path) for href in hrefs]


@pytest.mark.parametrize("query, expected", [
    ("разведчика", "/ru/t9a/scout/"),
    ("лёгкой пехоты", "/ru/t9a/light-infantry/"),
], ids=["scout-genitive", "light-infantry-genitive-yo"])
def test_inflected_russian_query_finds_the_rule_and_only_russian_pages(page, guard, base_url, shot, query, expected):
    page.goto(base_url + "ru/")
    results = search(page, query)
    shot(page)
    assert results, f"no results for {query!r}"
    assert results[0] == expected, f"{query!r}: expected {expected} first, got {results}"
    english = [path for path in results if not path.startswith("/ru/")]
    assert not english, f"{query!r} on the Russian site returned pages of another language: {english}"
    # Pagefind loaded the Russian index only (pagefind.ru_*.pf_meta), never the English one.
    names = [urlparse(url).path.rsplit("/", 1)[-1] for url in guard.requests]
    assert any(name.startswith("pagefind.ru_") for name in names), names
    assert not any(name.startswith("pagefind.en_") for name in names), names
    # The count line is Russian, from our catalog, in a form that fits every number (not «4 результатов»).
    expect(page.locator(".pagefind-ui__message")).to_have_text(
        re.compile(r"^(Результатов по запросу «.+»: \d+|По запросу «.+» найден один результат)$"))


@pytest.mark.parametrize("start, query, expected", [
    ("en/", "Skirmisher", "/en/t9a/light-infantry/"),  # an English alias of «Легкая пехота»
    ("ru/", "Scout", "/ru/t9a/scout/"),                # the English title, on the Russian page as an alias
    ("en/", "Разведчик", "/en/t9a/scout/"),            # the Russian original title, on the English page
], ids=["en-skirmisher", "ru-scout", "en-razvedchik"])
def test_aliases_and_other_language_titles_find_the_rule(page, base_url, shot, start, query, expected):
    page.goto(base_url + start)
    results = search(page, query)
    shot(page)
    assert expected in results, f"{query!r} on /{start}: {expected} not among the results shown: {results}"
    lang = "/" + start
    assert all(path.startswith(lang) for path in results), results


def test_english_search_has_english_labels(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    search(page, "Scout")
    expect(page.locator(".pagefind-ui__message")).to_have_text(re.compile(r"^(Results for “Scout”: \d+|One result for “Scout”)$"))
    expect(page.locator(".kb-search input")).to_have_attribute("placeholder", "Search")


def test_result_opens_the_page_with_the_found_words_highlighted(page, base_url, shot):
    page.goto(base_url + "ru/")
    search(page, "разведчика")
    first = page.locator(RESULT_LINKS).first
    words = parse_qs(urlparse(first.get_attribute("href")).query).get("highlight", [])
    # The page's own word forms, taken from Pagefind's excerpt, not the query as typed.
    assert "разведчик" in words or "разведчики" in words, words
    first.click()
    page.wait_for_url("**/ru/t9a/scout/?highlight=*")
    marks = page.locator(".md-content mark.pagefind-highlight")
    expect(marks.first).to_be_visible()
    assert marks.count() >= 3
    assert "разведчик" in marks.first.inner_text().lower()
    assert page.locator("header mark.pagefind-highlight").count() == 0  # only the page content is marked
    shot(page)


def test_the_first_results_are_six_one_round_of_fragment_fetches_and_load_more_brings_the_rest(page, guard, base_url):
    page.goto(base_url + "en/")
    page.wait_for_load_state("networkidle")  # search.js has warmed Pagefind up: what follows is the query's
    guard.requests.clear()
    listed = search(page, "scout")
    fragments = [url for url in guard.requests if "/fragment/" in url]
    total = int(re.search(r"\d+", page.locator(".pagefind-ui__message").inner_text()).group())
    assert total > 6, f"'scout' has {total} results: the test needs more than one page of them"
    assert len(listed) == 6 and len(fragments) == 6, (listed, fragments)
    page.locator(".pagefind-ui__button").click()  # "Load more results"
    expect(page.locator(".pagefind-ui__results > li")).to_have_count(min(total, 12))
    assert search(page, "scout", every_page=True)[:6] == listed


def test_keyboard_opens_search_and_escape_closes_it(page, base_url):
    page.goto(base_url + "en/t9a/scout/")
    page.keyboard.press("/")
    box = page.locator(".kb-search input")
    expect(box).to_be_focused()
    box.fill("scout")
    expect(page.locator(".pagefind-ui__drawer")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()


def test_a_word_only_in_clarifications_and_examples_finds_them_in_its_inflected_form(page, base_url):
    # «отступления» (genitive) stands nowhere on the site; «отступление» does, in the clarifications
    # and worked examples of Battlesystem's fighting withdrawal.
    page.goto(base_url + "ru/")
    results = search(page, "отступления")
    assert "/ru/battlesystem/fighting-withdrawal/" in results, results
    links = page.locator(".pagefind-ui__result-link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    sections = {urlparse(href).fragment for href in links if "/ru/battlesystem/fighting-withdrawal/" in href}
    assert sections & {"clarifications", "examples"}, sections


def test_search_is_loaded_while_the_page_is_idle_without_taking_the_readers_focus(page, guard, base_url):
    page.goto(base_url + "en/t9a/scout/")

    def names():
        return [urlparse(url).path.rsplit("/", 1)[-1] for url in guard.requests]

    for _ in range(50):  # up to 10 s: search.js asks for it when the page is idle, at the latest after 2 s
        if any(name.startswith("pagefind.en_") for name in names()):
            break
        page.wait_for_timeout(200)
    assert "pagefind.js" in names() and any(name.startswith("pagefind.en_") for name in names()), names()
    assert page.evaluate("() => !document.querySelector('.kb-search').contains(document.activeElement)")
    assert not page.locator(".kb-search").evaluate("e => e.classList.contains('kb-search--open')")


def test_priming_and_practice_while_idle_use_the_interfaces_worker_and_fetch_one_chunk_and_one_fragment(page, guard, base_url):
    page.goto(base_url + "en/t9a/scout/")

    def fetched():
        return [urlparse(url).path for url in guard.requests if "/pagefind/" in url]

    for _ in range(50):  # up to 10 s: the practice search runs once the page is idle
        if any("/fragment/" in path for path in fetched()):
            break
        page.wait_for_timeout(200)
    page.wait_for_load_state("networkidle")
    paths = fetched()
    assert any(path.endswith("/pagefind-worker.js") for path in paths), paths
    # One import of pagefind.js, so one module and one worker: priming and practice ran in the interface's own.
    assert [path for path in paths if path.endswith("/pagefind.js")] == ["/pagefind/pagefind.js"], paths
    assert len(page.workers) == 1, [worker.url for worker in page.workers]
    # The practice word's index chunk (one part on the real site) and its best result's fragment.
    assert len([path for path in paths if "/index/" in path]) == 1, paths
    assert len([path for path in paths if "/fragment/" in path]) == 1, paths
    # It left the box, the drawer and the reader's focus alone.
    assert page.locator(".kb-search input").input_value() == ""
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()
    assert page.evaluate("() => !document.querySelector('.kb-search').contains(document.activeElement)")
    assert search(page, "scout")[0] == "/en/t9a/scout/"


def test_no_practice_search_when_the_browser_asks_to_save_data(page, guard, base_url):
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})})")
    page.goto(base_url + "en/t9a/scout/")

    def fetched():
        return [urlparse(url).path for url in guard.requests if "/pagefind/" in url]

    for _ in range(50):  # up to 10 s: until search.js has primed Pagefind, after which it would practise
        if any(path.rsplit("/", 1)[-1].startswith("pagefind.en_") for path in fetched()):
            break
        page.wait_for_timeout(200)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)  # the practice would start on the next idle moment
    assert not [path for path in fetched() if "/index/" in path or "/fragment/" in path], fetched()
    assert search(page, "scout")[0] == "/en/t9a/scout/"


@pytest.fixture(scope="module")
def parts_url(tmp_path_factory):
    """The site with every language indexed in three parts (10 pages a part): what 1,000 rules get."""
    from generator.site import search as indexing

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(indexing, "PAGES_PER_INDEX", 10)
        yield from served_site(tmp_path_factory.mktemp("parts-browser"))


@pytest.mark.parametrize("start, query", [("en/", "scout"), ("ru/", "разведчика")], ids=["en", "ru"])
def test_an_index_in_parts_finds_the_same_pages_as_one_index(page, guard, base_url, parts_url, start, query):
    page.goto(base_url + start)
    whole = search(page, query, every_page=True)
    page.goto(parts_url + start)
    guard.requests.clear()
    parts = search(page, query, every_page=True)
    # Each part weighs words by its own pages, so with 8 pages a part the order may shift a little.
    assert sorted(parts) == sorted(whole) and whole[0] in parts[:3], (parts, whole)
    lang = start.rstrip("/")
    bundles = {urlparse(url).path.split("/")[2] for url in guard.requests if "/pagefind/" in url}
    assert {f"{lang}-2", f"{lang}-3"} <= bundles, bundles  # the other parts were searched, not just the first
