"""`make serve` shows an edited rule on the next reload, without a manual step."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from .conftest import ROOT
from .test_serve_paths import request
from .languages import LANGUAGES, NOT_SOURCE


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
        time.sleep(0.1)  # a page fetch costs the server little; each wait of this test ends within 0.1 s of the change
    return False


@pytest.fixture(scope="module")
def served_once(tmp_path_factory):
    """(LiveSite, {input: bytes}): one full build of a repository copy for this module's edit tests (~1.3 s each)."""
    from generator.serve.live import LiveSite
    from generator.site.inputs import copy_inputs, input_files

    work = tmp_path_factory.mktemp("live")
    repo = copy_inputs(ROOT, work / "repo")
    live = LiveSite(repo, work / "site", search=False)
    live.rebuild()
    return live, {path.relative_to(repo).as_posix(): path.read_bytes() for path in input_files(repo)}


@pytest.fixture
def live(served_once):
    """The module's LiveSite with its inputs as in the repository; afterwards the test's edits are undone and the
    site follows them page by page, as `make serve` follows an editor's undo (the tests here show that an update
    leaves the site a full build would make)."""
    live, originals = served_once
    indexer = live.indexer
    yield live
    live.indexer = indexer
    edited = {name for name, data in originals.items() if (live.root / name).read_bytes() != data}
    for name in edited:
        (live.root / name).write_bytes(originals[name])
    if edited or live.pending:
        live.update(edited)
    assert live.settle(60) and not live.pending and not any(live.stale.values())


def test_an_edited_rule_file_appears_on_the_served_page_after_a_reload(repo):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(repo), "serve", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/en/wap/strider/"
    try:
        assert _wait_for(lambda: "Strider" in _fetch(url), 90), "the site was never served"
        assert request(("127.0.0.1", port), "/%00").split()[1] == "400"  # a path no file can have
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
    assert "Traceback" not in server.stdout.read()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and "pagefind" not in path.parts}


def test_an_edit_rewrites_only_the_pages_that_show_it_and_leaves_the_site_a_full_build_would_make(live, full_build):
    before = _files(live.out)
    _edit(live.root / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")  # as the failed edit's test
    assert live.update({"rules/wap/strider.yaml"}) == len(LANGUAGES)  # the rule's own page in each language
    assert live.settle(60), "the pages that show the edit never followed"
    after = _files(live.out)
    rewritten = {name for name in after if after[name] != before.get(name)}
    assert {"en/wap/strider/index.html", "ru/wap/strider/index.html", "en/a-z/index.html"} <= rewritten
    assert "en/t9a/scout/index.html" not in rewritten and len(rewritten) < len(after) // 4
    assert after == _files(full_build(live.root))


@pytest.mark.parametrize("edited, whole", [
    ({"docs/assets/kb.css"}, True), ({"mkdocs.yml"}, True), ({"generator/render/templates/rule.md"}, True),
    ({"rules/wap/strider.yaml"}, False), ({"translations/ru/rules/wap/strider.po", "translations/ru/ui.po"}, False),
], ids=["asset", "configuration", "template", "rule", "catalogs"])
def test_an_edit_outside_rules_and_catalogs_rebuilds_everything(repo, tmp_path, monkeypatch, edited, whole):
    from generator.serve.live import LiveSite
    from generator.site.build import Build

    live = LiveSite(repo, tmp_path / "site", search=False)
    live.build = Build(repo)  # as after a first build; nothing is built here
    monkeypatch.setattr(live, "rebuild", lambda: "everything")
    monkeypatch.setattr("generator.serve.live.reprepare",
                        lambda previous, changed: (_ for _ in ()).throw(LookupError("page by page")))
    if whole:
        assert live.update(edited) == "everything"
    else:
        with pytest.raises(LookupError):
            live.update(edited)


def _recording_reads(monkeypatch, repo: Path) -> list[str]:
    """The repository files the loader and the catalog reader open from now on, in order."""
    from generator.i18n import translate
    from generator.kb import load

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
    from generator.serve.edits import reprepare
    from generator.site.build import prepare

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


def _problems_after_renaming_feigned_flight(repo):
    """(problems of the incremental reload, problems of a full load) once a clause of wap/skirmishers is renamed."""
    from generator.core.problems import InputError
    from generator.serve.edits import reprepare
    from generator.site.build import prepare

    previous = prepare(repo)
    _edit(repo / "rules/wap/skirmishers.yaml", "feigned-flight", "feigned-retreat", count=-1)
    with pytest.raises(InputError) as incremental:
        reprepare(previous, {"rules/wap/skirmishers.yaml"})
    with pytest.raises(InputError) as full:
        prepare(repo)
    return sorted(incremental.value.problems), sorted(full.value.problems)


def test_a_clause_renamed_in_one_rule_is_reported_where_other_rules_concepts_and_translations_name_it(repo):
    found, full = _problems_after_renaming_feigned_flight(repo)
    assert found == full
    assert {problem.file for problem in found} == {"rules/wap/immunity.yaml", "rules/concepts/loose-formation.yaml"}
    assert all(problem.line > 0 for problem in found)


def test_a_clause_renamed_in_a_clean_load_is_reported_in_the_translations_that_name_it(repo):
    # Only the Russian catalog of wap/immunity still names the clause once the rules point elsewhere.
    for path in ("rules/wap/immunity.yaml", "rules/concepts/loose-formation.yaml"):
        _edit(repo / path, "wap/skirmishers#feigned-flight", "wap/skirmishers#characters", count=-1)
    found, full = _problems_after_renaming_feigned_flight(repo)
    assert found == full
    assert {problem.file for problem in full} == {"translations/ru/rules/wap/immunity.po"}


def test_a_failed_edit_stays_pending_and_is_applied_with_the_next_one(live, full_build):
    from generator.core.problems import InputError

    repo = live.root
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
    _edit(repo / "rules/wap/dodge.yaml", "\nsummary:", "\nsummary: [\n")  # broken YAML
    with pytest.raises(InputError):
        live.update({"rules/wap/strider.yaml", "rules/wap/dodge.yaml"})
    _edit(repo / "rules/wap/dodge.yaml", "\nsummary: [\n", "\nsummary:")
    live.update({"rules/wap/dodge.yaml"})  # strider's edit was not applied yet: it must be now
    assert "Strider Edited" in (live.out / "en/wap/strider/index.html").read_text(encoding="utf-8")
    assert live.pending == set()
    assert live.settle(60)
    assert _files(live.out) == _files(full_build(repo))


def _inodes(folder: Path) -> dict[str, int]:
    """Each page's inode: a page written again (to a temporary file renamed over it) gets a new one."""
    return {str(path.relative_to(folder)): path.stat().st_ino for path in folder.rglob("*.html")}


@pytest.mark.parametrize("old, new, shown", [
    ("title: Strider", "title: Strider Edited", "every listing"),
    ("What about a model whose Strider names no terrain at all?", "What about a Strider without terrain?",
     "clarifications.md"),
    ("*Strider (X).* X is a kind", "*Strider (X).* X, as for [[term:fear|Fear]], is a kind", "glossary.md"),
    ("may be\n      a list of several.", "may be\n      a list of two or more.", None),
], ids=["title", "clarification", "term used", "clause"])
def test_the_listing_pages_checked_after_an_edit_are_those_that_show_what_changed(repo, old, new, shown):
    from generator.render.links import Links
    from generator.serve.edits import listings_to_check, reprepare
    from generator.site.build import prepare

    before = prepare(repo)
    _edit(repo / "rules/wap/strider.yaml", old, new)
    after = reprepare(before, {"rules/wap/strider.yaml"})
    links = (Links.of(before.kb), Links.of(after.kb))
    listings = {"index.md", "wap/index.md", "a-z.md", "glossary.md", "clarifications.md", "status.md"}
    for lang in LANGUAGES:
        found = listings_to_check(before, after, links, {"wap/strider"}, lang, listings)
        assert found == (listings if shown == "every listing" else {"status.md"} | ({shown} if shown else set()))


def test_links_read_again_for_the_edited_rules_alone_are_the_links_of_the_whole_base(repo):
    from generator.render.links import Links
    from generator.serve.edits import reprepare
    from generator.site.build import prepare

    before = prepare(repo)
    _edit(repo / "rules/wap/strider.yaml", "*Strider (X).* X is a kind",
          "*Strider (X).* X, as for [[term:fear|Fear]] and [[wap/dodge]], is a kind")
    _edit(repo / "rules/wap/dodge.yaml", "\nsee_also:\n", "\nsee_also:\n  - wap/strider\n")
    after = reprepare(before, {"rules/wap/strider.yaml", "rules/wap/dodge.yaml"})
    updated = Links.of(after.kb, Links.of(before.kb), {"wap/strider", "wap/dodge"})
    whole = Links.of(after.kb)

    def present(table):
        return {key: users for key, users in table.items() if users}

    assert present(updated.rule_backlinks) == present(whole.rule_backlinks)
    assert present(updated.term_users) == present(whole.term_users)
    assert "wap/strider" in whole.term_users["fear"] and "wap/strider" in whole.rule_backlinks["wap/dodge"]


def test_an_edit_of_a_clause_writes_the_rules_own_pages_and_the_status_and_leaves_every_other_page(live, full_build):
    from generator.serve.live import TEMPORARY

    live.indexer = SimpleNamespace(requests=[], request=lambda: live.indexer.requests.append(1))
    before = _inodes(live.out)
    _edit(live.root / "rules/wap/strider.yaml", "may be\n      a list of several.",
          "may be\n      a list of two or more.")
    assert live.update({"rules/wap/strider.yaml"}) == len(LANGUAGES)
    assert live.settle(60)
    assert live.indexer.requests == [1]  # the search index is made again once, after the follow-up
    after = _inodes(live.out)
    rewritten = {name for name in after if after[name] != before[name]}
    # Every translation's rule page is rewritten too, and where the clause was translated (Russian), its status
    # page: the clause is now shown as an outdated translation.
    translated = [lang for lang in NOT_SOURCE if _translates(live.root, lang, "wap/strider:clause:named-terrain")]
    assert rewritten == {f"{lang}/wap/strider/index.html" for lang in LANGUAGES} | {
        f"{lang}/status/index.html" for lang in translated}
    assert not [path for path in live.out.rglob(f"{TEMPORARY}*")]
    assert _files(live.out) == _files(full_build(live.root))


def test_a_newer_edit_takes_over_the_pages_an_earlier_edit_left_stale(live, monkeypatch, full_build):
    repo = live.root
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
    with monkeypatch.context() as patched:
        patched.setattr(live.follower, "start", lambda: None)  # as if the next edit came before any follow-up
        live.update({"rules/wap/strider.yaml"})
    assert "Strider Edited" in (live.out / "en/wap/strider/index.html").read_text(encoding="utf-8")
    assert "Strider Edited" not in (live.out / "en/a-z/index.html").read_text(encoding="utf-8")
    assert live.stale["en"] and live.stale_export["en"] == {"wap/strider"}
    _edit(repo / "rules/wap/dodge.yaml", "\nsummary: >-\n", "\nsummary: >-\n  Edited.\n")
    live.update({"rules/wap/dodge.yaml"})
    assert live.settle(60)
    assert live.stale == live.stale_export == {lang: set() for lang in LANGUAGES}
    assert _files(live.out) == _files(full_build(repo))


def test_the_watcher_wakes_on_an_edited_input_and_not_on_the_written_site(repo):
    from generator.serve.server import Watcher

    watching = Watcher(repo)
    try:
        (repo / "site/en").mkdir(parents=True)
        (repo / "site/en/index.html").write_text("<html></html>", encoding="utf-8")
        (repo / "rules-notes.txt").write_text("not an input", encoding="utf-8")
        assert not watching.woke.wait(0.5)  # inotify reports a write within milliseconds
        _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
        assert str(repo / "rules/wap/strider.yaml") in watching.wait()  # the files the save's events named
        assert not watching.woke.is_set()  # the save's events are taken together
    finally:
        watching.stop()


def test_an_edit_named_by_its_event_is_found_by_looking_at_that_file_alone(repo):
    from generator.site.inputs import changed, refreshed, snapshot

    before = snapshot(repo)
    _edit(repo / "rules/wap/strider.yaml", "title: Strider", "title: Strider Edited")
    (repo / "rules/wap/dodge.yaml").unlink()
    (repo / "rules-notes.txt").write_text("not an input", encoding="utf-8")
    named = {str(repo / "rules/wap/strider.yaml"), str(repo / "rules/wap/dodge.yaml"), str(repo / "rules-notes.txt"),
             "/elsewhere/rules/wap/strider.yaml"}
    after = refreshed(before, repo, named)
    assert changed(before, after) == {"rules/wap/strider.yaml", "rules/wap/dodge.yaml"}
    assert after == snapshot(repo)  # what comparing every input finds


@pytest.mark.skipif(sys.platform != "linux", reason="nice is per thread only on Linux")
def test_the_search_indexer_runs_at_low_priority_and_leaves_the_server_thread_as_it_was():
    import threading

    from generator.serve.background import INDEXER_NICENESS, _lower_this_threads_priority

    seen = {}

    def indexer_thread():
        _lower_this_threads_priority()
        seen["indexer"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=indexer_thread)
    thread.start()
    thread.join()
    assert seen["indexer"] == max(before, INDEXER_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before


def test_the_private_mkdocs_functions_the_live_server_calls_still_take_what_it_passes():
    import inspect

    from mkdocs.commands import build as mkdocs_build

    from generator.serve import mkdocs_private

    for name, expected in mkdocs_private.EXPECTED.items():
        function = getattr(mkdocs_build, name, None)
        assert function is not None, (f"MkDocs no longer has mkdocs.commands.build.{name}, which make serve's incremental "
                                      f"update calls (generator/serve/mkdocs_private.py): adapt that module to the new MkDocs")
        parameters = tuple(inspect.signature(function).parameters)
        assert parameters[:len(expected)] == expected, (
            f"mkdocs.commands.build.{name} now takes {parameters}, not {expected} first: adapt "
            f"generator/serve/mkdocs_private.py and its callers in generator/serve/live.py to the new MkDocs")


def _scratch_beside(repo: Path) -> list[str]:
    """What a build or an index leaves beside or inside the served site while it is under way."""
    found = [path.name for path in repo.iterdir() if path.name.startswith("site.")]
    site = repo / "site"
    return found + [str(path) for path in site.rglob("*") if path.name.startswith((".live-", ".pages-", ".offline"))]


def _pagefind_runs_on(folder: Path) -> list[int]:
    """The processes whose command line names `folder` (a Pagefind run the server started)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if entry.name.isdigit() and str(folder) in command and "pagefind" in command and "pytest" not in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("stop, moment", [(signal.SIGINT, "indexing after an edit"),
                                          (signal.SIGTERM, "indexing the first build")])
def test_a_stopped_server_leaves_no_scratch_folder_and_no_indexer_running(repo, stop, moment):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(repo), "serve", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        if moment == "indexing the first build":
            assert _wait_for(lambda: (repo / "site.staging" / "pagefind").exists(), 120), "the first build never indexed"
        else:
            assert _wait_for(lambda: "Strider" in _fetch(f"http://127.0.0.1:{port}/en/wap/strider/"), 120)
            path = repo / "rules/wap/strider.yaml"
            path.write_text(path.read_text(encoding="utf-8").replace("title: Strider", "title: Strider Edited", 1),
                            encoding="utf-8")
            assert _wait_for(lambda: (repo / "site.search").exists(), 120), "the edit was never indexed"
        server.send_signal(stop)
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    output = server.stdout.read()
    assert "Traceback" not in output, output
    assert not _scratch_beside(repo)
    assert not _pagefind_runs_on(repo)


def _translates(repo: Path, lang: str, context: str) -> bool:
    """Whether a language's catalog holds a translation of the message `context` (before any edit)."""
    from generator.i18n.po.catalogs import catalog_path
    from generator.i18n.po.reader import read_entries

    path = catalog_path(repo, lang, "rules/" + context.split(":")[0])
    return any(entry.context == context and entry.string for entry in read_entries(path, lang, repo))


def _stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(folder)): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file()}


def test_an_edit_touches_only_the_files_that_show_it_and_the_offline_lists_read_only_those_again(live):
    before, hashed = _stamps(live.out), live.digests.hashed
    _edit(live.root / "rules/wap/strider.yaml", "may be\n      a list of several.",
          "may be\n      a list of two or more.")
    live.update({"rules/wap/strider.yaml"})
    assert live.settle(60)
    after = _stamps(live.out)
    touched = {name for name in after if after[name] != before.get(name)}
    pages = {name for name in touched if name.endswith(".html")}
    export = {name for name in touched if "/api/" in name}  # for programs: not listed for offline use
    assert pages and touched == pages | export | {f"offline/{lang}.json" for lang in LANGUAGES} | {"sw.js"}, \
        sorted(touched)
    assert len(touched) < 50
    assert live.digests.hashed - hashed == len(pages)  # every other listed file's digest was kept
