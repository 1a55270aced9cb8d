"""Malformed catalogs and glossaries are problem reports (file:line, exit 2, nothing written), never tracebacks."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.i18n.glossary import read_glossary
from generator.i18n.po import plurals
from generator.i18n.po.pofile import CatalogError
from generator.i18n.po.reader import read_catalog

from .conftest import write

DODGE = "translations/ru/rules/wap/dodge.po"
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
PLURAL = 'msgid "%(num)s inch"\nmsgid_plural "%(num)s inches"\nmsgstr[0] "%(num)s дюйм"\n'


def run(capsys, repo, *args) -> tuple[int, str]:
    code = main(["--root", str(repo), *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def problems_of(path, lang="ru") -> list[tuple[int, str, str]]:
    with pytest.raises(CatalogError) as error:
        read_catalog(path, lang)
    return error.value.problems


def edit(path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- F14: an unterminated string is refused, never cut short ----------------------------------------

@pytest.mark.parametrize("broken", ['msgstr "Уклонение', "msgstr Уклонение", 'msgstr "Уклон"ение"'],
                         ids=["no closing quote", "no quotes", "a bare quote inside"])
def test_a_msgstr_with_a_missing_quote_is_refused_with_its_line(tmp_path, broken):
    path = write(tmp_path / "dodge.po", HEADER.format(forms="nplurals=3; plural=0;") +
                 f'msgctxt "wap/dodge:title"\nmsgid "Dodge"\n{broken}\n')
    [(line, message, hint)] = problems_of(path)
    assert line == 8 and "double quotes" in message and hint


def test_check_i18n_check_and_update_refuse_a_truncatable_msgstr_and_write_nothing(capsys, repo):
    path = repo / DODGE
    edit(path, 'msgstr "Уклонение"\n', 'msgstr "Уклонение\n')
    before = path.read_bytes()
    for command in (["check"], ["i18n", "check"], ["i18n", "update"]):
        code, output = run(capsys, repo, *command)
        assert code == 2, (command, output[-500:])
        assert f"{DODGE}:26:" in output, (command, output[-500:])
    assert path.read_bytes() == before


# --- F15: the same context twice is reported, neither translation dropped ----------------------------

def test_two_entries_with_the_same_context_are_reported_and_update_keeps_both(capsys, repo):
    path = repo / DODGE
    with path.open("a", encoding="utf-8") as handle:
        handle.write('\nmsgctxt "wap/dodge:title"\nmsgid "Dodge"\nmsgstr "Второй перевод"\n')
    before = path.read_bytes()
    for command in (["check"], ["i18n", "check"], ["i18n", "update"]):
        code, output = run(capsys, repo, *command)
        assert code == 2 and "appears twice (also at line 24)" in output, (command, output[-500:])
    assert path.read_bytes() == before and "Второй перевод" in path.read_text(encoding="utf-8")


# --- F13: a hostile Plural-Forms header ----------------------------------------------------------------

@pytest.mark.parametrize("forms, expected", [
    ("nplurals=3; plural=n;", "picks form 3 for n=3"),
    ("nplurals=3; plural=n/0;", "divides by zero"),
    (r"nplurals=3; plural=__import__(\"os\");", "not a C plural expression"),
    ("nplurals=3; plural=" + "(" * 42 + "n" + ")" * 42 + ";", "not a C plural expression"),
    ("nplurals=100000000; plural=0;", "out of range"),
    ("nplurals=-1; plural=0;", "must read"),
    ("nplurals=0; plural=0;", "out of range"),
    ("two forms please", "must read"),
], ids=["form out of range", "division by zero", "not C", "too deep", "millions of forms", "negative", "zero",
        "malformed"])
def test_a_hostile_plural_forms_header_is_refused_at_the_header_after_a_bounded_probe(tmp_path, monkeypatch, forms,
                                                                                      expected):
    evaluated = []  # each count the header's rule was asked about: a fixed probe, whatever nplurals says
    compile_rule = plurals.stdlib_gettext.c2py

    def counted(expression):
        rule = compile_rule(expression)
        return lambda number: evaluated.append(number) or rule(number)

    monkeypatch.setattr(plurals.stdlib_gettext, "c2py", counted)
    plurals.plural_problem.cache_clear()  # an earlier run's verdict would skip the probe
    path = write(tmp_path / "ui.po", HEADER.format(forms=forms) + PLURAL)
    [(line, message, _hint)] = problems_of(path)
    assert len(evaluated) <= plurals.PLURAL_PROBE + 1, len(evaluated)
    assert line == 1 and message.startswith("Plural-Forms: ") and expected in message, message


def test_a_good_plural_forms_header_is_read(tmp_path):
    path = write(tmp_path / "ui.po", HEADER.format(forms="nplurals=2; plural=(n != 1);") + PLURAL)
    assert read_catalog(path, "ru").num_plurals == 2


def test_check_and_i18n_check_report_a_plural_rule_that_divides_by_zero(capsys, repo):
    path = repo / "translations/ru/ui.po"
    text = path.read_text(encoding="utf-8")
    start = text.index('"Plural-Forms:')
    end = text.index('\\n"', start) + 3
    path.write_text(text[:start] + '"Plural-Forms: nplurals=3; plural=n/0;\\n"' + text[end:], encoding="utf-8")
    for command in (["check"], ["i18n", "check"]):
        code, output = run(capsys, repo, *command)
        assert code == 2 and "translations/ru/ui.po:" in output and "divides by zero" in output, output[-500:]


# --- F12: a reference in a translation that points nowhere ----------------------------------------------

BAD_TARGETS = ["wap/nonexistent", "term:nope", "concept:nope", "../../etc/passwd", "javascript:alert(1)",
               "wap/dodge#nope"]


def test_check_and_i18n_check_report_every_reference_that_points_nowhere(capsys, repo):
    path = repo / DODGE
    lines = path.read_text(encoding="utf-8").split("\n")
    translated = [i for i, line in enumerate(lines) if line.startswith('msgstr "') and line != 'msgstr ""'][1:]
    assert len(translated) >= len(BAD_TARGETS)
    for index, target in zip(translated, BAD_TARGETS):
        lines[index] = lines[index][:-1] + f' [[{target}]]"'
    path.write_text("\n".join(lines), encoding="utf-8")
    for command in (["check"], ["i18n", "check"]):
        code, output = run(capsys, repo, *command)
        assert code == 2, output[-500:]
        for target in BAD_TARGETS:
            assert f"[[{target}]] " in output and DODGE + ":" in output, (command, target, output[-800:])
        assert "Traceback" not in output


# --- F17: the translators' glossary -------------------------------------------------------------------

@pytest.mark.parametrize("content, line, expected", [
    (b"- a\n- b\n", 1, "must be a mapping"),
    (b"lang: ru\nterms:\n  - {source: fly}\n", 3, "needs a non-empty text for target"),
    (b"lang: ru\nterms:\n  - {source: fly, target: \xcf\xee\xeb\xb8\xf2}\n", 3, "not UTF-8"),
    (b"lang: ru\nterms:\n  - {source: fly, target: [unclosed\n", 4, "not valid YAML"),
    (b"lang: ru\nterms:\n  - {source: fly, target: x, note: y}\n", 3, "unknown key(s) 'note'"),
    (b"lang: ru\nterms:\n  - {source: fly, target: x}\n  - {source: fly, target: y}\n", 4, "listed twice"),
    (b"lang: de\nterms: []\n", 1, "sits in translations/ru/"),
    (b"lang: ru\nterms: {source: fly}\n", 2, "terms must be a list"),
    (b"lang: ru\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nterms:\n  - {source: *c, target: y}\n", 3, "aliases are not allowed"),
], ids=["a list", "no target", "not UTF-8", "syntax error", "unknown key", "duplicate", "wrong lang", "terms not a list",
        "alias bomb"])
def test_a_malformed_glossary_is_a_problem_with_its_line(tmp_path, content, line, expected):
    (tmp_path / "translations/ru").mkdir(parents=True)
    (tmp_path / "translations/ru/glossary.yaml").write_bytes(content)
    terms, problems = read_glossary(tmp_path, "ru")
    assert problems, "no problem reported"
    assert problems[0].file == "translations/ru/glossary.yaml" and problems[0].line == line
    assert expected in problems[0].message, problems[0].message


def test_i18n_check_reports_a_broken_glossary_and_the_catalog_problems_after_it(capsys, repo):
    write(repo / "translations/ru/glossary.yaml", "- a\n- b\n")
    code, output = run(capsys, repo, "i18n", "check")
    assert code == 2 and "translations/ru/glossary.yaml:1: glossary: must be a mapping" in output
    assert "Traceback" not in output


# --- catalogs live inside the checkout (the repository-file policy of generator/core/repofiles.py) --------------

def test_a_catalog_linked_from_outside_the_checkout_is_reported_and_not_read(capsys, repo, tmp_path):
    outside = write(tmp_path / "outside.po", (repo / DODGE).read_text(encoding="utf-8").replace("Уклонение", "SECRET"))
    (repo / DODGE).unlink()
    (repo / DODGE).symlink_to(outside)
    for command in (["check"], ["i18n", "check"]):
        code, output = run(capsys, repo, *command)
        assert code == 2 and "points outside the repository" in output and "SECRET" not in output, output[-500:]


def test_update_writes_no_catalog_through_a_folder_linked_outside_the_checkout(capsys, repo, tmp_path):
    outside = tmp_path / "elsewhere"
    (repo / "translations/ru/rules/wap").rename(outside)
    (repo / "translations/ru/rules/wap").symlink_to(outside, target_is_directory=True)
    before = sorted(path.name for path in outside.iterdir())
    (outside / "dodge.po").unlink()
    code, output = run(capsys, repo, "i18n", "update")
    assert code == 2 and "nothing was written" in output
    assert sorted(path.name for path in outside.iterdir()) == [name for name in before if name != "dodge.po"]


_ONE_MESSAGE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Save"\nmsgstr "{}"\n'


def test_inside_catalogs_read_once_a_catalog_is_read_once_and_outside_anew(tmp_path):
    from generator.i18n.po.reader import catalogs_read_once, read_entries

    path = write(tmp_path / "translations" / "ru" / "ui.po", _ONE_MESSAGE.format("Спасбросок"))
    with catalogs_read_once():
        first = read_entries(path, "ru", tmp_path)
        write(path, _ONE_MESSAGE.format("Защита"))
        assert read_entries(path, "ru", tmp_path) is first
        assert read_entries(path, "ru") is first  # a plain reading may use one made under the repository policy
        assert [m.string for m in first if m.id] == ["Спасбросок"]
    assert [m.string for m in read_entries(path, "ru", tmp_path) if m.id] == ["Защита"]


def test_catalogs_read_once_does_not_let_a_plain_reading_stand_for_a_checked_one(tmp_path):
    from generator.i18n.po.reader import catalogs_read_once, read_entries

    outside = write(tmp_path / "elsewhere.po", _ONE_MESSAGE.format("Спасбросок"))
    root = tmp_path / "repo"
    link = root / "translations" / "ru" / "ui.po"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    with catalogs_read_once():
        assert [m.string for m in read_entries(link, "ru") if m.id] == ["Спасбросок"]
        with pytest.raises(CatalogError):
            read_entries(link, "ru", root)
