"""Offline use at build time (generator/site/offline.py): each language's list of files, the worker's version and
totals, and the web manifests."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.site.offline import language_files, web_manifest, write_offline_files

from .conftest import ROOT, write
from .languages import LANGUAGES

PAGEFIND_ENTRY = {"languages": {"en": {"hash": "en_abc", "wasm": "en", "page_count": 2},
                                "ru": {"hash": "ru_def", "wasm": "ru", "page_count": 1}}}


@pytest.fixture
def tiny_site(tmp_path) -> Path:
    """Two languages and a search index in two parts for English, with every kind of file a build writes."""
    site = tmp_path / "site"
    for path in ("index.html", "en/index.html", "en/rule/index.html", "en/404.html", "en/assets/kb.js",
                 "en/assets/kb.js.map", "en/sitemap.xml", "en/sitemap.xml.gz", "en/api/rules.json",
                 "en/assets/javascripts/lunr/min/lunr.de.min.js", "en/assets/javascripts/workers/search.js",
                 "en/manifest.webmanifest", "ru/index.html",
                 "pagefind/pagefind.js", "pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css",
                 "pagefind/pagefind-worker.js", "pagefind/pagefind-highlight.js", "pagefind/pagefind-component-ui.js",
                 "pagefind/wasm.en.pagefind", "pagefind/wasm.ru.pagefind", "pagefind/wasm.unknown.pagefind",
                 "pagefind/pagefind.en_abc.pf_meta", "pagefind/pagefind.ru_def.pf_meta",
                 "pagefind/index/en_1.pf_index", "pagefind/index/ru_1.pf_index",
                 "pagefind/fragment/en_1.pf_fragment", "pagefind/fragment/ru_1.pf_fragment",
                 "pagefind/en-2/pagefind-entry.json", "pagefind/en-2/pagefind.en_ghi.pf_meta",
                 "pagefind/en-2/index/en_2.pf_index", "pagefind/en-2/fragment/en_2.pf_fragment"):
        write(site / path, f"the file {path}")
    write(site / "pagefind/pagefind-entry.json", json.dumps(PAGEFIND_ENTRY))
    return site


def test_a_languages_list_holds_what_its_pages_load_and_leaves_out_the_rest(tiny_site):
    addresses = [address for address, _size, _digest in language_files(tiny_site, "en")]
    assert addresses == sorted([
        "./", "en/", "en/rule/", "en/404.html", "en/assets/kb.js", "en/manifest.webmanifest",
        "pagefind/pagefind.js", "pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css", "pagefind/pagefind-worker.js",
        "pagefind/pagefind-highlight.js", "pagefind/pagefind-entry.json", "pagefind/wasm.en.pagefind",
        "pagefind/pagefind.en_abc.pf_meta", "pagefind/index/en_1.pf_index", "pagefind/fragment/en_1.pf_fragment",
        "pagefind/en-2/pagefind-entry.json", "pagefind/en-2/pagefind.en_ghi.pf_meta",
        "pagefind/en-2/index/en_2.pf_index", "pagefind/en-2/fragment/en_2.pf_fragment"])
    russian = [address for address, _size, _digest in language_files(tiny_site, "ru")]
    assert "ru/" in russian and "pagefind/wasm.ru.pagefind" in russian and "pagefind/index/ru_1.pf_index" in russian
    assert not [address for address in russian if address.startswith("en") or "/en" in address]


def test_a_listed_file_carries_its_size_and_the_start_of_its_sha256(tiny_site):
    listed = {address: (size, digest) for address, size, digest in language_files(tiny_site, "en")}
    data = (tiny_site / "en/rule/index.html").read_bytes()
    assert listed["en/rule/"] == (len(data), hashlib.sha256(data).hexdigest()[:16])


def test_a_site_without_its_search_index_lists_its_pages_only(tiny_site):
    import shutil

    shutil.rmtree(tiny_site / "pagefind")
    assert not [address for address, _size, _digest in language_files(tiny_site, "en") if "pagefind" in address]


def _build_line(site: Path) -> dict:
    first = (site / "sw.js").read_text(encoding="utf-8").splitlines()[0]
    found = re.fullmatch(r"const BUILD = (\{.*\});", first)
    assert found, first
    return json.loads(found.group(1))


def test_the_worker_carries_each_languages_total_and_the_version_of_the_lists(tiny_site):
    totals = write_offline_files(tiny_site)
    build = _build_line(tiny_site)
    for lang in ("en", "ru"):
        listed = json.loads((tiny_site / "offline" / f"{lang}.json").read_text(encoding="utf-8"))
        assert listed["version"] == build["version"] and listed["lang"] == lang
        assert build["languages"][lang] == totals[lang] == {"bytes": sum(file[1] for file in listed["files"]),
                                                            "files": len(listed["files"]), "labels": {}}
    # The rest of the worker is the template, as it is.
    worker = (ROOT / "generator/render/templates/sw.js").read_text(encoding="utf-8")
    assert (tiny_site / "sw.js").read_text(encoding="utf-8").split("\n", 1)[1] == worker


def test_the_version_changes_with_a_listed_file_only(tiny_site):
    write_offline_files(tiny_site)
    first, version = (tiny_site / "sw.js").read_bytes(), _build_line(tiny_site)["version"]
    write_offline_files(tiny_site)
    assert (tiny_site / "sw.js").read_bytes() == first  # the same site, the same worker: nothing to install
    (tiny_site / "en/sitemap.xml").write_text("a newer sitemap", encoding="utf-8")
    write_offline_files(tiny_site)
    assert (tiny_site / "sw.js").read_bytes() == first  # no page loads the sitemap
    (tiny_site / "en/rule/index.html").write_text("a new text of the rule", encoding="utf-8")
    write_offline_files(tiny_site)
    assert _build_line(tiny_site)["version"] != version


def test_the_web_manifest_opens_the_language_and_names_icons_the_site_has():
    manifest = web_manifest("База знаний по правилам варгеймов", "База правил", "ru", "#795548")
    assert manifest["start_url"] == "./" and manifest["scope"] == "../" and manifest["lang"] == "ru"
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (ROOT / "docs" / icon["src"]).is_file(), icon
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])


class _Loads(HTMLParser):
    """The site's own files a page loads: stylesheets, scripts, icons, the manifest, images."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        address = attrs.get("src") if tag in ("script", "img") else attrs.get("href") if tag == "link" else None
        if address and tag == "link" and attrs.get("rel") not in ("stylesheet", "icon", "manifest", "apple-touch-icon"):
            return
        if address and not address.startswith(("http:", "https:", "data:", "//", "#")):
            self.found.append(address)


def test_every_file_a_page_of_the_real_site_loads_is_in_its_languages_list(site):
    for lang in LANGUAGES:
        listed = {address for address, _size, _digest in language_files(site, lang)}
        for page in sorted((site / lang).rglob("index.html")):
            folder = page.parent.relative_to(site).as_posix()
            parser = _Loads()
            parser.feed(page.read_text(encoding="utf-8"))
            assert parser.found, page
            for address in parser.found:
                path = posixpath.normpath(posixpath.join(folder, address.split("?")[0]))
                assert path in listed or path + "/" in listed, f"{page}: {address} is not in {lang}'s list"


def test_kept_digests_read_again_only_the_files_rewritten_since_and_list_what_a_fresh_reading_lists(tiny_site):
    from generator.site.offline import Digests

    digests = Digests()
    first = language_files(tiny_site, "en", digests)
    read = digests.hashed
    assert read == len(first)
    assert language_files(tiny_site, "en", digests) == first and digests.hashed == read
    page = tiny_site / "en/rule/index.html"
    scratch = page.with_name(".new")
    scratch.write_text("the rule, edited", encoding="utf-8")
    scratch.replace(page)  # as `make serve` writes a page: a new file renamed over the old
    (tiny_site / "en/index.html").write_text("the home page, edited in place", encoding="utf-8")
    again = language_files(tiny_site, "en", digests)
    assert digests.hashed == read + 2
    assert again == language_files(tiny_site, "en") != first


def test_lists_that_would_not_change_are_not_written_again(tiny_site):
    write_offline_files(tiny_site)
    written = {path: path.stat().st_ino for path in [tiny_site / "sw.js", *(tiny_site / "offline").iterdir()]}
    write_offline_files(tiny_site)
    assert {path: path.stat().st_ino for path in written} == written


def test_the_worker_carries_each_languages_offline_words_from_its_home_page(tiny_site):
    """The page sw.js answers with offline, for a page it does not keep, speaks the language of the address."""
    home = tiny_site / "ru" / "index.html"
    words = {"notKept": "Эта страница не сохранена", "save": "Сохранить <для> работы"}
    home.write_text(home.read_text(encoding="utf-8") + "<div data-kb-offline data-kb-labels='"
                    + json.dumps(words, ensure_ascii=False).replace("<", "\\u003c") + "'></div>", encoding="utf-8")
    write_offline_files(tiny_site)
    build = _build_line(tiny_site)
    assert build["languages"]["ru"]["labels"] == words and build["languages"]["en"]["labels"] == {}
