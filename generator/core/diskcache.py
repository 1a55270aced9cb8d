"""A cache on disk for pure results computed from bytes (parsed YAML, read catalogs), keyed by content and code version.

Invisible to correctness: the key is a hash of the input bytes together with a version string that
changes with the code and libraries that compute the value, so an entry is only ever used for
exactly the bytes and code it was made from; an unreadable or damaged entry is a miss. Values are
plain data stored with `marshal` (no code is ever loaded). The cache lives in the user's cache
folder ($XDG_CACHE_HOME or ~/.cache), never in the checkout, so a pull request cannot plant an
entry, and git never sees it. KB_NO_CACHE=1 turns it off.

Entries are kept in packs (an index of keys, then the values; the format is generator/cachepacks.py)
in a folder per kind and code version:
a process reads a kind's pack indexes once, reads a value when asked, and writes the entries it made
as one new pack when it ends (or on flush()); a helper on the second core writes its own before it ends
and its parent reads that pack (packed_since, take_packs). A thousand rules made a thousand small files before, and creating them cost
more than the parsing they saved. Processes never write into each other's packs, so two commands at
once (pytest's workers, serve beside check) cannot damage one; the writer that finds more than
MAX_PACKS folds them into one, and a version folder nobody has written for STALE_DAYS goes.
Filling the cache on both cores (the first run after a clone) is generator/cachefill.py.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import marshal
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from .cachepacks import MARSHAL_VERSION, PACK_SUFFIX, Pack, open_packs, pack_bytes

CACHE_NAME = "wargame-rules-kb"  # the folder under the user's cache folder
MAX_PACKS = 12  # packs a version folder may hold before the next writer folds them into one
STALE_DAYS = 14  # a version folder untouched this long belongs to code nobody runs any more


class _Shelf:
    """One kind and version's entries in this process: its packs (values read when asked) and those made here.

    Only the packs' indexes stay in memory, not their values: at a thousand rules the values are tens
    of megabytes that a build would otherwise carry to its end.
    """

    def __init__(self, folder: str):
        self.folder = folder
        self.made: dict[bytes, bytes] = {}
        self.packs: list[Pack] = open_packs(folder)

    def get(self, key: bytes) -> bytes | None:
        found = self.made.get(key)
        for pack in self.packs if found is None else ():
            found = pack.get(key)
            if found is not None:
                break
        return found

    def write(self):
        """Write what this process made as a new pack; fold every pack into one when there are too many."""
        if not self.made:
            return
        folded = self.packs if len(self.packs) >= MAX_PACKS else []
        entries: dict[bytes, bytes] = {}
        for pack in folded:
            entries.update(pack.entries())
        entries.update(self.made)
        path = _write_pack(self.folder, entries)
        for pack in folded:  # the new pack holds their entries now
            _remove(os.path.join(self.folder, pack.name))
            os.close(pack.handle)
        self.packs = [pack for pack in self.packs if pack not in folded] + open_packs(self.folder, [path])
        self.made = {}
        _remove_stale_versions(os.path.dirname(self.folder), keep=self.folder)


_SHELVES: dict[str, _Shelf] = {}  # version folder -> its entries in this process


def _write_pack(folder: str, entries: dict[bytes, bytes]) -> str:
    """Write entries as a new pack in `folder`, whole or not at all (through a temporary name); its path."""
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        out.write(pack_bytes(entries))
    path = os.path.join(folder, f"{os.getpid()}-{time.time_ns()}{PACK_SUFFIX}")
    os.replace(temporary, path)
    return path


def cache_folder() -> Path | None:
    """Where entries live, or None when caching is turned off."""
    environ = os.environ
    return _cache_folder(environ.get("KB_NO_CACHE"), environ.get("XDG_CACHE_HOME"), environ.get("HOME"))


@functools.cache  # asked for at every lookup (tens of thousands in a first run): worked out once per setting
def _cache_folder(no_cache: str | None, cache_home: str | None, _home: str | None) -> Path | None:
    if no_cache:
        return None
    base = cache_home or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / CACHE_NAME


def cached(kind: str, version: str, data: bytes, compute: Callable[[], object]) -> object:
    """compute() for these bytes, from the cache when an entry made by the same code version exists.

    `compute` must be pure (its result depends only on `data` and the code named by `version`)
    and return plain data: dicts, lists, tuples, strings, numbers, booleans and None.
    """
    if cache_folder() is None:
        return compute()
    value = _lookup(kind, version, data)
    if value is _MISSING:
        value = compute()
        try:
            store(kind, version, data, value)
        except ValueError:  # a value marshal cannot hold: just don't cache it
            pass
    return value


def stored(kind: str, version: str, data: bytes) -> object | None:
    """The value kept for these bytes and code version, or None (for a result that is kept only sometimes)."""
    value = _lookup(kind, version, data)
    return None if value is _MISSING else value


def store(kind: str, version: str, data: bytes, value: object):
    """Keep `value` for these bytes and code version; ValueError if marshal cannot hold it."""
    folder = cache_folder()
    if folder is not None:
        encoded = marshal.dumps(value, MARSHAL_VERSION)
        _shelf(_version_folder(folder, kind, version)).made[hashlib.sha256(data).digest()] = encoded


KEY_MARSHAL_VERSION = 2  # the newest format that writes no references between objects (see key_bytes)


def key_bytes(data: object) -> bytes:
    """Bytes that stand for plain data in a cache key: the same data always gives the same bytes.

    marshal's versions 3 and 4 write a reference where an object (a string, say) is met again, so
    the same data came out differently as its strings happened to be shared or interned in a process,
    and an entry made by one process was a miss in the next (i18n check re-checked catalogs at random).
    """
    return marshal.dumps(data, KEY_MARSHAL_VERSION)


_MISSING = object()  # what _lookup gives for an entry that is not there (None is a value like any other)


def _lookup(kind: str, version: str, data: bytes) -> object:
    """The value kept for these bytes and code version, or _MISSING (a damaged entry is missing too)."""
    folder = cache_folder()
    if folder is None:
        return _MISSING
    encoded = _shelf(_version_folder(folder, kind, version)).get(hashlib.sha256(data).digest())
    try:
        return marshal.loads(encoded) if encoded is not None else _MISSING
    except (EOFError, ValueError, TypeError):
        return _MISSING


@functools.cache  # one hash per kind and version, not one per lookup
def _version_folder(folder: Path, kind: str, version: str) -> str:
    """The folder of one kind's packs made by one version of the code under one Python."""
    runtime = hashlib.sha256(f"{version}\0{sys.version}\0{MARSHAL_VERSION}".encode()).hexdigest()[:16]
    return os.path.join(folder, kind, runtime)


def made_keys() -> dict[str, set[bytes]]:
    """The keys of the entries made in this process so far, by version folder (see made_since)."""
    return {folder: set(shelf.made) for folder, shelf in _SHELVES.items()}


def made_since(before: dict[str, set[bytes]]) -> dict[str, dict[bytes, bytes]]:
    """The entries made in this process since made_keys() gave `before`: plain data for another process."""
    return {folder: {key: value for key, value in shelf.made.items() if key not in before.get(folder, ())}
            for folder, shelf in _SHELVES.items()}


def take_made(made: dict[str, dict[bytes, bytes]]):
    """Keep entries another process made (made_since's answer there) as if made here: written at flush."""
    for folder, entries in made.items():
        _shelf(folder).made.update(entries)


def packed_since(before: dict[str, set[bytes]]) -> tuple[dict[str, str], dict[str, dict[bytes, bytes]]]:
    """Write the entries made since made_keys() gave `before` as packs, for another process to take_packs:
    ({version folder: pack written}, {version folder: entries that could not be written}).

    A helper's entries reach its parent this way rather than through a pipe: the parent neither loads nor
    writes them again (at 1,000 rules 26 MB of read catalogs and 17 MB of parsed YAML).
    """
    written, unwritten = {}, {}
    for folder, entries in made_since(before).items():
        if not entries:
            continue
        try:
            written[folder] = _write_pack(folder, entries)
        except OSError:  # a read-only or full cache folder: the entries travel as they are
            unwritten[folder] = entries
        else:
            for key in entries:
                del _shelf(folder).made[key]
    return written, unwritten


def take_packs(written: dict[str, str]):
    """Read the packs another process wrote (packed_since's answer there) with this process's own."""
    for folder, path in written.items():
        if folder in _SHELVES:
            _SHELVES[folder].packs += open_packs(folder, [path])
        else:
            _shelf(folder)  # a shelf made now opens every pack of its folder, the new one too


def made_count() -> int:
    return sum(len(shelf.made) for shelf in _SHELVES.values())


def _shelf(folder: str) -> _Shelf:
    shelf = _SHELVES.get(folder)
    if shelf is None:
        shelf = _SHELVES[folder] = _Shelf(folder)
    return shelf


def flush():
    """Write the entries this process made (at exit at the latest), and clear out versions nobody uses."""
    for shelf in list(_SHELVES.values()):
        try:
            shelf.write()
        except OSError:  # a read-only or full cache folder: the cache just stays as it was
            pass


def forget():
    """Write what this process made and let go of every pack, as if the next call came from a new process."""
    flush()
    for shelf in _SHELVES.values():
        for pack in shelf.packs:
            os.close(pack.handle)
    _SHELVES.clear()


atexit.register(flush)


def _remove(path: str):
    try:
        os.remove(path)
    except OSError:
        pass  # already folded by another process


def _remove_stale_versions(kind_folder: str, keep: str):
    """Remove the version folders of a kind (other than `keep`) that no process has written to for STALE_DAYS."""
    cutoff = time.time() - STALE_DAYS * 86400
    for entry in os.scandir(kind_folder):
        if entry.path != keep and entry.is_dir() and entry.stat().st_mtime < cutoff:
            for name in os.listdir(entry.path):
                _remove(os.path.join(entry.path, name))
            try:
                os.rmdir(entry.path)
            except OSError:
                pass


def source_version(*files: str, extra: str = "") -> str:
    """A version string for code: a hash of the named source files' bytes plus `extra` (library versions)."""
    digest = hashlib.sha256(extra.encode())
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:16]
