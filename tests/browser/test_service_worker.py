"""The service worker keeps only what it means to (security review, round four, I1): an address is vetted in the
form it is kept under, so dot segments, written plainly or percent-encoded, cannot slip the worker's own file or its
lists of files into the cache."""

from __future__ import annotations

from .test_offline import cached, wait_until_kept

# What a page sends the worker after its first visit (docs/assets/offline.js), here with addresses of our choosing.
OPENED = """async (paths) => {
    const registration = await navigator.serviceWorker.ready;
    const scope = registration.scope;
    const channel = new MessageChannel();
    const reply = new Promise((resolve) => { channel.port1.onmessage = (event) => resolve(event.data); });
    registration.active.postMessage({type: "opened", addresses: paths.map((path) => scope + path)}, [channel.port2]);
    return await reply;
}"""

SLIPPED = ["en/../offline/en.json", "en/%2e%2e/sw.js", "en/%2E%2E/offline/ru.json", "en/./../sw.js?x=1#y",
           "ru/%2e%2e/%2e%2e/sw.js"]


def test_addresses_that_resolve_to_the_workers_own_files_are_not_kept(page, no_store_site):
    page.goto(no_store_site.address + "en/t9a/scout/")
    before = wait_until_kept(page, "en/t9a/scout/")
    assert page.evaluate(OPENED, SLIPPED + ["en/wap/dodge/../daemonic/"]) == {"state": "kept"}
    [held] = cached(page).values()
    assert not [path for path in held if path.startswith("offline/") or path == "sw.js"], held
    # A normal page named with dot segments is still kept, under the address it resolves to.
    assert "en/wap/daemonic/" in held and set(next(iter(before.values()))) <= set(held)
