"""Site search with Pagefind: indexing the built site, and the interface strings from our catalogs.

The rest of search lives in the page: the box (site_overrides/partials/search.html), its script
(docs/assets/search.js) and the `data-pagefind-*` attributes of the templates.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
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


def pagefind_command(site_dir: Path, output: Path | None = None) -> list[str]:
    """The Pagefind run that indexes a built site (also timed by scripts/bench_search.py)."""
    # The ¶ that MkDocs puts after every heading would end up in result titles and excerpts; our own
    # controls (copy link, § anchors, table heads) carry data-pagefind-ignore in the templates.
    command = [sys.executable, "-m", "pagefind", "--site", str(site_dir), "--exclude-selectors", ".headerlink"]
    return command + (["--output-path", str(output)] if output is not None else [])


def index_search(site_dir: Path, output: Path | None = None) -> str:
    """Build the Pagefind index (one per page language) into `output` (default site_dir/pagefind/) if
    Pagefind is installed; Pagefind's last line."""
    if importlib.util.find_spec("pagefind") is None:
        return "pagefind is not installed: the site has no search index"
    output = output or site_dir / BUNDLE
    # One Pagefind run per language folder: Pagefind holds everything it indexes in memory, and at
    # 1,000 rules per language its process was the build's peak (831 MiB for both languages at once).
    # The runs write the same shared files and their own language's; only the entry file lists the
    # languages of its own run, so the entries are merged.
    languages, lines = {}, []
    for folder in sorted(path for path in site_dir.iterdir() if path.is_dir() and (path / "index.html").is_file()):
        command = pagefind_command(site_dir, output) + ["--glob", f"{folder.name}/**/*.html"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("pagefind failed:\n" + result.stdout + result.stderr)
        entry_file = output / "pagefind-entry.json"
        entry = json.loads(entry_file.read_text(encoding="utf-8"))
        languages.update(entry.get("languages", {}))
        lines += result.stdout.strip().splitlines()[-1:]
    if languages:
        # Sorted keys: Pagefind lists the languages in hash-map order, which changes from run to run.
        entry["languages"] = languages
        entry_file.write_text(json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
                              encoding="utf-8")
    return "; ".join(lines) or "pagefind: done"
