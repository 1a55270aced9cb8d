"""Draw the installed app's PNG icons from docs/assets/icons/icon.svg (a die on the site's brown), with Chromium.

    .venv/bin/python scripts/make_icons.py

The web manifest (generator/site/offline.py, ICONS) names the SVG, two PNGs and a "maskable" PNG: the same drawing
on a square background with no rounded corners, which the device crops to its own shape (the die stays inside the
central 80 % every shape keeps).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "docs" / "assets" / "icons"
CHROMIUM = "/usr/bin/chromium"
ROUNDED = 'rx="96" fill="#795548"'  # the background's corners in icon.svg


def main():
    from playwright.sync_api import sync_playwright

    drawing = (ICONS / "icon.svg").read_text(encoding="utf-8")
    assert ROUNDED in drawing, f"icon.svg no longer has {ROUNDED!r}: update make_icons.py"
    square = drawing.replace(ROUNDED, 'fill="#795548"')
    wanted = [("icon-192.png", drawing, 192), ("icon-512.png", drawing, 512), ("icon-maskable-512.png", square, 512)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, svg, size in wanted:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<body style="margin:0;background:transparent">{sized}</body>')
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(name, (ICONS / name).stat().st_size, "bytes")
        browser.close()


if __name__ == "__main__":
    main()
