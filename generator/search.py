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

from .i18n.translate import Translations

# Pagefind fills these tokens in at search time.
TOKENS = {"count": "[COUNT]", "query": "[SEARCH_TERM]"}


def search_labels(tr: Translations) -> dict[str, str]:
    """Pagefind UI `translations` for one language; worded so one form fits every count (Pagefind's cannot inflect)."""
    _ = tr.gettext
    return {
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
# Pagefind's allocator (jemalloc) keeps freed memory for 10 s by default; giving it back at once
# lowered the peak of indexing 1,000 rules' Russian pages from 575 to 483 MiB for ~10 % more CPU.
ALLOCATOR = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}
# What a merged part needs; the scripts, styles and WebAssembly come from the main bundle.
PART_FILES = ("pagefind-entry.json", "*.pf_meta", "index", "fragment", "filter")


def part_count(pages: int) -> int:
    """How many Pagefind runs index a language of `pages` pages (the search box's template counts the same)."""
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


def _run(command: list[str]) -> str:
    """Run Pagefind; its last line."""
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **ALLOCATOR})
    if result.returncode != 0:
        raise RuntimeError("pagefind failed:\n" + result.stdout + result.stderr)
    return (result.stdout.strip().splitlines() or [""])[-1]


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


def pagefind_installed() -> bool:
    return importlib.util.find_spec("pagefind") is not None


NOT_INSTALLED = "pagefind is not installed: the site has no search index"


def language_folders(site_dir: Path) -> list[Path]:
    """The language folders of a built site (each has a home page), in name order."""
    return sorted(path for path in site_dir.iterdir() if path.is_dir() and (path / "index.html").is_file())


def index_language(site_dir: Path, folder: Path, output: Path) -> tuple[str, dict]:
    """Index one language folder of a site into `output` (in parts, PAGES_PER_INDEX); Pagefind's last
    lines and the languages the main bundle's entry file listed after this language's run."""
    pages = sorted(folder.rglob("index.html"))  # one per Markdown page: what the hooks count
    parts = part_count(len(pages))
    if parts == 1:
        lines = [_run(pagefind_command(site_dir, output) + ["--glob", f"{folder.name}/**/*.html"])]
    else:  # the first part goes into the main bundle, the others into bundles of their own
        lines = [_index_part(site_dir, pages[:len(pages) // parts], output, merged=False)]
    languages = json.loads((output / "pagefind-entry.json").read_text(encoding="utf-8")).get("languages", {})
    for number in range(2, parts + 1):
        share = pages[(number - 1) * len(pages) // parts:number * len(pages) // parts]
        lines.append(_index_part(site_dir, share, output / part_folder(folder.name, number), merged=True))
    return "; ".join(lines), languages


def write_entry(output: Path, languages: dict) -> None:
    """The main bundle's entry file listing every language: each run's lists only the languages of that run."""
    entry_file = output / "pagefind-entry.json"
    entry = json.loads(entry_file.read_text(encoding="utf-8"))
    # Sorted keys: Pagefind lists the languages in hash-map order, which changes from run to run.
    entry["languages"] = languages
    entry_file.write_text(json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
                          encoding="utf-8")


def index_search(site_dir: Path, output: Path | None = None) -> str:
    """Build the Pagefind index (one per page language) into `output` (default site_dir/pagefind/) if
    Pagefind is installed; Pagefind's last line."""
    indexer = LanguageIndexer(site_dir, output)
    for folder in language_folders(site_dir):
        indexer.index(folder.name, wait=True)
    return indexer.finish()


class LanguageIndexer:
    """Pagefind for a site's languages one at a time, each in a thread of its own, so that a build can
    render the next language meanwhile (generator/site.py); then the merged entry file.

    One language at a time: the runs write the same shared files into the bundle, and two indexes
    held at once would double Pagefind's memory.
    """

    def __init__(self, site_dir: Path, output: Path | None = None):
        self.site_dir = site_dir
        self.output = output or site_dir / BUNDLE
        self.lines: list[str] = []
        self.languages: dict = {}
        self._running: threading.Thread | None = None
        self._error: BaseException | None = None

    def index(self, lang: str, wait: bool = False) -> None:
        """Index language folder `lang` (after the one running, if any), in the background unless `wait`."""
        self.wait()
        if not pagefind_installed():
            return
        self._running = threading.Thread(target=self._index, args=(self.site_dir / lang,), name=f"pagefind-{lang}")
        self._running.start()
        if wait:
            self.wait()

    def _index(self, folder: Path) -> None:
        try:
            line, languages = index_language(self.site_dir, folder, self.output)
            self.lines.append(line)
            self.languages.update(languages)
        except BaseException as error:  # handed to the thread that waits
            self._error = error

    def wait(self) -> None:
        """Until the running language is indexed; its error, if it failed."""
        if self._running is not None:
            self._running.join()
            self._running = None
        error, self._error = self._error, None
        if error is not None:
            raise error

    def abandon(self) -> None:
        """Wait for the running language and drop its outcome (the build failed for another reason)."""
        try:
            self.wait()
        except Exception:  # noqa: BLE001 - the build's own error is the one reported
            pass

    def finish(self) -> str:
        """Wait for the last language, write the entry file; Pagefind's last lines."""
        self.wait()
        if not pagefind_installed():
            return NOT_INSTALLED
        if self.languages:
            write_entry(self.output, self.languages)
        return "; ".join(self.lines) or "pagefind: done"
