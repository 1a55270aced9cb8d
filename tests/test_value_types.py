"""The value-type registry: checks, English forms, readers' labels and words all come from one table."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.kb import value_types
from generator.kb.model import Argument
from generator.kb.value_types import TYPES, value_problem
from generator.render.values import in_words, kind_label

from .conftest import ROOT


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
    assert value_problem("inches", "12") == "a number of inches, 0 or more"
    assert value_problem("inches", -0.5) == "a number of inches, 0 or more"  # no distance is negative
    assert value_problem("int", True) == "a whole number"
    assert value_problem("dice", [0, 7]) == TYPES["dice"].form + "; item 1 is 0"
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


def test_numbers_are_written_in_the_locale_with_a_true_minus_and_distances_as_rulebooks_write_them(ru):
    assert str(in_words("int", -1, ru)) == "−1"
    assert str(in_words("inches", 17.9, ru)) == "17,9″"
    assert str(in_words("inches", 21, ru)) == "21″"
    assert [str(in_words("inches", value, ru)) for value in (0.5, 1.5, 2.25)] == ["½″", "1½″", "2¼″"]
    assert str(in_words("inches", -1.5, ru)) == "−1,5"  # not a distance: written as the number it is
    assert "да" in str(in_words("bool", True, ru))


def test_a_model_number_is_counted_from_1_for_a_reader(ru):
    assert [str(in_words("model", 0, ru)), str(in_words("models", [1, 2], ru)), str(in_words("models", [], ru))] == [
        "1", "2, 3", "—"]


def test_a_value_of_the_wrong_shape_is_written_plainly_not_as_its_declared_type(ru):
    assert str(in_words("inches", "far", ru)) == "<code>far</code>"
    assert str(in_words("point", [1], ru)) == "[1]"


TERRAIN = ["forest", "marsh"]


def test_a_list_of_choices_refuses_an_item_outside_the_set_and_names_it():
    assert value_problem("list", ["marsh"], TERRAIN, items="choice") is None
    assert value_problem("list", ["forest", "Marsh"], TERRAIN, items="choice") == \
        "a list of values from forest, marsh; item 2 is 'Marsh'"
    assert value_problem("list", ["болото"], TERRAIN, items="choice").endswith("item 1 is 'болото'")
    assert value_problem("list", "marsh", TERRAIN, items="choice") == "a list of values from forest, marsh"


def test_an_open_choice_takes_any_other_id_but_refuses_a_near_miss_of_a_named_one():
    factions = ["daemons-of-khorne", "daemons-of-tzeentch"]
    assert value_problem("choice", "empire", factions, other="another faction") is None
    assert value_problem("choice", "empire", factions) == "one of daemons-of-khorne, daemons-of-tzeentch"
    assert "daemons-of-tzeentch exactly" in value_problem("choice", "Tzeentch", factions, other="another faction")


def test_a_list_longer_than_the_limit_or_a_number_out_of_range_is_refused_with_the_limit():
    assert value_problem("ints", [6] * value_types.MAX_ITEMS, low=2, high=6) is None
    assert f"at most {value_types.MAX_ITEMS} items (this one has {value_types.MAX_ITEMS + 1})" in \
        value_problem("ints", [6] * (value_types.MAX_ITEMS + 1), low=2, high=6)
    assert value_problem("ints", [6, 7], low=2, high=6) == "a list of whole numbers from 2 to 6; item 2 is 7"
    assert value_types.value_fault("list", [[["x"]]], items="text") == ("item", 0)


def test_a_list_argument_must_say_what_its_items_are():
    with pytest.raises(ValidationError, match="says what its items are"):
        Argument(name="styles", type="list", text="t")
    with pytest.raises(ValidationError, match="'items' is only for type 'list'"):
        Argument(name="n", type="int", text="t", items="int")
