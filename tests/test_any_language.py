"""A third language needs no edit outside translations/ and mkdocs.yml: on a copy of the repository, `i18n init`
of a new language is all it takes, and the tests that are about every language then pass with it too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT
from .languages import UNUSED

NEW = "pl" if "pl" in UNUSED else UNUSED[0]  # one the repository lacks; Polish has plural rules of its own (3 forms)
# The tests that loop over the configured languages or every rule, with nothing but catalogs on the copy changed.
# Not here: the browser tests (each opens Chromium on a full build; tests/browser/test_root.py and the sweeps take the
# same LANGUAGES) and the live-server tests (seconds per edit; tests/test_serve.py takes it too).
EVERY_LANGUAGE = ("tests/test_texts.py", "tests/test_export.py", "tests/test_reader_text.py",
                  "tests/test_content.py", "tests/test_language_list.py",
                  "tests/test_nav.py::test_the_navigation_lists_every_page_once_so_mkdocs_warns_of_none",
                  "tests/test_i18n.py::test_status_counts_translated_fuzzy_and_missing_per_catalog",
                  "tests/test_site.py", "tests/test_page_language.py")
SKIPPED = ("__pycache__", ".venv", ".git", ".pytest_cache")  # anywhere
BUILT = ("site", "build")  # at the top: a build's output (generator/site is code)


def copy_of_checkout(into: Path) -> Path:
    """The repository's files (code, tests, inputs), as a fresh clone has them; none of its builds or caches."""
    import shutil

    def ignored(folder: str, names: list[str]) -> list[str]:
        top = Path(folder) == ROOT
        return [name for name in names if name in SKIPPED or name.endswith(".egg-info")
                or top and (name in BUILT or name.startswith("site."))]

    shutil.copytree(ROOT, into, ignore=ignored)
    return into


def run(copy: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    """`python args` in the copy, importing the copy's own generator/ and tests/ (the first entry of sys.path)."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def test_a_language_added_by_init_alone_passes_the_tests_about_every_language(tmp_path):
    copy = copy_of_checkout(tmp_path / "repo")
    made = run(copy, "-m", "generator", "i18n", "init", NEW)
    assert made.returncode == 0, made.stderr
    assert f"{NEW}: added to the site's languages" in made.stdout
    where = run(copy, "-c", "import generator, tests.languages as t; print(generator.__file__); print(t.LANGUAGES)")
    assert where.stdout.splitlines() == [str(copy / "generator/__init__.py"), str((*t_languages(), NEW))], where
    tests = run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "--basetemp", str(tmp_path / "t"),
                *EVERY_LANGUAGE)
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout and " failed" not in tests.stdout and " error" not in tests.stdout


def t_languages() -> tuple:
    from .languages import LANGUAGES

    return LANGUAGES
