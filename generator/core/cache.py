"""A disk cache for pure results computed from bytes: parsed YAML, read catalogs, worked examples' answers.

An entry's key is a hash of its kind, its input bytes and the code's version, and the version is a hash
of every file of the generator package (and of the libraries that compute the results), so an entry is
only ever found by the exact input and code that made it; no hand-kept list of files can go stale.
Entries live in one SQLite database in the user's cache folder ($XDG_CACHE_HOME or ~/.cache), never in
the checkout, so a pull request cannot plant one. Values are plain data stored with `marshal` (no code is
ever loaded); an unreadable entry or database is a miss, never an error. A process writes what it made
in one transaction when it ends (or on flush()); entries of other versions unused for STALE_DAYS go then.
KB_NO_CACHE=1 turns the cache off.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import marshal
import os
import sqlite3
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Callable

CACHE_NAME = "wargame-rules-kb"  # the folder under the user's cache folder
DATABASE = "cache.sqlite3"
STALE_DAYS = 14  # entries of another version unused this long belong to code nobody runs any more
BUSY_SECONDS = 2  # how long a writer waits for another process's transaction before giving up its entries
RETRY_SECONDS = 0.01  # between attempts to open a database another process is setting up
SQLITE_BUSY, SQLITE_LOCKED = 5, 6  # SQLite's primary result codes (the low byte of an extended one)
# Pages the write-ahead log may grow to before a commit copies it into the database: a first run at 1,000 rules
# writes about 24 MB at once, and SQLite's default (1,000 pages, 4 MB) would copy it all again inside that commit.
CHECKPOINT_PAGES = 16_384
VALUE_MARSHAL = 4  # marshal's format of stored values
KEY_MARSHAL = 2  # the newest format that writes no references between objects (see key_bytes)
LIBRARIES = ("PyYAML", "babel", "Jinja2", "snowballstemmer")  # whose versions change what the cached code computes
PACKAGE = Path(__file__).resolve().parents[1]  # generator/


def key_bytes(data: object) -> bytes:
    """Bytes that stand for plain data in a cache key: the same data always gives the same bytes.

    marshal's versions 3 and 4 write a reference where an object (a string, say) is met again, so the
    same data would come out differently as its strings happened to be shared or interned in a process.
    """
    return marshal.dumps(data, KEY_MARSHAL)


@functools.cache
def code_version() -> str:
    """A hash of the generator package's files, the Python that runs them and the libraries they compute with."""
    digest = hashlib.sha256(f"{sys.version}\0{VALUE_MARSHAL}\0".encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name} {version(name)}\0".encode())
        except PackageNotFoundError:
            digest.update(f"{name} -\0".encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path | None:
    """Where the database lives, or None when caching is turned off."""
    if os.environ.get("KB_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / CACHE_NAME


class _Store:
    """This process's view of the database: lookups as they come, what it made kept until flush()."""

    def __init__(self, folder: Path):
        self.path = folder / DATABASE
        self.made: dict[bytes, bytes] = {}
        self.connection: sqlite3.Connection | None = None
        self.pid = os.getpid()  # a connection never crosses a fork: a child opens its own
        self.broken = False  # an unreadable database: every lookup is a miss, nothing is written

    def connect(self) -> sqlite3.Connection | None:
        if self.pid != os.getpid():
            self.connection, self.pid = None, os.getpid()
        if self.connection is None and not self.broken:
            self.connection = self._open()
        return self.connection

    def _open(self) -> sqlite3.Connection | None:
        """A connection with the table ready; None (and broken) if the file cannot be a database.

        Two processes opening a new database at once can find it locked while the other sets it up, and
        SQLite may say so at once rather than wait: that is tried again, for up to BUSY_SECONDS.
        """
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            connection = None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")  # in WAL mode, never corrupt; a cache needs no more
                connection.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
                connection.execute("CREATE TABLE IF NOT EXISTS entries (key BLOB PRIMARY KEY, value BLOB, "
                                   "version TEXT, used INTEGER)")
                return connection
            except (sqlite3.Error, OSError) as error:
                if connection is not None:
                    connection.close()
                if not (_busy(error) and time.monotonic() < deadline):
                    self.broken = True
                    return None
                time.sleep(RETRY_SECONDS)

    def get(self, key: bytes) -> bytes | None:
        if key in self.made:
            return self.made[key]
        connection = self.connect()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row and isinstance(row[0], bytes) else None

    def write(self):
        """Write the entries made here in one transaction, and remove other versions' stale entries."""
        if not self.made:
            return
        connection = self.connect()
        if connection is None:
            return
        now, made = int(time.time()), self.made
        self.made = {}
        try:
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                connection.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)",
                                       ((key, value, code_version(), now) for key, value in made.items()))
                connection.execute("DELETE FROM entries WHERE version != ? AND used < ?",
                                   (code_version(), now - STALE_DAYS * 86400))
        except sqlite3.Error:  # busy past BUSY_SECONDS, read-only or full: the cache stays as it was
            pass

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def _busy(error: Exception) -> bool:
    """Whether an error says another connection holds the database for the moment (SQLITE_BUSY or _LOCKED)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)


_STORES: dict[Path, _Store] = {}


def _store() -> _Store | None:
    # Asked at every lookup: the folder is worked out again only when the variables that name it change.
    settings = (os.environ.get("KB_NO_CACHE"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    if settings not in _FOLDERS:
        _FOLDERS[settings] = cache_folder()
    folder = _FOLDERS[settings]
    if folder is None:
        return None
    if folder not in _STORES:
        _STORES[folder] = _Store(folder)
    return _STORES[folder]


_FOLDERS: dict[tuple, Path | None] = {}  # the environment's cache settings -> cache_folder()


def _key(kind: str, data: bytes) -> bytes:
    return hashlib.sha256(f"{code_version()}\0{kind}\0".encode() + data).digest()


_MISSING = object()  # what a lookup gives for an entry that is not there (None is a value like any other)


class _Probed(Exception):
    """Ends a call made by misses() at its first lookup, saying whether the entry was there."""

    def __init__(self, found: bool):
        super().__init__(found)
        self.found = found


_probing = False  # inside misses(): the first lookup ends the call


def misses(work: Callable[[object], object], item: object) -> bool:
    """Whether the first entry work(item) looks up is missing from the cache; nothing is computed or loaded.

    A call that ends or fails before any lookup misses nothing (its caller meets the failure when it calls it).
    """
    global _probing
    _probing = True
    try:
        work(item)
    except _Probed as probed:
        return not probed.found
    except Exception:
        return False
    finally:
        _probing = False
    return False


def _probe(store: _Store, key: bytes):
    if _probing:
        raise _Probed(store.get(key) is not None)


def _lookup(store: _Store, key: bytes) -> object:
    encoded = store.get(key)
    if encoded is None:
        return _MISSING
    try:
        return marshal.loads(encoded)
    except (EOFError, ValueError, TypeError, MemoryError):  # damaged, or made to exhaust memory: a miss
        return _MISSING


def cached(kind: str, data: bytes, compute: Callable[[], object]) -> object:
    """compute() for these bytes, from the cache when this version of the code made it before.

    `compute` must be pure (its result depends only on `data` and the package's code) and return plain
    data: dicts, lists, tuples, strings, numbers, booleans and None.
    """
    store = _store()
    if store is None:
        return compute()
    key = _key(kind, data)
    _probe(store, key)
    value = _lookup(store, key)
    if value is _MISSING:
        value = compute()
        try:
            store.made[key] = marshal.dumps(value, VALUE_MARSHAL)
        except ValueError:  # a value marshal cannot hold: just don't cache it
            pass
    return value


def stored(kind: str, data: bytes) -> object | None:
    """The value kept for these bytes, or None (for a result that is kept only sometimes)."""
    store = _store()
    if store is None:
        return None
    key = _key(kind, data)
    _probe(store, key)
    value = _lookup(store, key)
    return None if value is _MISSING else value


def store(kind: str, data: bytes, value: object):
    """Keep `value` for these bytes; ValueError if marshal cannot hold it."""
    where = _store()
    if where is not None:
        where.made[_key(kind, data)] = marshal.dumps(value, VALUE_MARSHAL)


def pending() -> dict[bytes, bytes]:
    """The entries this process made and has not written yet (a copy)."""
    where = _store()
    return dict(where.made) if where is not None else {}


def adopt(entries: dict[bytes, bytes]):
    """Keep entries another process made from the same code (core/parallel.py) as if made here."""
    where = _store()
    if where is not None:
        where.made.update(entries)


def flush():
    """Write the entries this process made (at exit at the latest)."""
    for where in list(_STORES.values()):
        where.write()


def forget():
    """Write what this process made and close the database, as if the next call came from a new process."""
    flush()
    for where in _STORES.values():
        where.close()
    _STORES.clear()


atexit.register(flush)
