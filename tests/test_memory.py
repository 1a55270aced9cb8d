"""Translation memory: new messages start from what the language already says, and nothing translated is touched."""

from __future__ import annotations

from babel.messages.catalog import Catalog

from generator.i18n.memory import CLOSE_MATCH_RATIO, NOTE, TranslationMemory, prefill
from generator.i18n.po.reader import read_catalog

from .conftest import run_generator
from .languages import LANGUAGES

COMBAT = "In close combat nothing changes: the terrain's usual combat rules still apply to the model."
COMBAT_YAML = """In close combat nothing changes: the terrain's usual combat rules still
      apply to the model."""


def generator(repo, *args):
    return run_generator(repo, *args)


def add_clause(repo, rule: str, clause_id: str, text: str):
    path = repo / f"rules/{rule}.yaml"
    yaml_text = path.read_text(encoding="utf-8")
    assert "\nclauses:\n" in yaml_text
    path.write_text(yaml_text.replace("\nclauses:\n", f"\nclauses:\n  - id: {clause_id}\n    text: >-\n      {text}\n", 1),
                    encoding="utf-8")


def message(repo, rule: str, context: str):
    catalog = read_catalog(repo / f"translations/ru/rules/{rule}.po", "ru")
    return next(m for m in catalog if m.context == context)


def every_translation(repo) -> dict:
    found = {}
    for path in sorted((repo / "translations").rglob("*.po")):
        for entry in read_catalog(path, path.relative_to(repo / "translations").parts[0]):
            if entry.id and entry.string:
                found[(str(path), entry.context, str(entry.id))] = (entry.string, entry.fuzzy)
    return found


# --- the memory itself -----------------------------------------------------------------------------

def test_an_identical_source_translated_one_way_gives_that_translation_without_fuzzy():
    memory = TranslationMemory()
    memory.add("Move the unit.", "Переместите отряд.", "a.po", 3)
    memory.add("Move the unit.", "Переместите отряд.", "b.po", 9)
    assert memory.suggest("Move the unit.").translation == "Переместите отряд."
    assert memory.suggest("Move the unit.").fuzzy is False and memory.suggest("Move the unit.").comment is None


def test_an_identical_source_translated_two_ways_gives_the_usual_one_as_fuzzy_naming_both():
    memory = TranslationMemory()
    memory.add("Move the unit.", "Переместите отряд.", "a.po", 3)
    memory.add("Move the unit.", "Двигайте отряд.", "b.po", 9)
    memory.add("Move the unit.", "Переместите отряд.", "c.po", 4)
    suggestion = memory.suggest("Move the unit.")
    assert suggestion.translation == "Переместите отряд." and suggestion.fuzzy
    assert "«Переместите отряд.» (a.po:3)" in suggestion.comment and "«Двигайте отряд.» (b.po:9)" in suggestion.comment


def test_a_near_identical_source_gives_a_fuzzy_translation_with_the_matched_source_in_a_comment():
    memory = TranslationMemory()
    memory.add(COMBAT, "В рукопашном бою ничего не меняется.", "a.po", 3)
    memory.add("Roll a die for each model.", "Бросьте кубик за каждую модель.", "a.po", 9)
    suggestion = memory.suggest(COMBAT.replace("the model", "the unit"))
    assert suggestion.translation == "В рукопашном бою ничего не меняется." and suggestion.fuzzy
    assert suggestion.comment.startswith(f"{NOTE} close match (") and f"of «{COMBAT}»" in suggestion.comment


def test_a_source_below_the_close_match_ratio_gets_nothing():
    memory = TranslationMemory()
    memory.add(COMBAT, "В рукопашном бою ничего не меняется.", "a.po", 3)
    assert CLOSE_MATCH_RATIO >= 0.7
    assert memory.suggest("In close combat the unit strikes first.") is None
    assert memory.suggest("Completely different words here.") is None


def test_fuzzy_and_empty_translations_are_not_remembered():
    catalog = Catalog(locale="ru")
    catalog.add("Move.", "Ход.", flags=["fuzzy"], context="a")
    catalog.add("Turn.", "", context="b")
    memory = TranslationMemory()
    memory.add_catalog(catalog, "x.po")
    assert memory.suggest("Move.") is None and memory.suggest("Turn.") is None


def test_prefill_fills_only_empty_messages_new_to_the_catalog():
    memory = TranslationMemory()
    memory.add("Move.", "Ход.", "a.po", 1)
    old = Catalog(locale="ru")
    old.add("Move.", "", context="kept-empty")
    old.add("Move.", "Движение.", context="translated")
    old.obsolete["retired"] = old.add("Move.", "", context="retired")  # a message that was seen before
    del old["Move.", "retired"]
    new = Catalog(locale="ru")
    new.add("Move.", "", context="kept-empty")
    new.add("Move.", "Движение.", context="translated")
    new.add("Move.", "", context="retired")
    new.add("Move.", "", context="brand-new")
    assert prefill(new, old, memory) == 1
    assert {m.context: m.string for m in new if m.id} == {"kept-empty": "", "translated": "Движение.",
                                                          "retired": "", "brand-new": "Ход."}


# --- through `i18n update` -------------------------------------------------------------------------

def test_update_prefills_identical_and_near_identical_new_clauses_and_overwrites_nothing(repo):
    before = every_translation(repo)
    strider = message(repo, "wap/strider", "wap/strider:clause:combat")
    assert strider.id == COMBAT and strider.string and not strider.fuzzy
    add_clause(repo, "wap/dodge", "same-as-strider", COMBAT_YAML)
    # A close match that means the same (`that` for `the`); one with another term is not offered (test_suggestions.py).
    add_clause(repo, "wap/dodge", "close-to-strider", COMBAT_YAML.replace("the model.", "that model."))
    result = generator(repo, "i18n", "update")
    assert result.returncode == 0, result.stderr
    assert "2 pre-filled from translation memory" in result.stdout
    same = message(repo, "wap/dodge", "wap/dodge:clause:same-as-strider")
    assert same.string == strider.string and not same.fuzzy and not same.user_comments
    close = message(repo, "wap/dodge", "wap/dodge:clause:close-to-strider")
    assert close.string == strider.string and close.fuzzy and "suggestion" in close.flags
    assert close.user_comments and f"of «{COMBAT}»" in " ".join(close.user_comments)
    assert close.previous_id == [COMBAT]  # `#| msgid`: the text the suggested translation was made for
    after = every_translation(repo)
    assert {key: after.get(key) for key in before} == before  # every earlier translation and flag is unchanged
    again = generator(repo, "i18n", "update").stdout  # nothing new the second time, and the comments read back
    assert again.count("0 file(s) changed") == len(LANGUAGES) and again.count("0 pre-filled") == len(LANGUAGES)


def test_one_text_translated_two_ways_is_prefilled_fuzzy_and_warned_about_naming_both_places(repo):
    add_clause(repo, "wap/dodge", "same-as-strider", COMBAT_YAML)
    assert generator(repo, "i18n", "update").returncode == 0
    path = repo / "translations/ru/rules/wap/dodge.po"
    strider = message(repo, "wap/strider", "wap/strider:clause:combat")
    path.write_text(path.read_text(encoding="utf-8").replace(
        strider.string.split(" ")[0], "Иначе:", 1), encoding="utf-8")
    dodge = message(repo, "wap/dodge", "wap/dodge:clause:same-as-strider")
    assert dodge.string != strider.string and not dodge.fuzzy

    check = generator(repo, "i18n", "check")
    assert check.returncode == 0, check.stdout
    warnings = [line for line in check.stdout.splitlines() if "translated «" in line]
    assert len(warnings) == 1
    assert "translations/ru/rules/wap/strider.po:" in warnings[0] or "translations/ru/rules/wap/dodge.po:" in warnings[0]
    assert "strider.po" in warnings[0] and "dodge.po" in warnings[0]
    assert check.stdout.strip().endswith("0 translation problem(s), 1 consistency warning(s)")

    add_clause(repo, "wap/skirmishers", "same-again", COMBAT_YAML)
    assert generator(repo, "i18n", "update").returncode == 0
    third = message(repo, "wap/skirmishers", "wap/skirmishers:clause:same-again")
    assert third.fuzzy and third.string in (strider.string, dodge.string)
    comment = " ".join(third.user_comments)
    assert "translated 2 ways" in comment and "strider.po:" in comment and "dodge.po:" in comment
