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
