"""The value-type registry: checks, English forms, readers' labels and words all come from one table."""

from __future__ import annotations

import pytest
from markupsafe import Markup
from pydantic import ValidationError

from generator import value_types
from generator.i18n.translate import Translations
from generator.model import Argument
from generator.problems import Problems
from generator.value_types import TYPES, in_words, kind_label, value_problem

from .conftest import ROOT


@pytest.fixture(scope="module")
def ru():
    problems = Problems()
    translations = Translations.load(ROOT, "ru", problems)
    assert not problems
    return translations


def test_the_readme_table_of_types_is_generated_from_the_registry():
    readme = (ROOT / "rules/README.md").read_text(encoding="utf-8")
    between = readme.split("<!-- value-types: begin -->\n", 1)[1].split("\n<!-- value-types: end -->", 1)[0]
    assert between == value_types.readme_table()


def test_every_type_has_a_russian_label_for_readers(ru):
    for name, kind in TYPES.items():
        assert ru.gettext(kind.label) != kind.label, name


def test_a_choice_without_a_label_for_every_value_is_refused_with_the_missing_values_named():
    with pytest.raises(ValidationError, match=r"add labels: \{forest: \.\.\.\}"):
        Argument(name="terrain", type="choice", text="t", values=["open", "forest"], labels={"open": "open ground"})


def test_labels_are_refused_on_a_type_that_is_not_a_choice():
    with pytest.raises(ValidationError, match="only for type 'choice'"):
        Argument(name="near", type="bool", text="t", labels={"yes": "y"})


def test_a_label_for_a_value_that_is_not_declared_is_refused():
    with pytest.raises(ValidationError, match="not in 'values': swamp"):
        Argument(name="terrain", type="choice", text="t", values=["open"], labels={"open": "o", "swamp": "s"})


def test_value_problem_names_the_expected_form_and_the_allowed_choices():
    assert value_problem("inches", 12.5) is None
    assert value_problem("inches", "12") == "a number of inches"
    assert value_problem("int", True) == "a whole number"
    assert value_problem("dice", [0, 7]) == TYPES["dice"].form
    assert value_problem("choice", "swamp", ["open", "forest"]) == "one of open, forest"
    assert "nullable: true" in value_problem("bool", None)
    assert value_problem("bool", None, nullable=True) is None


def test_a_choice_reads_as_its_label_and_its_kind_lists_labels_not_code_names(ru):
    argument = Argument(name="terrain", type="choice", text="t", values=["open", "forest"],
                        labels={"open": "открытая местность", "forest": "Лес"})
    assert str(in_words("choice", "forest", ru, {"forest": "Лес"}.get)) == \
        '<span class="kb-value kb-value--choice">Лес</span>'
    shown = kind_label(argument, ru, ["открытая местность", "Лес"])
    assert "Лес" in shown and "forest" not in shown


def test_numbers_are_written_in_the_locale_with_a_true_minus_and_russian_plurals(ru):
    assert str(in_words("int", -1, ru)) == "−1"
    assert str(in_words("inches", 17.9, ru)) == "17,9 дюйма"
    assert str(in_words("inches", 21, ru)) == "21 дюйм"
    assert "да" in str(in_words("bool", True, ru))


def test_a_value_of_the_wrong_shape_is_written_plainly_not_as_its_declared_type(ru):
    assert str(in_words("inches", "far", ru)) == "<code>far</code>"
    assert str(in_words("point", [1], ru)) == "[1]"


# ---------------------------------------------------------------------- declared answers
def _returns(**fields):
    from generator.model import Returns

    return Returns(text="t", **fields)


def test_a_yes_no_answer_needs_both_phrases_and_names_the_missing_one():
    returns = _returns(type="bool", answers={True: "Allowed"})
    assert [(key, issue) for key, issue, _hint in value_types.answer_problems(returns, "en")] == [
        ((), "answers lack false")]
    assert value_types.answer_problems(_returns(type="bool", answers={True: "Yes", False: "No"}), "en") == []


def test_a_choice_answer_for_a_value_that_is_not_declared_is_refused():
    returns = _returns(type="choice", values=["a", "b"], labels={"a": "A", "b": "B"},
                       answers={"a": "A!", "b": "B!", "c": "C!"})
    problems = value_types.answer_problems(returns, "en")
    assert [(key, issue) for key, issue, _hint in problems] == [(("c",), "answers name 'c', which is not one of the values")]


def test_a_number_result_needs_an_other_pattern_with_value_once_and_the_languages_plural_forms():
    assert value_types.answer_problems(_returns(type="int", answers={0: "None"}), "en")[0][1] == "answers lack other"
    bad = {"{n} wounds": "{value} exactly once", "{value} {value}": "{value} exactly once",
           "{value} extra {wound}": "only {value} and one plural group",
           "{value} {рана|раны}": "the plural group has 2 forms; ru has 3"}
    for pattern, issue in bad.items():
        problems = value_types.answer_problems(_returns(type="int", answers={"other": pattern}), "ru")
        assert len(problems) == 1 and issue in problems[0][1], (pattern, problems)
    assert value_types.answer_problems(
        _returns(type="int", answers={"other": "{value} {рана|раны|ран}"}), "ru") == []


def test_a_plural_group_is_refused_on_a_result_that_is_not_a_number():
    problems = value_types.answer_problems(_returns(type="ints", answers={"other": "{value} {a|b}"}), "en")
    assert "only for a number result" in problems[0][1]


def test_a_counted_answer_takes_the_russian_plural_form_of_its_number(ru):
    returns = _returns(type="any", answers={"banished": "Banished", "other": "{value} {рана|раны|ран}"})
    shown = {n: str(value_types.answer_words(returns, n, ru, "x:predicate:p:returns", "ru", in_words("int", n, ru)))
             for n in (1, 2, 5, 21, 1.5)}
    assert shown == {n: f'<span class="kb-answer">{words}</span>' for n, words in
                     {1: "1 рана", 2: "2 раны", 5: "5 ран", 21: "21 рана", 1.5: "1,5 раны"}.items()}
    assert "Banished" in str(value_types.answer_words(returns, "banished", ru, "x", "ru", Markup("")))


def test_an_answer_is_escaped_like_any_text(ru):
    returns = _returns(type="bool", answers={True: "<b>Yes</b>", False: "No"})
    assert "&lt;b&gt;" in str(value_types.answer_words(returns, True, ru, "x", "ru", Markup("")))


def test_every_predicate_of_every_rule_says_its_answers_in_words():
    from generator.load import load_and_validate

    kb, problems = load_and_validate(ROOT)
    assert not problems
    unsaid = [f"{rule.key}:{predicate.name}" for rule in kb.rules.values() for predicate in rule.predicates
              if not predicate.returns.answers]
    assert unsaid == []


def test_generator_check_names_the_file_and_line_of_a_wrong_answer(repo):
    from generator.load import load_and_validate

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
    from generator.load import load_and_validate

    path = repo / "translations/ru/rules/wap/daemonic.po"
    text = path.read_text(encoding="utf-8")
    assert "{дополнительная рана|дополнительные раны|дополнительных ран}" in text
    path.write_text(text.replace("{дополнительная рана|дополнительные раны|дополнительных ран}", "{раны|ран}"),
                    encoding="utf-8")
    kb, _problems = load_and_validate(repo)
    found = [str(problem) for problem in check_catalogs(repo, kb, ["ru"])]
    assert [line for line in found if "plural group" in line] == [
        line for line in found if line.startswith("translations/ru/rules/wap/daemonic.po:")]
    assert any("the plural group has 2 forms; ru has 3" in line for line in found), found
