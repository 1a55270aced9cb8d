"""Share a command's work with the machine's other cores, for a knowledge base of a thousand rules.

Two shapes, one mechanism (a forked child that sends back its result and the disk-cache entries it made):
`fill_cache` parses the files a first run has never read (an empty cache, as on CI) on every core, and the
command then reads them as cache hits; `alongside` runs two independent parts of a command at once and
gives back both results. The command's own flow, output and problems stay those of a run on one core.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from typing import Callable, Sequence, TypeVar

from . import cache

MIN_ITEMS = 200  # below this, forking and copying the results back cost more than the work they share (~20 ms)
SAMPLE = 20  # items whose entries are looked for first: if most are there, the cache is warm and nothing is shared
MAX_PROCESSES = 8  # cores beyond this add little: the parent still reads every result

Here = TypeVar("Here")
There = TypeVar("There")
_FAILED = object()  # what a child that failed gives back


def processes() -> int:
    """How many processes may share work now: 1 where forking is unsafe or there is a single core.

    A process with threads (the live server, a test runner) never forks: a lock held by another thread
    would stay locked in the child. Forking is left to Linux, where it is the documented default; without
    the disk cache (KB_NO_CACHE=1, for measuring) everything runs here.
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
    children = [(_fork(lambda share=share: _run(work, share)), share) for share in shares[1:]]
    _run(work, shares[0])
    for child, share in children:
        if _collect(*child) is _FAILED:
            _run(work, share)


def alongside(here: Callable[[], Here], there: Callable[[], There], size: int) -> tuple[Here, There]:
    """(here(), there()): there() in a forked process while this one runs here(), for work on `size` items of
    MIN_ITEMS or more; one after the other otherwise, or if the child fails (there() is then run here).

    there() must not print, and its result must pickle (problems, plain data); the cache entries it makes
    come back with it.
    """
    if size < MIN_ITEMS or processes() == 1:
        return here(), there()
    child = _fork(there)
    mine = here()
    theirs = _collect(*child)
    return mine, (there() if theirs is _FAILED else theirs)


def _run(work: Callable[[object], object], items: Sequence) -> None:
    for item in items:
        try:
            work(item)
        except Exception:  # the command meets it again where it reports problems
            pass


def _fork(call: Callable[[], object]) -> tuple[int, int]:
    """A child running call(); its pid and the end of the pipe its result and new cache entries come through."""
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
        result = call()
        made = {key: value for key, value in cache.pending().items() if key not in before}
        with os.fdopen(writing, "wb") as pipe:
            pickle.dump((result, made), pipe, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        os._exit(status)  # no atexit: the parent writes the cache, and nothing of the parent's runs twice


def _collect(pid: int, reading: int) -> object:
    """What a child's call returned, its cache entries kept here; _FAILED if it failed."""
    with os.fdopen(reading, "rb") as pipe:
        data = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return _FAILED
    try:
        result, made = pickle.loads(data)  # our own child's bytes, made by the same code a moment ago
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
        return _FAILED
    cache.adopt(made)
    return result
