"""Translations and configuration strings are data: a payload in every one of them adds no script to any page."""

from __future__ import annotations

import functools
import html as html_module
import json
import re
from pathlib import Path

import pytest

from generator.i18n.checks import check_catalogs
from generator.site.build import prepare

from .hostile import FIXED, active_parts


@pytest.fixture(scope="module")
def builds(planted_build, site):  # in this order: while this worker plants and builds, another may build `site`
    """(clean site, hostile site, {marker: where it was planted}, hostile repository): the session's two builds."""
    repo, hostile, planted = planted_build
    return site, hostile, planted, repo


def _pages(site: Path) -> dict[str, Path]:
    return {str(path.relative_to(site)): path for path in site.rglob("*.html") if "pagefind" not in path.parts}


@functools.cache  # the session's builds are read only: each page is parsed once for every test here
def _parts(path: Path):
    return active_parts(path.read_text(encoding="utf-8"))


def _visible(path: Path) -> str:
    return html_module.unescape(" ".join(_parts(path).text))


def test_no_page_gains_an_event_handler_a_script_url_or_a_script_from_any_planted_payload(builds):
    clean, hostile, _planted, _repo = builds
    clean_pages, hostile_pages = _pages(clean), _pages(hostile)
    assert set(hostile_pages) == set(clean_pages)
    gained = {}
    for name, path in hostile_pages.items():
        before, after = _parts(clean_pages[name]).found, _parts(path).found
        if after - before:
            gained[name] = sorted(after - before)
    assert not gained, "\n".join(f"{page}: {parts[:3]}" for page, parts in sorted(gained.items())[:15])


def test_the_payloads_reached_the_pages_as_visible_text(builds):
    _clean, hostile, planted, _repo = builds
    text = {name: _visible(path) for name, path in _pages(hostile).items()}
    everything = "\n".join(text.values())
    markers = set(re.findall(r"\bK\d+\b", everything)) & set(planted)
    where = {planted[marker] for marker in markers}
    for sink in ("mkdocs.yml:extra.kb_languages:name", "ru:ui:Wargame Rules Knowledge Base", "ru:ui:See also",
                 "ru:ui:Glossary", "ru:ui:Rules A–Z", "ru:ui:Systems", "ru:ui:For developers",
                 "ru:rules/wap/_system:wap:name", "ru:rules/glossary:term:vanguard:term", "en:rules/t9a/scout:t9a/scout:title"):
        assert sink in where, f"the payload planted in {sink} is not shown on any page"
    assert len(markers) > 0.6 * len(planted), f"only {len(markers)} of {len(planted)} payloads are shown"
    title = re.search(r"<title>(.*?)</title>", (hostile / "ru/wap/dodge/index.html").read_text(encoding="utf-8"), re.S)
    site_name = next(m for m, place in planted.items() if place == "ru:ui:Wargame Rules Knowledge Base")
    assert site_name in html_module.unescape(title.group(1)), "the translated site name is not in <title> as text"


def test_a_rule_translation_with_markup_or_template_syntax_is_shown_as_literal_text(builds):
    _clean, hostile, _planted, _repo = builds
    for (lang, catalog, key), text in FIXED.items():
        if not catalog.startswith("rules/"):
            continue
        page = hostile / lang / key.split(":")[0] / "index.html"
        assert "<script>alert(1)</script>" not in page.read_text(encoding="utf-8")
        assert text in _visible(page), f"{key}: {text!r} is not shown as written"


def test_an_interface_translation_with_markup_or_template_syntax_is_shown_as_literal_text(builds):
    _clean, hostile, _planted, _repo = builds
    page = (hostile / "ru/t9a/scout/index.html")
    assert "<script>alert(1)</script>" not in page.read_text(encoding="utf-8")
    shown = _visible(page)
    assert "Текст <script>alert(1)</script>" in shown
    assert "Примеры {{ config }}" in shown
    assert "Разъяснения {% raw %}x{% endraw %}" in shown


def test_an_interface_translation_with_a_lone_percent_falls_back_to_english_and_is_reported(builds):
    _clean, hostile, _planted, repo = builds
    assert re.search(r'<h2 id="ask">Ask this rule', (hostile / "ru/t9a/scout/index.html").read_text(encoding="utf-8"))
    problems = check_catalogs(repo, prepare(repo).kb, ["ru"])
    assert any(problem.subject == "'Ask this rule'" and "lone %" in problem.message for problem in problems)


def test_a_hostile_search_label_reaches_the_page_as_json_data_not_markup(builds):
    _clean, hostile, _planted, _repo = builds
    html = (hostile / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    labels = re.search(r"data-kb-labels='([^']*)'", html)  # not cut short by the payload's quote
    assert labels, "no search labels on the page"
    assert json.loads(html_module.unescape(labels.group(1)))["total_zero_results"] == "'><script>alert(1)</script>"


def test_the_json_export_stays_valid_json_holding_the_payloads_as_strings(builds):
    _clean, hostile, planted, _repo = builds
    data = json.loads((hostile / "ru/api/rules.json").read_text(encoding="utf-8"))
    dumped = json.dumps(data, ensure_ascii=False)
    assert "Опасно: <script>alert(1)</script> конец." in dumped
    assert sum(marker in dumped for marker in planted) > 10
