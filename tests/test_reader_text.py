"""What a reader reads holds no code and no unmarked foreign words: the check behind `i18n check` (readertext)."""

from __future__ import annotations

from types import SimpleNamespace

from generator.i18n.readertext import Reading, RuleWords, foreign_words, reader_text_problems, reading_issues

from .conftest import ROOT, run_generator
from .languages import LANGUAGES


def _rule():
    """A rule with one predicate: a text field with known ids, a list field, a choice with labels."""
    arg = SimpleNamespace
    predicate = SimpleNamespace(
        name="hates", returns=SimpleNamespace(values=None, labels=None),
        args=[arg(name="target", type="text", values=["daemons-of-khorne", "daemons-of-tzeentch"], labels=None),
              arg(name="strider", type="list", values=None, labels=None),
              arg(name="terrain", type="choice", values=["open", "forest"],
                  labels={"open": "open ground", "forest": "Forest"})])
    return SimpleNamespace(key="wap/demo", predicates=[predicate])


WORDS = RuleWords(_rule(), frozenset({"daemons-of-tzeentch", "wap/daemonic", "loose-formation"}))
FORM = {"wap/demo:predicate:hates:arg:terrain": "the terrain the model stands in",
        "wap/demo:predicate:hates:arg:terrain:value:forest": "Forest",
        "wap/demo:predicate:hates": "Whether a Daemon of Nurgle hates the target."}


def issues(text, lang="en", marks=True):
    return [problem + " — " + hint for problem, hint in reading_issues(Reading(text, lang, marks), WORDS, FORM.get)]


def test_a_code_span_naming_an_argument_is_reported_with_the_form_label_to_write_instead():
    found = issues("Pass the terrain as `terrain`.")
    assert len(found) == 1 and "`terrain`" in found[0] and "«the terrain the model stands in»" in found[0]


def test_a_code_span_naming_a_predicate_or_a_labelled_value_points_to_the_words_a_reader_sees():
    assert "«Whether a Daemon of Nurgle hates the target.»" in issues("`hates` answers no.")[0]
    assert "write the value's label instead: «Forest»" in issues("choose `forest` here")[0]


def test_what_a_reader_types_into_the_form_may_stand_in_code():
    assert issues("Type `daemons-of-khorne`, or a list such as `[\"forest\"]` or `[6, 6]`.") == []


def test_a_list_that_the_form_would_refuse_is_reported():
    assert any("`[forest]`" in issue for issue in issues("for example `[forest]`"))


def test_snake_case_file_and_command_names_and_null_are_reported_outside_code_too():
    text = "reality_blinks says so; see rules/README.md or run generator check; the result is null."
    found = " ".join(issues(text))
    for name in ("reality_blinks", "rules/README.md", "generator check", "'null'"):
        assert name in found


def test_a_misspelt_known_id_and_a_rule_key_are_reported_but_an_ordinary_compound_is_not():
    assert any("deamons-of-tzeentch" in issue for issue in issues("an army written deamons-of-tzeentch"))
    assert any("wap/daemonic" in issue for issue in issues("as wap/daemonic says"))
    assert issues("Loose-formation troops stand side-by-side, and/or in a two-by-two block.") == []


def test_a_latin_word_in_russian_text_needs_a_language_mark():
    found = issues("Оговорка «(except mounts)» касается спасброска.", "ru")
    assert len(found) == 1 and "«except», «mounts»" in found[0] and "{lang=en}" in found[0]
    assert issues("Оговорка «([except mounts]{lang=en})» касается спасброска.", "ru") == []


def test_single_latin_letters_roman_numerals_and_dice_in_russian_text_are_not_words_of_another_language():
    assert issues("Игрок A ставит модель в точку (x; y), том II, бросок 2К6.", "ru") == []
    assert foreign_words("в T9A и WAP", "ru") == ["T9A", "WAP"]


def test_a_cyrillic_word_in_english_text_needs_a_language_mark():
    assert any("«отряд»" in issue for issue in issues("The Russian text says «отряд».")), issues("«отряд»")
    assert issues("The Russian text says «[отряд]{lang=ru}».") == []


def test_an_answer_or_label_cannot_carry_a_language_mark_so_it_must_use_the_page_language():
    found = issues("{value} к WS", "ru", marks=False)
    assert len(found) == 1 and "«WS»" in found[0] and "cannot carry a language mark" in found[0]
    assert any("shows it as typed" in issue for issue in issues("[WS]{lang=en}", "ru", marks=False))


def test_a_straight_quote_in_english_reader_text_is_reported_with_the_words_around_it_but_not_inside_code():
    found = issues('What does the answer "May shoot" mean?')
    assert len(found) == 1 and "straight quote" in found[0] and "answer \"May sh" in found[0] and "“…”" in found[0]
    assert issues("What does the answer “May shoot” mean? Type `[\"forest\"]`.") == []
    assert issues('Ответ «Можно» — это "да".', "ru") == []  # Russian quotes: the typography check's business


def test_a_mark_of_the_text_own_language_or_of_words_in_the_same_script_is_reported():
    assert any("own language" in issue for issue in issues("Оговорка [кроме]{lang=ru}.", "ru"))
    assert any("holds no en words" in issue for issue in issues("Оговорка [кроме]{lang=en}.", "ru"))


def test_the_check_names_the_rule_file_line_and_text_of_a_clarification_with_code(repo):
    path = repo / "rules/wap/daemonic.yaml"
    text = path.read_text(encoding="utf-8")
    marker = "    question: Can the reduced Leadership fall below zero?"
    assert marker in text
    path.write_text(text.replace(marker, "    question: Can `leadership` fall below zero?"), encoding="utf-8")
    result = run_generator(repo, "i18n", "check")
    assert result.returncode == 2
    line = next(line for line in result.stdout.splitlines() if "`leadership`" in line)
    number = text.splitlines().index(marker) + 1
    assert line.startswith(f"rules/wap/daemonic.yaml:{number}: wap/daemonic:clarification:no-floor-on-leadership"
                           f":question: code `leadership`")
    assert "name the Ask form's field instead: «the Leadership used for the test" in line


def test_the_check_names_the_catalog_line_of_an_unmarked_english_word_in_a_russian_translation(repo):
    path = repo / "translations/ru/rules/wap/daemonic.po"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line == 'msgctxt "wap/daemonic:predicate:ward_save"')
    string = next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr "))
    lines[string] = 'msgstr "Ward save по правилу «Демонический»."'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_generator(repo, "i18n", "check")
    assert result.returncode == 2
    # Problems name a catalog message by the line of its msgid, as every catalog check does.
    assert any(line.startswith(f"translations/ru/rules/wap/daemonic.po:{at + 2}: wap/daemonic:predicate:"
                               f"ward_save ") and "«Ward»" in line for line in result.stdout.splitlines())


def test_the_meaning_of_a_result_is_for_developers_and_may_name_code(kb):
    returns = kb.rules["wap/daemonic"].predicate("instability").returns.text
    assert "`no_test`" in returns  # read only in the developers' table
    assert not any(problem.subject.endswith(":instability:returns")
                   for problem in reader_text_problems(ROOT, kb, ["en"]))


def test_nothing_a_reader_reads_in_the_knowledge_base_names_code_or_hides_a_foreign_word(kb):
    found = reader_text_problems(ROOT, kb, list(LANGUAGES))
    assert found == [], "\n".join(map(str, found))


# Texts with something to report, one of each kind, in the two scripts: the quick look must pass every one on.
FINDINGS = [("Pass `terrain`.", "en"), ("the unit_size rule", "en"), ("see rules.yaml", "en"), ("run make test", "en"),
            ("Run PYTEST now", "en"), ("run ı18n check", "en"), ("İ18N update", "en"), ("the value is null", "en"),
            ("the daemons-of-tzeentch rule", "en"), ("see wap/daemonic", "en"), ("a [Forest]{lang=en} here", "en"),
            ("a Лес here", "en"), ("`terrain` в лесу", "ru"), ("правило unit_size", "ru"), ("слово Forest", "ru"),
            ("значение null", "ru"), ("правило daemons-of-tzeentch", "ru"), ("[Лес]{lang=ru}", "ru")]


def test_every_text_with_a_finding_passes_the_quick_look_that_lets_most_texts_through_unread(kb):
    from generator.i18n import readertext
    from generator.i18n.po.catalogs import catalog_path, existing_catalogs
    from generator.i18n.po.reader import read_entries
    from generator.kb.texts import knowledge_base_texts

    texts = FINDINGS + [(text.source, text.lang) for text in knowledge_base_texts(kb)]
    for lang in LANGUAGES:
        for name in existing_catalogs(ROOT, lang):
            texts += [(message.string, lang) for message in read_entries(catalog_path(ROOT, lang, name), lang, ROOT)
                      if isinstance(message.string, str) and message.string]
    with_findings = [(text, lang) for text, lang in texts
                     if readertext._issues(Reading(text, lang, True), WORDS, FORM.get)]
    assert len(with_findings) >= len(FINDINGS)
    missed = [text for text, lang in with_findings
              if not readertext._may_have_issues(text, readertext.script_of(lang))]
    assert missed == []
    looked_at = [text for text, lang in texts if readertext._may_have_issues(text, readertext.script_of(lang))]
    assert len(looked_at) < len(texts) / 2  # the quick look is worth having: most texts go no further
