"""`make serve`: build, serve site/ on 127.0.0.1, and update it whenever an input changes (generator.serve.live).

Decision: the file system tells when an input changed (inotify and the like, through watchdog,
which MkDocs' own `serve` uses too); the loop then looks again at the files the events named
(`inputs.refreshed`), or compares snapshots of every input when a folder was made, moved or removed,
and every WATCHED_POLL_SECONDS in case an event was missed. Without such events (a file system that
has none) it compares snapshots every POLL_SECONDS.
"""

from __future__ import annotations

import functools
import gc
import http.server
import signal
import sys
import threading
import time
from http import HTTPStatus
from pathlib import Path

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

from ..core.problems import InputError
from ..core.report_formats import plain
from ..site.inputs import INPUTS, changed, input_path, refreshed, snapshot
from .live import LiveSite

POLL_SECONDS = 0.3  # how often the inputs are compared without file events (a stat per input file)
WATCHED_POLL_SECONDS = 5.0  # how often they are compared anyway with file events, in case one was missed
SETTLE_SECONDS = 0.05  # after an event, how long to wait for the rest of a save (editors write in steps)


class Watcher:
    """Sets `woke` when a file under the inputs is written, created, moved or removed."""

    def __init__(self, root: Path):
        self.woke = threading.Event()
        self.paths: set[str] = set()  # files named by the events since the last wait
        self.whole = False  # an event about a folder: every input is compared again
        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event):
                paths = [str(path) for path in (event.src_path, getattr(event, "dest_path", "") or "") if path]
                if event.event_type not in ("opened", "closed_no_write") and any(
                        input_path(root, path) for path in paths):
                    with watcher.lock:
                        watcher.paths.update(paths)
                        # A folder made, moved or removed holds files no event names; "modified" only
                        # comes with the events of the files written in it.
                        watcher.whole |= event.is_directory and event.event_type != "modified"
                    watcher.woke.set()

        self.lock = threading.Lock()
        self.observer = Observer()
        handler = Handler()
        self.observer.schedule(handler, str(root), recursive=False)  # mkdocs.yml, and folders made or removed
        for name in INPUTS:
            if (root / name).is_dir():
                self.observer.schedule(handler, str(root / name), recursive=True)
        self.observer.daemon = True
        self.observer.start()

    def wait(self) -> set[str] | None:
        """Wait for an edit: the files its events named, or None when every input must be compared
        (a folder changed, or it is time to compare them anyway)."""
        if not self.woke.wait(WATCHED_POLL_SECONDS):
            return None
        time.sleep(SETTLE_SECONDS)
        with self.lock:
            self.woke.clear()
            paths, whole = self.paths, self.whole
            self.paths, self.whole = set(), False
        return None if whole else paths

    def stop(self) -> None:
        self.observer.stop()


def watcher(root: Path) -> Watcher | None:
    """A Watcher of the inputs under `root`, or None where the system gives no file events."""
    try:
        return Watcher(root)
    except (ImportError, OSError) as error:
        print(f"file events unavailable ({error}): the inputs are compared every {POLL_SECONDS} s", file=sys.stderr)
        return None


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder without a log line per request; a path no file can have is answered 400."""

    def log_message(self, format, *args):  # noqa: A002 - the base class names it so
        pass

    def send_head(self):
        try:
            return super().send_head()
        except ValueError:  # a NUL byte or a lone surrogate (%ED%A0%80) in the path: UnicodeError is a ValueError
            self.send_error(HTTPStatus.BAD_REQUEST, "Malformed path")
            return None


class SiteServer(http.server.ThreadingHTTPServer):
    """The live site's HTTP server: a request that fails is one line on the console, never a traceback."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):  # a reader who left before the page was sent
            return
        print(f"a request from {client_address[0]} failed: {type(error).__name__}: {plain(error)}", file=sys.stderr,
              flush=True)


def site_server(folder: Path, host: str, port: int) -> SiteServer:
    """A server of the files under `folder` at host:port (port 0: any free port); serve_forever() starts it."""
    return SiteServer((host, port), functools.partial(QuietHandler, directory=str(folder)))


def rebuild(site: LiveSite, edited: set[str] | None = None) -> bool:
    """Apply an edit (None: build everything); on failure report it and keep serving the last good site."""
    start = time.perf_counter()
    try:
        written = site.rebuild() if edited is None else site.update(edited)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr, flush=True)
        print("the last good site is still served; fix the problems above and save again", file=sys.stderr)
        return False
    except Exception as error:  # keep serving whatever went wrong with this build
        print(f"build failed: {error}", file=sys.stderr, flush=True)
        return False
    print(time.strftime("%H:%M:%S"), f"{written} page(s) written in {time.perf_counter() - start:.1f} s", flush=True)
    return True


def kept_out_of_full_collections() -> None:
    """Take what the server holds now, a whole build's state, out of the collector's full passes until the next
    whole build, which gives it back first.

    A full collection would walk that whole state, and one falling inside an edit would delay it; frozen
    objects are still freed by reference counting when an edit replaces them, and only cycles among them
    wait for the next whole build.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _interrupted(signal_number, frame) -> None:
    raise KeyboardInterrupt


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    root = Path(root).resolve()
    out = root / "site"
    # A stop by SIGTERM (a terminal closed, a process manager) cleans up as Ctrl+C does.
    signal.signal(signal.SIGTERM, _interrupted)
    site = LiveSite(root, out, report=lambda written, seconds: print(
        time.strftime("%H:%M:%S"), f"… and {written} page(s) that show it in {seconds:.1f} s", flush=True))
    watching, server = watcher(root), None
    try:
        seen = snapshot(root)
        rebuild(site)
        kept_out_of_full_collections()
        out.mkdir(exist_ok=True)
        server = site_server(out, host, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(f"serving http://{host}:{port}/ (English /en/, Russian /ru/); edits update the site; Ctrl+C stops",
              flush=True)
        while True:
            if watching is None:
                time.sleep(POLL_SECONDS)
                now = snapshot(root)
            else:
                named = watching.wait()
                now = snapshot(root) if named is None else refreshed(seen, root, named)
            if now != seen:
                edited, seen = changed(seen, now), now
                kept = site.build
                rebuild(site, edited if site.build is not None else None)
                if site.build is not kept:  # a whole new build
                    kept_out_of_full_collections()
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.shutdown()
        if watching is not None:
            watching.stop()
        site.close()
