"""Pagefind's counted messages: from our catalogs, with Pagefind's tokens, safe in the page."""

from __future__ import annotations

from generator.i18n.catalog import read_catalog, render_catalog
from generator.search import search_labels
from generator.site import prepare

from .conftest import ROOT


def test_labels_carry_pagefinds_tokens_in_every_language():
    prepared = prepare(ROOT)
    english, russian = search_labels(prepared.translations["en"]), search_labels(prepared.translations["ru"])
    assert english["many_results"] == "Results for “[SEARCH_TERM]”: [COUNT]"
    assert russian["many_results"] == "Результатов по запросу «[SEARCH_TERM]»: [COUNT]"
    assert set(english) == set(russian)
    for key, text in russian.items():
        assert text != english[key], f"{key} is not translated"


def test_a_translation_that_drops_a_placeholder_falls_back_to_english(repo):
    path = repo / "translations/ru/ui.po"
    catalog = read_catalog(path, "ru")
    next(m for m in catalog if m.id == "Results for “%(query)s”: %(count)s").string = "Результатов: %(count)s"
    path.write_bytes(render_catalog(catalog))
    labels = search_labels(prepare(repo).translations["ru"])
    assert labels["many_results"] == "Results for “[SEARCH_TERM]”: [COUNT]"
