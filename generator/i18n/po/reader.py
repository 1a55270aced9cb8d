"""Reading catalog files: strictly into plain entries (checks, site) or into a Babel catalog (updates), cached on disk."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import NamedTuple, Optional

from babel import UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po

from ...core.cache import cached
from ...core.problems import Problems
from ...core.repofiles import read_repository_bytes
from .pofile import SYNTAX_HINT, CatalogEntries, CatalogError, Entry, scan

# The flag, beside `fuzzy`, of a translation the translation memory suggested: not shown on the site until a
# translator accepts it by clearing `fuzzy` (translations/README.md, "Suggestions from translation memory").
SUGGESTION = "suggestion"


class LookupEntry(NamedTuple):
    """A message as the site and the checks use it; the same attributes as a Babel Message, built cheaply."""

    lineno: int
    context: Optional[str]
    id: object  # str, or (singular, plural)
    string: object  # str, or one str per plural form
    fuzzy: bool
    previous: Optional[str]
    suggestion: bool = False  # fuzzy and flagged SUGGESTION: the memory's, not yet accepted


# The modules whose code makes the results kept in the disk cache: a change to any of them starts afresh.


def read_bytes(path: Path, root: Optional[Path]) -> bytes:
    """A catalog's bytes; with `root`, read under the repository-file policy (generator/core/repofiles.py)."""
    if root is None:
        return Path(path).read_bytes()
    refused = Problems()
    data = read_repository_bytes(root, path, refused)
    if data is None:
        raise CatalogError(path, [(p.line, p.message, p.hint) for p in refused])
    return data


def decode(path: Path, data: bytes) -> str:
    """The text of catalog bytes; CatalogError naming the line if they are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogError(path, [(data[:error.start].count(b"\n") + 1, f"not UTF-8 text ({error.reason})",
                                   "save the file as UTF-8")]) from None


def _plain_entries(path: Path, data: bytes, lang: str) -> tuple:
    """read_entries' answer as plain data (for the disk cache); CatalogError if the catalog has problems."""
    catalog, _entries, problems = scan(decode(path, data), lang)
    if problems:
        raise CatalogError(path, problems)

    def plain(entry: Entry) -> tuple:
        previous = "".join(entry.previous) if entry.previous is not None else None
        return (entry.lineno, entry.context, entry.id, entry.string, entry.fuzzy, previous,
                entry.fuzzy and SUGGESTION in entry.flags)

    return (tuple(plain(e) for e in catalog.messages), tuple(plain(e) for e in catalog.obsolete),
            catalog.num_plurals, catalog.plural_expr)


def _previous_msgids(path: Path, data: bytes, lang: str) -> tuple:
    """((obsolete, key), previous msgid) for every message that has one; CatalogError if the catalog has problems."""
    _catalog, entries, problems = scan(decode(path, data), lang)
    if problems:
        raise CatalogError(path, problems)
    return tuple(((e.obsolete, e.key()), "".join(e.previous)) for e in entries if e.previous)


def message_key(message) -> str:
    """What identifies a message in its catalog: its context, else its msgid."""
    return message.context if message.context is not None else message.id


def cached_scan(kind: str, path: Path, data: bytes, lang: str, compute):
    """compute(path, data, lang), a pure function of the bytes, from the on-disk cache (generator/core/cache.py)."""
    return cached(kind, lang.encode("utf-8") + b"\0" + data, lambda: compute(path, data, lang))


READ_MEMO_SIZE = 5000  # catalogs whose entries a process keeps (check, typography and memory each read all)
_READ: dict[tuple[str, bytes], tuple] = {}  # (lang, exact bytes) -> read_entries' plain answer, this process only


_READ_ONCE: list[dict] = []  # inside catalogs_read_once(): (path, lang) -> (root it was read under, its entries)


@contextlib.contextmanager
def catalogs_read_once():
    """Within the block, read_entries gives a catalog's first reading again instead of reading the file anew.

    For one-shot commands whose parts each read every catalog (`i18n check`: the checks, the Russian
    typography and the translation memory); a long-lived process (serve) never enters it, so it always
    sees the files as they are now.
    """
    _READ_ONCE.append({})
    try:
        yield
    finally:
        _READ_ONCE.pop()


def read_entries(path: Path, lang: str, root: Optional[Path] = None) -> CatalogEntries:
    """A catalog's messages for looking up and checking, read strictly (CatalogError lists every problem).

    The result for these exact bytes is kept in the on-disk cache: reading a thousand catalogs again
    costs a hash and a marshal load each.
    """
    memo = _READ_ONCE[-1] if _READ_ONCE else None
    if memo is not None:
        read_under, entries = memo.get((str(path), lang), (None, None))
        # A reading under the repository-file policy also serves a plain one, never the other way round.
        if entries is not None and (root is None or root == read_under):
            return entries
    entries = _read_entries(path, lang, root)
    if memo is not None and root is not None:
        memo[(str(path), lang)] = (root, entries)
    return entries


def _read_entries(path: Path, lang: str, root: Optional[Path]) -> CatalogEntries:
    data = read_bytes(path, root)
    plain = _READ.get((lang, data))
    if plain is None:
        if len(_READ) >= READ_MEMO_SIZE:
            _READ.clear()
        plain = _READ[(lang, data)] = cached_scan("catalog-entries", path, data, lang, _plain_entries)
    messages, obsolete, num_plurals, plural_expr = plain
    return CatalogEntries([LookupEntry._make(fields) for fields in messages],
                          [LookupEntry._make(fields) for fields in obsolete], num_plurals, plural_expr)


def read_catalog(path: Path, lang: str, root: Optional[Path] = None, data: Optional[bytes] = None) -> Catalog:
    """Read a .po file (or its bytes, `data`, already read) strictly as a Babel catalog (for updating it):
    nothing is silently skipped or cut.

    The strict scanner reads it, comments included, and Babel's Catalog holds it: one reading, made as
    Babel's read_po makes it. A file whose locations use gettext's isolates (file names with spaces)
    is read by read_po itself, which knows their rules.
    """
    data = read_bytes(path, root) if data is None else data
    fields = catalog_messages(path, lang, data=data)
    if fields is None:
        return _read_with_babel(path, lang, data)
    catalog = _empty_catalog(path, lang)
    for obsolete, msgid, string, locations, flags, auto, user, lineno, context, previous in fields:
        message = Message(msgid, string, locations, flags, auto, user, lineno=lineno, context=context,
                          previous_id=[previous] if previous else ())
        if obsolete:
            key = msgid[0] if isinstance(msgid, tuple) else msgid
            catalog.obsolete[(key, context) if context is not None else key] = message
        else:
            catalog[msgid] = message
    return catalog


def catalog_messages(path: Path, lang: str, root: Optional[Path] = None, data: Optional[bytes] = None) -> tuple | None:
    """read_catalog's reading as plain data, from the on-disk cache: the fields of each message as Babel's Message
    takes them (obsolete, id, string, locations, flags, auto and user comments, lineno, context, previous msgid).

    None for a file whose locations use gettext's isolates, which Babel's read_po reads; CatalogError if
    the catalog has problems.
    """
    data = read_bytes(path, root) if data is None else data
    if _ISOLATES[0] in data or _ISOLATES[1] in data:  # the bytes, not a decoded copy: most readings are cache hits
        return None
    return cached_scan("catalog-messages", path, data, lang, _message_fields)


_ISOLATES = ("\u2068".encode("utf-8"), "\u2069".encode("utf-8"))  # gettext's marks around a file name with spaces


def _message_fields(path: Path, data: bytes, lang: str) -> tuple:
    _catalog, entries, problems = scan(decode(path, data), lang, comments=True)
    if problems:
        raise CatalogError(path, problems)
    fields = []
    for entry in entries:
        comments, previous = entry.comments, "".join(entry.previous or ())
        # Babel reads `#|` lines as translator comments: a message's are dropped, the header's kept.
        user = comments.user if entry.id == "" and entry.context is None else \
            [c for c in comments.user if not c.startswith("|")]
        fields.append((entry.obsolete, entry.id, entry.string, comments.locations, comments.flags, comments.auto,
                       user, entry.lineno, entry.context, previous))
    return tuple(fields)


def _empty_catalog(path: Path, lang: str) -> Catalog:
    try:
        return Catalog(locale=lang)
    except (UnknownLocaleError, ValueError) as error:
        raise CatalogError(path, [(0, f"cannot read: {error}", SYNTAX_HINT)]) from None


def _read_with_babel(path: Path, lang: str, data: bytes) -> Catalog:
    """read_catalog's reading through Babel's read_po, after the strict scan has found no problem."""
    previous = dict(_previous_msgids(path, data, lang))
    text = decode(path, data)
    # Babel reads `#~|` as a message line; as `#|` it is a comment, removed below.
    babel_text = re.sub(r"(?m)^(\s*)#~\|", r"\1#|", text) if "#~|" in text else text
    try:
        catalog = read_po(io.BytesIO(babel_text.encode("utf-8")), locale=lang, abort_invalid=True)
    except PoFileError as error:
        line = getattr(error, "lineno", 0)
        raise CatalogError(path, [(line, f"not a valid catalog: {error}", SYNTAX_HINT)]) from None
    except (UnknownLocaleError, ValueError) as error:
        raise CatalogError(path, [(0, f"cannot read: {error}", SYNTAX_HINT)]) from None
    for obsolete, messages in ((False, list(catalog)), (True, list(catalog.obsolete.values()))):
        for message in messages:
            # Babel files `#|` lines as translator comments; they are not.
            message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
            text_of_previous = previous.get((obsolete, message_key(message)))
            if text_of_previous:
                message.previous_id = [text_of_previous]
    return catalog
