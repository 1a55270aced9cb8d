"""The built site: strict MkDocs build, both languages, same addresses, working links, nothing external."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
from babel.messages.pofile import read_po

from generator.i18n.catalog import read_catalog, render_catalog
from generator.i18n.translate import Translations
from generator.problems import Problems
from generator.render import Renderer
from generator.site import build_site, prepare
from generator.value_types import in_words

from .conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(ROOT, tmp_path_factory.mktemp("build") / "site", quiet=True)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.sources = [], set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        fetched = tag in ("script", "img", "iframe") or (
            tag == "link" and attrs.get("rel") in ("stylesheet", "icon", "preload", "modulepreload", "manifest"))
        for key in ("src", "href"):
            if fetched and attrs.get(key):
                self.sources.append(attrs[key])


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_rule_has_a_page_at_the_same_address_in_both_languages(site, kb):
    for key in kb.rules:
        for lang in ("en", "ru"):
            assert (site / lang / key / "index.html").is_file(), f"/{lang}/{key}/ is missing"


def test_clause_anchors_are_the_same_in_both_languages(site, kb):
    rule = kb.rules["t9a/scout"]
    for lang in ("en", "ru"):
        ids = _parse(site / lang / "t9a/scout/index.html").ids
        assert {clause.id for clause in rule.clauses} <= ids


def test_no_language_lives_at_the_root_which_only_offers_a_choice(site):
    root = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="en/"' in root and 'href="ru/"' in root
    assert not (site / "t9a").exists()


def test_every_internal_link_resolves_to_a_page_and_anchor(site):
    broken = []
    pages = {path: _parse(path) for path in site.rglob("*.html") if "pagefind" not in path.parts}
    for path, parsed in pages.items():
        base = "file://" + str(path)
        for href in parsed.links:
            if href.startswith(("http:", "https:", "mailto:", "javascript:")):
                continue
            if href.startswith("/"):  # absolute paths (the 404 page) are rooted at the site folder
                href = "file://" + str(site) + href
            target = urlparse(urljoin(base, href))
            file = Path(target.path)
            if file.is_dir() or str(target.path).endswith("/"):
                file = file / "index.html"
            if not file.exists():
                broken.append(f"{path.relative_to(site)} -> {href}")
            elif target.fragment and file in pages and target.fragment not in pages[file].ids:
                broken.append(f"{path.relative_to(site)} -> {href} (no such anchor)")
    assert not broken, "\n".join(broken[:20])


def test_pages_request_nothing_from_other_hosts(site):
    external = []
    for path in site.rglob("*.html"):
        for source in _parse(path).sources:
            if re.match(r"^(https?:)?//", source):
                external.append(f"{path.relative_to(site)}: {source}")
    assert not external, "\n".join(external[:10])


def test_the_language_menu_links_to_the_same_page_in_the_other_language(site):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    assert re.search(r'href="[./]*/\.\./en/t9a/scout/"', html), "no same-page link to English"


def test_russian_pages_use_russian_interface_and_plural_forms(site):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    assert "Текст правила" in html and '<html lang="ru"' in html
    assert "18 дюймов" in html or "12 дюймов" in html


def test_numbers_follow_the_locale_with_russian_plurals():
    problems = Problems()
    ru = Translations.load(ROOT, "ru", problems)
    en = Translations.load(ROOT, "en", problems)
    assert not problems
    assert str(in_words("inches", 1, ru)) == "1 дюйм"
    assert str(in_words("inches", 2, ru)) == "2 дюйма"
    assert str(in_words("inches", 5, ru)) == "5 дюймов"
    assert str(in_words("inches", 0.5, ru)) == "0,5 дюйма"
    assert str(in_words("inches", 0.5, en)) == "0.5 inches"
    assert str(in_words("inches", 1, en)) == "1 inch"


def test_rendering_is_deterministic():
    prepared = prepare(ROOT, fresh=True)
    first = [page.content for page in Renderer(prepared.kb, prepared.translations["ru"], prepared.languages).pages()]
    prepared = prepare(ROOT, fresh=True)
    second = [page.content for page in Renderer(prepared.kb, prepared.translations["ru"], prepared.languages).pages()]
    assert first == second


def test_two_builds_of_the_same_input_are_byte_identical_search_index_and_export_included(site, tmp_path):
    again = build_site(ROOT, tmp_path / "site", quiet=True)
    files = sorted(path.relative_to(site) for path in site.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(again) for path in again.rglob("*") if path.is_file())
    assert any(str(path).startswith("pagefind/") for path in files) and Path("ru/api/rules.json") in files
    different = [str(path) for path in files if (site / path).read_bytes() != (again / path).read_bytes()]
    assert not different, different


def test_a_missing_translation_falls_back_to_the_source_visibly_marked_and_the_build_passes(repo, tmp_path):
    path = repo / "translations/ru/rules/wap/strider.po"
    catalog = read_catalog(path, "ru")
    message = next(m for m in catalog if m.context == "wap/strider:summary")
    source = message.id
    message.string = ""
    path.write_bytes(render_catalog(catalog))
    out = build_site(repo, tmp_path / "site", quiet=True)
    html = (out / "ru/wap/strider/index.html").read_text(encoding="utf-8")
    assert 'class="kb-untranslated" lang="en"' in html
    assert source.split()[0] in html
    assert "ещё не переведена" in html  # the page-level notice, in Russian
