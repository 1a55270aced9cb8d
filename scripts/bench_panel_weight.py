"""What the "Ask this rule" panel adds to a page: bytes raw and gzipped, per rule page.

    .venv/bin/python scripts/bench_panel_weight.py          # builds the site into a temporary folder
    .venv/bin/python scripts/bench_panel_weight.py site/    # measures an already built site

For every rule page of every language it adds up what the panel brings:
- in the page itself: the forms (with their data in data- attributes), the page language's words,
  and the inline compiled predicates (the <script> blocks that define window.KB_PREDICATES);
- fetched by the page: docs/assets/ask.js, ask.css and the predicates' runtime, when the page
  links them (shared by every page; counted once per page view, as a first visit pays them).
A page without predicates links none of them and carries no panel: its added cost is 0, checked here.
Gzip is level 9 of each part on its own (what a server sending gzip would transfer, roughly).
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FORM = re.compile(r'<form class="kb-ask".*?</form>', re.S)
WORDS = re.compile(r'<div id="kb-ask-words"[^>]*></div>')
INLINE = re.compile(r"<script>(?:(?!</script>).)*KB_PREDICATES.*?</script>", re.S)
LINKED = re.compile(r'<(?:script src|link rel="stylesheet" href)="([^"]*(?:/ask|kb-runtime)[^"]*\.(?:js|css))"')


def size(text: str) -> tuple[int, int]:
    data = text.encode("utf-8")
    return (len(data), len(gzip.compress(data, 9))) if data else (0, 0)


def measure(site: Path) -> list[tuple]:
    rows = []
    for page in sorted(site.glob("*/*/*/index.html")):
        html = page.read_text(encoding="utf-8")
        inline = "".join(FORM.findall(html) + WORDS.findall(html) + INLINE.findall(html))
        linked = [(page.parent / src).resolve() for src in LINKED.findall(html)]
        fetched = "".join(path.read_text(encoding="utf-8") for path in linked)
        rows.append((str(page.parent.relative_to(site)), html.count('<form class="kb-ask"'), size(inline),
                     size(fetched), size(html)))
    return rows


def main() -> int:
    if len(sys.argv) > 1:
        site = Path(sys.argv[1])
    else:
        from generator.site.build import build_site

        site = build_site(ROOT, Path(tempfile.mkdtemp()) / "site", quiet=True)
    rows = measure(site)
    print(f"{'page':42} {'panels':>6} {'in page raw/gz':>16} {'fetched raw/gz':>16} {'whole page raw/gz':>18}")
    for path, panels, inline, fetched, whole in rows:
        print(f"{path:42} {panels:6d} {inline[0]:8,d}/{inline[1]:7,d} {fetched[0]:8,d}/{fetched[1]:7,d} "
              f"{whole[0]:9,d}/{whole[1]:8,d}")
    empty = [row for row in rows if row[1] == 0]
    if any(row[2] != (0, 0) or row[3] != (0, 0) for row in empty):
        print("a page without predicates carries panel bytes", file=sys.stderr)
        return 1
    with_panels = [row for row in rows if row[1]]
    if with_panels:
        inline = sorted(row[2][0] for row in with_panels)
        inline_gz = sorted(row[2][1] for row in with_panels)
        print(f"\n{len(with_panels)} rule pages with panels, {len(empty)} without (they pay 0 bytes)")
        print(f"in page: median {inline[len(inline) // 2]:,} B raw, {inline_gz[len(inline_gz) // 2]:,} B gzip; "
              f"largest {inline[-1]:,} B raw, {inline_gz[-1]:,} B gzip")
        print(f"fetched once (ask.js, ask.css, runtime): {with_panels[0][3][0]:,} B raw, {with_panels[0][3][1]:,} B gzip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
