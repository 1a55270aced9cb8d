"""The site away from its home and its network: pages opened or saved open and answer offline (the service worker,
generator/site/offline.py), a new version replaces the old copy, the site installs, and the language menu keeps the
reader's place wherever the site is served.

The sites here are served with `Cache-Control: no-store` (tests/browser/conftest.py, serve_site), so the browser's
HTTP cache keeps nothing: what opens offline was kept by the site's service worker.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from playwright.sync_api import expect

from .conftest import serve_site, until
from .test_ask import field, panel, verdict
from .test_pages import switch_language
from .test_search import search

# The cache names and what each holds, as paths from the site's root ("en/t9a/scout/"). Empty caches are left out:
# when the worker deletes a cache between this probe's keys() and open(), open() creates it again, empty, and it would
# stay until the next version (a race seen in CI, not something the worker does).
CACHED = """async () => {
    const root = new URL(navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : location.href);
    const scope = new URL('./', root).href;
    const found = {};
    for (const name of await caches.keys()) {
        const held = (await (await caches.open(name)).keys()).map(request => request.url.slice(scope.length));
        if (held.length) found[name] = held;
    }
    return found;
}"""


def cached(page) -> dict[str, list[str]]:
    return page.evaluate(CACHED)


# What the page loaded from the site (itself, its resources, the tab's icon), as paths from the site's root.
LOADED = """() => {
    const scope = new URL('./', navigator.serviceWorker.controller.scriptURL).href;
    const links = [...document.querySelectorAll('link[rel~="icon"]')];
    return [location.href, ...performance.getEntriesByType('resource').map(entry => entry.name), ...links.map(l => l.href)]
        .map(url => { const address = new URL(url); address.search = address.hash = ''; return address.href; })
        .filter(url => url.startsWith(scope)).map(url => url.slice(scope.length));
}"""


def wait_until_kept(page, *paths: str, timeout_s: float = 10) -> dict[str, list[str]]:
    """Wait until the page is controlled by the site's worker and its cache holds `paths` and everything the page
    loaded; the caches."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=timeout_s * 1000)
    wanted = set(paths) | set(page.evaluate(LOADED))

    def kept():
        found = cached(page)
        return found if len(found) == 1 and wanted <= set(next(iter(found.values()))) else None

    return until(page, kept, f"the worker's cache did not get all of {sorted(wanted)}", timeout_s)


def ask_deploy(page, no: str, forest: str):
    """The Scout page's first panel: outside the own zone, 14″ from the enemy, in a forest; its verdict."""
    form = panel(page, "deploy_ok")
    field(form, "in_own_zone").get_by_label(no).check()
    field(form, "enemy_distance").locator("input").fill("14")
    field(form, "terrain").locator("select").select_option(label=forest)
    return verdict(form)


def test_two_opened_rules_open_and_answer_offline_and_a_rule_never_opened_shows_the_sites_offline_page(page, no_store_site):
    site = no_store_site.address
    page.goto(site + "en/t9a/scout/")
    wait_until_kept(page, "en/t9a/scout/", "en/assets/ask.js", "en/assets/javascripts/kb-runtime.js")
    page.goto(site + "en/wap/daemonic/")
    wait_until_kept(page, "en/wap/daemonic/")
    page.context.set_offline(True)
    page.goto(site + "en/t9a/scout/#ask")
    expect(ask_deploy(page, "no", "Forest")).to_have_text("Allowed")
    page.goto(site + "en/wap/daemonic/")
    expect(page.locator("h1")).to_contain_text("Daemonic")
    page.goto(site + "en/wap/dodge/")  # never opened, and no HTTP cache to help: the site's page, not an error
    expect(page.locator("h1")).to_have_text("This page is not saved on this device")


NEVER_OPENED = {  # lang: (the offline page's heading, the kept Dodge page's title, the save button, its failure offline)
    "en": ("This page is not saved on this device", "Dodge", "Save for offline use",
           "Saving stopped: the connection was lost. Try again when you are online."),
    "ru": ("Эта страница не сохранена на этом устройстве", "Уклонение", "Сохранить для работы без сети",
           "Сохранение прервано: пропало соединение. Попробуйте ещё раз, когда появится сеть."),
}


@pytest.mark.parametrize("device", ["phone", "page"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_page_never_opened_shows_offline_the_sites_page_in_the_readers_language(request, no_store_site, site, shot,
                                                                               device, lang):
    page = request.getfixturevalue(device)
    heading, dodge, save_label, failed = NEVER_OPENED[lang]
    built, site = site, no_store_site.address
    page.goto(f"{site}{lang}/wap/dodge/")  # (not Scout: another test asks that no one opened the Russian Scout)
    wait_until_kept(page, f"{lang}/wap/dodge/")
    page.context.set_offline(True)
    page.goto(f"{site}{lang}/wap/strider/")  # never opened
    expect(page.locator("h1")).to_have_text(heading)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.url == f"{site}{lang}/wap/strider/"  # the reader's address stays: Try again reloads it
    kept = page.locator("main li a")
    expect(kept.filter(has_text=dodge)).to_have_attribute("href", f"{site}{lang}/wap/dodge/")
    # What is kept, and the one action that saves the language, with its size: offline it says why it cannot yet.
    listed = json.loads((built / "offline" / f"{lang}.json").read_text(encoding="utf-8"))
    megabytes = f"{sum(file[1] for file in listed['files']) / 1e6:.1f}".removesuffix(".0")
    expect(page.locator("main")).to_contain_text(megabytes if lang == "en" else megabytes.replace(".", ","))
    save = page.locator(".kb-offline-page__save")
    expect(save).to_have_text(save_label)
    if device == "phone":
        shot(page, f"offline-never-opened-{lang}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save.click()
    expect(page.locator(".kb-offline-page__status")).to_have_text(failed)
    kept.filter(has_text=dodge).click()
    expect(page.locator("h1")).to_contain_text(dodge)  # the kept page opens from the list, offline


@pytest.mark.parametrize("lang, said", [
    ("en", "Search works without a connection only once this language is saved for offline use"),
    ("ru", "Поиск работает без сети, только когда этот язык сохранён для работы без сети"),
])
def test_search_offline_before_the_language_is_saved_says_it_cannot_work_yet(page, guard, no_store_site, lang, said):
    site = no_store_site.address
    page.goto(f"{site}{lang}/wap/immunity/")
    wait_until_kept(page, f"{lang}/wap/immunity/")
    page.context.set_offline(True)
    page.reload()
    page.locator(".kb-search input").click()
    expect(page.locator(".kb-search__offline")).to_contain_text(said)
    # Search's own files could not load, offline: the browser logs each, as it should; nothing else went wrong.
    assert guard.errors and all("Failed to load resource" in error for error in guard.errors), guard.errors
    guard.errors.clear()


def test_a_site_published_in_a_subfolder_keeps_its_pages_there(page, subfolder_site):
    address = subfolder_site.address  # …/published/kb/: the worker's scope is that folder, not the host's root
    page.goto(address + "ru/t9a/scout/")
    wait_until_kept(page, "ru/t9a/scout/", "ru/assets/ask.js")
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == address + "sw.js"
    page.context.set_offline(True)
    page.goto(address + "ru/t9a/scout/")
    expect(ask_deploy(page, "нет", "Лес")).to_have_text("Можно")


def test_a_saved_language_opens_a_rule_never_opened_answers_and_searches_offline(page, no_store_site, site):
    address = no_store_site.address
    page.goto(address + "ru/")
    wait_until_kept(page, "ru/")
    page.locator(".kb-offline__toggle").click()
    text = page.locator(".kb-offline__text")
    # The size comes first: the total of the language's list, as the page's language writes megabytes.
    listed = json.loads((site / "offline" / "ru.json").read_text(encoding="utf-8"))
    # One decimal at most, none when it is 0 (Intl.NumberFormat's maximumFractionDigits: 1), a decimal comma.
    megabytes = f"{sum(file[1] for file in listed['files']) / 1e6:.1f}".removesuffix(".0").replace(".", ",")
    expect(text).to_contain_text(re.compile(rf"без сети: загрузка {megabytes}\sМБ\."))
    save = page.locator(".kb-offline__save")
    expect(save).to_have_text("Сохранить для работы без сети")
    assert "/ru/t9a/scout/" not in no_store_site.paths()  # nothing beyond the page opened until the reader asks
    save.click()
    expect(text).to_contain_text(f"Сохранено на этом устройстве ({megabytes}", timeout=30_000)
    expect(save).to_be_hidden()
    expect(page.locator(".kb-offline")).to_have_class(re.compile("kb-offline--saved"))
    [kept] = cached(page).values()
    assert {"" if address == "./" else address for address, _size, _digest in listed["files"]} <= set(kept)
    page.context.set_offline(True)
    page.goto(address + "ru/t9a/scout/")  # never opened
    expect(ask_deploy(page, "нет", "Лес")).to_have_text("Можно")
    assert search(page, "разведчика")[0] == "/ru/t9a/scout/"


def publish_again(site, path: str, marker: str) -> None:
    """A new version of a served site: one page changed (a paragraph with the id `marker` under its title), the offline
    lists and the worker written anew, as a build does."""
    from generator.site.offline import write_offline_files

    page = site / path / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</h1>", f'</h1><p id="{marker}">Published again.</p>', 1),
                    encoding="utf-8")
    write_offline_files(site)


def wait_for_a_new_cache(page, old: str) -> list[str]:
    """Wait until the site's worker of a newer version has taken over and `old` is gone; what the new cache holds."""
    def replaced():
        found = cached(page)
        return found if old not in found and len(found) == 1 else None

    return next(iter(until(page, replaced, f"the cache {old} was not replaced").values()))


def test_a_new_version_reaches_the_reader_on_the_next_visit_and_replaces_the_old_cache(page, site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    serving = serve_site(copy, no_store=True)
    served = next(serving)
    try:
        address = served.address
        page.goto(address + "en/t9a/scout/")
        wait_until_kept(page, "en/t9a/scout/")
        page.goto(address + "en/wap/daemonic/")
        [first] = wait_until_kept(page, "en/wap/daemonic/")

        publish_again(copy, "en/t9a/scout", "second")
        page.goto(address + "en/t9a/scout/")  # the next visit shows the new version, nothing cleared
        expect(page.locator("#second")).to_be_visible()
        kept = wait_for_a_new_cache(page, first)  # the browser checked sw.js on that visit and installed the new one
        assert {"en/t9a/scout/", "en/wap/daemonic/", "en/assets/ask.js"} <= set(kept), kept
        [second] = cached(page)

        # Another version, noticed without a visit (as the browser checks now and then): it downloads the one page
        # that changed, and copies from the old cache every file that did not.
        publish_again(copy, "en/wap/daemonic", "third")
        served.sent.clear()
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(registration => registration.update())")
        kept = wait_for_a_new_cache(page, second)
        assert {"en/t9a/scout/", "en/wap/daemonic/", "en/assets/ask.js"} <= set(kept), kept
        assert sorted(set(served.paths())) == ["/en/wap/daemonic/", "/offline/en.json", "/sw.js"], served.paths()

        page.context.set_offline(True)
        page.goto(address + "en/t9a/scout/")
        expect(page.locator("#second")).to_be_visible()
        expect(ask_deploy(page, "no", "Forest")).to_have_text("Allowed")
        page.goto(address + "en/wap/daemonic/")
        expect(page.locator("#third")).to_be_visible()
    finally:
        serving.close()


@pytest.mark.parametrize("fragment", ["#terrain", "#ask-deploy_ok?in_own_zone=0&enemy_distance=14&terrain=forest"],
                         ids=["clause", "ask"])
def test_the_language_menu_keeps_the_place_on_a_site_served_in_a_subfolder_of_another_host(page, subfolder_site,
                                                                                           fragment):
    address = subfolder_site.address  # …/published/kb/: neither the root nor the address the site was built for
    page.goto(address + "ru/t9a/scout/" + fragment)
    switch_language(page, "en")
    page.wait_for_url(address + "en/t9a/scout/" + fragment)
    if fragment.startswith("#ask-"):
        expect(verdict(panel(page, "deploy_ok"))).to_have_text("Allowed")
        expect(field(panel(page, "deploy_ok"), "enemy_distance").locator("input")).to_have_value("14")
    else:
        expect(page.locator(fragment)).to_be_in_viewport()
    assert not [path for path in subfolder_site.paths() if path.endswith("sitemap.xml")]


def test_the_language_menu_keeps_the_clarification_in_view_when_the_address_names_none(page, subfolder_site):
    address = subfolder_site.address
    page.goto(address + "en/t9a/scout/")
    page.locator("#clarification-terrain-types").evaluate("element => element.scrollIntoView()")
    switch_language(page, "ru")
    page.wait_for_url(address + "ru/t9a/scout/#clarification-terrain-types")
    expect(page.locator("#clarification-terrain-types")).to_be_in_viewport()


def test_the_site_installs_in_the_readers_language(page, no_store_site):
    address = no_store_site.address
    page.goto(address + "ru/t9a/scout/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["errors"] == [] and found["url"] == address + "ru/manifest.webmanifest", found
    manifest = found["manifest"]
    assert manifest["name"] == "База знаний по правилам варгеймов"
    assert manifest["startUrl"] == address + "ru/" and manifest["scope"] == address
    for icon in manifest["icons"]:
        response = page.request.get(icon["url"])
        assert response.ok and response.headers["content-type"].startswith("image/"), icon
    # Playwright's contexts are incognito: the one reason Chromium gives for not offering to install.
    reasons = {error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert reasons <= {"in-incognito"}, reasons
