"""Pagefind's counted messages: from our catalogs, with Pagefind's tokens, safe in the page."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from generator.i18n.catalog import read_catalog, render_catalog
from generator.search import search_labels
from generator.site import prepare

from .conftest import PLANTS, ROOT


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


class _Labels(HTMLParser):
    def __init__(self):
        super().__init__()
        self.raw = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-kb-labels" in attrs:
            self.raw = attrs["data-kb-labels"]


def test_a_hostile_label_reaches_the_page_as_json_data_not_markup(planted_site):
    payload = PLANTS["search label"][2]
    html = (planted_site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
    parser = _Labels()
    parser.feed(html)
    assert json.loads(parser.raw)["total_zero_results"] == payload
    assert re.search(r"data-kb-labels='[^']*'", html)  # the attribute is not cut short by the payload's quote
