"""Measure a reader's first visit to a page: requests, bytes raw and gzip, and whether search or sitemaps were fetched.

    .venv/bin/python scripts/bench_first_visit.py --site before/site --site site
    .venv/bin/python scripts/bench_first_visit.py --site site --page en/t9a/scout/ --page ru/wap/daemonic/ --runs 3

Chromium (Playwright, /usr/bin/chromium) opens each page in a fresh context (nothing cached), waits for the load
event, for the network to be idle and then WAIT_S more (longer than the 2 s after which search.js used to load
Pagefind on an idle page), as perf-review.md §3 measured it. The site is served by a process of its own that
reports every response body it sends, so requests made by workers (Pagefind's, the site's service worker) count
too. Nothing is intercepted: interception would turn Chromium's HTTP cache off, from which the site's worker keeps
the first page's files. gzip: each text file compressed at level 6 (what a compressing host sends); Pagefind's own
files and images are compressed already and count as they are.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

PAGES = ("en/t9a/scout/", "ru/t9a/scout/")
WAIT_S = 2.5
COMPRESSED = (".png", ".ico", ".gz", ".pagefind", ".pf_meta", ".pf_index", ".pf_fragment", ".pf_filter", ".woff2")


def _gzipped(site: Path, path: str, size: int, cache: dict) -> int:
    local = site / unquote(urlparse(path).path).lstrip("/")
    if path.split("?")[0].endswith("/"):
        local = local / "index.html"
    if local.suffix in COMPRESSED or not local.is_file():
        return size
    if local not in cache:
        cache[local] = len(gzip.compress(local.read_bytes(), 6))
    return cache[local]


def visit(browser, site: Path, address: str, page_path: str, counter, cache: dict) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    off_site = []
    context.on("request", lambda request: urlparse(request.url).hostname == "127.0.0.1" or off_site.append(request.url))
    page = context.new_page()
    counter.take()
    page.goto(address + page_path, wait_until="load")
    page.wait_for_load_state("networkidle")
    time.sleep(WAIT_S)
    page.wait_for_load_state("networkidle")
    time.sleep(0.2)  # the server reports what it sent a moment after sending it
    sent = counter.take()
    context.close()
    assert not off_site, off_site
    search = [(path, size) for path, size in sent if "/pagefind/" in path]
    return {"requests": len(sent), "raw": sum(size for _path, size in sent),
            "gzip": sum(_gzipped(site, path, size, cache) for path, size in sent),
            "pagefind": sum(size for _path, size in search), "pagefind_files": len(search),
            "sitemaps": sum(size for path, size in sent if "sitemap" in path),
            "twice": len(sent) - len({path for path, _size in sent})}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--site", action="append", type=Path, required=True, help="a built site (repeat to compare)")
    parser.add_argument("--page", action="append", default=[], help=f"a page's path (default: {', '.join(PAGES)})")
    parser.add_argument("--runs", type=int, default=3, help="visits per site and page (median)")
    args = parser.parse_args(argv)
    from bench_search import CHROMIUM, CHROMIUM_ARGS, Counter, serve
    from playwright.sync_api import sync_playwright

    pages = args.page or list(PAGES)
    counter = Counter()
    servers = [serve(site, counter) for site in args.site]
    found: dict[tuple[int, str], list[dict]] = {}
    cache: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for page_path in pages:
                    for number, server in enumerate(servers):
                        row = visit(browser, args.site[number], f"http://127.0.0.1:{server.server_port}/", page_path,
                                    counter, cache)
                        found.setdefault((number, page_path), []).append(row)
            browser.close()
    finally:
        for server in servers:
            server.shutdown()
    header = ["site", "page", "requests", "raw", "gzip", "of which Pagefind (files)", "sitemaps", "fetched twice"]
    lines = [header]
    for (number, page_path), rows in sorted(found.items(), key=lambda item: (item[0][1], item[0][0])):
        middle = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        lines.append([str(args.site[number]), page_path, f"{middle['requests']:.0f}", f"{middle['raw'] / 1024:,.0f} KiB",
                      f"{middle['gzip'] / 1024:,.0f} KiB",
                      f"{middle['pagefind'] / 1024:,.0f} KiB ({middle['pagefind_files']:.0f})",
                      f"{middle['sitemaps'] / 1024:,.0f} KiB", f"{middle['twice']:.0f}"])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)))
        if index == 0:
            print("  ".join("-" * width for width in widths))
    print(f"\nmedians of {args.runs} visits per site and page; raw: response bodies as served; gzip: text files at"
          "\nlevel 6, compressed files as they are; KiB = 1,024 bytes.")


if __name__ == "__main__":
    main()
