"""An untranslated rule text comes from the language's fallback chain (English by default), then from the source."""

from __future__ import annotations

from generator.i18n.po.reader import LookupEntry
from generator.i18n.translate import FUZZY, MISSING, TRANSLATED, Text, Translations, chain, fallback_chain

SOURCE = "Разведчик"  # a Russian-source title


def translations(lang: str, **texts) -> Translations:
    """A language whose catalogs translate the contexts given (fuzzy=… marks one fuzzy)."""
    tr = Translations(root=".", lang=lang)
    for context, string in texts.items():
        fuzzy = context.startswith("fuzzy_")
        tr.entries[context] = LookupEntry(1, context, SOURCE, string, fuzzy, None)
    return tr


def test_the_chain_is_english_by_default_and_what_mkdocs_yml_declares_otherwise():
    assert fallback_chain({"code": "de"}) == ("en",)
    assert fallback_chain({"code": "en"}) == ()
    assert fallback_chain({"code": "uk", "fallback": ["ru", "en"]}) == ("ru", "en")
    assert fallback_chain({"code": "de", "fallback": "nl"}) == ("nl",)
    assert fallback_chain({"code": "de", "fallback": []}) == ()


def test_an_untranslated_text_comes_from_the_first_language_of_the_chain_that_translates_it():
    en, nl = translations("en", title="Scout", fuzzy_title="Scout?"), translations("nl", title="Verkenner")
    de = translations("de", own="Kundschafter")
    languages = [{"code": "en"}, {"code": "nl"}, {"code": "de", "fallback": ["nl", "en"]}]
    chain({"en": en, "nl": nl, "de": de}, languages)
    assert de.fallbacks == (nl, en)
    assert de.text("own", SOURCE, "ru") == Text("Kundschafter", "de", TRANSLATED)
    assert de.text("title", SOURCE, "ru") == Text("Verkenner", "nl", MISSING)  # marked, in the lender's language
    # A fuzzy translation is not lent: the next language, then the source.
    assert de.text("fuzzy_title", SOURCE, "ru") == Text(SOURCE, "ru", MISSING)
    assert de.text("nothing", SOURCE, "ru") == Text(SOURCE, "ru", MISSING)
    assert en.text("fuzzy_title", SOURCE, "ru").state == FUZZY  # English's own page still shows its own


def test_the_chain_stops_at_the_source_language():
    ru, en = translations("ru", title="Лазутчик"), translations("en", title="Scout")
    de = translations("de")
    chain({"ru": ru, "en": en, "de": de}, [{"code": "ru"}, {"code": "en"}, {"code": "de", "fallback": ["ru", "en"]}])
    # The source itself is Russian: its own words, not another Russian translation of them.
    assert de.text("title", SOURCE, "ru") == Text(SOURCE, "ru", MISSING)
    assert de.copy().fallbacks == de.fallbacks


def test_a_third_languages_catalog_of_a_russian_source_rule_shows_the_english_and_is_checked_against_it(repo):
    from .conftest import run_generator

    assert run_generator(repo, "i18n", "init", "pl").returncode == 0
    path = repo / "translations/pl/rules/t9a/scout.po"
    text = path.read_text(encoding="utf-8")
    block = text[:text.index('msgctxt "t9a/scout:clause:placement"')].rsplit("\n\n", 1)[1]
    assert "#. source language: ru\n#. English: There are two choices of place for Scouts." in block
    assert "English:" not in (repo / "translations/ru/rules/wap/strider.po").read_text(encoding="utf-8")
    end = text.index('msgstr ""', text.index('msgctxt "t9a/scout:clause:placement"'))
    # 12″ where the Russian source and the English both say 18″.
    path.write_text(text[:end] + 'msgstr "Zwiadowcy stają we własnej strefie albo 12″ od wroga."' +
                    text[end + len('msgstr ""'):], encoding="utf-8")
    found = run_generator(repo, "i18n", "check", "translations/pl/rules/t9a/scout.po").stdout
    assert "against the English text beside the source: the translation does not carry 18 from the English" in found


def test_a_fallback_that_names_no_configured_language_is_refused_with_the_line_to_write():
    from generator.core.problems import Problems
    from generator.i18n.translate import fallback_problems

    problems = Problems()
    fallback_problems([{"code": "en"}, {"code": "ru"}, {"code": "de", "fallback": ["eb", "ru"]},
                       {"code": "pl", "fallback": {"en": 1}}, {"code": "cs", "fallback": "ru"}], problems)
    report = problems.report()
    assert "de: fallback names eb, not one of the site's languages (cs, de, en, pl, ru)" in report
    assert "pl: fallback is {'en': 1}, not a language code or a list of them" in report
    assert len(problems) == 2
