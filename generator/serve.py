"""`make serve`: build, serve site/ on 127.0.0.1, and rebuild whenever an input changes."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from pathlib import Path

from .inputs import snapshot
from .problems import InputError
from .site import build_site

POLL_SECONDS = 1.0  # how often the inputs are compared; a rebuild takes a few seconds anyway


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder without a log line per request."""

    def log_message(self, format, *args):  # noqa: A002 - the base class names it so
        pass


def rebuild(root: Path, out: Path) -> bool:
    """Build once; on failure report it and keep serving the last good site."""
    try:
        build_site(root, out, quiet=True)
    except InputError as error:
        print(error.problems.report(), file=sys.stderr, flush=True)
        print("the last good site is still served; fix the problems above and save again", file=sys.stderr)
        return False
    except Exception as error:  # keep serving whatever went wrong with this build
        print(f"build failed: {error}", file=sys.stderr, flush=True)
        return False
    print(time.strftime("%H:%M:%S"), "site rebuilt", flush=True)
    return True


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    root = Path(root).resolve()
    out = root / "site"
    rebuild(root, out)
    out.mkdir(exist_ok=True)
    handler = functools.partial(QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"serving http://{host}:{port}/ (English /en/, Russian /ru/); edits rebuild the site; Ctrl+C stops",
          flush=True)
    seen = snapshot(root)
    try:
        while True:
            time.sleep(POLL_SECONDS)
            now = snapshot(root)
            if now != seen:
                seen = now
                rebuild(root, out)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
