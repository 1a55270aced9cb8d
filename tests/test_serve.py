"""`make serve` shows an edited rule on the next reload, without a manual step."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ROOT


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def _wait_for(predicate, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.5)
    return False


def test_an_edited_rule_file_appears_on_the_served_page_after_a_reload(repo):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(repo), "serve", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/en/wap/strider/"
    try:
        assert _wait_for(lambda: "Strider" in _fetch(url), 90), "the site was never served"
        path = repo / "rules/wap/strider.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("title: Strider", "title: Strider Edited", 1),
                        encoding="utf-8")
        assert _wait_for(lambda: "Strider Edited" in _fetch(url), 90), "the edit never reached the page"
        russian = f"http://127.0.0.1:{port}/ru/wap/strider/"
        # The Russian page now says its translation is out of date (written just after the English one).
        assert _wait_for(lambda: "устаревшей" in _fetch(russian), 30), "the Russian page never showed the edit"
        assert "Parts of this translation may be out of date" not in _fetch(russian)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and "pagefind" not in path.parts}


def test_an_edit_rewrites_only_the_pages_that_show_it_and_leaves_the_site_a_full_build_would_make(repo, tmp_path):
    from generator.live import LiveSite
    from generator.site import build_site

    live = LiveSite(repo, tmp_path / "site", search=False)
    live.rebuild()
    before = _files(tmp_path / "site")
    path = repo / "rules/wap/strider.yaml"
    path.write_text(re.sub(r"(?m)^title: .*$", "title: Strider Edited", path.read_text(encoding="utf-8"), count=1),
                    encoding="utf-8")
    assert live.update({"rules/wap/strider.yaml"}) == 2  # the rule's own pages, English and Russian
    assert live.settle(60), "the pages that show the edit never followed"
    after = _files(tmp_path / "site")
    rewritten = {name for name in after if after[name] != before.get(name)}
    assert {"en/wap/strider/index.html", "ru/wap/strider/index.html", "en/a-z/index.html"} <= rewritten
    assert "en/t9a/scout/index.html" not in rewritten and len(rewritten) < len(after) // 4
    assert after == _files(build_site(repo, tmp_path / "full", quiet=True, search=False))


@pytest.mark.parametrize("edited, whole", [
    ({"docs/assets/kb.css"}, True), ({"mkdocs.yml"}, True), ({"generator/templates/rule.md"}, True),
    ({"rules/wap/strider.yaml"}, False), ({"translations/ru/rules/wap/strider.po", "translations/ru/ui.po"}, False),
], ids=["asset", "configuration", "template", "rule", "catalogs"])
def test_an_edit_outside_rules_and_catalogs_rebuilds_everything(repo, tmp_path, monkeypatch, edited, whole):
    from generator.live import LiveSite
    from generator.site import Build

    live = LiveSite(repo, tmp_path / "site", search=False)
    live.build = Build(repo)  # as after a first build; nothing is built here
    monkeypatch.setattr(live, "rebuild", lambda: "everything")
    monkeypatch.setattr("generator.live.reprepare",
                        lambda previous, changed: (_ for _ in ()).throw(LookupError("page by page")))
    if whole:
        assert live.update(edited) == "everything"
    else:
        with pytest.raises(LookupError):
            live.update(edited)


def _recording_reads(monkeypatch, repo: Path) -> list[str]:
    """The repository files the loader and the catalog reader open from now on, in order."""
    from generator import load
    from generator.i18n import translate

    read = []
    real_document, real_entries = load.read_document, translate.read_entries

    def document(root, path, *rest, **named):
        read.append(Path(path).relative_to(repo).as_posix())
        return real_document(root, path, *rest, **named)

    def entries(path, *rest, **named):
        read.append(Path(path).relative_to(repo).as_posix())
        return real_entries(path, *rest, **named)

    monkeypatch.setattr(load, "read_document", document)
    monkeypatch.setattr(translate, "read_entries", entries)
    return read


def _edit(path: Path, old: str, new: str, count: int = 1):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_an_edited_rule_and_its_catalog_are_read_again_alone_and_give_what_a_full_load_gives(repo, monkeypatch):
    from generator.live import reprepare
    from generator.site import prepare

    previous = prepare(repo)
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
    _edit(repo / "translations/ru/rules/wap/strider.po", 'msgstr "Следопыт"', 'msgstr "Следопыт правленый"')
    read = _recording_reads(monkeypatch, repo)
    fresh = reprepare(previous, {"rules/wap/strider.yaml", "translations/ru/rules/wap/strider.po"})
    assert read == ["rules/wap/strider.yaml", "translations/ru/rules/wap/strider.po"]
    full = prepare(repo)
    assert list(fresh.kb.rules) == list(full.kb.rules)
    assert {key: (rule.model_dump(), rule.system, rule.lang) for key, rule in fresh.kb.rules.items()} == {
        key: (rule.model_dump(), rule.system, rule.lang) for key, rule in full.kb.rules.items()}
    assert fresh.kb.rules["wap/strider"].title == "Strider Edited"
    assert previous.kb.rules["wap/strider"].title == "Strider"  # the served build's input is left as it was
    for lang, translations in full.translations.items():
        assert fresh.translations[lang].entries == translations.entries
        assert fresh.translations[lang].ui == translations.ui
    assert "Следопыт правленый" in {message.string for message in fresh.translations["ru"].entries.values()}
    assert "Следопыт правленый" not in {message.string for message in previous.translations["ru"].entries.values()}


def test_a_clause_renamed_in_one_rule_is_reported_where_other_rules_concepts_and_translations_name_it(repo):
    from generator.live import reprepare
    from generator.problems import InputError
    from generator.site import prepare

    previous = prepare(repo)
    _edit(repo / "rules/wap/skirmishers.yaml", "feigned-flight", "feigned-retreat", count=-1)
    with pytest.raises(InputError) as incremental:
        reprepare(previous, {"rules/wap/skirmishers.yaml"})
    with pytest.raises(InputError) as full:
        prepare(repo)
    found = sorted(incremental.value.problems)
    assert found == sorted(full.value.problems)
    assert {problem.file for problem in found} == {"rules/wap/immunity.yaml", "rules/concepts/loose-formation.yaml"}
    assert all(problem.line > 0 for problem in found)


def test_a_clause_renamed_in_a_clean_load_is_reported_in_the_translations_that_name_it(repo):
    from generator.live import reprepare
    from generator.problems import InputError
    from generator.site import prepare

    # Only the Russian catalog of wap/immunity still names the clause once the rules point elsewhere.
    for path in ("rules/wap/immunity.yaml", "rules/concepts/loose-formation.yaml"):
        _edit(repo / path, "wap/skirmishers#feigned-flight", "wap/skirmishers#characters", count=-1)
    previous = prepare(repo)
    _edit(repo / "rules/wap/skirmishers.yaml", "feigned-flight", "feigned-retreat", count=-1)
    with pytest.raises(InputError) as incremental:
        reprepare(previous, {"rules/wap/skirmishers.yaml"})
    with pytest.raises(InputError) as full:
        prepare(repo)
    assert sorted(incremental.value.problems) == sorted(full.value.problems)
    assert {problem.file for problem in full.value.problems} == {"translations/ru/rules/wap/immunity.po"}


def test_a_failed_edit_stays_pending_and_is_applied_with_the_next_one(repo, tmp_path):
    from generator.live import LiveSite
    from generator.problems import InputError

    live = LiveSite(repo, tmp_path / "site", search=False)
    live.rebuild()
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
    _edit(repo / "rules/wap/dodge.yaml", "\nsummary:", "\nsummary: [\n")  # broken YAML
    with pytest.raises(InputError):
        live.update({"rules/wap/strider.yaml", "rules/wap/dodge.yaml"})
    _edit(repo / "rules/wap/dodge.yaml", "\nsummary: [\n", "\nsummary:")
    live.update({"rules/wap/dodge.yaml"})  # strider's edit was not applied yet: it must be now
    assert "Strider Edited" in (tmp_path / "site/en/wap/strider/index.html").read_text(encoding="utf-8")
    assert live.pending == set()
