"""Pagefind search in the header: loaded when the reader moves toward it, the page's language only, inflected Russian,
aliases, highlighting, results that open their own clause or clarification, Back to the results."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from playwright.sync_api import expect

from .conftest import idle, served_site, until

RESULT_LINKS = ".pagefind-ui__result-inner > .pagefind-ui__result-title > .pagefind-ui__result-link"


def _every_listed_result_shown(page):
    # Results arrive one by one: wait until every listed result has its link.
    page.wait_for_function("""() => {
        const items = document.querySelectorAll('.pagefind-ui__results > li');
        return items.length > 0 && [...items].every(li => li.querySelector('.pagefind-ui__result-title a'));
    }""")


def open_search(page):
    """Move to the search box as a reader does (a click on it, or on the search button of a narrow window) and wait
    until Pagefind's own field has taken the place of the one the page is served with; that field."""
    field = page.locator(".kb-search input")  # the page's own until Pagefind's has replaced it: one at a time
    if field.is_visible():
        field.click()
    else:
        page.locator(".kb-search__toggle").click()
    page.wait_for_selector(".kb-search--ready")
    box = page.locator(".kb-search input")
    expect(box).to_be_visible()
    return box


def search(page, query: str, every_page: bool = False) -> list[str]:
    """Type a query into the header search box; the paths of the results listed (with `every_page`, of all
    of them, "Load more" pressed until it is gone), best first."""
    box = open_search(page)
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
    open_search(page)
    page.wait_for_load_state("networkidle")  # search.js has warmed Pagefind up: what follows is the query's
    guard.requests.clear()
    listed = search(page, "scout")
    fragments = [url for url in guard.requests if "/fragment/" in url]
    total = int(re.search(r"\d+", page.locator(".pagefind-ui__message").inner_text()).group())
    assert total > 6, f"'scout' has {total} results: the test needs more than one page of them"
    # One fragment per result listed; the practice search may have fetched one of them already.
    assert len(listed) == 6 and 5 <= len(fragments) <= 6, (listed, fragments)
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


def _pagefind_paths(guard) -> list[str]:
    """What the page fetched of Pagefind (not the site's worker keeping a copy of what the page loaded)."""
    return [urlparse(url).path for url in guard.page_requests if "/pagefind/" in url]


def test_nothing_of_pagefind_is_fetched_until_the_pointer_comes_to_the_search_box(page, guard, base_url):
    page.goto(base_url + "en/t9a/scout/")
    idle(page)  # nothing waits for a pointer-less idle moment to load Pagefind
    assert _pagefind_paths(guard) == []
    page.hover(".kb-search__stub-input")
    page.wait_for_selector(".kb-search--ready")
    assert {"/pagefind/pagefind-ui.js", "/pagefind/pagefind-ui.css"} <= set(_pagefind_paths(guard))
    # Only loaded: the reader's focus and the closed drawer are left alone.
    assert page.evaluate("() => !document.querySelector('.kb-search').contains(document.activeElement)")
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()


def test_the_slash_key_loads_pagefind_and_puts_the_focus_in_its_field(page, guard, base_url):
    page.goto(base_url + "en/t9a/scout/")
    page.wait_for_load_state("networkidle")
    assert _pagefind_paths(guard) == []
    page.keyboard.press("/")
    page.wait_for_selector(".kb-search--ready")
    expect(page.locator(".kb-search input")).to_be_focused()
    assert "/pagefind/pagefind-ui.js" in _pagefind_paths(guard)


def test_on_a_phone_the_search_button_loads_pagefind_and_opens_the_field(phone, guard, base_url):
    phone.goto(base_url + "ru/t9a/scout/")
    phone.wait_for_load_state("networkidle")
    assert _pagefind_paths(guard) == []
    phone.locator(".kb-search__toggle").tap()
    phone.wait_for_selector(".kb-search--ready")
    expect(phone.locator(".kb-search input")).to_be_visible()
    expect(phone.locator(".kb-search input")).to_be_focused()
    assert phone.locator(".kb-search__stub-input").count() == 0


def test_priming_and_practice_after_the_pointer_came_use_the_interfaces_worker(page, guard, base_url):
    page.goto(base_url + "en/t9a/scout/")
    # The practice search runs once Pagefind is loaded and the page is idle; its last fetch is its best result's
    # fragment. On a loaded machine the site's worker may fetch pagefind.js again to keep it: not the page's import.
    with page.expect_request(lambda request: "/fragment/" in request.url, timeout=30_000):
        page.hover(".kb-search__stub-input")
    expect(page.locator("[data-kb-practice]")).to_have_attribute("data-kb-practice", "started")
    page.wait_for_load_state("networkidle")
    paths = _pagefind_paths(guard)
    assert any(path.endswith("/pagefind-worker.js") for path in paths), paths
    # One import of pagefind.js, so one module and one worker: priming and practice ran in the interface's own.
    assert [path for path in paths if path.endswith("/pagefind.js")] == ["/pagefind/pagefind.js"], paths
    assert len(page.workers) == 1, [worker.url for worker in page.workers]
    # The practice words' index chunks ("rule", "text": one or two, on the real site's single part) and the
    # fragment of their best result.
    assert 1 <= len([path for path in paths if "/index/" in path]) <= 2, paths
    assert len([path for path in paths if "/fragment/" in path]) == 1, paths
    # It left the box, the drawer and the reader's focus alone.
    assert page.locator(".kb-search input").input_value() == ""
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()
    assert page.evaluate("() => !document.querySelector('.kb-search').contains(document.activeElement)")
    assert search(page, "scout")[0] == "/en/t9a/scout/"


def test_no_practice_search_when_the_browser_asks_to_save_data(page, guard, base_url):
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})})")
    page.goto(base_url + "en/t9a/scout/")
    page.hover(".kb-search__stub-input")
    # search.js primes Pagefind, then on the next idle moment decides whether to practise, and says so.
    expect(page.locator("[data-kb-practice]")).to_have_attribute("data-kb-practice", "skipped", timeout=30_000)
    idle(page)
    assert not [path for path in _pagefind_paths(guard) if "/index/" in path or "/fragment/" in path]
    assert search(page, "scout")[0] == "/en/t9a/scout/"


def test_a_word_only_in_clarifications_and_examples_finds_them_in_its_inflected_form(page, base_url):
    # «отступления» (genitive) stands nowhere on the site; «отступление» does, in the clarifications
    # and worked examples of Battlesystem's fighting withdrawal.
    page.goto(base_url + "ru/")
    results = search(page, "отступления")
    assert "/ru/battlesystem/fighting-withdrawal/" in results, results
    links = page.locator(".pagefind-ui__result-link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    parts = {urlparse(href).fragment for href in links if "/ru/battlesystem/fighting-withdrawal/" in href}
    # Each part links to the clarification or worked example it was found in, not to the top of their section.
    assert parts and all(part.startswith(("clarification-", "example-")) for part in parts if part), parts


@pytest.mark.parametrize("start, query", [("ru/", "бонус за ряды"), ("en/", "rank bonus")], ids=["ru", "en"])
def test_the_rank_bonus_question_finds_the_battlesystem_answer_not_only_another_games_rule(page, base_url, start,
                                                                                              query):
    # Players ask whether Battlesystem skirmishers get a rank bonus; WAP's «always zero ranks» is another game.
    page.goto(base_url + start)
    results = search(page, query, every_page=True)
    expected = f"/{start}battlesystem/skirmishers/"
    assert expected in results, results
    links = page.locator(".pagefind-ui__result-link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    parts = {urlparse(href).fragment for href in links if expected in unquote(urlparse(href).path)}
    assert "clarification-rank-bonus" in parts, parts


def test_a_result_part_opens_the_clause_or_clarification_it_was_found_in(page, base_url, shot):
    page.goto(base_url + "en/")
    search(page, "different sources")
    dodge = page.locator(".pagefind-ui__result", has=page.locator('a[href^="/en/wap/dodge/"]')).first
    titles = dodge.locator(".pagefind-ui__result-nested .pagefind-ui__result-link")
    hrefs = titles.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert {"cumulative", "clarification-how-sources-add"} <= {urlparse(href).fragment for href in hrefs}, hrefs
    # A clause is named by its number, a clarification by its question, each under its section's heading.
    expect(titles.filter(has_text="Rule text · §2")).to_have_count(1)
    expect(titles.filter(has_text="Clarifications · How do two or more sources of Dodge combine?")).to_have_count(1)
    shot(page)
    titles.filter(has_text="Clarifications ·").click()
    page.wait_for_url("**/en/wap/dodge/?*#clarification-how-sources-add")
    target = page.locator("#clarification-how-sources-add")
    expect(target).to_be_in_viewport()
    assert page.evaluate("() => document.querySelector(':target').id") == "clarification-how-sources-add"


@pytest.mark.parametrize("start, query, rule", [("en/", "exactly 18", "en/t9a/scout/"),
                                                ("ru/", "буква правил", "ru/t9a/scout/")], ids=["en", "ru"])
def test_excerpts_leave_out_badges_and_interface_text(page, base_url, start, query, rule):
    page.goto(base_url + rule)
    badges = set(page.locator(".kb-status").all_inner_texts())
    labels = [page.locator(".kb-source").inner_text().split(":")[0],  # "System", «Система»
              page.locator(".kb-clarification__clauses").first.inner_text().split(":")[0]]  # "Clarifies"
    assert len(badges) >= 2 and all(labels), (badges, labels)
    page.goto(base_url + start)
    search(page, query)
    excerpts = page.locator(".pagefind-ui__result-excerpt").all_inner_texts()
    assert len(excerpts) >= 3, excerpts
    shown = [(text, excerpt) for excerpt in excerpts for text in (*badges, *labels) if text in excerpt]
    assert not shown, shown


def test_back_to_a_searched_page_shows_the_query_and_its_results_again(page, base_url):
    page.goto(base_url + "ru/")
    listed = search(page, "разведчика")
    page.locator(RESULT_LINKS).first.click()
    page.wait_for_url("**/ru/t9a/scout/?highlight=*")
    page.go_back()
    page.wait_for_url(base_url + "ru/")
    expect(page.locator(".kb-search input")).to_have_value("разведчика")
    expect(page.locator(".pagefind-ui__message")).to_contain_text("разведчика")
    _every_listed_result_shown(page)
    hrefs = page.locator(RESULT_LINKS).evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert [unquote(urlparse(href).path) for href in hrefs] == listed
    expect(page.locator(".pagefind-ui__drawer")).to_be_visible()


def test_back_shows_no_results_the_reader_put_away_before_leaving(page, no_store_site):
    # Pages the browser may not store are drawn again on Back (no back/forward cache): search.js decides.
    base_url = no_store_site.address
    page.goto(base_url + "en/")
    search(page, "scout")
    page.mouse.click(20, 600)  # a click beside the search (the results cover the page's middle) closes it
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()
    page.locator("article a:not(.headerlink)").first.click()  # to another page
    page.wait_for_load_state("load")
    page.go_back()
    page.wait_for_url(base_url + "en/")
    idle(page)  # search.js brings a remembered query back as the page loads: by now it would have begun
    expect(page.locator(".pagefind-ui__drawer")).to_be_hidden()
    assert not page.locator(".kb-search--active").count()


def test_a_query_typed_before_pagefind_arrives_is_searched_with_the_focus_kept(page, base_url):
    held = []
    # Held back until the reader has typed. On the context: the site's service worker may be the one asking for it.
    page.context.route("**/pagefind/pagefind-ui.js", lambda route: held.append(route))
    page.goto(base_url + "en/t9a/scout/")
    stub = page.locator(".kb-search__stub-input")
    stub.click()
    stub.press_sequentially("scou")
    until(page, lambda: held, "pagefind-ui.js was not asked for")
    assert not page.locator(".kb-search--ready").count()
    held[0].continue_()
    page.wait_for_selector(".kb-search--ready")
    box = page.locator(".kb-search input")
    expect(box).to_be_focused()
    page.keyboard.type("t")
    expect(box).to_have_value("scout")
    expect(page.locator(".pagefind-ui__message")).to_contain_text("scout")
    assert page.locator(".kb-search__stub-input").count() == 0


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
