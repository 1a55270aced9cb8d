"""The site's languages as mkdocs.yml configures them: what every "every language" test loops over.

Tests that are about the English or the Russian text itself name their language; every other test takes these,
so `i18n init` of a new language needs no edit here (tests/test_any_language.py proves it on a copy).
"""

from __future__ import annotations

from generator.site.mkdocs_config import read_languages

from .conftest import ROOT

LANGUAGES = tuple(entry["code"] for entry in read_languages(ROOT))  # in menu order
NOT_SOURCE = tuple(lang for lang in LANGUAGES if lang != "en")  # every language English rules are translated into
# Languages Babel knows that mkdocs.yml does not configure, for tests that add one (a copy may have added the first).
UNUSED = tuple(code for code in ("de", "pl", "cs", "fi", "it", "nl") if code not in LANGUAGES)
# A browser language the site does not offer: the first of these that mkdocs.yml does not configure.
LACKING = next(tag for tag in ("de-DE", "fr-FR", "pl-PL", "it-IT") if tag.split("-")[0] not in LANGUAGES)
