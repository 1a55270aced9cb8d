"""A catalog no rule, concept or page needs is refused by `check` and `i18n check`, and the translation memory never
reads one (the security review's N8 and N10)."""

from __future__ import annotations

from pathlib import Path

from generator.i18n.po.reader import read_catalog

from .conftest import run_generator, write

PLANTED_SOURCE = "A model with this rule may re-roll failed saves."
PLANTED = "Модель с этим правилом ДОЛЖНА перебросить все успешные спасброски."
STRAY = "translations/ru/rules/wap/zz.po"


def header(repo: Path) -> str:
    return (repo / "translations/ru/rules/wap/strider.po").read_text(encoding="utf-8").split("\n\n")[0]


def plant(repo: Path, path: str = STRAY, context: str = "wap/zz:planted", obsolete: bool = False) -> Path:
    prefix = "#~ " if obsolete else ""
    return write(repo / path, f'{header(repo)}\n\n{prefix}msgctxt "{context}"\n{prefix}msgid "{PLANTED_SOURCE}"\n'
                              f'{prefix}msgstr "{PLANTED}"\n')


def add_clause(repo: Path, rule: str, clause_id: str, text: str):
    path = repo / f"rules/{rule}.yaml"
    yaml_text = path.read_text(encoding="utf-8")
    path.write_text(yaml_text.replace("\nclauses:\n", f"\nclauses:\n  - id: {clause_id}\n    text: >-\n      {text}\n", 1),
                    encoding="utf-8")


def message(repo: Path, catalog: str, context: str):
    return next(m for m in read_catalog(repo / catalog, "ru") if m.context == context)


def test_check_and_i18n_check_refuse_a_catalog_for_a_rule_that_does_not_exist_naming_file_line_and_fix(repo):
    plant(repo)
    for command in (("check",), ("i18n", "check")):
        result = run_generator(repo, *command)
        assert result.returncode == 2, (command, result.stdout[-500:])
        line = next(line for line in result.stdout.splitlines() if line.startswith(f"{STRAY}:"))
        msgid_line = header(repo).count("\n") + 4  # the header, a blank line, msgctxt, msgid
        assert line.startswith(f"{STRAY}:{msgid_line}: rules/wap/zz: no rule, concept or page has texts for a catalog")
        assert "delete the file, or run `python -m generator i18n update`" in line


def test_a_catalog_of_a_real_rule_in_its_own_source_language_is_stray_too(repo):
    plant(repo, "translations/en/rules/wap/dodge.po", "wap/dodge:title")  # English rules need no English catalog
    result = run_generator(repo, "i18n", "check")
    assert result.returncode == 2
    assert f"translations/en/rules/wap/dodge.po:{header(repo).count(chr(10)) + 4}: rules/wap/dodge: no rule" \
        in result.stdout


def test_after_i18n_update_a_stray_catalog_holds_only_obsolete_entries_and_both_checks_pass(repo):
    plant(repo)
    assert run_generator(repo, "i18n", "update").returncode == 0
    text = (repo / STRAY).read_text(encoding="utf-8")
    assert f'#~ msgstr "{PLANTED}"' in text  # kept, as every translation is, but never shown
    assert run_generator(repo, "check").returncode == 0
    assert run_generator(repo, "i18n", "check").returncode == 0


def test_the_memory_does_not_fill_a_new_message_from_a_stray_catalog(repo):
    plant(repo)
    add_clause(repo, "wap/dodge", "planted", PLANTED_SOURCE)
    result = run_generator(repo, "i18n", "update")
    assert result.returncode == 0 and "0 pre-filled from translation memory" in result.stdout.splitlines()[-1]
    filled = message(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:clause:planted")
    assert filled.string == ""


def test_the_memory_reads_no_message_a_catalog_holds_for_a_context_no_source_has(repo):
    path = repo / "translations/ru/rules/wap/strider.po"  # a real catalog, an extra entry in it
    path.write_text(path.read_text(encoding="utf-8") + f'\nmsgctxt "wap/strider:planted"\nmsgid "{PLANTED_SOURCE}"\n'
                                                       f'msgstr "{PLANTED}"\n', encoding="utf-8")
    add_clause(repo, "wap/dodge", "planted", PLANTED_SOURCE)
    assert run_generator(repo, "i18n", "update").returncode == 0
    assert message(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:clause:planted").string == ""


def test_the_memory_reads_no_translation_whose_msgid_is_not_its_source_text_now(repo):
    path = repo / "translations/ru/rules/wap/strider.po"
    original = message(repo, "translations/ru/rules/wap/strider.po", "wap/strider:title")
    text = path.read_text(encoding="utf-8")
    forged = f'msgctxt "wap/strider:title"\nmsgid "{PLANTED_SOURCE}"\nmsgstr "{PLANTED}"'
    assert f'msgctxt "wap/strider:title"\nmsgid "{original.id}"' in text
    path.write_text(text.replace(f'msgctxt "wap/strider:title"\nmsgid "{original.id}"\nmsgstr "{original.string}"',
                                 forged), encoding="utf-8")
    assert forged in path.read_text(encoding="utf-8")
    add_clause(repo, "wap/dodge", "planted", PLANTED_SOURCE)
    assert run_generator(repo, "i18n", "update").returncode == 0
    assert message(repo, "translations/ru/rules/wap/dodge.po", "wap/dodge:clause:planted").string == ""
