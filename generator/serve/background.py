"""`make serve`'s background threads: the search index made again, and the pages that follow an edit."""

from __future__ import annotations

import logging
import os
import shutil
import sys
import threading
import time
from pathlib import Path

from ..site.offline import Digests, write_offline_files
from ..site.publish import synchronise
from ..site.search import BUNDLE, index_search, stop_indexing

log = logging.getLogger(__name__)


INDEX_QUIET_SECONDS = 1.0  # no new edit for this long before the search index is made again
STOP_SECONDS = 10.0  # how long a stopping server waits for a Pagefind run it ended to be gone
STOP_POLL_SECONDS = 0.05  # between two tries to end the run under way
INDEXER_NICENESS = 19  # Pagefind (seconds of CPU on a large site) yields the cores to the next edit


def _lower_this_threads_priority() -> None:
    """Lower the scheduling priority of the calling thread alone (Linux: nice is per thread)."""
    if sys.platform != "linux":  # elsewhere setpriority would lower the whole server
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), INDEXER_NICENESS)
    except OSError:
        pass


class Indexer:
    """Rebuilds the search index of the served site in a background thread, one run at a time."""

    def __init__(self, site: Path, digests: Digests | None = None):
        self.site = site
        self.digests = digests  # the served files' kept digests (generator/site/offline.py)
        self.wanted = threading.Event()
        self.stopped = threading.Event()
        self.idle = threading.Event()
        self.idle.set()
        self.written = 0  # index files written or removed by the last run
        self.thread = threading.Thread(target=self._run, daemon=True, name="search-index")
        self.thread.start()

    def request(self) -> None:
        self.idle.clear()
        self.wanted.set()

    @property
    def fresh(self) -> Path:
        """Where an index is made, beside the site: Pagefind never deletes old chunks."""
        return self.site.with_name(self.site.name + ".search")

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """End a run under way and wait for the thread to leave it; nothing is left beside the site."""
        self.stopped.set()
        self.wanted.set()
        deadline = time.monotonic() + timeout
        while self.thread.is_alive() and time.monotonic() < deadline:
            stop_indexing()  # again while the thread lives: it may have been about to start a run
            self.thread.join(STOP_POLL_SECONDS)
        shutil.rmtree(self.fresh, ignore_errors=True)

    def _run(self) -> None:
        _lower_this_threads_priority()  # Pagefind, started from this thread, inherits it
        while not self.stopped.is_set():
            self.wanted.wait()
            self.wanted.clear()
            while self.wanted.wait(INDEX_QUIET_SECONDS) and not self.stopped.is_set():  # a burst of saves: one index
                self.wanted.clear()
            if self.stopped.is_set():
                break
            try:
                shutil.rmtree(self.fresh, ignore_errors=True)
                index_search(self.site, self.fresh)
                if self.stopped.is_set():
                    break
                self.written = synchronise(self.fresh, self.site / BUNDLE)  # only the files that changed
                write_offline_files(self.site, self.digests)  # the lists for offline use name the index's files
            except Exception as error:  # the pages are served anyway; only search lags behind
                if not self.stopped.is_set():
                    log.warning("search index not rebuilt: %s", error)
            if not self.wanted.is_set():
                self.idle.set()
        shutil.rmtree(self.fresh, ignore_errors=True)
        self.idle.set()


class Follower:
    """Brings the pages an edit may have changed beyond the edited rules' own up to date, in a background
    thread; a newer edit cancels it (its unfinished pages stay stale and go with the newer edit's)."""

    def __init__(self, site):  # a generator.serve.live.LiveSite
        self.site = site
        self.generation = 0  # raised by every edit: a run of an older generation writes nothing more
        self.wanted: int | None = None
        self.changed = threading.Condition()
        self.idle = threading.Event()
        self.idle.set()
        threading.Thread(target=self._run, daemon=True, name="live-follower").start()

    def cancel(self) -> None:
        with self.changed:
            self.generation += 1
            self.wanted = None

    def start(self) -> None:
        with self.changed:
            self.generation += 1
            self.wanted = self.generation
            self.idle.clear()
            self.changed.notify()

    def _run(self) -> None:
        while True:
            with self.changed:
                while self.wanted is None:
                    self.idle.set()
                    self.changed.wait()
                run, self.wanted = self.wanted, None
            try:
                self.site.follow(lambda: self.generation != run)
            except Exception as error:  # the edited pages are served; the others wait for the next edit
                log.warning("pages not brought up to date: %s", error)
