"""Figures for issue 23 (the rule page on a phone, in the dark, on paper), measured in Debian's Chromium.

    .venv/bin/python scripts/measure_phone.py site/            # an already built site
    .venv/bin/python scripts/measure_phone.py site/ --axe      # and axe-core on every page, light and dark
    .venv/bin/python scripts/measure_phone.py site/ --only ru/t9a/scout/ --only ru/concepts/loose-formation/

For every page of the site (both languages and the root), at 390×844 (touch, DPR 2) and 1280×800:
- the page's height (document scrollHeight once loaded) and, on the phone, how far it overflows sideways;
- the controls smaller than 24×24 CSS px (WCAG 2.2, 2.5.8) among CONTROLS, on the phone, of all visible ones;
- with --axe: axe-core's serious and critical violations at both sizes, in the light and the dark scheme;
and the Russian and English Scout pages printed to A4 with page.pdf (the number of pages).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
PHONE_WIDTH = 390
PHONE = {"viewport": {"width": PHONE_WIDTH, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# What a reader taps or clicks to operate the page (inline links in running text are exempt under 2.5.8; the
# section bar's and the clause numbers' links are counted: they are the page's controls).
CONTROLS = ("input:not([type=hidden]), select, textarea, button, summary, [role=button], label.md-header__button, "
            "label:has(> input[type=radio]), label:has(> input[type=checkbox]), a.kb-clause__anchor, .kb-sections a, "
            ".kb-ask [tabindex]")
SMALL = """selector => {
    const all = [...document.querySelectorAll(selector)].filter(element => {
        if (!element.checkVisibility({visibilityProperty: true, opacityProperty: true})) return false;
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
    });
    const small = all.filter(element => { const box = element.getBoundingClientRect();
        return box.width < 23.99 || box.height < 23.99; });
    return {all: all.length, small: small.map(element => { const box = element.getBoundingClientRect();
        return `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} ${Math.round(box.width)}×${Math.round(box.height)}`; })};
}"""


def pages(site: Path) -> list[str]:
    found = [""]
    for lang in sorted(p.name for p in site.iterdir() if (p / "index.html").is_file()):
        found += sorted(str(path.parent.relative_to(site)).removesuffix(".") + "/"
                        for path in (site / lang).rglob("index.html") if "api" not in path.parts)
    return [path.replace("./", "") for path in found]


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a page left before its file was sent
            super().handle_error(request, client_address)


def serve(site: Path) -> ThreadingHTTPServer:
    from generator.serve.server import QuietHandler

    server = Server(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", data))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--axe", action="store_true", help="run axe-core on every page, both sizes and schemes")
    parser.add_argument("--only", action="append", help="a page path (e.g. ru/t9a/scout/); repeatable")
    parser.add_argument("--list-small", action="store_true", help="name the controls under 24 px")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = serve(args.site)
    base = f"http://127.0.0.1:{server.server_port}/"
    paths = args.only or pages(args.site)
    rows = {path: {} for path in paths}
    axe_totals = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for size, options in (("phone", PHONE), ("desktop", DESKTOP)):
            for scheme in (("light", "dark") if args.axe else ("light",)):
                context = browser.new_context(color_scheme=scheme, **options)
                page = context.new_page()
                for path in paths:
                    page.goto(base + path)
                    page.wait_for_load_state("load")
                    row = rows[path]
                    if scheme == "light":
                        row[f"{size}_height"] = page.evaluate("document.documentElement.scrollHeight")
                        if size == "phone":
                            # Against the phone's width, not innerWidth: a phone widens its layout to fit what overflows.
                            row["overflow"] = page.evaluate("document.documentElement.scrollWidth") - PHONE_WIDTH
                            row["controls"] = page.evaluate(SMALL, CONTROLS)
                    if args.axe:
                        from axe_playwright_python.sync_playwright import Axe

                        found = [v for v in Axe().run(page).response["violations"]
                                 if v["impact"] in ("serious", "critical")]
                        row[f"axe_{size}_{scheme}"] = [f"{v['id']} ({len(v['nodes'])})" for v in found]
                        axe_totals[(size, scheme)] = axe_totals.get((size, scheme), 0) + sum(
                            len(v["nodes"]) for v in found)
                context.close()
        context = browser.new_context(**DESKTOP)
        page = context.new_page()
        printed = {}
        for path in ("ru/t9a/scout/", "en/t9a/scout/"):
            page.goto(base + path)
            page.wait_for_load_state("load")
            printed[path] = pdf_pages(page.pdf(format="A4"))
        context.close()
        browser.close()
    server.shutdown()

    small_total = sum(len(row["controls"]["small"]) for row in rows.values())
    all_total = sum(row["controls"]["all"] for row in rows.values())
    print(f"{'page':44} {'phone h':>8} {'desk h':>7} {'overflow':>8} {'<24px/controls':>15}"
          + ("  axe serious+critical (phone light/dark, desktop light/dark)" if args.axe else ""))
    for path, row in rows.items():
        line = (f"{path or '(root)':44} {row['phone_height']:8,d} {row['desktop_height']:7,d} {row['overflow']:8d} "
                f"{len(row['controls']['small']):6d}/{row['controls']['all']:<8d}")
        if args.axe:
            line += "  " + " | ".join(",".join(row[f"axe_{s}_{c}"]) or "-" for s in ("phone", "desktop")
                                      for c in ("light", "dark"))
        print(line)
        if args.list_small and row["controls"]["small"]:
            print("      " + "; ".join(sorted(set(row["controls"]["small"]))))
    print(f"\ncontrols under 24×24 px on the phone: {small_total} of {all_total} (on {len(rows)} pages)")
    print(f"pages overflowing sideways at 390 px: {sum(1 for row in rows.values() if row['overflow'] > 0)}")
    if args.axe:
        for (size, scheme), count in sorted(axe_totals.items()):
            print(f"axe serious/critical nodes, {size} {scheme}: {count}")
    for path, count in printed.items():
        print(f"{path} printed on A4: {count} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
