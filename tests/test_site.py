"""The built site: strict MkDocs build, both languages, same addresses, working links, nothing external."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from generator.core.problems import Problems
from generator.i18n.translate import Translations
from generator.render.values import in_words
from generator.site.build import build_site, prepare

from .conftest import DATE, ROOT, copy_for, served_at
from .languages import LANGUAGES


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
        for lang in LANGUAGES:
            assert (site / lang / key / "index.html").is_file(), f"/{lang}/{key}/ is missing"


def test_clause_anchors_are_the_same_in_both_languages(site, kb):
    rule = kb.rules["t9a/scout"]
    for lang in LANGUAGES:
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
    assert re.search(r"Схемы: (1 ситуация|[234] ситуации|\d+ ситуаций)", html)  # a counted message, Russian plural


def test_theme_words_on_a_russian_page_are_russian_the_heading_anchors_tooltip_too(site):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    assert 'title="Постоянная ссылка"' in html and "Permanent link" not in html
    assert 'aria-label="Шапка сайта"' in html and "колонтитул" not in html
    assert 'title="Permanent link"' in (site / "en/t9a/scout/index.html").read_text(encoding="utf-8")


def test_two_rules_with_one_title_are_listed_with_their_system_and_the_contents_mark_its_language(site):
    see_also = (site / "ru/t9a/light-infantry/index.html").read_text(encoding="utf-8").split('class="kb-see-also"')[1]
    assert re.search(r'>Застрельщики</a> <small>\(<span lang="en">Warhammer Armies Project</span>\)</small>', see_also)
    assert "Разведчик</a> <small>" not in see_also  # a title no other rule has stands alone
    clarifications = (site / "ru/clarifications/index.html").read_text(encoding="utf-8")
    contents = clarifications.split('data-md-component="toc"')[1]
    assert 'Застрельщики (<span lang="en">AD&amp;D Battlesystem</span>)' in contents
    english = (site / "en/glossary/index.html").read_text(encoding="utf-8")
    assert ">Skirmishers</a> <small>(AD&amp;D Battlesystem)</small>" in english


def test_a_question_heading_asks_in_russian_and_loses_its_full_stop_in_both_languages(site):
    russian = (site / "ru/t9a/requires-two-hands/index.html").read_text(encoding="utf-8")
    assert ">Может ли модель пользоваться Щитом при выбранном оружии?<" in russian
    assert re.search(r'id="predicate-to_hit_modifier">Дополнительный модификатор[^<.?]*<',
                     (site / "ru/t9a/light-infantry/index.html").read_text(encoding="utf-8"))  # a noun phrase
    english = (site / "en/t9a/scout/index.html").read_text(encoding="utf-8")
    assert 'id="predicate-deploy_ok">Whether a Scout unit may be set up in the chosen spot<' in english


def test_an_alias_that_repeats_the_title_is_not_listed_and_the_a_z_names_the_system_after_a_dash(site):
    english = (site / "en/t9a/scout/index.html").read_text(encoding="utf-8")
    assert "Also known as" not in english  # "Scout" is the English title itself
    assert 'Другие названия: <span lang="en"' in (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    a_z = (site / "ru/a-z/index.html").read_text(encoding="utf-8")
    assert "</a>&nbsp;— <small>" in a_z and "</a> <small>(" not in a_z


def test_numbers_follow_the_locale_with_russian_plurals():
    problems = Problems()
    ru = Translations.load(ROOT, "ru", problems)
    en = Translations.load(ROOT, "en", problems)
    assert not problems
    situations = ("Diagrams: %(num)s situation", "Diagrams: %(num)s situations")
    assert [ru.ngettext(*situations, count) % {"num": count} for count in (1, 2, 5, 21, 1.5)] == [
        "Схемы: 1 ситуация", "Схемы: 2 ситуации", "Схемы: 5 ситуаций", "Схемы: 21 ситуация", "Схемы: 1.5 ситуации"]
    assert [en.ngettext(*situations, count) % {"num": count} for count in (1, 2)] == [
        "Diagrams: 1 situation", "Diagrams: 2 situations"]
    assert str(in_words("inches", 0.5, en)) == "½″" and str(in_words("number", 17.9, ru)) == "17,9"
    # A quarter is written as the clauses write a half: half of 7½″ is «3¾″», not «3,75″».
    assert [str(in_words("inches", value, ru)) for value in (3.75, 0.25, 1.5, 3.7)] == ["3¾″", "¼″", "1½″", "3,7″"]


def test_two_builds_of_the_same_input_are_byte_identical_search_index_and_export_included(site, counted_build):
    _repo, again, _rendered = counted_build  # a copy of the same inputs, built in this process with the same date
    files = sorted(path.relative_to(site) for path in site.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(again) for path in again.rglob("*") if path.is_file())
    assert any(str(path).startswith("pagefind/") for path in files) and Path("ru/api/rules.json") in files
    different = [str(path) for path in files if (site / path).read_bytes() != (again / path).read_bytes()]
    assert not different, different


def test_a_missing_translation_falls_back_to_the_source_visibly_marked_and_the_build_passes(planted_site, kb):
    html = (planted_site / "ru/wap/martial-arts/index.html").read_text(encoding="utf-8")
    assert 'class="kb-untranslated" lang="en"' in html
    assert kb.rules["wap/martial-arts"].summary.split()[0] in html
    assert "ещё не переведена" in html  # the page-level notice, in Russian

@pytest.fixture(scope="module")
def counted_build(tmp_path_factory, pytestconfig):
    """A repository copy built once with the session's date, counting the languages rendered: (repo, site, counted).

    Built with its search index from the inputs `site` is built from, so that it is also the second build the
    byte-identical test compares.
    """
    from generator.site import build as site_module

    work = tmp_path_factory.mktemp("counted")
    repo = copy_for(served_at(pytestconfig, "clean"), work / "repo")
    rendered, real = [], site_module.language_build
    site_module.language_build = lambda prepared, lang, *rest, **options: rendered.append(lang) or real(prepared, lang, *rest, **options)
    try:
        out = build_site(repo, work / "site", quiet=True, date=DATE)
    finally:
        site_module.language_build = real
    return repo, out, rendered


def test_a_build_renders_each_language_exactly_once(counted_build):
    _repo, _out, rendered = counted_build
    assert sorted(rendered) == sorted(LANGUAGES)


def test_the_sitemap_date_is_the_build_date_passed_in_and_the_environment_is_left_alone(counted_build):
    import os

    _repo, out, _rendered = counted_build
    sitemap = (out / "en/sitemap.xml").read_text(encoding="utf-8")
    assert "<lastmod>2023-11-14</lastmod>" in sitemap and "<lastmod>" + "2026" not in sitemap
    assert "SOURCE_DATE_EPOCH" not in os.environ or os.environ["SOURCE_DATE_EPOCH"] != str(DATE)


def _retitle(repo: Path, title: str):
    path = repo / "rules/wap/strider.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^title: .*$", f"title: {title}", text, count=1), encoding="utf-8")


def test_generator_site_shows_an_edited_rule_on_the_next_build_in_the_same_process(counted_build, tmp_path):
    repo, first, _rendered = counted_build  # built once already in this process, before the edit
    assert "Strider Edited Once" not in (first / "en/wap/strider/index.html").read_text(encoding="utf-8")
    _retitle(repo, "Strider Edited Once")
    again = build_site(repo, tmp_path / "site", quiet=True, search=False)
    assert "Strider Edited Once" in (again / "en/wap/strider/index.html").read_text(encoding="utf-8")


def test_plain_mkdocs_builds_show_an_edited_rule_on_the_next_build_in_the_same_process(repo, tmp_path):
    """What `mkdocs serve` does on a change: load the config afresh and build it in the same process."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    def mkdocs_build() -> str:
        build(load_config(config_file=str(repo / "mkdocs.yml"), site_dir=str(tmp_path / "mk")))
        return (tmp_path / "mk/wap/strider/index.html").read_text(encoding="utf-8")

    assert "Strider Edited" not in mkdocs_build()
    _retitle(repo, "Strider Edited Twice")
    assert "Strider Edited Twice" in mkdocs_build()


def _folder(path: Path, text: str) -> Path:
    path.mkdir()
    (path / "index.html").write_text(text, encoding="utf-8")
    return path


def test_publishing_swaps_the_new_site_in_without_ever_renaming_the_old_one_away(tmp_path, monkeypatch):
    import os

    from generator.site.publish import publish

    out, staging = _folder(tmp_path / "site", "old"), _folder(tmp_path / "site.staging", "new")

    def no_moment_without_site(*args, **kwargs):
        raise AssertionError("site/ was renamed away: between two renames there would be no site/")

    monkeypatch.setattr(os, "replace", no_moment_without_site)
    monkeypatch.setattr(os, "rename", no_moment_without_site)
    publish(staging, out)
    assert (out / "index.html").read_text(encoding="utf-8") == "new"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["site"]  # the old site is gone, no leftovers


def test_the_first_publish_creates_the_site_folder(tmp_path):
    from generator.site.publish import publish

    publish(_folder(tmp_path / "site.staging", "new"), tmp_path / "site")
    assert (tmp_path / "site/index.html").read_text(encoding="utf-8") == "new"
    assert not (tmp_path / "site.staging").exists()


@pytest.mark.parametrize("folder", ["docs/assets", "site_overrides"])
def test_a_symlink_out_of_the_checkout_under_a_published_folder_stops_the_build_before_anything_is_written(
        repo, tmp_path, folder):
    from generator.core.problems import InputError

    secret = tmp_path / "outside.txt"
    secret.write_text("a secret of the build machine", encoding="utf-8")
    (repo / folder / "notes.txt").symlink_to(secret)
    with pytest.raises(InputError) as raised:
        build_site(repo, tmp_path / "site", quiet=True)
    report = raised.value.problems.report()
    assert f"{folder}/notes.txt" in report and "outside the repository" in report
    assert "a secret" not in report
    assert not (tmp_path / "site").exists() and not (tmp_path / "site.staging").exists()


@pytest.mark.parametrize("one_off", [True, False], ids=["generator-site", "serve"])
def test_a_one_off_build_lets_go_of_its_input_before_pagefind_runs_beside_it(tmp_path, monkeypatch, one_off):
    # Pagefind's process and this one are resident together: the input must not be held through indexing.
    import weakref

    import mkdocs.commands.build

    from generator.site import build as site_module

    made = []
    monkeypatch.setattr(site_module, "prepare", lambda root: made.append(prepare(root)) or made[-1])

    def written(config):  # what the root page reads of a written language
        Path(config.site_dir).mkdir(parents=True)
        (Path(config.site_dir) / "index.html").write_text("<html></html>", encoding="utf-8")

    monkeypatch.setattr(mkdocs.commands.build, "build", written)
    alive = []

    def index(staging):
        alive.append(held() is not None)
        return "indexed"

    monkeypatch.setattr(site_module, "index_search", index)
    build = site_module.Build(ROOT, date=DATE)
    held = weakref.ref(build.prepared)
    made.clear()  # from here only the build's own reference keeps it
    site_module.write_site(build, tmp_path / "site", quiet=True, one_off=one_off)
    assert alive == [not one_off] and not made  # `make serve` keeps its build's input; nothing was read again


def test_an_isolated_build_writes_its_pages_in_a_child_that_has_exited_before_pagefind_runs(tmp_path, monkeypatch):
    import os

    from generator.site import build as site_module

    def written(config):  # in the child: the page names the process that wrote it
        Path(config.site_dir).mkdir(parents=True)
        (Path(config.site_dir) / "index.html").write_text(f"<html>{os.getpid()}</html>", encoding="utf-8")

    def index(staging):
        writer = int(re.search(r"\d+", (staging / "en" / "index.html").read_text(encoding="utf-8")).group())
        try:
            os.kill(writer, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        seen.append((writer, alive))
        return "indexed"

    seen = []
    monkeypatch.setattr(site_module, "mkdocs_build", written)
    monkeypatch.setattr(site_module, "index_search", index)
    out = build_site(ROOT, tmp_path / "site", quiet=True, date=DATE, isolated=True)
    assert len(seen) == 1 and seen[0][0] != os.getpid() and not seen[0][1], seen
    assert (out / "en" / "index.html").is_file() and (out / "index.html").is_file()


def test_an_isolated_build_reports_every_problem_of_the_input_and_writes_nothing(tmp_path, monkeypatch):
    from generator.core.problems import InputError
    from generator.site import build as site_module

    def broken(root):
        problems = Problems()
        problems.add("rules/t9a/scout.yaml", 3, "t9a/scout", "no title", "add one")
        problems.add("rules/t9a/skirmishers.yaml", 5, "t9a/skirmishers", "no source", "add one")
        raise InputError(problems)

    monkeypatch.setattr(site_module, "prepare", broken)
    with pytest.raises(InputError) as raised:
        build_site(ROOT, tmp_path / "site", quiet=True, date=DATE, isolated=True)
    assert len(raised.value.problems) == 2 and "rules/t9a/scout.yaml:3: t9a/scout: no title" in raised.value.problems.report()
    assert not (tmp_path / "site").exists() and not (tmp_path / "site.staging").exists()
