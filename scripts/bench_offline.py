"""Measure offline use: what saving a language weighs, how long its lists take to write, and how long a save takes.

    .venv/bin/python scripts/bench_offline.py                    # the real site and a synthetic one of 1,000 rules
    .venv/bin/python scripts/bench_offline.py --rules 200 --skip-real
    .venv/bin/python scripts/bench_offline.py --site A/site        # a built site only
    .venv/bin/python scripts/bench_offline.py --save               # also save each language in Chromium

For each language of each site: the files of its list (generator/site/offline.py; what "save for offline use"
downloads and keeps on the device) and their total size, the same gzip-compressed (level 6: what a host that
compresses sends; Pagefind's files are compressed already and count as they are), the size of the list itself
(offline/<lang>.json, which the service worker fetches to save and to update), and the wall time of
write_offline_files over the whole site (hashing every listed file), median of three. The synthetic site is
bench_search.py's: N synthetic rules (default 1,000) with complete catalogs, built by the real generator.

With --save, Chromium (Playwright, /usr/bin/chromium) opens each language's home page on a local server (no
throttling), presses the header's save button and waits until the page says it is saved: the seconds that took
and the bytes the server sent meanwhile.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

COMPRESSED = (".png", ".gz", ".pagefind", ".pf_meta", ".pf_index", ".pf_fragment", ".pf_filter")


def _local(site: Path, address: str) -> Path:
    path = site / address
    return path / "index.html" if address.endswith("/") or address in ("", "./") else path


def sizes(site: Path) -> list[dict]:
    """Per language: files, bytes, gzip bytes of its list, the list's own size raw and gzip."""
    from generator.site.offline import LISTS, site_languages

    rows = []
    for lang in site_languages(site):
        list_file = site / LISTS / f"{lang}.json"
        listed = json.loads(list_file.read_text(encoding="utf-8"))
        compressed = 0
        for address, size, _digest in listed["files"]:
            local = _local(site, "" if address == "./" else address)
            compressed += size if local.suffix in COMPRESSED else len(gzip.compress(local.read_bytes(), 6))
        data = list_file.read_bytes()
        rows.append({"lang": lang, "files": len(listed["files"]), "bytes": sum(file[1] for file in listed["files"]),
                     "gzip": compressed, "list": len(data), "list_gzip": len(gzip.compress(data, 6))})
    return rows


def lists_time(site: Path, runs: int = 3) -> float:
    from generator.site.offline import write_offline_files

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        write_offline_files(site)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def save_in_browser(site: Path, lang: str, browser) -> tuple[float, int]:
    """Seconds from pressing "save" to the page saying it is saved, and the bytes served meanwhile."""
    from bench_search import Counter, serve

    counter = Counter()
    server = serve(site, counter)
    try:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/{lang}/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        page.wait_for_load_state("networkidle")
        page.locator(".kb-offline__toggle").click()
        page.wait_for_selector(".kb-offline__save:not([hidden])")
        time.sleep(0.3)
        counter.take()
        start = time.perf_counter()
        page.locator(".kb-offline__save").click()
        page.wait_for_selector(".kb-offline--saved", timeout=600_000)
        seconds = time.perf_counter() - start
        time.sleep(0.3)  # the server reports what it sent a moment after sending it
        sent = sum(size for _path, size in counter.take())
        context.close()
        return seconds, sent
    finally:
        server.shutdown()


def measure(label: str, site: Path, browser=None) -> list[dict]:
    seconds = lists_time(site)
    rows = []
    for row in sizes(site):
        row.update(site=label, lists_s=seconds)
        if browser is not None:
            row["save_s"], row["save_bytes"] = save_in_browser(site, row["lang"], browser)
        rows.append(row)
    return rows


def _mb(size: int) -> str:
    return f"{size / 1e6:,.2f} MB"


def print_table(rows: list[dict]):
    header = ["site", "lang", "files", "saved size", "gzip", "list (gzip)", "write lists"]
    if any("save_s" in row for row in rows):
        header += ["save in Chromium", "bytes sent"]
    lines = [header]
    for row in rows:
        line = [row["site"], row["lang"], f"{row['files']:,}", _mb(row["bytes"]), _mb(row["gzip"]),
                f"{row['list'] / 1024:,.0f} KiB ({row['list_gzip'] / 1024:,.0f} KiB)", f"{row['lists_s']:.2f} s"]
        if "save_s" in row:
            line += [f"{row['save_s']:.1f} s", _mb(row["save_bytes"])]
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)))
        if index == 0:
            print("  ".join("-" * width for width in widths))
    print("\nsaved size: the total of the language's list, what a saved language keeps on the device (MB = 10^6 bytes,"
          "\nas the page states it); gzip: the same compressed at level 6, what a compressing host sends;"
          "\nlist: offline/<lang>.json; write lists: write_offline_files over the whole site, median of 3;"
          "\nsave in Chromium: from the click on 'save' to the page saying it is saved, local server, no throttling.")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rules", type=int, default=1000, help="synthetic rules (split across two systems)")
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--site", action="append", type=Path, default=[], help="only measure this built site")
    parser.add_argument("--save", action="store_true", help="also save each language in Chromium")
    parser.add_argument("--keep", help="build into this folder and keep it")
    args = parser.parse_args(argv)

    from generator.site.build import build_site

    rows = []
    playwright = browser = None
    if args.save:
        from bench_search import CHROMIUM, CHROMIUM_ARGS
        from playwright.sync_api import sync_playwright
        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-offline-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        for site in args.site:
            rows += measure(str(site), site, browser)
        if not args.site:
            if not args.skip_real:
                build_site(ROOT, work / "real-site", quiet=True)
                rows += measure("real", work / "real-site", browser)
            if args.rules:
                from bench_search import synthetic_repository

                repo = synthetic_repository(work / "synthetic-repo", args.rules)
                build_site(repo, work / "synthetic-site", quiet=True)
                rows += measure(f"synthetic +{args.rules}", work / "synthetic-site", browser)
    finally:
        if browser is not None:
            browser.close()
            playwright.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print_table(rows)


if __name__ == "__main__":
    main()
