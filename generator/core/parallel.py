"""Share a command's work with the machine's other cores, for a knowledge base of a thousand rules.

Three shapes, one mechanism (a forked child that sends back its result and the disk-cache entries it made):
`fill_cache` parses the files a first run has never read (an empty cache, as on CI) on every core, and the
command then reads them as cache hits; `fill_beside` has another core fill the cache while this one does
something else; `alongside` runs two independent parts of a command at once and gives back both results.
The command's own flow, output and problems stay those of a run on one core.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import sys
import threading
from typing import Callable, Sequence, TypeVar

from . import cache

MIN_ITEMS = 200  # below this, forking and copying the results back cost more than the work they share (~20 ms)
SAMPLE = 20  # items whose entries are looked for first: if most are there, the cache is warm and nothing is shared
MAX_PROCESSES = 8  # cores beyond this add little: the parent still reads every result
MAX_RUNS = 4096  # fill_cache hands items out in at most this many runs: 16 KB of starts, within a pipe's buffer
_RECORD = struct.Struct("=i")  # one run's start in fill_cache's queue

Here = TypeVar("Here")
There = TypeVar("There")
_FAILED = object()  # what a child that failed gives back
_in_child = False  # this process is a child of ours: its work is its own share, never shared out again
_helping = 0  # children working beside this process (fill_beside, alongside): the cores they take


def processes() -> int:
    """How many processes may share work now: the cores this process may use, less those helping it already."""
    return max(1, cores() - _helping)


def cores() -> int:
    """The cores this process may share work with: 1 where forking is unsafe or there is a single core.

    A process with threads (the live server, a test runner) never forks: a lock held by another thread
    would stay locked in the child, and a child of ours shares nothing out again. Forking is left to
    Linux, where it is the documented default; without the disk cache (KB_NO_CACHE=1, for measuring)
    everything runs here.
    """
    if (_in_child or not sys.platform.startswith("linux") or threading.active_count() > 1
            or cache.cache_folder() is None):
        return 1
    return min(len(os.sched_getaffinity(0)), MAX_PROCESSES)


def fill_cache(work: Callable[[object], object], items: Sequence) -> None:
    """Call work(item) for every item, shared out over the cores, when the cache lacks their entries and there
    are enough of them to pay for it; otherwise do nothing and leave the work to the command.

    Each process takes the next few items whenever it is free, so the cores finish together however
    unequal the items are (list heavy items first: the last ones taken are then light).

    `work` must be a pure function of its item whose result goes through the disk cache, looked up first
    (cache.misses tells from a sample whether the entries are there); an item already cached costs a
    lookup. What `work` returns or raises is ignored (the command calls it again and gets the entry, or meets
    the problem itself). If a process fails, the items it took are done here.
    """
    fill_beside(lambda: None, work, items)


def fill_beside(here: Callable[[], Here], work: Callable[[object], object], items: Sequence) -> Here:
    """here(), while the other cores fill the cache with work(item) for the items (as fill_cache, whose rules
    `work` follows), then a hand with the items still left; just here() when sharing would not pay. The
    command then meets the items' entries.

    Meanwhile those cores are taken: here() may share out its own work only over the others.
    """
    count = _sharing(work, items)
    if count == 1:
        return here()
    step = -(-len(items) // MAX_RUNS)
    queue = _queue(range(0, len(items), step))
    try:
        children = [_fork(lambda: _take(work, items, step, queue)) for _ in range(count - 1)]
        with _cores_taken(len(children)):
            mine = here()
        _take(work, items, step, queue)
    finally:
        os.close(queue)
    if [child for child in children if _collect(*child) is _FAILED]:
        _run(work, items)  # the items done here are cache hits now: this redoes what the failed process took
    return mine


@contextlib.contextmanager
def _cores_taken(count: int):
    """Within the block, `count` children of this process work beside it: processes() leaves their cores out."""
    global _helping
    _helping += count
    try:
        yield
    finally:
        _helping -= count


def _sharing(work: Callable[[object], object], items: Sequence) -> int:
    """How many processes should share `items`: 1 if there are too few of them, one core, or a cache with
    most of their entries (a sample is looked up)."""
    count = processes() if len(items) >= MIN_ITEMS else 1
    if count == 1:
        return 1
    sample = items[::max(1, len(items) // SAMPLE)]
    if sum(cache.misses(work, item) for item in sample) * 2 < len(sample):
        return 1  # a cache mostly warm: what is missing is done as the command meets it
    return count


def _queue(starts: range) -> int:
    """The reading end of a pipe holding `starts`, 4 bytes each, for _take.

    The kernel gives a pipe read of up to PIPE_BUF bytes to one reader whole, so two processes never
    take the same start; every start is written before any process reads (MAX_RUNS of them fit in a
    pipe's buffer) and the writing end is closed, so an empty pipe reads as its end.
    """
    reading, writing = os.pipe()
    try:
        os.write(writing, b"".join(_RECORD.pack(start) for start in starts))
    finally:
        os.close(writing)
    return reading


def _take(work: Callable[[object], object], items: Sequence, step: int, queue: int) -> None:
    """Do the `step` items from each start taken from the queue, until it is empty."""
    while len(record := os.read(queue, _RECORD.size)) == _RECORD.size:
        start = _RECORD.unpack(record)[0]
        _run(work, items[start:start + step])


def alongside(here: Callable[[], Here], there: Callable[[], There], size: int) -> tuple[Here, There]:
    """(here(), there()): there() in a forked process while this one runs here(), for work on `size` items of
    MIN_ITEMS or more; one after the other otherwise, or if the child fails (there() is then run here).

    there() must not print, and its result must pickle (problems, plain data); the cache entries it makes
    come back with it.
    """
    if size < MIN_ITEMS or processes() == 1:
        return here(), there()
    child = _fork(there)
    with _cores_taken(1):
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
    global _in_child
    reading, writing = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        os.close(writing)
        return pid, reading
    os.close(reading)
    _in_child = True
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
