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
as one new pack when it ends (or on flush()). A thousand rules made a thousand small files before, and creating them cost
more than the parsing they saved. Processes never write into each other's packs, so two commands at
once (pytest's workers, serve beside check) cannot damage one; the writer that finds more than
MAX_PACKS folds them into one, and a version folder nobody has written for STALE_DAYS goes.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import marshal
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from .cachepacks import MARSHAL_VERSION, PACK_SUFFIX, Pack, open_packs, pack_bytes

CACHE_NAME = "wargame-rules-kb"  # the folder under the user's cache folder
MAX_PACKS = 12  # packs a version folder may hold before the next writer folds them into one
STALE_DAYS = 14  # a version folder untouched this long belongs to code nobody runs any more
PARALLEL_MINIMUM = 100  # fewer items than this are not worth a second process
PROBE = 16  # items worked here first: if the cache knew them all, it is warm and no second process is made
QUEUE_SHARES = 256  # the items are handed out in at most this many shares (1 KiB of numbers: any pipe holds it)
SHARE_BYTES = 4  # one share's number in the queue

T = TypeVar("T")


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
        os.makedirs(self.folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(pack_bytes(entries))
        path = os.path.join(self.folder, f"{os.getpid()}-{time.time_ns()}{PACK_SUFFIX}")
        os.replace(temporary, path)
        for pack in folded:  # the new pack holds their entries now
            _remove(os.path.join(self.folder, pack.name))
            os.close(pack.handle)
        self.packs = [pack for pack in self.packs if pack not in folded] + open_packs(self.folder, [path])
        self.made = {}
        _remove_stale_versions(os.path.dirname(self.folder), keep=self.folder)


_SHELVES: dict[str, _Shelf] = {}  # version folder -> its entries in this process


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


def fill_in_parallel(items: Sequence[T], work: Callable[[T], object]):
    """Call work(item) for every item, on both cores when there are many, for the cache entries it makes.

    `work` must only fill the cache (its results and side effects are dropped): the caller then goes
    through the items in its own order and finds every entry made. The first run after a clone (CI's)
    parses a thousand files; the entries make every run after it fast anyway, so when the first PROBE
    items were all known already no child is made (the fork and the second look at every item cost a
    warm run a fifth of its time).
    """
    helper = fill_in_background(items, work)
    if helper is not None:
        helper.join()


def map_in_parallel(items: Sequence[T], work: Callable[[T], object]) -> dict[int, object]:
    """fill_in_parallel that also hands back work's answers: {index of the item: its answer}.

    Only answers that marshal can hold come back from the child; an item whose work failed, or that was
    left to the caller (a warm cache makes no child), has none: the caller works it out itself and
    meets its error there. This saves a first run looking every item up again (i18n update: 0.5 s).
    """
    answers: dict[int, object] = {}
    helper = fill_in_background(items, work, answers=answers)
    if helper is not None:
        answers.update(helper.join())
    return answers


def fill_in_background(items: Sequence[T], work: Callable[[T], object], minimum: int = PARALLEL_MINIMUM,
                       answers: dict[int, object] | None = None) -> "Helper | None":
    """Start a child calling work(item) for the items while this process goes on; None if not worth one.

    The caller must join() the helper before it looks for the entries (or stop() it): join() works
    through the items the child has not taken yet here, then takes the child's entries. So work that
    needs nothing this process is still making (reading the catalogs while the rules load) keeps the
    second core busy through the parts of a command that run on one. With fewer than `minimum` items
    (PARALLEL_MINIMUM unless the caller knows its items cost more) no child is made. With `answers`,
    the answers of the items probed here go into it and the helper keeps every answer (see map_in_parallel).
    """
    if cache_folder() is None or len(items) < max(minimum, PROBE + 1) or (os.cpu_count() or 1) < 2 \
            or not hasattr(os, "fork") or threading.active_count() > 1:  # forking beside threads is unsafe
        return None
    made_before = _made_count()
    _each(items, range(PROBE), work, answers)
    if _made_count() == made_before:  # the cache knew every item probed: it is warm, and a child costs more
        return None
    return Helper(items, PROBE, work, answers is not None)


class Helper:
    """A forked child taking shares of the items from a queue (a pipe) that this process takes from too.

    Whoever is free takes the next share, so neither process waits while the other still has a long
    list; only plain data crosses back: the entries the child put in the cache (and its answers).
    """

    def __init__(self, items: Sequence, start: int, work: Callable, keep_answers: bool = False):
        size = -(-(len(items) - start) // QUEUE_SHARES)  # items per share
        self.items, self.work = items, work
        self.shares = [range(first, min(first + size, len(items))) for first in range(start, len(items), size)]
        self.answers: dict[int, object] | None = {} if keep_answers else None
        self.queue, queue_in = os.pipe()
        # Every share's number goes in before the fork and the writing end is closed: a read past the
        # last share finds the end of the pipe. QUEUE_SHARES numbers fit in any pipe without blocking.
        os.write(queue_in, b"".join(number.to_bytes(SHARE_BYTES, "big") for number in range(len(self.shares))))
        os.close(queue_in)
        self.results, results_in = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - runs in the child, which reports through the pipe
            os.close(self.results)
            self._serve(results_in)
        os.close(results_in)
        _HELPERS.append(self)

    def _serve(self, results_in: int):
        status = 0
        try:
            before = {folder: set(shelf.made) for folder, shelf in _SHELVES.items()}
            self._work_through()
            made = {folder: {key: value for key, value in shelf.made.items() if key not in before.get(folder, ())}
                    for folder, shelf in _SHELVES.items()}
            try:
                sent = marshal.dumps((made, self.answers or {}), MARSHAL_VERSION)
            except ValueError:  # an answer marshal cannot hold: the parent works the answers out itself
                sent = marshal.dumps((made, {}), MARSHAL_VERSION)
            with os.fdopen(results_in, "wb") as out:
                out.write(sent)
        except BaseException:
            status = 1
        finally:
            os._exit(status)  # never the parent's exit handlers, nor its buffered output

    def _work_through(self):
        """Take the next share from the queue and work it, until the queue is empty."""
        while True:
            taken = os.read(self.queue, SHARE_BYTES)  # a pipe hands each share's whole number to one reader
            if len(taken) < SHARE_BYTES:
                return
            _each(self.items, self.shares[int.from_bytes(taken, "big")], self.work, self.answers)

    def join(self) -> dict[int, object]:
        """Work through the shares left, take the child's entries into this process's cache; the answers kept."""
        _HELPERS.remove(self)
        self._work_through()
        os.close(self.queue)
        with os.fdopen(self.results, "rb") as incoming:
            sent = incoming.read()
        os.waitpid(self.pid, 0)
        answers = self.answers or {}
        try:
            made, sent_answers = marshal.loads(sent)
        except (EOFError, ValueError, TypeError):
            return answers  # the child failed: the caller works the rest out itself
        for folder, entries in made.items():
            _shelf(folder).made.update(entries)
        return {**answers, **sent_answers} if self.answers is not None else answers

    def stop(self):
        """End the child without taking its entries (the command ended before it needed them)."""
        _HELPERS.remove(self)
        for handle in (self.queue, self.results):
            os.close(handle)
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:  # already gone
            pass


_HELPERS: list[Helper] = []  # children started and not yet joined or stopped


def _stop_helpers():
    for helper in list(_HELPERS):
        helper.stop()


def _made_count() -> int:
    return sum(len(shelf.made) for shelf in _SHELVES.values())


def _each(items: Sequence, indexes: range, work: Callable, answers: dict[int, object] | None):
    """work() on the items at these indexes, keeping the answers if asked."""
    for index in indexes:
        try:
            answer = work(items[index])
        except Exception:  # a broken file: the caller meets it again and reports it properly
            continue
        if answers is not None:
            answers[index] = answer


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
atexit.register(_stop_helpers)  # runs first: a child nobody joined has nothing to give


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
