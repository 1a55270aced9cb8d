"""What a catalog may be before its translations are used: a file of bounded size, translations not far longer than
their source, and a catalog some rule, concept or page needs (no stray one).

Catalogs come from strangers' pull requests: a 24 MB file or a 2 MB translation would make every command slow
and a page fifty times its source, and a catalog no source needs is checked by nobody yet was read by the
translation memory. `check`, `i18n check`, `site`, `serve`, the memory and `i18n update` all ask here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional

from ..core.problems import Problem, relative
from ..kb.texts import Translatable
from .po.catalogs import catalog_path, existing_catalogs, message_label
from .po.pofile import CatalogError
from .po.reader import read_entries

# A rule's catalog is ~10–110 KB (the largest, battlesystem/skirmishers for ru, 106 KB); ten times that is room
# for any rule, and reading a file of this size takes well under a second.
MAX_CATALOG_BYTES = 1024 * 1024
# A translation may be LENGTH_RATIO times as long as its source plus LENGTH_SLACK characters. Measured on the
# repository's 1,181 translations: at most 1.95× for sources of 30 characters or more, and short labels grow by
# at most 26 characters ("Routs" → «Обращается в паническое бегство»); 3× + 50 leaves room for any real text
# and keeps a page within a few times the size of its source.
LENGTH_RATIO = 3
LENGTH_SLACK = 50

SIZE_HINT = ("a catalog holds one rule's texts and is far smaller: delete the file if no rule needs it (or restore it "
             "from git)")
LENGTH_HINT = ("translate the source text itself; if a real translation needs more room, say so in the pull request "
               "(the limit is in generator/i18n/limits.py)")
STRAY_HINT = ("delete the file, or run `python -m generator i18n update` to keep its translations as obsolete (#~) "
              "entries; a catalog appears when a rule, concept or page has texts in another language")


def longest_translation(source) -> int:
    """The most characters a translation of `source` (a text, or the forms of a plural message) may have."""
    longest = max((len(form) for form in source), default=0) if isinstance(source, (list, tuple)) else len(source or "")
    return LENGTH_RATIO * longest + LENGTH_SLACK


def too_long(source, translation) -> Optional[str]:
    """Why `translation` (a text, or one per plural form) is refused as a translation of `source`, or None."""
    if isinstance(translation, str) and isinstance(source, str) and \
            len(translation) <= LENGTH_RATIO * len(source) + LENGTH_SLACK:
        return None  # nearly every message: one text, well within its limit
    limit = longest_translation(source)
    forms = translation if isinstance(translation, (list, tuple)) else (translation,)
    longest = max((len(form) for form in forms if form), default=0)
    if longest <= limit:
        return None
    return (f"the translation is {longest:,} characters long, more than the {limit:,} allowed for this "
            f"{max((len(f) for f in _forms(source)), default=0):,}-character source ({LENGTH_RATIO}× the source "
            f"+ {LENGTH_SLACK})")


def fits(source, translation) -> bool:
    """Whether a translation is within its source's length limit (the site falls back to the source if not)."""
    return too_long(source, translation) is None


def _forms(source) -> tuple:
    return tuple(source) if isinstance(source, (list, tuple)) else (source or "",)


def oversized(path: Path) -> Optional[str]:
    """Why a catalog file is refused for its size before it is read, or None."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None  # the reader reports a file it cannot read
    if size <= MAX_CATALOG_BYTES:
        return None
    return f"is {size:,} bytes, more than the {MAX_CATALOG_BYTES:,} bytes (1 MiB) a catalog may have; it was not read"


def size_problem(root: Path, path: Path, name: str) -> Optional[Problem]:
    """The problem of an oversized catalog, for the commands that report it."""
    refused = oversized(path)
    return Problem(relative(path, root), 0, name, refused, SIZE_HINT) if refused else None


def length_problems(root: Path, path: Path, messages: Iterable, sources: dict) -> list[Problem]:
    """A problem for every translation of a catalog longer than its limit; the source is the knowledge base's text
    (`sources`: message key -> source text), else the catalog's msgid."""
    found = []
    for message in messages:
        if not message.id or not message.string:
            continue
        source = sources.get(message.context if message.context is not None else _singular(message.id))
        issue = too_long(source if source is not None else message.id, message.string)
        if issue:
            found.append(Problem(relative(path, root), message.lineno, message_label(message), issue, LENGTH_HINT))
    return found


def _singular(msgid):
    return msgid[0] if isinstance(msgid, tuple) else msgid


def needed_catalogs(texts: Iterable[Translatable], lang: str) -> set[str]:
    """The catalogs `lang` needs, from the knowledge base's texts (kb/texts.py): those of the texts written in another
    language, and the interface's (update.wanted_catalogs lists their messages)."""
    return {text.catalog for text in texts if text.lang != lang} | ({"ui"} if needs_interface(lang) else set())


def needs_interface(lang: str) -> bool:
    """The interface is written in English: every other language has its catalog."""
    return lang != "en"


def stray_problems(root: Path, lang: str, wanted: Iterable[str]) -> list[Problem]:
    """A problem for every catalog of `lang` that no rule, concept or page needs (`wanted`: the catalog names the
    sources give) and that still has active messages; one holding only obsolete (#~) entries is what `i18n update`
    leaves of a removed rule, kept so that no translation is lost."""
    wanted = set(wanted)
    found = []
    for name in existing_catalogs(root, lang):
        if name in wanted:
            continue
        path = catalog_path(root, lang, name)
        if oversized(path):
            continue  # refused for its size, where it is read
        try:
            entries = read_entries(path, lang, root)
        except CatalogError:
            continue  # its syntax is reported where it is read
        active = [message for message in entries if message.id]
        if active:
            found.append(Problem(relative(path, root), active[0].lineno, name,
                                 f"no rule, concept or page has texts for a catalog {name!r} in {lang}: its "
                                 f"{len(active)} message(s) are never shown", STRAY_HINT))
    return found
