"""The site navigation: every page in it (MkDocs warns of none), rules under their system, and a large system's
rules under their titles' first letters, kept right by `make serve` when a title edit moves a rule."""

from __future__ import annotations

import pytest

from .conftest import ROOT
from .test_serve import _edit, _files

LANGUAGES = [{"code": "en"}, {"code": "ru"}]


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


@pytest.mark.parametrize("lang", ["en", "ru"])
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
    assert live.update({"rules/wap/dodge.yaml"}) == 2
    assert live.settle(60)
    assert _files(live.out) == _files(build_site(repo, tmp_path / "full-again", quiet=True, search=False))
