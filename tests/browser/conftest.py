"""Browser tests: the built site served on 127.0.0.1 and driven with Chromium through Playwright.

The sites are built once per run (tests/conftest.py: clean_build, planted_build and its index, from a copy of the
inputs whose site_url names the test server: see copy_for) and served by the process running pytest,
on a free port each, so every xdist worker opens the same build. Every page a test opens is guarded: a request to any
host other than 127.0.0.1 is blocked and fails the test (the site must work offline), and so does
any console error or uncaught exception. Screenshots go to test-artifacts/ (gitignored).

Chromium is the Debian package at /usr/bin/chromium (`make browser-deps` installs it); these tests
never download a browser, and they fail, not skip, when it is missing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

import pytest

from tests.conftest import SHUTDOWN_POLL, copy_for, served_at

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]
# Browser features no test needs, each of which costs CPU in every fresh context (one per test): Chromium 156 builds the
# WebUI omnibox popup (chrome://omnibox-popup.top-chrome/, a renderer of its own) for every new window, 0.8 s of CPU
# per context and a quarter of the browser suite's CPU; a spare renderer is started ahead of the next navigation.
UNUSED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup",
                   "SpareRendererForSitePerProcess")
DISABLE_FEATURES = "--disable-features="
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def served_site(work: Path, plant_into=None):
    """Build a site of its own for a free loopback port (after `plant_into(repo)`, if given) and serve it; yields
    its address and stops the server afterwards. For a test that needs another build than the run's two."""
    import functools
    import threading
    from http.server import ThreadingHTTPServer

    from generator.serve.server import QuietHandler
    from generator.site.build import build_site

    out = work / "site"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out)))
    address = f"http://127.0.0.1:{server.server_port}/"
    repo = copy_for(address, work / "repo")
    if plant_into is not None:
        plant_into(repo)
    build_site(repo, out, quiet=True)
    thread = threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL,), daemon=True)
    thread.start()
    try:
        yield address
    finally:
        server.shutdown()
        server.server_close()


class Served:
    """A built site served by a server of its own (see `serve_site`): its address and what it sent."""

    def __init__(self, address: str):
        self.address = address
        self.sent: list[tuple[str, int]] = []  # (path as asked, body bytes), in the order sent

    def paths(self) -> list[str]:
        return [urlparse(path).path for path, _size in list(self.sent)]


def serve_site(folder: Path, prefix: str = "/", no_store: bool = False):
    """Serve a built site at http://127.0.0.1:<free port><prefix> until the generator is closed; yields a Served.

    `prefix`: the folder the site is published in (a host that serves it below its root); every other path is not
    found. `no_store`: every response says `Cache-Control: no-store`, so the browser's HTTP cache keeps nothing and
    only the site's service worker can answer without the network."""
    import functools
    import sys
    import threading
    from http.server import ThreadingHTTPServer

    from generator.serve.server import QuietHandler

    served = None

    class Handler(QuietHandler):
        def translate_path(self, path):
            if not path.startswith(prefix):
                return str(folder / "\0not-published")  # no such file: 404
            return super().translate_path("/" + path[len(prefix):])

        def end_headers(self):
            if no_store:
                self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def copyfile(self, source, outputfile):
            data = source.read()
            outputfile.write(data)
            served.sent.append((self.path, len(data)))

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a page left before its file was sent
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    served = Served(f"http://127.0.0.1:{server.server_port}{prefix}")
    thread = threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL,), daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def no_store_site(site):
    """The repository's site, served at the root of a server of its own that lets the browser cache nothing."""
    yield from serve_site(site, no_store=True)


@pytest.fixture(scope="session")
def subfolder_site(site):
    """The repository's site, published in a subfolder of another host than the one it was built for (that lets the
    browser cache nothing)."""
    yield from serve_site(site, prefix="/published/kb/", no_store=True)


@pytest.fixture(scope="session")
def base_url(clean_build, pytestconfig):
    """http://127.0.0.1:<port>/ serving the repository's site, built for that address (tests/conftest.py)."""
    return served_at(pytestconfig, "clean")


@pytest.fixture(scope="session")
def hostile_url(planted_search, pytestconfig):
    """http://127.0.0.1:<port>/ serving the site with a payload in every translation (tests/conftest.py)."""
    return served_at(pytestconfig, "planted")


@pytest.fixture(scope="session")
def every_page(browser, base_url, clean_build):
    """The every-page sweeps' passes (tests/browser/sweep.py), each made once in this worker when first asked for."""
    from .sweep import EveryPage

    return EveryPage(browser, base_url, clean_build[1])


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run `make browser-deps` (the Debian package); "
                    "the browser tests never download a browser.", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed in the venv: run `make .venv/.installed`.", pytrace=False)
    playwright = sync_playwright().start()
    try:
        browser = _launch_without_unused_features(playwright)
    except Exception as error:  # noqa: BLE001 - report why Chromium would not start, then stop
        playwright.stop()
        pytest.fail(f"Chromium at {CHROMIUM} did not start: {error}", pytrace=False)
    yield browser
    browser.close()
    playwright.stop()


def _launch_without_unused_features(playwright):
    """Chromium with UNUSED_FEATURES added to the features Playwright disables.

    Chromium keeps only the last --disable-features it is given, so a list of ours alone would switch Playwright's
    own back on. Playwright does not publish its list: a first launch shows it on the browser's command line."""
    first = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        session = first.new_browser_cdp_session()
        pid = next(process["id"] for process in session.send("SystemInfo.getProcessInfo")["processInfo"]
                   if process["type"] == "browser")
        switches = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    finally:
        first.close()
    given = [switch for switch in switches if switch.startswith(DISABLE_FEATURES)]
    names = [name for switch in given for name in switch.removeprefix(DISABLE_FEATURES).split(",") if name]
    merged = DISABLE_FEATURES + ",".join(dict.fromkeys([*names, *UNUSED_FEATURES]))
    return playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, merged],
                                      ignore_default_args=given)


class Guard:
    """What a page did that it must not: requests off 127.0.0.1, console errors, uncaught exceptions."""

    def __init__(self):
        self.requests: list[str] = []  # every URL the page or the site's service worker asked for, in order
        # The URLs the page and its workers asked for, whoever answered: not the service worker's own fetches, which
        # keep, when it gets to it, what the page loaded before the worker controlled it (offline.js, keepThisPage).
        self.page_requests: list[str] = []
        self.external: list[str] = []
        self.errors: list[str] = []

    def request(self, request):
        self.page_requests.append(request.url)

    def route(self, route):
        url = route.request.url
        self.requests.append(url)
        parts = urlparse(url)
        if parts.scheme in ("http", "https") and parts.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.external.append(url)
            route.abort()

    def console(self, message):
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def page_error(self, error):
        self.errors.append(f"uncaught: {error}")

    def problems(self) -> list[str]:
        return [f"request off 127.0.0.1 (blocked): {url}" for url in self.external] + self.errors


def _new_page(browser, viewport, guard: Guard, **options):
    context = browser.new_context(viewport=viewport, **options)
    context.route("**/*", guard.route)
    page = context.new_page()
    page.on("request", guard.request)
    page.on("console", guard.console)
    page.on("pageerror", guard.page_error)
    page.set_default_timeout(10_000)
    return context, page


def _check(guard: Guard):
    problems = guard.problems()
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


def idle(page) -> None:
    """Wait until the page has nothing left to fetch and its main thread has had an idle moment: whatever its
    scripts leave for "when idle" has started by then. For a test that checks something did not happen."""
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise(done => requestIdleCallback(() => done()))")
    page.wait_for_load_state("networkidle")


def until(page, check: Callable[[], object], what: str, timeout_s: float = 10.0):
    """Ask `check()` once per frame the page draws until it gives something true, and return that; fail after
    `timeout_s` with `what` (a bound for a broken page, not a wait: a good page ends it sooner)."""
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_s} s")
        page.evaluate("() => new Promise(drawn => requestAnimationFrame(() => drawn()))")
    return found


@pytest.fixture
def guard():
    return Guard()


@pytest.fixture
def page(browser, guard):
    """A desktop-sized page, guarded; the test fails if it reached off 127.0.0.1 or logged an error."""
    context, page = _new_page(browser, DESKTOP, guard, permissions=["clipboard-read", "clipboard-write"])
    yield page
    context.close()
    _check(guard)


@pytest.fixture
def phone(browser, guard):
    """A phone-sized (390×844) touch page, guarded the same way."""
    context, page = _new_page(browser, PHONE, guard, is_mobile=True, has_touch=True, device_scale_factor=2)
    yield page
    context.close()
    _check(guard)


@pytest.fixture
def shot(request):
    """shot(page_or_locator, "name") saves test-artifacts/<test>-<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def save(target, name: str = ""):
        stem = request.node.name.replace("[", "-").replace("]", "").replace("/", "_")
        path = ARTIFACTS / (f"{stem}-{name}.png" if name else f"{stem}.png")
        target.screenshot(path=str(path))
        return path

    return save
