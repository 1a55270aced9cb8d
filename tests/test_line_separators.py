"""A text holding a line separator other than LF (U+2028, U+2029, NEL, VT, FF) goes through `i18n update` into a
catalog every command reads back: the reader ends a line at LF only, as GNU gettext and Babel do (found by
scripts/sweep_ci_output.py: the catalog `i18n update` wrote was refused by `check` and every later command)."""

from __future__ import annotations

from generator.i18n.po.pofile import scan
from generator.i18n.po.reader import read_catalog

from .conftest import run_generator

SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c"


def test_a_quoted_string_may_hold_any_separator_but_lf_and_crlf_ends_a_line_as_lf_does():
    text = ('msgid ""\r\nmsgstr ""\r\n"Language: ru\\n"\r\n\r\n'
            f'msgctxt "a"\r\nmsgid "x{SEPARATORS}y"\r\nmsgstr "z{SEPARATORS}w"\r\n')
    catalog, _entries, problems = scan(text, "ru")
    assert problems == []
    assert [(m.lineno, m.id, m.string) for m in catalog.messages] == [(6, f"x{SEPARATORS}y", f"z{SEPARATORS}w")]


def test_a_rule_text_with_separators_goes_through_update_into_a_catalog_that_check_reads(repo):
    path = repo / "rules/wap/dodge.yaml"
    escaped = "".join(f"\\u{ord(char):04x}" for char in SEPARATORS)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "\nclauses:\n", f'\nclauses:\n  - id: separators\n    text: "Before{escaped}after."\n', 1), encoding="utf-8")
    assert run_generator(repo, "i18n", "update").returncode == 0
    catalog = read_catalog(repo / "translations/ru/rules/wap/dodge.po", "ru")
    assert next(m for m in catalog if m.context == "wap/dodge:clause:separators").id == f"Before{SEPARATORS}after."
    for command in (("check",), ("i18n", "check"), ("i18n", "update")):
        result = run_generator(repo, *command)
        assert result.returncode == 0, (command, result.stdout[-800:], result.stderr[-800:])
