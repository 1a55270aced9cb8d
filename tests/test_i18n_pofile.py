"""The strict scanner reads a catalog as Babel does, and names the line of everything Babel would misread."""

from __future__ import annotations

import io

from babel.messages.pofile import read_po

from generator.i18n.po.plurals import catalog_plurals
from generator.i18n.po.pofile import scan

CATALOG = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

#. an extracted comment
#: rules/wap/dodge.yaml:3
#, fuzzy
#| msgid "Dodge the old way"
msgctxt "wap/dodge:title"
msgid "Dodge"
msgstr "Уклонение"

msgctxt "wap/dodge:summary"
msgid ""
"A save against "
"\\"shooting\\""
msgstr "Спасбросок от «стрельбы»"

msgid "%(num)s inch"
msgid_plural "%(num)s inches"
msgstr[0] "%(num)s дюйм"
msgstr[1] "%(num)s дюйма"

#~ msgctxt "wap/dodge:gone"
#~ msgid "Gone"
#~ msgstr "Ушло"
'''


def test_scan_reads_contexts_ids_strings_flags_and_lines_as_babel_does():
    entries, _all, problems = scan(CATALOG, "ru")
    babel = read_po(io.BytesIO(CATALOG.encode()), locale="ru")
    assert problems == []
    assert [(e.context, e.id, e.string, e.fuzzy, e.lineno) for e in entries] == \
        [(m.context, m.id, m.string, m.fuzzy, m.lineno) for m in babel if m.id]
    assert entries.num_plurals == 3
    assert [e.context for e in entries.obsolete] == ["wap/dodge:gone"]


def test_scan_keeps_the_previous_msgid_of_a_fuzzy_message():
    _entries, every, _problems = scan(CATALOG, "ru")
    title = next(e for e in every if e.context == "wap/dodge:title")
    assert "".join(title.previous) == "Dodge the old way"


def test_a_stray_word_and_an_unclosed_quote_are_problems_on_their_own_lines():
    text = CATALOG.replace('msgstr "Уклонение"', 'msgstr "Уклонение').replace("#~ msgid", "stray msgid", 1)
    _entries, _all, problems = scan(text, "ru")
    lines = sorted(line for line, _message, _hint in problems)
    assert lines == [text.splitlines().index('msgstr "Уклонение') + 1,
                     text.splitlines().index('stray msgid "Gone"') + 1]


def test_an_unsafe_plural_forms_header_is_a_problem_and_the_language_default_is_used():
    problems = []
    assert catalog_plurals("Plural-Forms: nplurals=2; plural=n/0;\n", 7, "ru", problems) == \
        catalog_plurals(None, 0, "ru", [])
    assert problems and problems[0][0] == 7 and "divides by zero" in problems[0][1]


def test_escaped_quotes_backslashes_and_indented_or_padded_lines_read_as_babel_reads_them():
    text = ('msgctxt "a:b"\n'
            'msgid "say \\"hi\\" \\\\ then \\\\\\"go\\\\\\""\n'
            '  msgstr "сказать \\"привет\\""   \n'
            '\t"\\\\"\n'
            '#,fuzzy\n'
            'msgctxt "a:c"\n'
            'msgid "tab\\there"\n'
            'msgstr ""\n')
    entries, _all, problems = scan(text, "ru")
    babel = read_po(io.BytesIO(text.encode()), locale="ru")
    assert problems == []
    assert [(e.context, e.id, e.string, e.fuzzy, e.lineno) for e in entries] == \
        [(m.context, m.id, m.string, m.fuzzy, m.lineno) for m in babel if m.id]


def test_a_comment_between_a_msgid_and_its_msgstr_is_a_problem_since_babel_gives_the_msgstr_to_the_next_message():
    text = CATALOG.replace('msgid "Dodge"\nmsgstr "Уклонение"', 'msgid "Dodge"\n# a note\nmsgstr "Уклонение"')
    _entries, _all, problems = scan(text, "ru")
    assert [(line, message) for line, message, _hint in problems] == \
        [(text.splitlines().index('msgstr "Уклонение"') + 1, "a comment stands between this msgstr and its msgid")]


def test_a_second_msgstr_for_one_msgid_is_a_problem_on_its_line():
    text = CATALOG.replace('msgstr "Уклонение"', 'msgstr "Уклонение"\nmsgstr "Увёртка"')
    _entries, _all, problems = scan(text, "ru")
    assert [(line, message) for line, message, _hint in problems] == \
        [(text.splitlines().index('msgstr "Увёртка"') + 1, "a second msgstr for one msgid")]


def test_a_msgid_without_msgstr_is_a_problem_and_a_line_that_is_no_keyword_is_one_problem_not_one_per_line_after_it():
    text = CATALOG.replace('msgstr "Спасбросок от «стрельбы»"\n', "")
    assert [message for _line, message, _hint in scan(text, "ru")[2]] == ["'wap/dodge:summary' has no msgstr line"]
    text = CATALOG.replace('msgid "Dodge"\n', 'msgid "Dodge"\nstray words\n')
    assert [line for line, _message, _hint in scan(text, "ru")[2]] == [text.splitlines().index("stray words") + 1]


def test_a_merge_conflict_line_is_a_problem_on_its_line_for_checking_and_for_rewriting_alike():
    # msgcat writes "#-#-#-#-#  file  #-#-#-#-#" above a msgstr that runs two files' translations together.
    text = CATALOG.replace('msgid "Dodge"', '#-#-#-#-#  ru.po  #-#-#-#-#\nmsgid "Dodge"')
    line = text.splitlines().index("#-#-#-#-#  ru.po  #-#-#-#-#") + 1
    for comments in (False, True):  # `check` and `i18n check` read no comments; `i18n update` reads them
        assert [(number, message) for number, message, _hint in scan(text, "ru", comments=comments)[2]] == \
            [(line, "a merge-conflict line (#-) cannot be read")]
