"""A first visit to a rule page costs no more than stock Material's: the search engine waits for the reader to move
toward search (tests/browser/test_search.py), the language menu fetches nothing, and what the page does fetch weighs
less than the same page built by stock MkDocs + Material with its own search."""

from __future__ import annotations

import gzip
from pathlib import Path
from urllib.parse import urlparse

import pytest

from ..languages import LANGUAGES
from .conftest import DESKTOP, idle, serve_site

# A first visit to the same page of the same site built by stock MkDocs + Material (sections-only navigation,
# Material's search plugin), bytes gzip-compressed (level 6): shared/reviews/perf-review.md §3, measured in Chromium.
STOCK_MATERIAL_GZIP_KIB = {"en": 159, "ru": 213}
STRICTEST = min(STOCK_MATERIAL_GZIP_KIB.values())  # a language measured by nobody yet is held to the smallest stock page
COMPRESSED = (".png", ".gz", ".pagefind", ".pf_meta", ".pf_index", ".pf_fragment", ".pf_filter")  # sent as they are


@pytest.fixture(scope="module")
def counted_site(site):
    """The repository's site, served by a server of its own that counts what it sends (the browser may cache)."""
    yield from serve_site(site)


def gzipped(site: Path, path: str, size: int) -> int:
    """What a file served at `path` weighs gzip-compressed at level 6 (already compressed files as they are)."""
    local = site / urlparse(path).path.lstrip("/")
    if path.endswith("/"):
        local = local / "index.html"
    if local.suffix in COMPRESSED:
        return size
    return len(gzip.compress(local.read_bytes(), 6))


@pytest.fixture
def unrouted(browser):
    """A desktop page whose requests Playwright watches but does not intercept: intercepting turns the browser's HTTP
    cache off, which a reader's browser has (the site's worker keeps the first page's files from it). A request off
    127.0.0.1, a console error or an uncaught exception fails the test."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = []
    context.on("request", lambda request: urlparse(request.url).hostname == "127.0.0.1"
               or errors.append(f"request off 127.0.0.1: {request.url}"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_first_visit_to_a_rule_page_fetches_no_search_engine_no_sitemap_and_weighs_less_than_stock_material(
        unrouted, counted_site, site, lang):
    page = unrouted
    counted_site.sent.clear()
    page.goto(counted_site.address + f"{lang}/t9a/scout/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # the worker has kept the page too
    idle(page)  # nothing of Pagefind waits for a pointer-less idle moment
    sent = list(counted_site.sent)
    paths = [urlparse(path).path for path, _size in sent]
    assert not [path for path in paths if "/pagefind/" in path], paths
    assert not [path for path in paths if "sitemap" in path], paths
    assert len(paths) == len(set(paths)), paths  # the worker kept the page's files from the browser's cache
    compressed = sum(gzipped(site, path, size) for path, size in sent)
    assert compressed < STOCK_MATERIAL_GZIP_KIB.get(lang, STRICTEST) * 1024, (compressed, sent)
