"""Edit → visible → settled under `make serve`, and the files an edit touches, on a large input.

    nice .venv/bin/python scripts/bench_serve_edit.py --same-letter 1000      # 1,000 copies of wap/dodge titled alike
    nice .venv/bin/python scripts/bench_serve_edit.py --root COPY             # a repository copy made before

The server (`python -m generator --root COPY serve`) builds the copy; once no file of its site has changed for
QUIET seconds (the first search index written), a clause of one rule is edited (a text edit: no title, no
navigation). Visible: the served rule page shows the new words (polled every POLL seconds). Settled: the last
change to any file of the site folder or beside it (site.search/), found by fingerprinting every file (inode,
modification time, size) until nothing changed for QUIET seconds. Touched: the files whose fingerprint changed,
added or removed, by kind. The server's CPU seconds to visible and to settled come from /proc. The machine may
be shared: read wall times beside the CPU figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

QUIET = 5.0  # seconds without a file change that count as settled
POLL = 0.05  # seconds between two looks at the page
START_TIMEOUT = 3600  # seconds to wait for the first build of a large site on a busy machine
RULE = "synth/dodge-0007"
OLD, NEW = "Dodge from different sources adds together.", "Dodge from different sources adds up, bench edit."


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def fingerprints(root: Path) -> dict[str, tuple[int, int, int]]:
    found = {}
    for folder in [root / "site", *root.glob("site.*")]:
        for path in folder.rglob("*"):
            try:
                status = path.stat()
            except OSError:
                continue
            if path.is_file():
                found[str(path.relative_to(root))] = (status.st_ino, status.st_mtime_ns, status.st_size)
    return found


def quiet(root: Path, since: dict) -> tuple[dict, float]:
    """Wait until no file changed for QUIET seconds; (the fingerprints then, the moment of the last change)."""
    last, current = time.perf_counter(), since
    while time.perf_counter() - last < QUIET:
        time.sleep(0.2)
        now = fingerprints(root)
        if now != current:
            current, last = now, time.perf_counter()
    return current, last


def shows(url: str, text: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return text in response.read().decode("utf-8")
    except OSError:
        return False


def kind(name: str) -> str:
    if "pagefind" in name or name.startswith("site.search"):
        return "search index"
    if name.endswith(".html"):
        return "pages"
    if "/api/" in name:
        return "export"
    if name.startswith("site/offline/") or name == "site/sw.js":
        return "offline lists"
    return "other"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--same-letter", type=int, default=1000)
    parser.add_argument("--root", help="a copy made before (kept; its site/ is rebuilt)")
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose generator serves")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    if args.root:
        root = Path(args.root)
    else:
        from bench_commands import dodge_copies

        root = dodge_copies(Path(tempfile.mkdtemp(prefix="bench-serve-")) / "repo", args.same_letter)
        subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "i18n", "update"], check=True,
                       stdout=subprocess.DEVNULL, cwd=args.code)
    shutil.rmtree(root / "site", ignore_errors=True)
    rule_file = root / "rules" / f"{RULE}.yaml"
    original = rule_file.read_text(encoding="utf-8")
    url = f"http://127.0.0.1:{args.port}/en/{RULE}/"
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(root), "serve", "--port",
                               str(args.port)], cwd=args.code, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        start = time.perf_counter()
        while not shows(url, "</html>"):
            if time.perf_counter() - start > START_TIMEOUT or server.poll() is not None:
                raise RuntimeError("the site was never served")
            time.sleep(1)
        before, _ = quiet(root, fingerprints(root))
        used = _cpu(server.pid)
        rule_file.write_text(original.replace(OLD, NEW, 1), encoding="utf-8")
        edited = time.perf_counter()
        while not shows(url, "bench edit"):
            time.sleep(POLL)
        visible, visible_cpu = time.perf_counter() - edited, _cpu(server.pid) - used
        after, last = quiet(root, before)
        settled_cpu = _cpu(server.pid) - used
    finally:
        server.send_signal(2)
        server.wait(timeout=120)
        rule_file.write_text(original, encoding="utf-8")
    touched = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    kinds: dict[str, int] = {}
    for name in touched:
        kinds[kind(name)] = kinds.get(kind(name), 0) + 1
    stray = [path.name for path in root.glob("site.*")]
    row = {"visible_s": visible, "visible_server_cpu_s": visible_cpu, "settled_s": max(last - edited, visible),
           "settled_after_visible_s": max(last - edited - visible, 0.0), "settled_server_cpu_s": settled_cpu,
           "files_touched": len(touched), "by_kind": kinds, "left_beside_the_site_after_stop": stray}
    print(json.dumps(row, indent=1))


if __name__ == "__main__":
    main()
