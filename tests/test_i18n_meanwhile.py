"""While the rules load, a helper reads every catalog and extracts the UI strings into the disk cache."""

from __future__ import annotations

import os
import subprocess
import sys

from .conftest import ROOT

READ_MEANWHILE_SCRIPT = """
import sys
from pathlib import Path

import babel.messages.extract

from generator import cachefill, diskcache
from generator.i18n import meanwhile, reader
from generator.i18n.catalog import catalog_path, existing_catalogs
from generator.i18n.extract import ui_file_strings, ui_files

root = Path(sys.argv[1])
cachefill.PARALLEL_MINIMUM = 10  # the real rules' 22 catalogs, as if there were a thousand
with meanwhile.read_meanwhile(root, ["en", "ru"], ui=True):
    pass  # the rules would load here


def refuse(*args, **kwargs):
    sys.exit("read again after the block")


scan, extract = reader.scan, babel.messages.extract.extract
reader.scan = refuse  # neither a catalog nor a UI file is read again: the helper and the probe did it
babel.messages.extract.extract = refuse
for lang in ("en", "ru"):
    for name in existing_catalogs(root, lang):
        reader.read_entries(catalog_path(root, lang, name), lang, root)
for path, method in ui_files():
    ui_file_strings(path, method)

reader.scan, babel.messages.extract.extract = scan, extract
diskcache.forget()
reader._READ.clear()  # as in a new process, with an empty cache:
__import__("os").environ["XDG_CACHE_HOME"] = sys.argv[2]
try:
    with meanwhile.read_meanwhile(root, ["ru"], ui=True):
        started = list(cachefill._HELPERS)
        raise KeyError("the rules could not load")
except KeyError:
    pass
print(len(started), len(cachefill._HELPERS))
"""


def test_catalogs_and_ui_strings_read_meanwhile_are_in_the_cache_after_the_block_and_an_error_stops_the_helper(
        tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "first")}
    env.pop("KB_NO_CACHE", None)
    # In a process of its own: pytest's own process may run server threads, beside which nothing is forked.
    result = subprocess.run([sys.executable, "-c", READ_MEANWHILE_SCRIPT, str(ROOT), str(tmp_path / "second")],
                            cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "0"]  # a helper was working, and the error ended it
