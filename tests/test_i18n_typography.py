"""Russian typography and forbidden words are caught in catalogs and in the Russian-source rules."""

from __future__ import annotations

from generator.i18n.typography import NBSP, Forbidden, read_forbidden, shown_text, text_issues

from .conftest import ROOT, run_generator

FORBIDDEN = [Forbidden(("разгром*",), "the glossary term is «паническое бегство»"),
             Forbidden(("не", "проход*", "проверк*"), "«проверка не положена»"),
             Forbidden(("связан", "боем"), "the glossary term is «Связанный в ближнем бою»")]


def problems(text, forbidden=()):
    return [problem for problem, _hint in text_issues(text, list(forbidden))]


def test_a_clean_russian_sentence_has_no_issues():
    text = f"Отряд отходит на 4{NBSP}дюйма; подставка 25{NBSP}мм{NBSP}— допустимо. Бросают 2К6, интервал 0,5″."
    assert problems(text, FORBIDDEN) == []


def test_a_plain_space_between_a_number_and_its_unit_is_reported():
    assert any("number and its unit" in p for p in problems("подставка 25 мм"))
    assert any("number and its unit" in p for p in problems("отходит на 4 дюйма"))


def test_a_plain_space_before_a_dash_is_reported_and_a_no_break_space_is_not():
    assert any("before a dash" in p for p in problems("Отряд — застрельщики"))
    assert problems(f"Отряд{NBSP}— застрельщики") == []


def test_straight_quotes_are_reported_outside_code_but_not_inside_it():
    assert any("straight quote" in p for p in problems('правило "Бегство!"'))
    assert problems('значение `"none"` в коде') == []


def test_a_hyphen_used_as_a_dash_and_a_hyphenated_range_are_reported():
    assert any("hyphen used as a dash" in p for p in problems("Отряд - застрельщики"))
    assert any("between numbers" in p for p in problems("см. страницы 55-56"))
    assert problems("какой-нибудь 2-й ряд") == []


def test_an_exclamation_mark_followed_by_a_full_stop_is_reported():
    assert any("double punctuation" in p for p in problems("не может выбрать Бегство!."))
    assert problems("не может выбрать «Бегство!».") == []


def test_latin_dice_and_decimal_points_are_reported():
    assert any("Latin D" in p for p in problems("бросает 2D6"))
    assert any("decimal point" in p for p in problems("на 0.5″"))


def test_a_forbidden_word_is_found_in_any_form_it_starts():
    assert any("разгром" in p for p in problems("отряд приходит в разгром", FORBIDDEN))
    assert any("разгром" in p for p in problems("Разгромленный отряд", FORBIDDEN))


def test_a_forbidden_phrase_needs_its_words_in_order():
    assert problems("не проходящий проверку морали", FORBIDDEN) != []
    assert problems("проверку он проходит, не дрогнув", FORBIDDEN) == []
    assert problems("Отряд, который не связан боем", FORBIDDEN) != []
    assert problems("Связанный в ближнем бою", FORBIDDEN) == []


def test_an_ellipsis_in_a_forbidden_phrase_lets_a_few_words_of_any_kind_stand_between():
    entry = Forbidden(("проход*", "проверк*", "…", "получа*"), "проваливает")
    assert entry.found_in("выбросивший 3, проходит проверку против −2 и получает 5 Ран")
    assert entry.found_in("проходит проверку по Лидерству 7 и больше Ран не получает")
    assert not entry.found_in("проходит проверку. Если бросок больше Лидерства, то отряд за каждое очко получает Рану")
    assert not entry.found_in("получает 2 Раны и проходит проверку")


def test_the_glossary_forbids_passing_a_test_and_suffering_its_cost_in_one_breath():
    assert problems("Отряд проходит проверку против −2 и получает 5 Ран.", read_forbidden(ROOT)) != []
    assert problems("Отряд проваливает проверку против Лидерства −2 и получает 5 Ран.", read_forbidden(ROOT)) == []


def test_an_exact_forbidden_word_does_not_match_a_longer_word():
    entry = Forbidden(("строй",), "построение")
    assert entry.found_in("Строй допустим") and not entry.found_in("перестройка") and not entry.found_in("стройный")


def test_a_reference_counts_by_the_words_it_shows_not_by_its_target():
    assert shown_text("[[term:rout|паническое бегство]] и [[t9a/scout]]").split() == ["паническое", "бегство", "и"]
    assert problems("[[term:engaged|Связанный в ближнем бою]]", FORBIDDEN) == []


def test_the_glossary_forbidden_lists_are_read_with_the_term_to_use_instead():
    forbidden = read_forbidden(ROOT)
    by_words = {entry.words: entry.use for entry in forbidden}
    assert "паническое бегство" in by_words[("разгром*",)]
    assert ("законн*",) in by_words
    assert ("легкая",) in by_words


def test_i18n_check_names_the_file_line_and_message_of_a_slip_in_a_russian_source_rule(repo):
    path = repo / "rules/t9a/requires-two-hands.yaml"
    text = path.read_text(encoding="utf-8")
    summary = text.split("summary:", 1)[1].split("\n", 1)[0]
    path.write_text(text.replace(summary, " Законно - так писать нельзя.", 1), encoding="utf-8")
    result = run_generator(repo, "i18n", "check")
    assert result.returncode == 2
    lines = [line for line in result.stdout.splitlines() if line.startswith("rules/t9a/requires-two-hands.yaml:")]
    assert any("t9a/requires-two-hands:summary" in line and "hyphen used as a dash" in line for line in lines)
    assert any("законн" in line and "допустимо" in line for line in lines)


def test_i18n_check_reports_a_slip_in_a_russian_catalog_string(repo):
    path = repo / "translations/ru/ui.po"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgstr "Глоссарий"', 'msgstr "Глоссарий - \\"термины\\""', 1), encoding="utf-8")
    result = run_generator(repo, "i18n", "check")
    assert result.returncode == 2
    assert any(line.startswith("translations/ru/ui.po:") and "straight quote" in line
               for line in result.stdout.splitlines())


def test_a_malformed_forbidden_entry_is_reported_with_its_line_and_skipped_by_the_typography_check(tmp_path):
    from generator.i18n.glossary import read_glossary

    write_glossary = tmp_path / "translations" / "ru" / "glossary.yaml"
    write_glossary.parent.mkdir(parents=True)
    write_glossary.write_text("lang: ru\nterms:\n"
                              "  - {source: rout, target: паническое бегство, forbidden: [разгром*]}\n"
                              "  - {source: unit, target: отряд, accept: отряд}\nforbidden:\n"
                              "  - {phrase: к примеру}\n", encoding="utf-8")
    terms, found = read_glossary(tmp_path, "ru")
    assert [term.source for term in terms] == ["rout"]
    assert sorted(problem.line for problem in found) == [4, 6]
    assert [entry.words for entry in read_forbidden(tmp_path)] == [("разгром*",)]


def test_the_general_rules_hold_every_language_and_a_language_without_its_own_says_so_in_status(repo):
    from .conftest import run_generator

    assert run_generator(repo, "i18n", "init", "pl").returncode == 0
    path = repo / "translations/pl/rules/wap/strider.po"
    text = path.read_text(encoding="utf-8")
    start = text.index('msgctxt "wap/strider:title"')
    end = text.index('msgstr ""', start)
    path.write_text(text[:end] + 'msgstr "Kroczący  po terenie"' + text[end + len('msgstr ""'):], encoding="utf-8")
    found = run_generator(repo, "i18n", "check", "translations/pl")
    assert found.returncode == 2 and "wap/strider:title" in found.stdout and "two spaces in a row" in found.stdout
    status = run_generator(repo, "i18n", "status", "--lang", "pl").stdout
    assert "typography: the general rules only; nothing specific to pl is checked yet" in status
    assert "typography:" not in run_generator(repo, "i18n", "status", "--lang", "ru").stdout
