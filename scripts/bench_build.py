"""Measure the site build: time, time per page, peak memory, edit-to-visible under serve, stock MkDocs.

    .venv/bin/python scripts/bench_build.py                     # the real site, +100 and +1,000 rules
    nice .venv/bin/python scripts/bench_build.py --rules 100    # one synthetic size only
    nice .venv/bin/python scripts/bench_build.py --rules 0 --same-letter 1000 --no-stock --no-edits
                                                                # the real site beside 1,000 rules titled alike
    nice .venv/bin/python scripts/bench_build.py --skip-real --rules 100 --rules 1000 --no-edits  # build vs stock
    .venv/bin/python scripts/bench_build.py --rules 0 --search  # the real site, with search first queries

Sites: the real one (this repository's inputs), copies with N synthetic rules per language made
by scripts/bench_search.py's generator (complete catalogs, ~1,200 words per rule), and (--same-letter N)
copies with N copies of wap/dodge in one system, every title the same (scripts/bench_commands.py's dodge
copies): the case where a large system's navigation groups are crowded, as when many titles share a letter
or a prefix («Правило …»).

For each site:
- build: `python -m generator --root REPO site --out OUT` in a child process; wall time, the peak
  resident memory of the largest process of the build (getrusage of the children: the Python build
  or Pagefind's indexer, whichever is larger), the peak of the SUM of the resident memory of all the
  build's processes at once (sampled from /proc every 50 ms: the Python build stays resident while
  Pagefind runs, so this is what the machine must hold), measured in a fresh wrapper process per
  build, and the CPU seconds (user + system) of all its processes, steadier than wall time on a
  shared machine;
- per page: build time (and CPU time) divided by the pages of one language (every language has the same pages),
  and the CPU per page against the real site's ("×real", the bound of issue 36: 1.3);
- page bytes: a rule page of the largest system (raw), against the same rule at the real size (wap/dodge) for
  the same-letter sites; offline: the bytes a reader's "save for offline use" downloads per language (the
  totals of offline/<lang>.json, as the page states them before the download);
- edit-to-visible: `python -m generator serve` running; a rule's title is changed on disk and the
  served page is fetched until it shows the new title; median of three edits, with the CPU seconds
  the server spent meanwhile (all its threads, from /proc); `--only edit` measures nothing else;
- stock: the Markdown pages the generator hands to MkDocs, written out as .md files (without the
  markers of generator/render/rawhtml.py: the Markdown as it reads) with the same sections-only navigation, built by plain `mkdocs build` with Material (the project's theme
  settings and Markdown extensions, Material's own search plugin, no hooks), one run per language;
- search (with --search): scripts/bench_search.py's first query on the built site, per language.

The machine is shared: run it under `nice` and read the figures as noisy (±30 %).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

PEAK = """import os, resource, subprocess, sys, time

def resident(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
    except OSError:
        return 0

def tree(root):
    parents = {}
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as stat:
                parents.setdefault(int(stat.read().rsplit(")", 1)[1].split()[1]), []).append(int(name))
        except (OSError, ValueError, IndexError):
            pass
    found = [root]
    for pid in found:
        found.extend(parents.get(pid, []))
    return found

start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
total = 0
while child.poll() is None:
    total = max(total, sum(resident(pid) for pid in tree(child.pid)))
    time.sleep(SAMPLE_S)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_maxrss, child.returncode, usage.ru_utime + usage.ru_stime, total)
"""  # a fresh process per run, so RUSAGE_CHILDREN holds only that run's processes (maxrss: the largest)
SAMPLE_S = 0.05  # how often the summed memory of the build's processes is sampled
EDITS = 3
SERVE_TIMEOUT = 600  # seconds to wait for the first build under serve at 1,000 rules


def timed(command: list[str]) -> tuple[float, float, float, float]:
    """(wall seconds, peak MiB of the largest process, CPU seconds of all its processes, peak MiB of all
    its processes together) of one command."""
    peak = PEAK.replace("SAMPLE_S", repr(SAMPLE_S))
    result = subprocess.run([sys.executable, "-c", peak, *command], capture_output=True, text=True, check=True)
    seconds, kib, code, cpu, total_kib = result.stdout.split()
    if code != "0":
        raise RuntimeError(f"{command} failed with {code}")
    return float(seconds), int(kib) / 1024, float(cpu), int(total_kib) / 1024


def build(repo: Path, out: Path, page: str = "wap/dodge") -> dict:
    seconds, mib, cpu, total = timed([sys.executable, "-m", "generator", "--root", str(repo), "site", "--out", str(out)])
    pages = sum(1 for _ in (out / "en").rglob("index.html"))
    offline = {}
    for listed in sorted((out / "offline").glob("*.json")):
        files = json.loads(listed.read_text(encoding="utf-8"))["files"]
        offline[listed.stem] = sum(size for _address, size, _digest in files)
    return {"build_s": seconds, "peak_mib": mib, "peak_sum_mib": total, "pages": pages,
            "per_page_ms": seconds / pages * 1000 / 2, "cpu_s": cpu, "per_page_cpu_ms": cpu / pages * 1000 / 2,
            "page": page, "page_bytes": (out / "en" / page / "index.html").stat().st_size,
            "same_rule_real_bytes": (out / "en" / "wap/dodge/index.html").stat().st_size,
            "offline_mb": {lang: size / 1e6 for lang, size in offline.items()}}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _shows(url: str, text: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return text in response.read().decode("utf-8")
    except (OSError, http.client.HTTPException):  # a page caught while MkDocs rewrites it in place
        return False


def _cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) a process has used so far; NaN where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def edit_to_visible(repo: Path, rule: str) -> tuple[list[float], list[float]]:
    """Seconds from saving a new title of `rule` to the served page showing it, for EDITS edits, and the
    server's CPU seconds in each of those waits."""
    import yaml

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(repo), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/en/{rule}/"
    path = repo / "rules" / f"{rule}.yaml"
    original = path.read_text(encoding="utf-8")
    line = re.search(r"(?m)^title: .*$", original).group(0)
    title = yaml.safe_load(line)["title"]
    times, cpu = [], []
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while not _shows(url, "</html>") and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)  # let the first search index finish
        for number in range(EDITS):
            marker = f"Edited{number}x"
            edited = "title: " + json.dumps(f"{marker} {title}", ensure_ascii=False)  # JSON strings are YAML
            path.write_text(original.replace(line, edited, 1), encoding="utf-8")
            start, used = time.perf_counter(), _cpu(server.pid)
            while not _shows(url, marker):
                if time.perf_counter() - start > SERVE_TIMEOUT:
                    raise RuntimeError("the edit never reached the page")
                time.sleep(0.05)
            times.append(time.perf_counter() - start)
            cpu.append(_cpu(server.pid) - used)
            time.sleep(1.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
        path.write_text(original, encoding="utf-8")
    return times, cpu


def stock(repo: Path, work: Path) -> dict:
    """Plain MkDocs + Material on the generator's Markdown, sections-only navigation, per language."""
    import yaml

    from generator.render import rawhtml
    from generator.site.build import language_build, prepare

    prepared = prepare(repo)
    total, peak, cpu = 0.0, 0.0, 0.0
    for language in prepared.languages:
        lang = language["code"]
        built = language_build(prepared, lang)
        docs = work / f"stock-{lang}" / "docs"
        shutil.rmtree(docs.parent, ignore_errors=True)
        for page in built.pages:
            (docs / page.path).parent.mkdir(parents=True, exist_ok=True)
            (docs / page.path).write_text(rawhtml.unmarked(page.content), encoding="utf-8")  # the Markdown as it reads
        for path, content in built.assets.items():
            (docs / path).parent.mkdir(parents=True, exist_ok=True)
            (docs / path).write_text(content, encoding="utf-8")
        shutil.copytree(repo / "docs" / "assets", docs / "assets", dirs_exist_ok=True)
        raw = prepared.config
        theme = {key: value for key, value in raw["theme"].items() if key != "custom_dir"}
        config = {"site_name": "stock", "docs_dir": "docs", "site_dir": "site", "theme": dict(theme, language=lang),
                  "markdown_extensions": raw["markdown_extensions"], "nav": built.nav, "plugins": ["search"]}
        (docs.parent / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
        seconds, mib, used, _total = timed([sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                                            str(docs.parent / "mkdocs.yml")])
        total, peak, cpu = total + seconds, max(peak, mib), cpu + used
    return {"stock_s": total, "stock_peak_mib": peak, "stock_cpu_s": cpu}


def search(out: Path) -> dict:
    """First-query time and bytes per language (scripts/bench_search.py), typed once the page is idle."""
    import bench_search
    from playwright.sync_api import sync_playwright

    counter = bench_search.Counter()
    server = bench_search.serve(out, counter)
    address = f"http://127.0.0.1:{server.server_port}/"
    found = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=bench_search.CHROMIUM,
                                                 args=bench_search.CHROMIUM_ARGS)
            for lang in ("en", "ru"):
                cold = bench_search.first_query(browser, address, lang, counter)
                idle = bench_search.first_query(browser, address, lang, counter, idle=True)
                found[lang] = {"cold_ms": cold["first_s"] * 1000, "cold_kib": cold["bytes"] / 1024,
                               "idle_ms": idle["first_s"] * 1000, "idle_kib": idle["bytes"] / 1024,
                               "warm_up_kib": idle["warm_up_bytes"] / 1024}
            browser.close()
    finally:
        server.shutdown()
    return found


def current_inputs(synthetic: Path, into: Path) -> Path:
    """This tree's inputs with a copy of the rules and catalogs of a synthetic repository made before: that
    repository's own templates, scripts and hooks are as old as it is (copied, not linked: the edits write rules)."""
    from generator.site.inputs import copy_inputs

    shutil.rmtree(into, ignore_errors=True)
    copy_inputs(ROOT, into)
    for name in ("rules", "translations"):
        shutil.rmtree(into / name)
        shutil.copytree(synthetic / name, into / name)
    return into


def measure(label: str, repo: Path, work: Path, rule: str, with_search: bool, with_stock: bool = True,
            only_edit: bool = False, with_edits: bool = True, page: str = "wap/dodge") -> dict:
    if only_edit:
        edits, cpu = edit_to_visible(repo, rule)
        print(f"[{label}] edits {edits} server cpu {cpu}", file=sys.stderr, flush=True)
        return {"site": label, "edit_s": statistics.median(edits), "edits": edits,
                "edit_cpu_s": statistics.median(cpu), "edits_cpu": cpu}
    print(f"[{label}] building …", file=sys.stderr, flush=True)
    row = {"site": label, **build(repo, work / f"{label}-site", page)}
    print(f"[{label}] {row}", file=sys.stderr, flush=True)
    row.update(stock(repo, work) if with_stock else {"stock_s": float("nan"), "stock_peak_mib": float("nan"),
                                                     "stock_cpu_s": float("nan")})
    print(f"[{label}] stock {row['stock_s']:.1f} s", file=sys.stderr, flush=True)
    edits, cpu = edit_to_visible(repo, rule) if with_edits else ([float("nan")], [float("nan")])
    row.update({"edit_s": statistics.median(edits), "edits": edits, "edit_cpu_s": statistics.median(cpu),
                "edits_cpu": cpu})
    print(f"[{label}] edits {edits}", file=sys.stderr, flush=True)
    if with_search:
        row["search"] = search(work / f"{label}-site")
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rules", type=int, action="append", help="synthetic rules per language (repeatable)")
    parser.add_argument("--same-letter", type=int, action="append", default=[],
                        help="copies of wap/dodge in one system, titled alike (repeatable)")
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--search", action="store_true", help="also time the first search query")
    parser.add_argument("--no-stock", action="store_true", help="skip the stock MkDocs build (it does not change)")
    parser.add_argument("--no-edits", action="store_true", help="skip edit-to-visible under serve")
    parser.add_argument("--keep", help="work in this folder and keep it")
    parser.add_argument("--only", choices=["edit"], help="measure only edit-to-visible under serve")
    parser.add_argument("--synthetic", help="a synthetic repository made before (with --keep): its rules and "
                        "catalogs with this tree's other inputs, for --rules")
    args = parser.parse_args(argv)
    from bench_search import synthetic_repository

    try:
        from generator.site.inputs import copy_inputs
    except ImportError:  # the code before generator.inputs existed, for "before" figures
        from generator.site.build import copy_inputs

    sizes = args.rules if args.rules is not None else [100, 1000]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-build-"))
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        if not args.skip_real:
            shutil.rmtree(work / "real-repo", ignore_errors=True)
            rows.append(measure("real", copy_inputs(ROOT, work / "real-repo"), work, "wap/strider", args.search,
                                not args.no_stock, args.only == "edit", not args.no_edits))
        for size in (size for size in sizes if size):
            repo = (current_inputs(Path(args.synthetic), work / f"synthetic-{size}-repo") if args.synthetic
                    else synthetic_repository(work / f"synthetic-{size}-repo", size))
            rows.append(measure(f"+{size}", repo, work, "synth-en/rule-0001", args.search, not args.no_stock,
                                args.only == "edit", not args.no_edits))
        for size in args.same_letter:
            from bench_commands import dodge_copies

            repo = dodge_copies(work / f"same-letter-{size}-repo", size)
            subprocess.run([sys.executable, "-m", "generator", "--root", str(repo), "i18n", "update"], check=True,
                           stdout=subprocess.DEVNULL, cwd=ROOT)  # the copies' catalogs complete, as in review 4
            rows.append(measure(f"same{size}", repo, work, "synth/dodge-0007", args.search, not args.no_stock,
                                args.only == "edit", not args.no_edits, page=f"synth/dodge-{size // 2:04d}"))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(rows, indent=1))
    if args.only == "edit":
        print(f"\n{'site':8} {'edit→visible':>13} {'server CPU':>11}")
        for row in rows:
            print(f"{row['site']:8} {row['edit_s']:>12.2f}s {row['edit_cpu_s']:>10.2f}s")
        return
    print(f"\n{'site':8} {'pages/lang':>10} {'build':>8} {'per page':>9} {'CPU':>8} {'per page':>9} {'peak':>9} {'all procs':>9} "
          f"{'stock':>8} {'CPU':>8} {'ratio':>6} {'CPU ratio':>9} {'edit→visible':>13}")
    for row in rows:
        print(f"{row['site']:8} {row['pages']:>10} {row['build_s']:>7.1f}s {row['per_page_ms']:>7.0f}ms "
              f"{row['cpu_s']:>7.1f}s {row['per_page_cpu_ms']:>7.0f}ms {row['peak_mib']:>6.0f}MiB {row['peak_sum_mib']:>6.0f}MiB "
              f"{row['stock_s']:>7.1f}s {row['stock_cpu_s']:>7.1f}s {row['build_s'] / row['stock_s']:>6.2f} "
              f"{row['cpu_s'] / row['stock_cpu_s']:>9.2f} {row['edit_s']:>12.2f}s")
    real = next((row for row in rows if row["site"] == "real"), None)
    print(f"\n{'site':8} {'CPU/page ×real':>15} {'rule page':>22} {'bytes ×same rule, real size':>28} "
          f"{'offline save MB per language':>30}")
    for row in rows:
        scale = row["per_page_cpu_ms"] / real["per_page_cpu_ms"] if real else float("nan")
        offline = ", ".join(f"{lang} {size:.1f}" for lang, size in row["offline_mb"].items())
        print(f"{row['site']:8} {scale:>15.2f} {row['page']:>22} {row['page_bytes'] / row['same_rule_real_bytes']:>28.2f} "
              f"{offline:>30}")


if __name__ == "__main__":
    main()
