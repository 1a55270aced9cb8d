"""A suggestion of the translation memory is never published as a translation, and one whose meaning may differ is
not offered at all (the security review's N9)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.core.problems import Problems
from generator.i18n.glossary import Glossary, Term
from generator.i18n.memory import TranslationMemory, prefill
from generator.i18n.po.merge import SourceMessage, merge
from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import render_catalog
from generator.i18n.translate import FUZZY, MISSING, TRANSLATED, Translations

from .conftest import run_generator, write

ADDS = "Dodge from different sources adds together."
ADDS_RU = "Уклонение из разных источников складывается."
COMBAT = "In close combat nothing changes: the terrain's usual combat rules still apply to the model."
COMBAT_RU = "В рукопашном бою ничего не меняется: для модели действуют обычные боевые правила местности."


def memory_of(*pairs: tuple[str, str], glossary=None) -> TranslationMemory:
    memory = TranslationMemory("ru", glossary)
    for line, (source, translation) in enumerate(pairs, start=1):
        memory.add(source, translation, "translations/ru/rules/wap/a.po", line)
    return memory


# --- what is not offered ---------------------------------------------------------------------------------

@pytest.mark.parametrize("known, new", [
    (ADDS, "Dodge from different sources does not add together."),  # the review's case
    (ADDS, "Dodge from different sources never adds together."),
    ("The unit may re-roll failed saves this turn.", "The unit can't re-roll failed saves this turn."),
    ("Move the unit up to 3 inches toward the enemy.", "Move the unit up to 4 inches toward the enemy."),
    ("Add 1 to the roll of each model in the unit.", "Add ½ to the roll of each model in the unit."),
    ("The enemy may choose where the unit goes next.", "The enemy must choose where the unit goes next."),
    ("Roll a die for each model in the unit now.", "Roll a die for one model in the unit now."),
    ("See [[wap/strider]] for how the unit moves.", "See [[wap/dodge]] for how the unit moves."),
])
def test_a_close_match_with_another_negation_number_obligation_or_reference_is_not_offered(known, new):
    memory = memory_of((known, "перевод"))
    assert memory.suggest(new) is None


def test_a_close_match_with_another_glossary_term_is_not_offered_and_without_the_glossary_it_would_be():
    other = COMBAT.replace("the model.", "the unit.")
    glossary = Glossary([Term("unit", "отряд"), Term("model", "модель")])
    assert memory_of((COMBAT, COMBAT_RU), glossary=glossary).suggest(other) is None
    assert memory_of((COMBAT, COMBAT_RU)).suggest(other).translation == COMBAT_RU


def test_a_russian_close_match_with_another_negation_is_not_offered():
    memory = TranslationMemory("en")
    memory.add("Отряд может перебросить неудачные спасброски.", "The unit may re-roll failed saves.", "a.po", 1)
    assert memory.suggest("Отряд не может перебросить неудачные спасброски.", "ru") is None
    assert memory.suggest("Отряд может перебросить неудачные спасброски!", "ru") is not None


def test_a_close_match_that_says_the_same_is_a_suggestion_naming_the_text_it_was_made_for():
    suggestion = memory_of((COMBAT, COMBAT_RU)).suggest(COMBAT.replace("the model.", "that model."))
    assert suggestion.translation == COMBAT_RU and suggestion.fuzzy and suggestion.previous == COMBAT
    assert "close match" in suggestion.comment and "clears fuzzy" in suggestion.comment


def test_an_exact_match_translated_one_way_is_a_translation_and_two_ways_a_suggestion():
    one = memory_of((ADDS, ADDS_RU), (ADDS, ADDS_RU)).suggest(ADDS)
    assert not one.fuzzy and one.previous is None
    two = memory_of((ADDS, ADDS_RU), (ADDS, "Уклонения складываются.")).suggest(ADDS)
    assert two.fuzzy and "translated 2 ways" in two.comment


# --- how a suggestion is marked in the catalog ----------------------------------------------------------

def source(context: str, text: str) -> SourceMessage:
    return SourceMessage("rules/wap/a", context, text, "en", [], [("rules/wap/a.yaml", 3)])


def test_a_prefilled_suggestion_is_written_fuzzy_flagged_suggestion_with_the_matched_text_as_previous_msgid(tmp_path):
    memory = memory_of((COMBAT, COMBAT_RU))
    close = COMBAT.replace("the model.", "that model.")
    catalog, _summary = merge("ru", "rules/wap/a", [source("wap/a:clause:close", close)], None)
    assert prefill(catalog, None, memory) == 1
    text = render_catalog(catalog).decode("utf-8")
    assert '#, fuzzy, suggestion\n#| msgid ""\n' in text or f'#, fuzzy, suggestion\n#| msgid "{COMBAT}"' in text
    assert "# translation memory: close match (" in text
    path = write(tmp_path / "a.po", text)
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext is missing: `make gettext-deps` installs it (make test does)"
    checked = subprocess.run([msgfmt, "-c", "-o", str(tmp_path / "a.mo"), str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr  # GNU gettext reads the flag like any other
    again = read_catalog(path, "ru")
    message = next(m for m in again if m.context == "wap/a:clause:close")
    assert message.fuzzy and "suggestion" in message.flags and message.previous_id == [COMBAT]


CATALOG = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ru\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

# translation memory: close match (91%) of «old text»
#, fuzzy, suggestion
#| msgid "Old text."
msgctxt "wap/a:clause:suggested"
msgid "New text."
msgstr "Предложенный перевод."

#, suggestion
msgctxt "wap/a:clause:accepted"
msgid "Accepted text."
msgstr "Принятый перевод."

#, fuzzy
#| msgid "Outdated text, first version."
msgctxt "wap/a:clause:outdated"
msgid "Outdated text."
msgstr "Устаревший перевод."
"""


@pytest.fixture
def translations(tmp_path) -> Translations:
    write(tmp_path / "translations/ru/rules/wap/a.po", CATALOG)
    problems = Problems()
    loaded = Translations.load(tmp_path, "ru", problems)
    assert not problems, problems.report()
    return loaded


def test_the_site_shows_the_source_for_a_suggestion_and_the_translation_once_fuzzy_is_cleared(translations):
    suggested = translations.text("wap/a:clause:suggested", "New text.", "en")
    assert (suggested.value, suggested.state) == ("New text.", MISSING)
    accepted = translations.text("wap/a:clause:accepted", "Accepted text.", "en")
    assert (accepted.value, accepted.state) == ("Принятый перевод.", TRANSLATED)


def test_an_outdated_translation_of_the_same_message_is_still_shown_as_fuzzy(translations):
    outdated = translations.text("wap/a:clause:outdated", "Outdated text.", "en")
    assert (outdated.value, outdated.state) == ("Устаревший перевод.", FUZZY)


def test_update_keeps_a_suggestion_until_fuzzy_is_cleared_and_then_drops_its_flag(tmp_path):
    path = write(tmp_path / "a.po", CATALOG)
    old = read_catalog(path, "ru")
    sources = [source("wap/a:clause:suggested", "New text."), source("wap/a:clause:accepted", "Accepted text."),
               source("wap/a:clause:outdated", "Outdated text.")]
    catalog, _summary = merge("ru", "rules/wap/a", sources, old)
    flags = {message.context: set(message.flags) for message in catalog if message.id}
    assert flags == {"wap/a:clause:suggested": {"fuzzy", "suggestion"}, "wap/a:clause:accepted": set(),
                     "wap/a:clause:outdated": {"fuzzy"}}


# --- through `i18n update`, `i18n status` and the pages ---------------------------------------------------------

def add_clause(repo: Path, rule: str, clause_id: str, text: str):
    path = repo / f"rules/{rule}.yaml"
    yaml_text = path.read_text(encoding="utf-8")
    path.write_text(yaml_text.replace("\nclauses:\n", f"\nclauses:\n  - id: {clause_id}\n    text: >-\n      {text}\n", 1),
                    encoding="utf-8")


def test_update_offers_no_translation_of_adds_together_for_does_not_add_together(repo):
    add_clause(repo, "wap/dodge", "inverted", "Dodge from different sources does not add together.")
    result = run_generator(repo, "i18n", "update")
    assert result.returncode == 0, result.stderr
    catalog = read_catalog(repo / "translations/ru/rules/wap/dodge.po", "ru")
    inverted = next(m for m in catalog if m.context == "wap/dodge:clause:inverted")
    assert inverted.string == "" and not inverted.fuzzy


def test_status_counts_a_suggestion_as_needing_work_and_the_page_shows_the_source(repo, full_build):
    add_clause(repo, "wap/dodge", "close", COMBAT.replace("the model.", "that model."))
    assert run_generator(repo, "i18n", "update").returncode == 0
    catalog = read_catalog(repo / "translations/ru/rules/wap/dodge.po", "ru")
    close = next(m for m in catalog if m.context == "wap/dodge:clause:close")
    assert close.string and close.fuzzy and "suggestion" in close.flags
    status = run_generator(repo, "i18n", "status", "--lang", "ru").stdout
    dodge = next(line for line in status.splitlines() if line.strip().startswith("rules/wap/dodge:"))
    assert "1 fuzzy, 0 missing" in dodge
    page = (full_build(repo) / "ru/wap/dodge/index.html").read_text(encoding="utf-8")
    assert close.string not in page  # the suggestion is not published
    assert 'class="kb-untranslated" lang="en"' in page and "that model." in page
    assert "Часть страницы ещё не переведена" in page  # the banner of a page with untranslated parts
