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
    assert live.update({"rules/wap/strider.yaml"}) > 0
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
    monkeypatch.setattr("generator.live.prepare", lambda root: (_ for _ in ()).throw(LookupError("page by page")))
    if whole:
        assert live.update(edited) == "everything"
    else:
        with pytest.raises(LookupError):
            live.update(edited)
