"""Filling the disk cache on both cores: a helper process takes shares of the items from a queue this process takes from too.

For the first run after a clone (CI's), when every file must be parsed: the entries made make every
later run fast, so a warm cache (the first PROBE items all known) makes no helper. A helper writes the
entries it made as packs of the disk cache (generator/diskcache.py) and only plain data crosses back:
where those packs are and, for map_in_parallel, its answers. A helper nobody joined ends with the command.
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import os
import signal
import threading
from typing import Callable, Sequence, TypeVar

from . import diskcache
from .cachepacks import MARSHAL_VERSION

PARALLEL_MINIMUM = 100  # fewer items than this are not worth a second process
PROBE = 16  # items worked here first: if the cache knew them all, it is warm and no second process is made
QUEUE_SHARES = 256  # the items are handed out in at most this many shares (1 KiB of numbers: any pipe holds it)
SHARE_BYTES = 4  # one share's number in the queue

T = TypeVar("T")


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


def fill_in_background(items: Sequence[T], work: Callable[[T], object],
                       answers: dict[int, object] | None = None) -> "Helper | None":
    """Start a child calling work(item) for the items while this process goes on; None if not worth one.

    The caller must join() the helper before it looks for the entries (or stop() it): join() works
    through the items the child has not taken yet here, then takes the child's entries. So work that
    needs nothing this process is still making (reading the catalogs while the rules load) keeps the
    second core busy through the parts of a command that run on one. With fewer than PARALLEL_MINIMUM
    items no child is made. With `answers`, the answers of the items probed here go into it and the
    helper keeps every answer (see map_in_parallel).
    """
    if diskcache.cache_folder() is None or len(items) < max(PARALLEL_MINIMUM, PROBE + 1) \
            or (os.cpu_count() or 1) < 2 or not hasattr(os, "fork") \
            or threading.active_count() > 1:  # forking beside threads is unsafe
        return None
    made_before = diskcache.made_count()
    _each(items, range(PROBE), work, answers)
    if diskcache.made_count() == made_before:  # the cache knew every item probed: it is warm, and a child costs more
        return None
    return Helper(items, PROBE, work, answers is not None)


@contextlib.contextmanager
def filled_meanwhile(items: Sequence[T], work: Callable[[T], object]):
    """Within the block, a helper fills the cache for the items (fill_in_background); joined when the block
    ends, ended without a word if the block fails."""
    helper = fill_in_background(items, work)
    try:
        yield
    except BaseException:
        if helper is not None:
            helper.stop()
        raise
    if helper is not None:
        helper.join()


class Helper:
    """A forked child taking shares of the items from a queue (a pipe) that this process takes from too.

    Whoever is free takes the next share, so neither process waits while the other still has a long
    list; only plain data crosses back: the packs the child wrote its entries to (and its answers).
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
            before = diskcache.made_keys()
            self._work_through()
            written, made = diskcache.packed_since(before)
            try:
                sent = marshal.dumps((written, made, self.answers or {}), MARSHAL_VERSION)
            except ValueError:  # an answer marshal cannot hold: the parent works the answers out itself
                sent = marshal.dumps((written, made, {}), MARSHAL_VERSION)
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
        self._work_through()
        self._close("queue")
        with open(self.results, "rb", closefd=False) as incoming:
            sent = incoming.read()
        self._close("results")
        os.waitpid(self.pid, 0)
        _HELPERS.remove(self)  # only now: a command interrupted before this still ends the child at exit
        answers = self.answers or {}
        try:
            written, made, sent_answers = marshal.loads(sent)
        except (EOFError, ValueError, TypeError):
            return answers  # the child failed: the caller works the rest out itself
        diskcache.take_packs(written)
        diskcache.take_made(made)
        return {**answers, **sent_answers} if self.answers is not None else answers

    def stop(self):
        """End the child without taking its entries (the command ended before it needed them)."""
        _HELPERS.remove(self)
        self._close("queue")
        self._close("results")
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:  # already gone
            pass

    def _close(self, name: str):
        """Close one of the pipes once (join may be interrupted after closing some, and stop() follow at exit)."""
        handle = getattr(self, name)
        if handle is not None:
            setattr(self, name, None)
            os.close(handle)


_HELPERS: list[Helper] = []  # children started and not yet joined or stopped


def _stop_helpers():
    for helper in list(_HELPERS):
        helper.stop()


def _each(items: Sequence, indexes: range, work: Callable, answers: dict[int, object] | None):
    """work() on the items at these indexes, keeping the answers if asked."""
    for index in indexes:
        try:
            answer = work(items[index])
        except Exception:  # a broken file: the caller meets it again and reports it properly
            continue
        if answers is not None:
            answers[index] = answer


# Registered after diskcache's flush (imported above), so it runs first: a child nobody joined has nothing to give.
atexit.register(_stop_helpers)
