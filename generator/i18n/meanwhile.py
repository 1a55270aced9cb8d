"""Work for the second core while the rules load and validate on one: reading catalogs and UI strings needs no rules.

For the first run after a clone (CI's), when the disk cache is empty: a helper process
(cachefill.filled_meanwhile) reads every catalog and extracts the UI strings into the cache,
and the command then finds them there. With a warm cache no helper is made.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable, ContextManager, Optional


def catalogs_read_meanwhile(root: Path, languages: list[str], ui: bool = False,
                            for_update: bool = False) -> Optional[Callable[[], ContextManager]]:
    """load()'s `meanwhile`: the catalogs of `languages` (and, with `ui`, the UI strings) read on the second core;
    None when there is nothing to read (`check FILE`). Nothing heavy is imported until load enters it."""
    if not languages and not ui:
        return None
    return lambda: read_meanwhile(root, languages, ui, for_update)


def read_meanwhile(root: Path, languages: list[str], ui: bool = False, for_update: bool = False):
    """A context within which a helper reads the catalogs of `languages` (and, with `ui`, extracts the UI strings).

    `for_update`: as read_catalog reads them to update them (comments and all), not as the checks do.
    With fewer catalogs than cachefill.PARALLEL_MINIMUM there is no helper: for the real 13 rules it
    cost more than it saved (i18n status, update and check 0.07-0.09 s more CPU, no faster).
    """
    from .. import cachefill
    from .catalog import existing_catalogs
    from .extract import ui_files

    root = Path(root)
    kind = "messages" if for_update else "entries"
    items = [(kind, lang, name) for lang in languages for name in existing_catalogs(root, lang)]
    if len(items) < cachefill.PARALLEL_MINIMUM:
        return contextlib.nullcontext()
    items += [("ui", path, method) for path, method in ui_files()] if ui else []
    return cachefill.filled_meanwhile(items, lambda item: _read(root, *item))


def _read(root: Path, kind: str, first, second):
    from .catalog import catalog_path, read_entries
    from .extract import ui_file_strings
    from .reader import catalog_messages

    if kind == "ui":
        return ui_file_strings(first, second)
    read = catalog_messages if kind == "messages" else read_entries
    return read(catalog_path(root, first, second), first, root)
