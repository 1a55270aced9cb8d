"""The site navigation: every page in it (MkDocs warns of none), rules under their system, and a large system's
rules under their titles' first letters (a crowded letter cut into bounded runs), kept right by `make serve` when a
title edit moves a rule."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

from .conftest import ROOT
from .test_serve import _edit, _files
from .languages import LANGUAGES as CONFIGURED

LANGUAGES = [{"code": lang} for lang in CONFIGURED]


def _translations(lang: str):
    from generator.core.problems import Problems
    from generator.i18n.translate import Translations

    problems = Problems()
    translations = Translations.load(ROOT, lang, problems)
    assert not problems
    return translations


def _paths(entries) -> list[str]:
    """Every page path of a navigation, in order."""
    found = []
    for entry in entries:
        if isinstance(entry, str):
            found.append(entry)
        elif isinstance(entry, dict):
            for value in entry.values():
                found += [value] if isinstance(value, str) else _paths(value)
        else:
            found += _paths(entry)
    return found


@pytest.mark.parametrize("lang", CONFIGURED)
def test_the_navigation_lists_every_page_once_so_mkdocs_warns_of_none(kb, lang):
    from generator.render.pages import Renderer

    renderer = Renderer(kb, _translations(lang), LANGUAGES, status=object())  # with the status page, as a build has
    listed = _paths(renderer.nav())
    assert sorted(listed) == sorted(renderer.makers()) and len(listed) == len(set(listed))


def test_a_system_lists_its_page_then_its_rules_by_path_alone(kb):
    from generator.render.pages import Renderer

    systems = Renderer(kb, _translations("en"), LANGUAGES).system_nav()
    wap = next(entry for entry in systems if "WAP" in next(iter(entry)) or "Warhammer" in next(iter(entry)))
    assert next(iter(wap.values())) == ["wap/index.md"] + [f"{rule.key}.md" for rule in kb.rules_of("wap")]


@pytest.mark.parametrize("lang, letters", [
    ("en", {"D": ["wap/daemon-of-nurgle", "wap/daemonic", "wap/dodge"], "I": ["wap/immunity"],
            "M": ["wap/martial-arts"], "S": ["wap/skirmishers", "wap/strider"]}),
    ("ru", None),
], ids=["en", "ru"])
def test_a_large_system_lists_its_rules_under_their_titles_first_letters_in_the_pages_language(
        kb, monkeypatch, lang, letters):
    from generator.render import pages
    from generator.render.pages import Renderer

    monkeypatch.setattr(pages, "NAV_LETTERS_ABOVE", 3)  # wap has 7 rules, the other systems 3 or fewer
    renderer = Renderer(kb, _translations(lang), LANGUAGES)
    systems = {next(iter(entry)): next(iter(entry.values())) for entry in renderer.system_nav()}
    grouped = [listed for listed in systems.values() if any(isinstance(item, dict) for item in listed)]
    assert len(grouped) == 1  # wap only
    index, *groups = grouped[0]
    assert index == "wap/index.md"
    found = {letter: [path.removesuffix(".md") for path in paths] for group in groups for letter, paths in group.items()}
    titles = {rule.key: shown for _key, shown, rule in renderer.alphabetical()}
    for letter, keys in found.items():
        assert all(titles[key].replace("Ё", "Е").upper().startswith(letter) for key in keys), (letter, keys)
        assert keys == sorted(keys, key=lambda key: titles[key].casefold().replace("ё", "е"))
    assert list(found) == sorted(found)
    assert sorted(key for keys in found.values() for key in keys) == sorted(rule.key for rule in kb.rules_of("wap"))
    if letters is not None:
        assert found == letters
    else:
        assert all("А" <= letter <= "Я" for letter in found), found  # the Russian titles' letters


def test_a_title_edit_that_moves_a_rule_to_another_letter_leaves_the_site_a_full_build_would_make(
        repo, tmp_path, monkeypatch):
    from generator.render import pages
    from generator.serve import live as live_module
    from generator.serve.live import LiveSite
    from generator.site.build import build_site

    for module in (pages, live_module):
        monkeypatch.setattr(module, "NAV_LETTERS_ABOVE", 3)
    live = LiveSite(repo, tmp_path / "served", search=False)
    live.rebuild()
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Treading Lightly")  # S -> T
    live.update({"rules/wap/strider.yaml"})
    assert live.settle(60)
    assert _files(live.out) == _files(build_site(repo, tmp_path / "full", quiet=True, search=False))
    # A retitled rule that keeps its letter is written page by page: its own pages first, the rest after.
    _edit(repo / "rules/wap/dodge.yaml", "title: Dodge", "title: Dodging")
    assert live.update({"rules/wap/dodge.yaml"}) == len(CONFIGURED)
    assert live.settle(60)
    assert _files(live.out) == _files(build_site(repo, tmp_path / "full-again", quiet=True, search=False))


class _Rule:
    """A rule as nav_groups sees it: a key."""

    def __init__(self, key: str):
        self.key = key


def _ordered(titles: list[str]) -> list:
    entries = [(title.casefold(), title, _Rule(f"s/r-{number:04d}")) for number, title in enumerate(titles)]
    return sorted(entries, key=lambda entry: (entry[0], entry[2].key))


def test_a_crowded_letter_is_cut_into_runs_of_at_most_the_bound_in_order_each_labelled_apart():
    from generator.render.pages import NAV_GROUP_MOST, nav_groups

    ordered = _ordered(["Dodge"] * 1000 + ["Daemonic", "Strider"])
    groups = nav_groups(ordered)
    assert [rule.key for _label, rules in groups for rule in rules] == [rule.key for _k, _t, rule in ordered]
    assert all(0 < len(rules) <= NAV_GROUP_MOST for _label, rules in groups)
    assert len(groups) == -(-1001 // NAV_GROUP_MOST) + 1  # the fewest runs for D, and S alone
    labels = [label for label, _rules in groups]
    assert len(set(labels)) == len(labels)
    assert labels[0].startswith("Da – Dodge 1–") and labels[1].startswith("Dodge ") and labels[-1] == "S"


def test_runs_of_different_titles_are_labelled_by_the_starts_that_tell_them_from_their_neighbours():
    from generator.render import pages

    titles = ["Правило " + word for word in ("атаки", "бега", "вызова") for _ in range(30)]
    assert [label for label, _rules in pages.nav_groups(_ordered(titles))] == [
        "Правило атаки", "Правило бега", "Правило вызова"]
    titles = ["Dab", "Dac", "Dag", "Dog", "Dol", "Dz"]
    groups = pages.nav_groups(_ordered(titles * 10))  # 60 rules: two runs of 30
    assert [label for label, _rules in groups] == ["Dab – Dag", "Do – Dz"]


def _sidebar_rules(site, lang: str, page: str, system: str) -> set[str]:
    """The pages of `system` that the primary navigation of `page` links to (its table of contents left out)."""
    html = (site / lang / page / "index.html").read_text(encoding="utf-8")
    sidebar = html[html.index("md-nav--primary"):html.index("md-sidebar--secondary")]
    base = f"http://site/{lang}/{page}/"
    found = {urljoin(base, href).removeprefix(f"http://site/{lang}/").strip("/")
             for href in re.findall(r'<a href="([^"]*)" class="md-nav__link', sidebar)}
    return {path for path in found if path.startswith(f"{system}/") and "#" not in path}  # "#": the page's contents


def test_a_page_of_a_large_system_lists_a_bounded_part_of_it_and_every_rule_is_two_steps_from_the_system_page(
        repo, tmp_path, monkeypatch):
    from generator.render import pages
    from generator.site.build import build_site

    most, copies = 4, 26  # with wap/dodge: 27 rules titled alike in one letter, 7 runs of at most 4
    monkeypatch.setattr(pages, "NAV_GROUP_MOST", most)
    monkeypatch.setattr(pages, "NAV_LETTERS_ABOVE", 5)  # wap: 7 rules of its own
    source = (repo / "rules/wap/dodge.yaml").read_text(encoding="utf-8")
    for number in range(copies):
        name = f"dodge-copy-{number:02d}"
        (repo / f"rules/wap/{name}.yaml").write_text(
            source.replace("id: dodge", f"id: {name}", 1).replace("wap/dodge", f"wap/{name}"), encoding="utf-8")
        for catalog in repo.glob("translations/*/rules/wap/dodge.po"):
            text = catalog.read_text(encoding="utf-8").replace("wap/dodge", f"wap/{name}")
            catalog.with_name(f"{name}.po").write_text(text, encoding="utf-8")
    site = build_site(repo, tmp_path / "site", quiet=True, search=False)
    for lang in ("en", "ru"):
        rules = {f"wap/{path.parent.name}" for path in (site / lang / "wap").glob("*/index.html")}
        assert len(rules) == 7 + copies
        groups = -(-(1 + copies) // most) + 4  # the Dodge runs, and D, I, M, S (ru: the Russian letters, as few)
        from_system = _sidebar_rules(site, lang, "wap", "wap")
        for rule in rules:
            listed = _sidebar_rules(site, lang, rule, "wap")
            # The system's page, one link per group, and the page's own group: never all 33.
            assert rule in listed and len(listed) <= 1 + groups + most, (lang, rule, sorted(listed))
            # Two steps: a group's first rule is linked from the system's page, the group's rules from that page.
            assert rule in from_system or any(rule in _sidebar_rules(site, lang, first, "wap")
                                              for first in from_system - {"wap"}), (lang, rule)
