"""A catalog over the size limit and a translation far longer than its source are refused with file, line and the
limit, and no catalog makes a page more than a few times its size (the security review's N10 and N11)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.problems import Problems
from generator.i18n.po.reader import read_entries
from generator.i18n.translate import MISSING, Translations
from generator.site.inputs import copy_inputs

from .conftest import ROOT, run_generator, write

MIB = 1024 * 1024  # the documented catalog limit (generator/i18n/limits.py, translations/README.md)
STRIDER = "translations/ru/rules/wap/strider.po"
DODGE = "translations/ru/rules/wap/dodge.po"
ANSWER = "wap/dodge:predicate:dodge_save:returns:answer:other"


def replace(path: Path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_every_catalog_and_translation_of_the_repository_is_well_inside_the_limits():
    from generator.i18n.limits import MAX_CATALOG_BYTES, too_long

    biggest, ratios = 0, []
    for path in sorted((ROOT / "translations").rglob("*.po")):
        biggest = max(biggest, path.stat().st_size)
        for message in read_entries(path, path.relative_to(ROOT / "translations").parts[0]):
            if message.id and message.string:
                assert too_long(message.id, message.string) is None, (path, message.lineno)
                ratios.append(len(str(message.string)) / max(len(str(message.id)), 1))
    assert biggest < MAX_CATALOG_BYTES / 5  # the largest is ~0.1 MB today
    assert len(ratios) > 1000


def test_the_length_limit_is_three_times_the_source_plus_fifty_characters():
    from generator.i18n.limits import LENGTH_RATIO, LENGTH_SLACK, longest_translation, too_long

    assert (LENGTH_RATIO, LENGTH_SLACK) == (3, 50)
    assert longest_translation("Routs") == 65 and too_long("Routs", "Обращается в паническое бегство") is None
    assert longest_translation(("%(num)s inch", "%(num)s inches")) == 92  # the longer form counts
    assert too_long("Dodge", "У" * 66) == ("the translation is 66 characters long, more than the 65 allowed for this "
                                           "5-character source (3× the source + 50)")
    assert too_long(("a", "bb"), ("x", "y" * 57)) is not None and too_long(("a", "bb"), ("x", "y" * 56)) is None


def test_an_oversized_catalog_is_refused_by_every_command_that_reads_catalogs_naming_the_limit(repo):
    path = repo / STRIDER
    path.write_text(path.read_text(encoding="utf-8") + "# padding\n" * (MIB // 10 + 1),
                    encoding="utf-8")
    size = path.stat().st_size
    expected = f"{STRIDER}: rules/wap/strider: is {size:,} bytes, more than the 1,048,576 bytes (1 MiB) a catalog may " \
               f"have; it was not read"
    for command in (("check",), ("i18n", "check"), ("i18n", "status"), ("i18n", "update"), ("site", "--out",
                                                                                            str(repo / "out"))):
        result = run_generator(repo, *command)
        assert result.returncode == 2, command
        assert expected in result.stdout + result.stderr, (command, (result.stdout + result.stderr)[-600:])
    assert not (repo / "out").exists()
    assert path.stat().st_size == size  # update wrote nothing


def test_a_translation_far_longer_than_its_source_is_refused_with_file_line_and_limit(repo):
    replace(repo / DODGE, 'msgstr "Уклонение {value}+"', f'msgstr "Уклонение {{value}}+ {"я" * 400_000}"')  # 0.8 MB: under the file limit
    line = next(m.lineno for m in read_entries(repo / DODGE, "ru") if m.context == ANSWER)
    for command in (("check",), ("i18n", "check"), ("site", "--out", str(repo / "out"))):
        result = run_generator(repo, *command)
        assert result.returncode == 2, command
        assert re.search(rf"{re.escape(DODGE)}:{line}: {re.escape(ANSWER)} '\{{value\}}\+ Dodge save': the "
                         rf"translation is 400,019 characters long, more than the 107 allowed for this "
                         rf"19-character source \(3× the source \+ 50\)", result.stdout + result.stderr), command
    assert not (repo / "out").exists()


def forge(repo: Path):
    """A long translation under a msgid forged just as long, in a rule catalog and in a plural interface message."""
    replace(repo / DODGE, 'msgid "{value}+ Dodge save"\nmsgstr "Уклонение {value}+"',
            f'msgid "{{value}}+ {"s" * 100_000}"\nmsgstr "{{value}}+ {"Я" * 300_000}"')
    replace(repo / "translations/ru/ui.po",
            'msgid_plural "Diagrams: %(num)s situations"\nmsgstr[0] "Схемы: %(num)s ситуация"\n'
            'msgstr[1] "Схемы: %(num)s ситуации"\nmsgstr[2] "Схемы: %(num)s ситуаций"',
            f'msgid_plural "%(num)s {"i" * 90_000}"\nmsgstr[0] "%(num)s {"Д" * 90_000}"\n'
            f'msgstr[1] "%(num)s {"Д" * 90_000}"\nmsgstr[2] "%(num)s {"Д" * 90_000}"')


def test_a_long_translation_under_a_forged_msgid_is_reported_against_the_real_source_and_never_shown(repo):
    forge(repo)
    for command in (("check",), ("i18n", "check")):
        result = run_generator(repo, *command)
        assert result.returncode == 2 and "the translation is 300,009 characters long, more than the 107 allowed " \
                                          "for this 19-character source" in result.stdout, command
    problems = Problems()
    translations = Translations.load(repo, "ru", problems)
    assert not problems  # against its own msgid the translation fits: only the source can tell
    shown = translations.text(ANSWER, "{value}+ Dodge save", "en")
    assert (shown.value, shown.state) == ("{value}+ Dodge save", MISSING)
    assert translations.ngettext("Diagrams: %(num)s situation", "Diagrams: %(num)s situations", 5) == \
        "Diagrams: %(num)s situations"


@pytest.fixture(scope="module")
def forged_site(tmp_path_factory, full_build) -> Path:
    repo = copy_inputs(ROOT, tmp_path_factory.mktemp("forged") / "repo")
    forge(repo)
    return full_build(repo)


def test_no_page_grows_more_than_a_little_from_forged_catalogs(forged_site, site):
    grown = {}
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site)
        if "pagefind" in name.parts:
            continue
        forged = (forged_site / name).stat().st_size
        if forged > 1.2 * page.stat().st_size + 4096:
            grown[str(name)] = (page.stat().st_size, forged)
    assert not grown, grown
    dodge = (forged_site / "ru/wap/dodge/index.html").read_text(encoding="utf-8")
    assert "ЯЯЯЯ" not in dodge and "ДДДД" not in (forged_site / "ru/battlesystem/skirmishers/index.html").read_text(
        encoding="utf-8")


def test_an_interface_translation_over_the_limit_falls_back_to_english(tmp_path):
    write(tmp_path / "translations/ru/ui.po", 'msgid ""\nmsgstr ""\n"Language: ru\\n"\n\n'
                                              f'msgid "none"\nmsgstr "{"н" * 100}"\n\nmsgid "yes"\nmsgstr "да"\n')
    problems = Problems()
    translations = Translations.load(tmp_path, "ru", problems)
    assert [problem.message for problem in problems] == [
        "the translation is 100 characters long, more than the 62 allowed for this 4-character source (3× the source "
        "+ 50)"]
    assert translations.gettext("none") == "none" and translations.gettext("yes") == "да"
