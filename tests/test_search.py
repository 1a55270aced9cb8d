"""Pagefind's counted messages: from our catalogs, with Pagefind's tokens, safe in the page."""

from __future__ import annotations

from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import render_catalog
from generator.site.build import prepare
from generator.site.search import search_labels

from .conftest import ROOT


def test_labels_carry_pagefinds_tokens_in_every_language():
    prepared = prepare(ROOT)
    english, russian = search_labels(prepared.translations["en"]), search_labels(prepared.translations["ru"])
    assert english["many_results"] == "Results for “[SEARCH_TERM]”: [COUNT]"
    assert russian["many_results"] == "Результатов по запросу «[SEARCH_TERM]»: [COUNT]"
    assert set(english) == set(russian)
    for key, text in russian.items():
        assert text != english[key], f"{key} is not translated"


def test_the_practice_words_are_the_rule_text_heading_every_rule_page_shows_in_its_language():
    from generator.site.search import PRACTICE, PRACTICE_MESSAGE

    prepared = prepare(ROOT)
    assert search_labels(prepared.translations["en"])[PRACTICE] == "Rule text"
    assert search_labels(prepared.translations["ru"])[PRACTICE] == "Текст правила"
    # The rule template shows it as a heading (indexed) on every rule page; were it gone, or left out of the index,
    # the practice would find nothing to score.
    template = (ROOT / "generator/render/templates/rule.md").read_text(encoding="utf-8")
    assert f'## {{{{ _("{PRACTICE_MESSAGE}") }}}} {{#rule-text}}' in template


def test_a_translation_that_drops_a_placeholder_falls_back_to_english(repo):
    path = repo / "translations/ru/ui.po"
    catalog = read_catalog(path, "ru")
    next(m for m in catalog if m.id == "Results for “%(query)s”: %(count)s").string = "Результатов: %(count)s"
    path.write_bytes(render_catalog(catalog))
    labels = search_labels(prepare(repo).translations["ru"])
    assert labels["many_results"] == "Results for “[SEARCH_TERM]”: [COUNT]"


def _tiny_site(site, lang: str, count: int):
    """`count` pages in one language, each with a word of its own (word1, word2, …)."""
    for number in range(1, count + 1):
        page = site / lang / ("" if number == 1 else f"page-{number:02d}") / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'<html lang="{lang}"><body><main data-pagefind-body><h1>Page {number}</h1>'
                        f"<p>word{number} shared</p></main></body></html>", encoding="utf-8")


def test_a_language_with_more_pages_than_one_index_holds_is_indexed_in_parts(tmp_path, monkeypatch):
    import json

    from generator.site import search

    monkeypatch.setattr(search, "PAGES_PER_INDEX", 2)
    _tiny_site(tmp_path, "en", 5)
    _tiny_site(tmp_path, "ru", 2)
    search.index_search(tmp_path)
    bundle = tmp_path / "pagefind"
    parts = sorted(path.name for path in bundle.iterdir() if path.is_dir() and path.name not in {"index", "fragment"})
    assert parts == ["en-2", "en-3"], parts  # 5 pages at most 2 a part; the 2 Russian ones fit in one
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert sorted(entry["languages"]) == ["en", "ru"]
    counted = entry["languages"]["en"]["page_count"]
    for part in parts:
        part_entry = json.loads((bundle / part / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert list(part_entry["languages"]) == ["en"]
        counted += part_entry["languages"]["en"]["page_count"]
        # A part keeps its index only: the scripts and WebAssembly come from the main bundle.
        assert not list((bundle / part).glob("*.js")) and not list((bundle / part).glob("wasm.*")), part
    assert counted == 5
    assert not list(bundle.rglob(".pages-*")), "the hard-linked copies of the pages are left behind"


def test_part_count_rounds_up_and_never_falls_below_one(monkeypatch):
    from generator.site import search

    monkeypatch.setattr(search, "PAGES_PER_INDEX", 600)
    assert [search.part_count(pages) for pages in (0, 1, 600, 601, 1200, 1201)] == [1, 1, 1, 2, 2, 3]


def test_a_new_index_moves_over_only_the_files_whose_bytes_differ_and_removes_the_files_it_no_longer_has(tmp_path):
    from generator.site.publish import synchronise

    from .conftest import write

    out, fresh = tmp_path / "pagefind", tmp_path / "pagefind.new"
    for name, text in {"pagefind.js": "engine", "index/en_1.pf_index": "old chunk", "pagefind-entry.json": "old",
                       "fragment/en_a.pf_fragment": "kept"}.items():
        write(out / name, text)
    for name, text in {"pagefind.js": "engine", "index/en_2.pf_index": "new chunk", "pagefind-entry.json": "new",
                       "fragment/en_a.pf_fragment": "kept"}.items():
        write(fresh / name, text)
    kept = {name: (out / name).stat().st_ino for name in ("pagefind.js", "fragment/en_a.pf_fragment")}
    assert synchronise(fresh, out) == 3  # the new chunk and entry written, the old chunk removed
    assert {path.relative_to(out).as_posix(): path.read_text() for path in out.rglob("*") if path.is_file()} == {
        "pagefind.js": "engine", "index/en_2.pf_index": "new chunk", "pagefind-entry.json": "new",
        "fragment/en_a.pf_fragment": "kept"}
    assert {name: (out / name).stat().st_ino for name in kept} == kept
    assert not fresh.exists()
