"""Catalog files of a language: where they live, which exist, and how problems name their messages.

The package follows Babel's lines: `pofile` (the strict scanner), `plurals` (Plural-Forms safety),
`reader` (plain entries and Babel catalogs, cached on disk), `writer` (the .po text) and `merge` (an
update); each is imported from where it lives.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Message

from ...core.problems import Problems
from ...core.repofiles import repository_files


def catalog_path(root: Path, lang: str, catalog: str) -> Path:
    """The file of a catalog (`rules/wap/dodge`, `ui`) of a language."""
    return Path(os.path.join(root, "translations", lang, f"{catalog}.po"))


def catalog_name(root: Path, lang: str, path: Path) -> str:
    """The name of the catalog in a file of a language: its path under translations/<lang>/ without `.po`."""
    folder, text = os.path.join(root, "translations", lang, ""), os.fspath(path)
    if text.startswith(folder) and text.endswith(".po") and os.sep == "/":  # every file existing_catalogs lists
        return text[len(folder):-len(".po")]
    return str(Path(path).relative_to(Path(root) / "translations" / lang).with_suffix(""))


def existing_catalogs(root: Path, lang: str, problems: Optional[Problems] = None) -> list[str]:
    """The catalogs of a language; a .po file or folder linked from outside the checkout is a problem, not read."""
    found = repository_files(root, Path("translations") / lang, problems if problems is not None else Problems(),
                             (".po",))
    return sorted(catalog_name(root, lang, path) for path in found)


def message_label(message: Message) -> str:
    """How a problem names a message: its context and the start of its source text."""
    text = message.id[0] if isinstance(message.id, tuple) else message.id
    text = " ".join(str(text).split())
    shown = text if len(text) <= 50 else text[:47] + "..."
    return f"{message.context} {shown!r}" if message.context else repr(shown)


def locale_exists(lang: str) -> bool:
    """Whether Babel knows the language code (so plural forms and names exist for it)."""
    try:
        Locale.parse(lang)
        return True
    except (UnknownLocaleError, ValueError):
        return False
