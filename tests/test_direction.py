"""Text shows what it says (security review, round four, E): a rule, glossary or catalog text holding a character
that reorders what a reviewer sees is refused at its line; a language written right to left keeps its direction
marks (core/direction.py reads the direction from Babel's locale data)."""

from __future__ import annotations

import pytest

from generator.core.direction import reordering, right_to_left
from generator.i18n.checks import check_message
from generator.kb.load import load_and_validate

from .conftest import run_generator

CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
MARKS = ["\u200e", "\u200f", "\u061c"]


def test_the_direction_comes_from_the_locale_data():
    assert [right_to_left(code) for code in ("ar", "he", "fa", "ur", "ru", "en", "zz", "en-XA")] == \
        [True, True, True, True, False, False, False, False]


@pytest.mark.parametrize("char", CONTROLS, ids=lambda char: f"U+{ord(char):04X}")
def test_a_bidi_control_is_refused_in_any_language(char):
    for lang in ("en", "ru", "ar", "he"):
        found = reordering(f"Dodge {char}6+", lang)
        assert found and found[0].startswith(f"holds U+{ord(char):04X} ("), lang


@pytest.mark.parametrize("char", MARKS, ids=lambda char: f"U+{ord(char):04X}")
def test_a_direction_mark_is_kept_in_a_right_to_left_language_only(char):
    assert reordering(f"مراوغة {char}6+", "ar") is None and reordering(f"התחמקות {char}6+", "he") is None
    assert reordering(f"Уклонение {char}6+", "ru")[0].startswith(f"holds U+{ord(char):04X}")
    assert check_message("Dodge 6+", f"مراوغة {char}6+", "en", "ar", []) == []


def test_a_translation_with_an_override_is_an_issue_of_the_message():
    [issue] = check_message("Dodge 6+", "Уклонение \u202e+6", "en", "ru", [])
    assert issue.startswith("the translation holds U+202E (RIGHT-TO-LEFT OVERRIDE), which reorders")


def test_a_rule_text_with_a_bidi_control_is_refused_at_its_line(repo):
    path = repo / "rules/wap/dodge.yaml"
    text = path.read_text(encoding="utf-8")
    old = "    name: A model with Dodge (6+) attacked from the front saves on a 6.\n"
    assert old in text
    path.write_text(text.replace(old, old.replace("front", "\u202etnorf\u202c"), 1), encoding="utf-8")
    line = next(number for number, row in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if "\u202e" in row)
    _kb, problems = load_and_validate(repo)
    (found,) = [str(problem) for problem in problems]
    assert found.startswith(f"rules/wap/dodge.yaml:{line}: wap/dodge: the text at wap/dodge:example:") and \
        "U+202E (RIGHT-TO-LEFT OVERRIDE)" in found and "written left to right" in found


def test_a_catalog_translation_with_a_bidi_control_or_a_mark_is_reported_by_i18n_check(repo):
    path = repo / "translations/ru/rules/wap/dodge.po"
    text = path.read_text(encoding="utf-8")
    assert 'msgstr "Уклонение из разных источников складывается."\n' in text
    path.write_text(text.replace('msgstr "Уклонение из разных источников складывается."',
                                 'msgstr "Уклонение из \u2067разных\u2069 источников складывается.\u200f"', 1),
                    encoding="utf-8")
    result = run_generator(repo, "i18n", "check")
    assert result.returncode != 0
    assert "translations/ru/rules/wap/dodge.po" in result.stdout and "U+2067 (RIGHT-TO-LEFT ISOLATE)" in result.stdout
