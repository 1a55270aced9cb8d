"""`i18n init` adds a language to mkdocs.yml and `i18n remove` takes it out, every other line kept as written."""

from __future__ import annotations

from .conftest import ROOT, run_generator, write
from .languages import UNUSED

NAMES = {"de": "Deutsch", "pl": "Polski", "cs": "Čeština", "fi": "Suomi", "it": "Italiano", "nl": "Nederlands"}


def config(tmp_path, text: str | None = None):
    return write(tmp_path / "mkdocs.yml", (ROOT / "mkdocs.yml").read_text(encoding="utf-8") if text is None else text)


def test_adding_a_language_appends_one_line_named_in_the_language_itself_and_removing_it_restores_the_file(tmp_path):
    from generator.site.language_list import add_language, remove_language
    from generator.site.mkdocs_config import read_languages

    before = config(tmp_path).read_text(encoding="utf-8")
    codes = [entry["code"] for entry in read_languages(tmp_path)]
    code = UNUSED[0]
    assert add_language(tmp_path, code) and not add_language(tmp_path, code)
    assert read_languages(tmp_path) == read_languages(ROOT) + [{"code": code, "name": NAMES[code]}]
    after = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    assert [line for line in after.splitlines() if line not in before.splitlines()] == [f"    - {{code: {code}, name: {NAMES[code]}}}"]
    assert remove_language(tmp_path, code) and not remove_language(tmp_path, code)
    assert (tmp_path / "mkdocs.yml").read_text(encoding="utf-8") == before
    assert [entry["code"] for entry in read_languages(tmp_path)] == codes


def test_a_list_the_editor_cannot_read_line_by_line_is_left_alone_with_a_reason(tmp_path):
    import pytest

    from generator.site.language_list import LanguageListError, add_language

    text = "site_name: x\nextra:\n  kb_languages: [{code: en, name: English}]\n"
    config(tmp_path, text)
    with pytest.raises(LanguageListError, match="kb_languages"):
        add_language(tmp_path, UNUSED[0])
    assert (tmp_path / "mkdocs.yml").read_text(encoding="utf-8") == text


def test_init_configures_the_language_and_remove_keeps_its_catalogs(repo):
    from generator.site.mkdocs_config import read_languages

    code = UNUSED[-1]
    made = run_generator(repo, "i18n", "init", code)
    assert made.returncode == 0, made.stderr
    assert f"added to the site's languages in mkdocs.yml as '{NAMES[code]}'" in made.stdout
    assert read_languages(repo)[-1] == {"code": code, "name": NAMES[code]}
    removed = run_generator(repo, "i18n", "remove", code)
    assert removed.returncode == 0 and code not in [entry["code"] for entry in read_languages(repo)]
    assert (repo / f"translations/{code}/ui.po").is_file()  # a translator's work is never deleted
    again = run_generator(repo, "i18n", "remove", code)
    assert again.returncode == 2 and f"'{code}' is not one of the site's languages" in again.stderr
    refused = run_generator(repo, "i18n", "init", "qq")
    assert refused.returncode == 2 and "qq" not in [entry["code"] for entry in read_languages(repo)]
