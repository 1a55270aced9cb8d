"""Shared fixtures: the real knowledge base, the built site, and throw-away copies of the repository to break."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# The date every session build is made with, so that two builds of the same inputs are byte-identical.
DATE = 1_700_000_000  # 2023-11-14, far from any commit date

# A missing Russian translation planted in the session's one planted build (`planted_site`), on top of
# tests/hostile.py's payloads in every other message: {name: (catalog, message, planted text)}.
# A message is a rule message's msgctxt or an interface msgid; "" leaves it untranslated.
PLANTS = {
    "rule missing": ("translations/ru/rules/wap/martial-arts.po", "wap/martial-arts:summary", ""),
}


def pytest_xdist_make_scheduler(config, log):
    """With --dist loadfile (as `make test` runs), the browser tests are one unit, the others one unit per file.

    A worker runs a whole unit: module fixtures are made once, and one worker builds the served site and
    starts Chromium for every browser test. (--dist loadgroup cannot do this here: pytest-xdist 3.8 marks
    the group on a node id attribute that pytest 9 no longer reads, so its groups are ignored.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BrowserAsOneUnit(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "tests/browser" if nodeid.startswith("tests/browser/") else super()._split_scope(nodeid)

    return BrowserAsOneUnit(config, log)


@pytest.fixture(scope="session")
def kb():
    from generator.load import load_and_validate

    knowledge_base, problems = load_and_validate(ROOT)
    assert not problems, problems.report()
    return knowledge_base


@pytest.fixture(scope="session")
def ru():
    """The Russian translations of the repository, loaded once (they must load without a problem)."""
    from generator.i18n.translate import Translations
    from generator.problems import Problems

    problems = Problems()
    translations = Translations.load(ROOT, "ru", problems)
    assert not problems
    return translations


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the repository's inputs that a test may edit freely."""
    from generator.inputs import copy_inputs

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


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site built from the repository (search index included, dated DATE), once per test run."""
    from generator.site import build_site

    return shared(tmp_path_factory, "clean", lambda folder: build_site(ROOT, folder / "site", quiet=True, date=DATE)) / "site"


def plant(repo: Path, catalog: str, message: str, text: str):
    """Set one message of one catalog in a repository copy (`message`: a msgctxt, or an interface msgid)."""
    from generator.i18n.catalog import read_catalog, render_catalog

    path = repo / catalog
    entries = read_catalog(path, "ru")
    found = [m for m in entries if message in (m.context, m.id)]
    assert len(found) == 1, f"{catalog}: {message!r} matches {len(found)} messages"
    found[0].string = text
    path.write_bytes(render_catalog(entries))


def _plant_and_build(folder: Path):
    import json

    from generator.inputs import copy_inputs
    from generator.site import build_site

    from . import hostile

    repo = copy_inputs(ROOT, folder / "repo")
    planted = hostile.plant(repo)
    for catalog, message, text in PLANTS.values():
        plant(repo, catalog, message, text)
    (folder / "planted.json").write_text(json.dumps(planted), encoding="utf-8")
    build_site(repo, folder / "site", quiet=True, date=DATE, search=False)  # no test reads the planted search index


@pytest.fixture(scope="session")
def planted_build(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(repository copy, its site, {marker: where planted}): tests/hostile.py's payloads and PLANTS, built once per run.

    Tests only read the copy and the site: every planted scenario lives in its own message.
    """
    import json

    folder = shared(tmp_path_factory, "planted", _plant_and_build)
    return folder / "repo", folder / "site", json.loads((folder / "planted.json").read_text(encoding="utf-8"))


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
