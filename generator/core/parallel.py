"""Fill the disk cache on every core: a command that meets a thousand files it has never read parses them in
forked processes, and keeps what they made as if it had made it itself.

Only a first run pays for this (an empty cache, as on CI): the parsed YAML, the read catalogs and the worked
examples' answers are pure results of their bytes (core/cache.py), so a process that computed them elsewhere
hands back cache entries, and the command then reads them like any other hit. Nothing else crosses: the
command's own flow, problems and output stay those of a run on one core.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from typing import Callable, Sequence

from . import cache

MIN_ITEMS = 200  # below this, forking and copying the entries back cost more than the work they share (~20 ms)
SAMPLE = 20  # items whose entries are looked for first: if most are there, the cache is warm and nothing is shared
MAX_PROCESSES = 8  # cores beyond this add little: the parent still reads every result


def processes() -> int:
    """How many processes may share work now: 1 where forking is unsafe or there is a single core.

    A process with threads (the live server, a test runner) never forks: a lock held by another thread
    would stay locked in the child. Forking is left to Linux, where it is the documented default.
    """
    if not sys.platform.startswith("linux") or threading.active_count() > 1 or cache.cache_folder() is None:
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), MAX_PROCESSES))


def fill_cache(work: Callable[[object], object], items: Sequence) -> None:
    """Call work(item) for every item, shared out over the cores, when the cache lacks their entries and there
    are enough of them to pay for it; otherwise do nothing and leave the work to the command.

    `work` must be a pure function of its item whose result goes through the disk cache, looked up first
    (cache.misses tells from a sample whether the entries are there); an item already cached costs a share a
    lookup. What `work` returns or raises is ignored (the command calls it again and gets the entry, or meets
    the problem itself). A share whose process fails is done here.
    """
    count = processes() if len(items) >= MIN_ITEMS else 1
    if count == 1:
        return  # the command does the work as it goes
    sample = items[::max(1, len(items) // SAMPLE)]
    if sum(cache.misses(work, item) for item in sample) * 2 < len(sample):
        return  # a cache mostly warm: what is missing is done as the command meets it
    shares = [items[index::count] for index in range(count)]
    children = [_fork(work, share) for share in shares[1:]]
    _run(work, shares[0])
    for (pid, reading), share in zip(children, shares[1:]):
        entries = _collect(pid, reading)
        if entries is None:
            _run(work, share)
        else:
            cache.adopt(entries)


def _run(work: Callable[[object], object], items: Sequence) -> None:
    for item in items:
        try:
            work(item)
        except Exception:  # the command meets it again where it reports problems
            pass


def _fork(work: Callable[[object], object], items: Sequence) -> tuple[int, int]:
    """A child doing `items`; its pid and the end of the pipe its new cache entries come through."""
    reading, writing = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        os.close(writing)
        return pid, reading
    os.close(reading)
    status = 1
    try:
        before = cache.pending()
        _run(work, items)
        with os.fdopen(writing, "wb") as pipe:
            pickle.dump({key: value for key, value in cache.pending().items() if key not in before}, pipe,
                        protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        os._exit(status)  # no atexit: the parent writes the cache, and nothing of the parent's runs twice


def _collect(pid: int, reading: int) -> dict[bytes, bytes] | None:
    """The entries a child made, or None if it failed."""
    with os.fdopen(reading, "rb") as pipe:
        data = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    try:
        entries = pickle.loads(data)  # our own child's bytes, made from the same code a moment ago
    except (pickle.UnpicklingError, EOFError, ValueError):
        return None
    return entries if isinstance(entries, dict) else None
