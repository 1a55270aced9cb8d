"""`make serve`: build, serve site/ on 127.0.0.1, and update it whenever an input changes (generator.live)."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from pathlib import Path

from .inputs import changed, snapshot
from .live import LiveSite
from .problems import InputError

POLL_SECONDS = 0.3  # how often the inputs are compared: a part of every edit's wait, and ~10 ms of stat calls


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder without a log line per request."""

    def log_message(self, format, *args):  # noqa: A002 - the base class names it so
        pass


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


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    root = Path(root).resolve()
    out = root / "site"
    site = LiveSite(root, out)
    seen = snapshot(root)
    rebuild(site)
    out.mkdir(exist_ok=True)
    handler = functools.partial(QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"serving http://{host}:{port}/ (English /en/, Russian /ru/); edits update the site; Ctrl+C stops",
          flush=True)
    try:
        while True:
            time.sleep(POLL_SECONDS)
            now = snapshot(root)
            if now != seen:
                edited, seen = changed(seen, now), now
                rebuild(site, edited if site.build is not None else None)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
