"""The glossary's forbidden phrases match across pronouns and particles, and only across them."""

from __future__ import annotations

from generator.i18n.typography import Forbidden, read_forbidden, text_issues

from .conftest import ROOT


def uses(text: str) -> list[str]:
    return [problem for problem, _hint in text_issues(text, read_forbidden(ROOT)) if problem.startswith("uses")]


def test_a_pronoun_between_the_words_of_a_phrase_does_not_hide_it():
    assert uses("Отряд не проходит проверку.") == uses("Отряд не проходит её проверку.") != []


def test_the_sentence_the_review_found_is_caught():
    found = uses("итог его проверки дисциплины или null, если он её не проходит")
    assert found and "проваливает" in next(hint for problem, hint in text_issues(
        "если он её не проходит", read_forbidden(ROOT)) if problem.startswith("uses"))


def test_two_particles_may_slip_in_but_an_ordinary_word_breaks_the_phrase():
    phrase = Forbidden(("не", "проход*", "проверк*"), "«проверка не положена»")
    assert phrase.found_in("не проходит же и проверку")
    assert not phrase.found_in("не проходит в этот раз проверку")
    unit_strength = Forbidden(("сил*", "отряда", "каждой", "модели"), "«показатель Силы отряда у каждой модели»")
    assert unit_strength.found_in("Сила отряда каждой модели") and not unit_strength.found_in(
        "показатель Силы отряда у каждой модели")


def test_tests_are_checks_in_russian():
    assert any("тест" in problem for problem in uses("Теста нет")) and uses("Проверки нет") == []


def test_a_bare_speed_is_refused_for_the_movement_rate():
    assert any("скорост" in problem for problem in uses("Да. Скорость должна быть не меньше 3″."))
