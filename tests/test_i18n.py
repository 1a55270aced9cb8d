"""Catalog updates never lose a translation; checks catch what a translation must carry; translations stay data."""

from __future__ import annotations

from babel.messages.pofile import read_po

from generator.core.problems import Problems
from generator.i18n.checks import check_message, numbers_in
from generator.i18n.po.reader import read_catalog
from generator.i18n.translate import FUZZY, Translations

from .conftest import ROOT, run_generator
from .languages import LANGUAGES

CATALOG = "translations/ru/rules/wap/strider.po"


def generator(repo, *args):
    return run_generator(repo, *args)


def entry(repo, path, context):
    catalog = read_catalog(repo / path, "ru")
    return next((m for m in catalog if m.context == context), None), catalog


def test_editing_a_source_clause_keeps_the_translation_and_marks_it_fuzzy(repo):
    message, _ = entry(repo, CATALOG, "wap/strider:title")
    assert message is not None and message.string and not message.fuzzy
    path = repo / "rules/wap/strider.yaml"
    text = path.read_text(encoding="utf-8")
    old_title = text.split("title:", 1)[1].split("\n", 1)[0].strip()
    path.write_text(text.replace(f"title: {old_title}", f"title: {old_title} (revised)", 1), encoding="utf-8")
    assert generator(repo, "i18n", "update").returncode == 0
    updated, _ = entry(repo, CATALOG, "wap/strider:title")
    assert updated.string == message.string
    assert updated.fuzzy
    assert updated.previous_id == [old_title]
    assert "#| msgid" in (repo / CATALOG).read_text(encoding="utf-8")


def test_deleting_a_rule_leaves_its_messages_obsolete_not_dropped(repo):
    translated = [m for m in read_po(open(repo / CATALOG, "rb")) if m.id and m.string]
    (repo / "rules/wap/strider.yaml").unlink()
    assert generator(repo, "i18n", "update").returncode == 0
    _, catalog = entry(repo, CATALOG, "wap/strider:title")
    assert len([m for m in catalog if m.id]) == 0
    assert len(catalog.obsolete) == len(translated)
    assert "#~ msgctxt \"wap/strider:title\"" in (repo / CATALOG).read_text(encoding="utf-8")


def test_updating_twice_changes_nothing(repo):
    assert generator(repo, "i18n", "update").returncode == 0
    before = {p: p.read_bytes() for p in (repo / "translations").rglob("*.po")}
    result = generator(repo, "i18n", "update")
    assert result.returncode == 0 and "0 file(s) changed" in result.stdout
    assert {p: p.read_bytes() for p in (repo / "translations").rglob("*.po")} == before


def test_a_broken_catalog_is_reported_with_its_line_and_nothing_is_written(repo):
    path = repo / CATALOG
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace('msgctxt "wap/strider:title"', 'msgctxt "wap/strider:title\nnot po syntax', 1),
                    encoding="utf-8")
    result = generator(repo, "check")
    assert result.returncode == 2
    assert CATALOG + ":" in result.stdout and "must hold one string in double quotes" in result.stdout
    before = path.read_bytes()
    assert generator(repo, "i18n", "update").returncode == 2
    assert path.read_bytes() == before


# --- what a translation must carry over ----------------------------------------------------------

def test_numbers_are_compared_after_normalising_decimal_commas_fractions_and_minus_signs():
    assert numbers_in("stand 0,5″ apart and take −1") == numbers_in("stand ½″ apart, take -1")
    assert numbers_in("18″") != numbers_in("12″")


def test_a_missing_number_is_reported_and_a_carried_one_is_not():
    assert check_message("No closer than 18″.", "Не ближе 12″.", "en", "ru", []) != []
    assert check_message("No closer than 18″.", "Не ближе 18″.", "en", "ru", []) == []


def test_a_number_the_source_repeats_must_be_carried_as_often_as_it_occurs():
    issues = check_message("Move 3″, then 3″ more.", "Переместитесь на 3″, затем ещё.", "en", "ru", [])
    assert len(issues) == 1 and "does not carry 3 " in issues[0], issues
    assert check_message("Move 3″, then 3″ more.", "Переместитесь на 3″, затем ещё на 3″.", "en", "ru", []) == []


def test_a_changed_cross_reference_is_reported_but_new_shown_words_are_fine():
    source = "Has [[term:vanguard]]."
    assert check_message(source, "Имеет [[term:vanguard|Авангард]].", "en", "ru", []) == []
    assert check_message(source, "Имеет [[term:fly|Авангард]].", "en", "ru", []) != []
    assert check_message(source, "Имеет Авангард.", "en", "ru", []) != []


def test_markup_present_in_one_and_not_the_other_is_reported():
    assert check_message("Use `M` here.", "Используйте M.", "en", "ru", []) != []
    assert check_message("Use *only* M.", "Используйте *только* `M`.", "en", "ru", []) != []
    assert check_message("Use *only* `M`.", "Используйте *только* `M`.", "en", "ru", []) == []


def test_glossary_terms_must_be_used_in_any_inflection():
    from generator.i18n.glossary import Term

    glossary = [Term("light infantry", "Легкая пехота")]
    assert check_message("Shots at light infantry", "Стрельба по лёгкой пехоте", "en", "ru", glossary) == []
    assert check_message("Shots at light infantry", "Стрельба по застрельщикам", "en", "ru", glossary) != []


def test_i18n_check_passes_on_the_repository():
    result = generator(ROOT, "i18n", "check")
    assert result.returncode == 0, result.stdout[-3000:]


def test_i18n_check_reports_a_broken_translation_as_catalog_line_msgid_problem(repo):
    path = repo / CATALOG
    text = path.read_text(encoding="utf-8")
    message, _ = entry(repo, CATALOG, "wap/strider:title")
    path.write_text(text.replace("[[", "[[x", 1) if "[[" in text else text, encoding="utf-8")
    result = generator(repo, "i18n", "check")
    assert result.returncode == 2
    first = result.stdout.splitlines()[0]
    assert first.startswith(CATALOG + ":") and "wap/strider:" in first


# --- status and new languages --------------------------------------------------------------------

def test_status_counts_translated_fuzzy_and_missing_per_catalog(repo):
    import json

    result = generator(repo, "i18n", "status", "--json")
    assert result.returncode == 0
    report = {entry["lang"]: entry for entry in json.loads(result.stdout)}
    assert set(report) == set(LANGUAGES)
    ru = report["ru"]["catalogs"]["rules/wap/strider"]
    assert ru["translated"] > 0 and set(ru) == {"translated", "fuzzy", "missing"}


def test_status_counts_despite_a_broken_reference_but_refuses_a_rule_that_does_not_load(repo):
    path = repo / "rules/wap/strider.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\nsee_also:\n  - " in text
    path.write_text(text.replace("\nsee_also:\n", "\nsee_also:\n  - wap/no-such-rule\n", 1), encoding="utf-8")
    assert generator(repo, "check").returncode == 2  # validation is check's to report
    counted = generator(repo, "i18n", "status")
    assert counted.returncode == 0, counted.stderr
    assert "rules/wap/strider:" in counted.stdout
    path.write_text(text + "no_such_key: 1\n", encoding="utf-8")
    refused = generator(repo, "i18n", "status")
    assert refused.returncode == 2 and "no_such_key" in refused.stderr and refused.stdout == ""


def test_init_creates_catalogs_for_a_new_language_with_everything_untranslated(repo):
    result = generator(repo, "i18n", "init", "de")
    assert result.returncode == 0, result.stderr
    catalogs = list((repo / "translations/de").rglob("*.po"))
    assert any(p.name == "ui.po" for p in catalogs) and any(p.name == "scout.po" for p in catalogs)
    assert "terms: []" in (repo / "translations/de/glossary.yaml").read_text(encoding="utf-8")
    problems = Problems()
    translations = Translations.load(repo, "de", problems)
    assert not problems
    assert translations.text("t9a/scout:title", "Разведчик", "ru").state == "missing"


def test_a_stale_translation_reads_as_fuzzy_before_anyone_runs_update(repo):
    problems = Problems()
    translations = Translations.load(repo, "ru", problems)
    message, _ = entry(repo, CATALOG, "wap/strider:title")
    assert translations.text("wap/strider:title", message.id + " changed", "en").state == FUZZY


def test_pybabel_extract_reads_rule_yaml_through_the_registered_extractor(tmp_path, monkeypatch):
    from babel.messages.frontend import CommandLineInterface

    output = tmp_path / "messages.pot"
    monkeypatch.chdir(ROOT)
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(output), "."])
    with open(output, "rb") as handle:
        ids = {m.id for m in read_po(handle) if m.id}
    assert "Разведчик" in ids  # from rules/t9a/scout.yaml, via the kb_rules extractor
    assert "Rule text" in ids  # from the Jinja page templates


def test_a_plural_message_with_the_wrong_number_of_forms_is_reported(repo):
    path = repo / "translations/ru/ui.po"
    catalog = read_catalog(path, "ru")
    message = next(m for m in catalog if isinstance(m.id, tuple) and m.id[0] == "Diagrams: %(num)s situation")
    message.string = ("Схемы: %(num)s ситуация", "Схемы: %(num)s ситуации")
    from generator.i18n.po.writer import render_catalog

    path.write_bytes(render_catalog(catalog))
    result = generator(repo, "i18n", "check")
    assert result.returncode == 2
    assert "translations/ru/ui.po:" in result.stdout and "plural forms" in result.stdout


def test_a_new_language_builds_with_everything_marked_untranslated_in_english_before_the_source(repo, tmp_path):
    from generator.site.build import build_site

    from generator.site.mkdocs_config import read_languages

    assert generator(repo, "i18n", "init", "de").returncode == 0
    assert read_languages(repo)[-1] == {"code": "de", "name": "Deutsch"}  # init configured it: no edit by hand
    out = build_site(repo, tmp_path / "site", quiet=True, search=False)  # the pages are under test, not the index
    html = (out / "de/t9a/scout/index.html").read_text(encoding="utf-8")
    # T9A's source is Russian, but its English translation is complete: a German reader gets English, marked so.
    assert '<html lang="de"' in html and 'class="kb-untranslated" lang="en"' in html
    assert 'class="kb-untranslated" lang="ru"' not in html
    assert 'href="../../../de/t9a/scout/"' in (out / "ru/t9a/scout/index.html").read_text(encoding="utf-8") or \
        "/../de/t9a/scout/" in (out / "ru/t9a/scout/index.html").read_text(encoding="utf-8")


def test_a_long_changed_text_keeps_its_previous_msgid_through_repeated_updates(repo):
    path = repo / "rules/wap/strider.yaml"
    message, _ = entry(repo, CATALOG, "wap/strider:summary")
    original = message.id
    assert len(original) > 80  # long enough to be wrapped over several lines
    text = path.read_text(encoding="utf-8")
    first_line = text.split("summary: >-\n", 1)[1].split("\n", 1)[0]
    path.write_text(text.replace(first_line, first_line + " (revised)", 1), encoding="utf-8")
    assert generator(repo, "i18n", "update").returncode == 0
    updated, _ = entry(repo, CATALOG, "wap/strider:summary")
    assert updated.fuzzy and updated.previous_id == [original]
    assert updated.user_comments == message.user_comments
    written = (repo / CATALOG).read_text(encoding="utf-8")
    previous_block = written.split('#| msgid ""\n', 1)[1].split("msgctxt", 1)[0]
    assert all(line.startswith('#| "') and line.endswith('"') for line in previous_block.strip().splitlines())
    before = (repo / CATALOG).read_bytes()
    assert generator(repo, "i18n", "update").returncode == 0
    assert (repo / CATALOG).read_bytes() == before


def test_update_accepts_names_after_options(repo):
    result = generator(repo, "i18n", "update", "--lang", "ru", "wap/strider")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ru:")


def test_a_russian_term_is_recognised_in_forms_the_stemmer_splits():
    from generator.i18n.glossary import Term

    glossary = [Term("rout", "разгром")]
    for text in ("при разгроме отряд уходит", "разгрома не будет", "это разгром"):
        assert check_message("The unit suffers a rout.", text, "en", "ru", glossary) == [], text
    assert check_message("The unit suffers a rout.", "Отряд бежит.", "en", "ru", glossary) != []


# --- the previous msgid is the text the translation was made for (F16) -------------------------------------

def _update(repo):
    from generator.cli import main

    assert main(["--root", str(repo), "i18n", "update"]) == 0


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


WRAPPED = "translations/ru/rules/battlesystem-campaign/fighting-withdrawal.po"
WRAPPED_CONTEXT = "battlesystem-campaign/fighting-withdrawal:predicate:may_attempt:arg:in_contact"


def test_after_two_edits_of_a_message_with_a_wrapped_context_the_previous_msgid_is_the_original(repo):
    original, _ = entry(repo, WRAPPED, WRAPPED_CONTEXT)
    assert original.string and 'msgctxt ""\n"battlesystem-campaign/fighting-"' in (repo / WRAPPED).read_text("utf-8")
    rule = repo / "rules/battlesystem-campaign/fighting-withdrawal.yaml"
    _replace(rule, original.id, original.id + " (edit 1)")
    _update(repo)
    _replace(rule, original.id + " (edit 1)", original.id + " (edit 2)")
    _update(repo)
    updated, _ = entry(repo, WRAPPED, WRAPPED_CONTEXT)
    assert updated.fuzzy and updated.string == original.string
    assert updated.previous_id == [original.id]


def test_an_obsolete_fuzzy_message_that_comes_back_shows_the_text_it_was_translated_from(repo, tmp_path):
    rule = repo / "rules/wap/dodge.yaml"
    original, _ = entry(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:title")
    _replace(rule, "title: Dodge", "title: Dodge (revised)")
    _update(repo)
    saved = rule.read_text(encoding="utf-8")
    rule.unlink()
    _update(repo)
    written = (repo / "translations/ru/rules/wap/dodge.po").read_text(encoding="utf-8")
    assert '#, fuzzy\n#~| msgid "Dodge"\n#~ msgctxt "wap/dodge:title"' in written
    rule.write_text(saved, encoding="utf-8")
    _update(repo)
    revived, _ = entry(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:title")
    assert revived.id == "Dodge (revised)" and revived.fuzzy and revived.string == original.string
    assert revived.previous_id == ["Dodge"]


def test_a_source_text_with_backslashes_comes_back_exactly_as_the_previous_msgid(repo):
    from generator.i18n.po.writer import render_catalog

    rule = repo / "rules/wap/dodge.yaml"
    tricky = 'Dodge a\\nb c:\\\\d "q" \\t end'  # literal backslashes, as a YAML single-quoted string keeps them
    _replace(rule, "title: Dodge", f"title: '{tricky}'")
    _update(repo)
    path = repo / "translations/ru/rules/wap/dodge.po"
    catalog = read_catalog(path, "ru")
    message = next(m for m in catalog if m.context == "wap/dodge:title")
    assert message.id == tricky
    message.flags.discard("fuzzy")  # the translator reviews the translation for the new text
    message.previous_id = []
    path.write_bytes(render_catalog(catalog))
    _replace(rule, f"title: '{tricky}'", "title: Dodge again")
    _update(repo)
    updated, _ = entry(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:title")
    assert updated.fuzzy and updated.previous_id == [tricky]


def test_a_longer_glossary_term_covers_the_words_inside_it():
    from generator.i18n.glossary import Term

    glossary = [Term("rank", "ряд"), Term("rank and file", "рядовые")]
    assert check_message("the rank and file models", "рядовые модели", "en", "ru", glossary) == []
    assert check_message("the rank and file in the front rank", "рядовые модели", "en", "ru", glossary) != []


def test_an_accepted_rendering_satisfies_the_glossary_and_anything_else_does_not():
    from generator.i18n.glossary import Term

    glossary = [Term("flee", "Бегство", ("Отступать",))]
    assert check_message("any reaction but Flee", "любая реакция, кроме «Отступать»", "en", "ru", glossary) == []
    assert check_message("any reaction but Flee", "любая реакция, кроме «Бегство!»", "en", "ru", glossary) == []
    assert check_message("any reaction but Flee", "любая реакция, кроме отхода", "en", "ru", glossary) != []
