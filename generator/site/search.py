"""Site search with Pagefind: indexing the built site, and the interface strings from our catalogs.

The rest of search lives in the page: the box (site_overrides/partials/search.html), its script
(docs/assets/search.js) and the `data-pagefind-*` attributes of the templates.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from ..i18n.translate import Translations

# Pagefind fills these tokens in at search time.
TOKENS = {"count": "[COUNT]", "query": "[SEARCH_TERM]"}
# The key, beside Pagefind's strings, of the words search.js practises on once Pagefind is loaded: the
# heading "Rule text" that every rule page shows in its language (generator/render/templates/rule.md), so the
# practice reads whole index chunks and scores most pages. (Not the "Source" label: the line it starts is left
# out of the index, as interface text.) Looked up, not marked for extraction: the templates own that message.
PRACTICE = "practice"
PRACTICE_MESSAGE = "Rule text"


def search_labels(tr: Translations) -> dict[str, str]:
    """The search box's strings in one language: Pagefind UI's `translations`, worded so one form fits
    every count (Pagefind's cannot inflect), and the PRACTICE word."""
    _ = tr.gettext
    return {
        PRACTICE: tr.gettext(PRACTICE_MESSAGE),
        "zero_results": _("Nothing found for “%(query)s”") % TOKENS,
        "one_result": _("One result for “%(query)s”") % TOKENS,
        "many_results": _("Results for “%(query)s”: %(count)s") % TOKENS,
        "total_zero_results": _("Nothing found"),
        "total_one_result": _("One result"),
        "total_many_results": _("Results: %(count)s") % TOKENS,
        "searching": _("Searching for “%(query)s”…") % TOKENS,
    }


BUNDLE = "pagefind"  # the index's folder in the site, beside the language folders
# Pagefind holds every page it indexes in memory, twice over while it writes the index (about 0.45 MiB
# a page at 1,000 synthetic rules): a language with more pages is indexed in parts, each its own
# Pagefind run and bundle, which the page merges when search starts (docs/assets/search.js).
PAGES_PER_INDEX = 600
# Pagefind's allocator (jemalloc) keeps freed memory for 10 s by default; giving it back at once lowers
# the peak of indexing a large site by about a sixth, for a little more CPU.
ALLOCATOR = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}
# What a merged part needs; the scripts, styles and WebAssembly come from the main bundle.
PART_FILES = ("pagefind-entry.json", "*.pf_meta", "index", "fragment", "filter")


def part_count(pages: int) -> int:
    """How many Pagefind runs index a language of `pages` pages (the hooks give it to the search box)."""
    return max(1, -(-pages // PAGES_PER_INDEX))


def part_folder(lang: str, number: int) -> str:
    """The bundle of part `number` (2, 3, …) of a language's index, inside the main bundle."""
    return f"{lang}-{number}"


def pagefind_command(site_dir: Path, output: Path | None = None) -> list[str]:
    """The Pagefind run that indexes a built site (also timed by scripts/bench_search.py)."""
    # The ¶ that MkDocs puts after every heading would end up in result titles and excerpts; our own
    # controls (copy link, § anchors, table heads) carry data-pagefind-ignore in the templates.
    command = [sys.executable, "-m", "pagefind", "--site", str(site_dir), "--exclude-selectors", ".headerlink"]
    return command + (["--output-path", str(output)] if output is not None else [])


# Pagefind runs under way in this process, so that a stopping `make serve` can end them (stop_indexing): a run left
# behind would go on writing its index beside the site after the server is gone.
_RUNNING: set[subprocess.Popen] = set()
_RUNNING_LOCK = threading.Lock()


def _run(command: list[str]) -> str:
    """Run Pagefind; its last line."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, **ALLOCATOR}) as process:
        with _RUNNING_LOCK:
            _RUNNING.add(process)
        try:
            stdout, stderr = process.communicate()
        except BaseException:  # interrupted (a stopping server): the run must not go on writing
            process.kill()
            raise
        finally:
            with _RUNNING_LOCK:
                _RUNNING.discard(process)
    if process.returncode != 0:
        raise RuntimeError("pagefind failed:\n" + stdout + stderr)
    return (stdout.strip().splitlines() or [""])[-1]


def stop_indexing() -> None:
    """End every Pagefind run of this process (`python -m pagefind` execs Pagefind itself, so this ends it)."""
    with _RUNNING_LOCK:
        for process in _RUNNING:
            process.terminate()


def _index_part(site_dir: Path, pages: list[Path], output: Path, merged: bool) -> str:
    """Index some of a site's pages into `output`, a bundle of its own if `merged` (only the index is kept).

    Pagefind reads a folder, so the pages are hard-linked into one at their own paths (inside the
    bundle's folder, so a failed build leaves nothing behind beside the site)."""
    output.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".pages-", dir=output))
    try:
        for page in pages:
            linked = scratch / page.relative_to(site_dir)
            linked.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(page, linked)
            except OSError:  # another file system
                shutil.copyfile(page, linked)
        line = _run(pagefind_command(scratch, output))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for path in output.iterdir() if merged else ():  # (the scratch folder is gone by now)
        if not any(path.match(pattern) for pattern in PART_FILES):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return line


def index_search(site_dir: Path, output: Path | None = None) -> str:
    """Build the Pagefind index (one per page language) into `output` (default site_dir/pagefind/) if
    Pagefind is installed; Pagefind's last line."""
    if importlib.util.find_spec("pagefind") is None:
        return "pagefind is not installed: the site has no search index"
    output = output or site_dir / BUNDLE
    # One Pagefind run per language folder (or per part of one, PAGES_PER_INDEX): the runs write
    # the same shared files and their own language's; only the entry file lists the languages of
    # its own run, so the entries are merged.
    languages, lines = {}, []
    for folder in sorted(path for path in site_dir.iterdir() if path.is_dir() and (path / "index.html").is_file()):
        pages = sorted(folder.rglob("index.html"))  # one per Markdown page: what the template counts
        parts = part_count(len(pages))
        if parts == 1:
            lines.append(_run(pagefind_command(site_dir, output) + ["--glob", f"{folder.name}/**/*.html"]))
        else:  # the first part goes into the main bundle, the others into bundles of their own
            lines.append(_index_part(site_dir, pages[:len(pages) // parts], output, merged=False))
        entry_file = output / "pagefind-entry.json"
        entry = json.loads(entry_file.read_text(encoding="utf-8"))
        languages.update(entry.get("languages", {}))
        for number in range(2, parts + 1):
            share = pages[(number - 1) * len(pages) // parts:number * len(pages) // parts]
            lines.append(_index_part(site_dir, share, output / part_folder(folder.name, number), merged=True))
    if languages:
        # Sorted keys: Pagefind lists the languages in hash-map order, which changes from run to run.
        entry["languages"] = languages
        entry_file.write_text(json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
                              encoding="utf-8")
    return "; ".join(lines) or "pagefind: done"
