"""Shared fixtures: the real knowledge base, the built site, and throw-away copies of the repository to break."""

from __future__ import annotations

import collections
import fcntl
import os
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
INVENTORY, SEEDS = SHARED / "RULES.md", SHARED / "seeds"
# The inventory and the seeds live beside the checkout, not in it: a plain clone skips what needs them.
needs_shared = pytest.mark.skipif(not INVENTORY.is_file() or not SEEDS.is_dir(),
                                  reason=f"{SHARED} (RULES.md and seeds/) is not beside this checkout")

# The date every session build is made with, so that two builds of the same inputs are byte-identical.
DATE = 1_700_000_000  # 2023-11-14, far from any commit date

# A missing Russian translation planted in the session's one planted build (`planted_site`), on top of
# tests/hostile.py's payloads in every other message: {name: (catalog, message, planted text)}.
# A message is a rule message's msgctxt or an interface msgid; "" leaves it untranslated.
PLANTS = {
    "rule missing": ("translations/ru/rules/wap/martial-arts.po", "wap/martial-arts:summary", ""),
}


# The sites the tests read and the browser tests open, each built once per run (see `shared`) and served by
# the process that runs pytest, so that every xdist worker opens the same build at the same address.
SERVED = ("clean", "planted")
# Seconds between a test server's looks for a shutdown request: at the default (0.5 s) the end of every run waited up
# to half a second for each server.
SHUTDOWN_POLL = 0.05

# Units that take seconds each, handed out in this order (bigger units first within one) so that the workers finish
# together; the short files fill in at the end. The first two make the run's two builds (planted, clean), one on each
# worker. Then builds (CPU-bound) alternate with Chromium sweeps (which mostly wait for the browser): a worker waiting
# on Chromium leaves the other its core.
SLOW_FIRST = ("tests/test_hostile_translations.py", "tests/test_site.py", "every page at ",
              "tests/browser/test_hostile.py", "tests/test_serve.py",
              "tests/browser/test_ask.py::test_every_predicate", "tests/test_to_js.py",
              "tests/browser/test_search.py::test_an_index_in_parts", "tests/test_i18n.py::test_a_new_language",
              "tests/test_any_language.py",
              "tests/browser/")

# Tests that go out one by one (each with all its parameters), not as a whole file: they take seconds each and share
# no module fixture (the browser tests share session fixtures: the served sites, one Chromium per worker). The rest of
# tests/test_serve.py is one unit: its edit tests share one LiveSite.
# The every-page sweeps (tests/browser/sweep.py): the tests of one size share a pass over every page per scheme, so
# they go to one worker together, one unit per size (the parameter's first word), the two sizes side by side.
SWEEPS = ("tests/browser/test_dark.py::test_axe_finds_no_serious_or_critical_violation_on_any_page[",
          "tests/browser/test_phone.py::test_on_every_page_controls_are_24_px_focus_shows_nothing_covers_a_field",
          "tests/browser/test_phone.py::test_every_rule_page_has_a_section_bar_naming_its_parts_and_one_tap_on_ask")
SWEEP_UNIT = "every page at "
BY_TEST = ("tests/browser/", "tests/test_serve.py::test_an_edited_rule_file", "tests/test_i18n.py")


_GUARDS: list = []  # the CommandGuards in front of this process's stdout and stderr, once pytest_cmdline_main ran


@pytest.hookimpl(tryfirst=True)  # before pytest_configure, where the terminal reporter takes sys.stdout for its own
def pytest_cmdline_main(config):
    """pytest's own output goes through the guard every command of the project prints through (core/report_formats.py):
    a CR, a `::` line or a `##[` in an assertion message or in captured output cannot start a line GitHub's runner
    obeys (security review, round four, I2). Lines that start no command, the summary among them, pass unchanged."""
    import sys

    from generator.core.report_formats import CommandGuard

    if not _GUARDS and not isinstance(sys.stdout, CommandGuard):
        _GUARDS.extend([CommandGuard(sys.stdout), CommandGuard(sys.stderr)])
        sys.stdout, sys.stderr = _GUARDS


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The last line pytest wrote, passed on even if it did not end."""
    for guard in _GUARDS:
        guard.flush()


@pytest.hookimpl(trylast=True)  # after the tmpdir plugin made the run's temporary folder factory
def pytest_configure(config):
    """The controller (or the only process) serves each of SERVED from the run's temporary folder."""
    for mark in MARKS:
        config.addinivalue_line("markers", mark)
    if hasattr(config, "workerinput"):
        return
    import functools
    import sys
    import threading
    from http.server import ThreadingHTTPServer

    from generator.serve.server import QuietHandler

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a page left before its file was sent
                super().handle_error(request, client_address)

    addresses = {}
    for name in SERVED:
        folder = config._tmp_path_factory.getbasetemp() / name / "site"  # what `shared` builds there
        server = Server(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
        threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL,), daemon=True).start()
        config.add_cleanup(server.server_close)
        config.add_cleanup(server.shutdown)
        addresses[name] = f"http://127.0.0.1:{server.server_port}/"
    config.stash[SERVED_AT] = addresses
    _remove_old_runs_meanwhile(config)
    if config.pluginmanager.hasplugin("xdist"):  # its hooks are unknown without it (`-p no:xdist`)
        config.pluginmanager.register(XdistHooks(), "kb-xdist-hooks")


SERVED_AT = pytest.StashKey[dict]()
# `make check` runs -m "not browser or smoke", `make test-browser` -m "browser and not smoke"
MARKS = ("browser: a test that drives Chromium (every test under tests/browser/, see pytest_collection_modifyitems)",
         "smoke: the one browser test the quick check (make check) runs")


def _remove_old_runs_meanwhile(config) -> None:
    """Remove old runs' temporary folders while the tests run, not after them.

    pytest keeps the last runs' folders (tmp_path_retention_count) and removes the older ones when a run ends: about
    9,000 files a run here, 1.2 s of waiting on the disk with nothing else left to do. The same folders go here, in a
    thread beside the tests, by pytest's own rule and locks (so a folder in use by another run stays); at the end
    pytest finds nothing left to remove. A machine's first runs (CI's) have nothing to remove.
    """
    import threading

    from _pytest.pathlib import LOCK_TIMEOUT, cleanup_numbered_dir

    factory = config._tmp_path_factory
    basetemp = factory.getbasetemp()
    if config.option.basetemp or not basetemp.name.startswith("pytest-") or factory._retention_policy == "none":
        return  # a folder the user named, or pytest keeps none: pytest's own handling is all there is
    consider_dead = basetemp.stat().st_mtime - LOCK_TIMEOUT  # a lock older than this was left by a run that died
    threading.Thread(target=cleanup_numbered_dir, daemon=True,
                     args=(basetemp.parent, "pytest-", factory._retention_count, consider_dead)).start()


def pytest_collection_finish(session):
    """Leave what collection made (every test module, the collected tests, pytest's own state) out of every later
    garbage collection: it lives as long as the run. Builds run the collector often (MkDocs' pages and navigation
    are cycles, and `return_freed_memory` collects after each language), and each full collection walked all of it:
    about 1 s of CPU in each worker before; about half that now."""
    import gc

    gc.collect()  # the garbage collection leaves behind is not frozen with it
    gc.freeze()


def pytest_collection_modifyitems(items):
    """Mark every test under tests/browser/ `browser`, so the quick check can leave them out by a mark
    (`-m "not browser or smoke"`) and `make test-browser` take them alone."""
    for item in items:
        if item.nodeid.startswith(BROWSER_TESTS):
            item.add_marker(pytest.mark.browser)


BROWSER_TESTS = "tests/browser/"


def served_at(config, name: str) -> str:
    """The address the site `name` (one of SERVED) is served at during this run."""
    return config.workerinput["kb_served"][name] if hasattr(config, "workerinput") else config.stash[SERVED_AT][name]


class XdistHooks:
    """The controller's pytest-xdist hooks: where the sites are served, and the order units go out in."""

    @staticmethod
    def pytest_configure_node(node):
        """Tell a worker where the controller serves the sites."""
        node.workerinput["kb_served"] = node.config.stash[SERVED_AT]

    @staticmethod
    def pytest_xdist_make_scheduler(config, log):
        """With --dist loadfile (as `make test` runs), a unit is a file, or one test of BY_TEST; SLOW_FIRST go first.

        A worker runs a whole unit: module fixtures are made once. The tests of BY_TEST need no module fixture,
        so each (all its parameters) is a unit of its own and both workers run them.
        (--dist loadgroup cannot do this here: pytest-xdist 3.8 marks the group on a node id attribute that
        pytest 9 no longer reads, so its groups are ignored.)
        """
        if config.getvalue("dist") != "loadfile":
            return None
        from xdist.scheduler import LoadFileScheduling

        class SlowFirst(LoadFileScheduling):
            def __init__(self, config, log=None):
                super().__init__(config, log)
                self.workqueue = SlowestFirstQueue()

            def _split_scope(self, nodeid: str) -> str:
                if nodeid.startswith(SWEEPS):
                    return SWEEP_UNIT + nodeid.split("[", 1)[1].split("-")[0].rstrip("]")
                if nodeid.startswith(BY_TEST):
                    return nodeid.split("[", 1)[0]  # a test with its parameters: they may share a module fixture
                return super()._split_scope(nodeid)

        return SlowFirst(config, log)


class SlowestFirstQueue(collections.OrderedDict):
    """xdist's queue of units {scope: {node id: done}}; hands out the slowest (by SLOW_FIRST, then size) first."""

    def popitem(self, last=True):
        def rank(scope: str) -> tuple:
            slow = [index for index, prefix in enumerate(SLOW_FIRST) if scope.startswith(prefix)]
            return (slow[0] if slow else len(SLOW_FIRST), -len(self[scope]))

        scope = min(self, key=rank)  # ties: the first collected
        return scope, self.pop(scope)


@pytest.fixture(scope="session")
def kb():
    from generator.kb.load import load_and_validate

    knowledge_base, problems = load_and_validate(ROOT)
    assert not problems, problems.report()
    return knowledge_base


@pytest.fixture(scope="session")
def ru():
    """The Russian translations of the repository, loaded once (they must load without a problem)."""
    from generator.core.problems import Problems
    from generator.i18n.translate import Translations

    problems = Problems()
    translations = Translations.load(ROOT, "ru", problems)
    assert not problems
    return translations


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the repository's inputs that a test may edit freely."""
    from generator.site.inputs import copy_inputs

    return copy_inputs(ROOT, tmp_path / "repo")


def shared(tmp_path_factory, name: str, make: Callable[[Path], object]) -> Path:
    """The folder `name`, made by `make` once per test run: the first xdist worker to ask makes it, the others wait.

    Builds are the slow part of the suite; a session fixture alone would make one per worker.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's temporary folder, shared by every worker
    folder, done = base / name, base / f"{name}.done"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if `make` fails
        if not done.exists():
            make(folder)
            done.touch()
    return folder


def copy_for(address: str, into: Path) -> Path:
    """A copy of the repository's inputs with `site_url` naming the address the site is served at.

    A site is built for the address it is published at (mkdocs.yml `site_url`): its sitemaps and canonical links
    carry that address, port included, so the tests build for the port the run serves them on and can follow them.
    The language menu does not depend on it (language.js keeps the place on any host; the subfolder tests serve a
    site away from its site_url to prove it).
    """
    import re

    from generator.site.inputs import copy_inputs

    copy_inputs(ROOT, into)
    config = (into / "mkdocs.yml").read_text(encoding="utf-8")
    line = f"site_url: {address}en/"
    config, found = re.subn(r"(?m)^site_url:.*$", line, config)
    (into / "mkdocs.yml").write_text(config if found else config + "\n" + line + "\n", encoding="utf-8")
    return into


def inputs_digest(repo: Path) -> str:
    """A hash of every file a build of `repo` reads, by path and content: equal for two copies with the same edits."""
    import hashlib

    from generator.site.inputs import input_files

    digest = hashlib.sha256()
    for path in sorted(input_files(repo)):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(repo).as_posix()}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()[:20]


@pytest.fixture(scope="session")
def full_build(tmp_path_factory) -> Callable[[Path], Path]:
    """full_build(repo): the site a full build of `repo`'s inputs as they are now makes (no search index, the
    build's own date), built once per run for the same inputs; tests that make the same edit compare with one build.
    """
    def built(repo: Path) -> Path:
        from generator.site.build import build_site

        def make(folder: Path):
            build_site(repo, folder / "site", quiet=True, search=False)

        return shared(tmp_path_factory, f"full-{inputs_digest(repo)}", make) / "site"

    return built


def _build_clean(address: str, folder: Path):
    from generator.site.build import build_site

    build_site(copy_for(address, folder / "repo"), folder / "site", quiet=True, date=DATE)


@pytest.fixture(scope="session")
def clean_build(tmp_path_factory, pytestconfig) -> tuple[Path, Path]:
    """(repository copy, its site): the repository's inputs served at `served_at(config, "clean")`, built once per
    run (search index included, dated DATE). Tests only read them."""
    import functools

    folder = shared(tmp_path_factory, "clean", functools.partial(_build_clean, served_at(pytestconfig, "clean")))
    return folder / "repo", folder / "site"


@pytest.fixture(scope="session")
def site(clean_build) -> Path:
    """The site built from the repository (search index included, dated DATE), once per test run."""
    return clean_build[1]


def plant(repo: Path, catalog: str, message: str, text: str):
    """Set one message of one catalog in a repository copy (`message`: a msgctxt, or an interface msgid)."""
    from generator.i18n.po.reader import read_catalog
    from generator.i18n.po.writer import render_catalog

    path = repo / catalog
    entries = read_catalog(path, "ru")
    found = [m for m in entries if message in (m.context, m.id)]
    assert len(found) == 1, f"{catalog}: {message!r} matches {len(found)} messages"
    found[0].string = text
    path.write_bytes(render_catalog(entries))


def _plant_and_build(address: str, folder: Path):
    import json

    from generator.site.build import build_site

    from . import hostile

    repo = copy_for(address, folder / "repo")
    planted = hostile.plant(repo)
    for catalog, message, text in PLANTS.values():
        plant(repo, catalog, message, text)
    (folder / "planted.json").write_text(json.dumps(planted), encoding="utf-8")
    build_site(repo, folder / "site", quiet=True, date=DATE, search=False)  # its index: `planted_search`


@pytest.fixture(scope="session")
def planted_build(tmp_path_factory, pytestconfig) -> tuple[Path, Path, dict[str, str]]:
    """(repository copy, its site, {marker: where planted}): tests/hostile.py's payloads and PLANTS, built once per
    run (without its search index: `planted_search` adds it) and served at `served_at(config, "planted")`.

    Tests only read the copy and the site: every planted scenario lives in its own message.
    """
    import functools
    import json

    folder = shared(tmp_path_factory, "planted", functools.partial(_plant_and_build, served_at(pytestconfig, "planted")))
    return folder / "repo", folder / "site", json.loads((folder / "planted.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def planted_search(planted_build, tmp_path_factory) -> Path:
    """The planted site with its Pagefind index, added once per run for the tests that need it: the browser tests
    open its pages, and their search loads the index. No other test reads it (Pagefind took a third of the build)."""
    from generator.site.search import index_search

    site = planted_build[1]
    shared(tmp_path_factory, "planted-search", lambda _folder: index_search(site))
    return site


@pytest.fixture(scope="session")
def planted_repo(planted_build) -> Path:
    """The repository copy carrying tests/hostile.py's payloads and every translation of PLANTS (read only)."""
    return planted_build[0]


@pytest.fixture(scope="session")
def planted_site(planted_build) -> Path:
    """The site of `planted_repo`."""
    return planted_build[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run_generator(repo: Path, *args, env: dict[str, str] | None = None, unset: tuple[str, ...] = ()):
    """`python -m generator --root repo args` run in this process: a CompletedProcess (returncode, stdout, stderr).

    Same exit code and output as the subprocess, without starting an interpreter and importing every
    library again for each command (about half the CPU time of a catalog command). Diagnostics the
    CLI logs go to the captured stderr, as they would from the subprocess; `env` and `unset` change
    the environment for this one call.
    """
    import contextlib
    import io
    import logging
    import subprocess

    from generator.cli import main

    argv = ["--root", str(repo), *map(str, args)]
    out, err = io.StringIO(), io.StringIO()
    handler = logging.StreamHandler(err)
    handler.setFormatter(logging.Formatter("%(message)s"))  # the CLI's own logging format
    root, level = logging.getLogger(), logging.getLogger().level
    saved = dict(os.environ)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        for name in unset:
            os.environ.pop(name, None)
        os.environ.update(env or {})
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stopped:  # argparse refusing the arguments
                code = stopped.code if isinstance(stopped.code, int) else (0 if stopped.code is None else 1)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(["generator", *argv], code, out.getvalue(), err.getvalue())
