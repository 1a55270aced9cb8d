"""Glossary terms match by stem: any case or number of a term, in a row, never part of a longer word."""

from __future__ import annotations

from generator.i18n.glossary import Glossary, Term, contains, stems, without


def test_a_russian_term_is_found_in_another_case_and_an_english_one_only_as_a_whole_word():
    assert contains(stems("Отряд застрельщиков стоит", "ru"), stems("застрельщики", "ru"), "ru")
    assert contains(stems("two Characters", "en"), stems("character", "en"), "en")
    assert not contains(stems("a characteristic", "en"), stems("character", "en"), "en")


def test_a_longer_term_is_checked_first_and_its_words_are_blanked_for_shorter_ones():
    glossary = Glossary([Term("rank", "ряд"), Term("rank and file", "строй")])
    entries, _by_first = glossary.stemmed("en", "ru")
    assert [entry[1].source for entry in entries] == ["rank and file", "rank"]
    left = without(stems("the rank and file stand", "en"), stems("rank and file", "en"), "en")
    assert not contains(left, stems("rank", "en"), "en")
