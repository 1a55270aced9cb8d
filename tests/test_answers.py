"""Declared answers: each result value covered, patterns checked in the source and in translations, plurals."""

from __future__ import annotations

from markupsafe import Markup

from generator.kb import answers
from generator.render.values import answer_words, in_words

from .conftest import ROOT


def _returns(**fields):
    from generator.kb.model import Returns

    return Returns(text="t", **fields)


def test_a_yes_no_answer_needs_both_phrases_and_names_the_missing_one():
    returns = _returns(type="bool", answers={True: "Allowed"})
    assert [(key, issue) for key, issue, _hint in answers.answer_problems(returns, "en")] == [
        ((), "answers lack false")]
    assert answers.answer_problems(_returns(type="bool", answers={True: "Yes", False: "No"}), "en") == []


def test_a_choice_answer_for_a_value_that_is_not_declared_is_refused():
    returns = _returns(type="choice", values=["a", "b"], labels={"a": "A", "b": "B"},
                       answers={"a": "A!", "b": "B!", "c": "C!"})
    problems = answers.answer_problems(returns, "en")
    assert [(key, issue) for key, issue, _hint in problems] == [(("c",), "answers name 'c', which is not one of the values")]


def test_a_number_result_needs_an_other_pattern_with_value_once_and_the_languages_plural_forms():
    assert answers.answer_problems(_returns(type="int", answers={0: "None"}), "en")[0][1] == "answers lack other"
    bad = {"{n} wounds": "{value} exactly once", "{value} {value}": "{value} exactly once",
           "{value} extra {wound}": "only {value} and one plural group",
           "{value} {рана|раны}": "the plural group has 2 forms; ru has 3"}
    for pattern, issue in bad.items():
        problems = answers.answer_problems(_returns(type="int", answers={"other": pattern}), "ru")
        assert len(problems) == 1 and issue in problems[0][1], (pattern, problems)
    assert answers.answer_problems(
        _returns(type="int", answers={"other": "{value} {рана|раны|ран}"}), "ru") == []


def test_a_plural_group_is_refused_on_a_result_that_is_not_a_number():
    problems = answers.answer_problems(_returns(type="ints", answers={"other": "{value} {a|b}"}), "en")
    assert "only for a number result" in problems[0][1]


def test_a_counted_answer_takes_the_russian_plural_form_of_its_number(ru):
    returns = _returns(type="any", answers={"banished": "Banished", "other": "{value} {рана|раны|ран}"})
    shown = {n: str(answer_words(returns, n, ru, "x:predicate:p:returns", "ru", in_words("int", n, ru)))
             for n in (1, 2, 5, 21, 1.5)}
    assert shown == {n: f'<span class="kb-answer">{words}</span>' for n, words in
                     {1: "1 рана", 2: "2 раны", 5: "5 ран", 21: "21 рана", 1.5: "1,5 раны"}.items()}
    assert "Banished" in str(answer_words(returns, "banished", ru, "x", "ru", Markup("")))


def test_an_answer_is_escaped_like_any_text(ru):
    returns = _returns(type="bool", answers={True: "<b>Yes</b>", False: "No"})
    assert "&lt;b&gt;" in str(answer_words(returns, True, ru, "x", "ru", Markup("")))


def test_every_predicate_of_every_rule_says_its_answers_in_words():
    from generator.kb.load import load_and_validate

    kb, problems = load_and_validate(ROOT)
    assert not problems
    unsaid = [f"{rule.key}:{predicate.name}" for rule in kb.rules.values() for predicate in rule.predicates
              if not predicate.returns.answers]
    assert unsaid == []


def test_generator_check_names_the_file_and_line_of_a_wrong_answer(repo):
    from generator.kb.load import load_and_validate

    path = repo / "rules/t9a/scout.yaml"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    broken = next(number for number, line in enumerate(lines, 1) if "answers: {other:" in line)
    path.write_text(text.replace('answers: {other: "Порядок расстановки: {value}"}',
                                 'answers: {other: "Порядок: {value} {ход|хода}"}'), encoding="utf-8")
    _kb, problems = load_and_validate(repo)
    shown = [str(problem) for problem in problems]
    assert len(shown) == 1 and shown[0].startswith(f"rules/t9a/scout.yaml:{broken}: t9a/scout: "), shown
    assert "a plural group is only for a number result" in shown[0]  # deploy_order returns a list


def test_i18n_check_refuses_a_translated_pattern_with_the_wrong_number_of_plural_forms(repo):
    from generator.i18n.checks import check_catalogs
    from generator.kb.load import load_and_validate

    path = repo / "translations/ru/rules/wap/daemonic.po"
    text = path.read_text(encoding="utf-8")
    assert "{дополнительная Рана|дополнительные Раны|дополнительных Ран}" in text
    path.write_text(text.replace("{дополнительная Рана|дополнительные Раны|дополнительных Ран}", "{раны|ран}"),
                    encoding="utf-8")
    kb, _problems = load_and_validate(repo)
    found = [str(problem) for problem in check_catalogs(repo, kb, ["ru"])]
    assert [line for line in found if "plural group" in line] == [
        line for line in found if line.startswith("translations/ru/rules/wap/daemonic.po:")]
    assert any("the plural group has 2 forms; ru has 3" in line for line in found), found


def test_an_answer_without_its_news_is_named_and_news_for_no_answer_too():
    from generator.kb.answers import news_of, news_problems
    from generator.kb.model import Returns

    returns = Returns(type="bool", text="the penalty applies", answers={True: "The penalty applies", False: "No penalty"},
                      news={True: "bad"})
    assert [issue for _key, issue, _hint in news_problems(returns)] == [
        "news lacks false: say whether each answer is good, bad or neutral news"]
    stray = Returns(type="bool", text="x", answers={True: "A", False: "B"},
                    news={True: "good", False: "bad", "maybe": "neutral"})
    assert [key for key, _issue, _hint in news_problems(stray)] == [("maybe",)]
    wounds = Returns(type="any", text="x", answers={0: "No extra Wounds", "other": "{value} extra Wounds"},
                     news={0: "good", "other": "bad"})
    assert (news_of(wounds, 0), news_of(wounds, 7), news_of(returns, False)) == ("good", "bad", None)
