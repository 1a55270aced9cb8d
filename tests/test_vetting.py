"""Code shows what it runs (security review, round four, E): characters that reorder, hide or break a line of code
for a reviewer are refused anywhere in a snippet, with the line and the escape to write instead."""

from __future__ import annotations

import pytest

from generator.evaluate import Snippet, SnippetRefused
from generator.kb.load import load_and_validate

from .conftest import run_generator

BIDI = [chr(code) for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
BREAKS = ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\r"]
INVISIBLE = ["\u200b", "\u200e", "\u200f", "\u061c", "\ufeff", "\x1b", "\x00"]


@pytest.mark.parametrize("char", BIDI + BREAKS + INVISIBLE, ids=lambda char: f"U+{ord(char):04X}")
@pytest.mark.parametrize("place", ["string", "comment"])
def test_a_hidden_character_in_a_string_or_a_comment_is_refused_at_its_line_with_its_escape(char, place):
    line = f'x = "a{char}b"' if place == "string" else f"x = 1  # a{char}b"
    with pytest.raises(SnippetRefused) as refused:
        Snippet.compile(f"y = 2\n{line}\nreturn y", [])
    assert refused.value.line == 2
    escape = "\\r" if char == "\r" else f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
    assert f"U+{ord(char):04X}" in str(refused.value) and f"write {escape} in a string if you mean it" in str(
        refused.value)


def test_the_escape_it_suggests_is_accepted_and_gives_the_character():
    assert Snippet.compile('return "front\\u202e"', [])() == "front\u202e"


def test_tabs_newlines_and_ordinary_text_in_any_script_are_kept():
    assert Snippet.compile('x = "щит\tدرع"  # защита, حماية\nreturn x', [])() == "щит\tدرع"


REVIEW_TROJAN = [  # security-review.md, finding E, as raw characters in the rule file
    ('      if arc != "front":  # clause: front-arc-save\n',
     '      if arc != "front\u202e \u2066# flank\u2069 \u2066":  # clause: front-arc-save\n', "U+202E"),
    ("      if mounted and not mounted_allowed:  # clause: mounted\n",
     "      # mounted models never dodge\u2028      return None\n      if mounted and not mounted_allowed:  # clause: mounted\n",
     "U+2028"),
]


@pytest.mark.parametrize("old,new,code", REVIEW_TROJAN, ids=["bidi in a string", "line separator in a comment"])
def test_check_refuses_the_reviews_trojan_source_at_the_line_of_the_rule_file(repo, old, new, code):
    path = repo / "rules/wap/dodge.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _kb, problems = load_and_validate(repo)
    (found,) = [str(problem) for problem in problems]
    char = chr(int(code[2:], 16))
    line = next(number for number, row in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if char in row)
    assert found.startswith(f"rules/wap/dodge.yaml:{line}: wap/dodge: predicate dodge_save: code refused: "), found
    assert f"{code}" in found and "if you mean it" in found
    result = run_generator(repo, "check")
    assert result.returncode != 0 and code in result.stdout
