"""Measure the Pagefind search: index size per language, indexing time, first-query time and bytes.

    .venv/bin/python scripts/bench_search.py            # the real site and a synthetic one
    .venv/bin/python scripts/bench_search.py --rules 200 --skip-real
    .venv/bin/python scripts/bench_search.py --site A/site --site B/site --runs 9   # built sites, in turns

Two sites are measured:

(a) the real site, built from this repository with generator.site.build_site;
(b) a synthetic site: a temporary copy of the repository's inputs plus N synthetic rules (default
    1,000), half in an English-source system and half in a Russian-source one, each with a
    complete gettext catalog into the other language, so every language has N synthetic rule
    pages (plus the real ones) in full. The rules are synthetic *YAML and catalogs*, built by the
    real generator and MkDocs, so the pages have exactly the real structure. Their text is drawn
    from the real rules' own words (same word frequencies, per language) plus ten invented names
    per rule, so the vocabulary keeps growing with the number of rules as real rules' does. Each
    synthetic rule has 14 clauses and 4 clarifications (about 1,200 words in all, like the real
    rule pages' median) and no predicates.

For each site: the Pagefind index is re-run on the built site (median of three runs, wall time of
`python -m pagefind`), the files of each language are added up (pf_meta, index chunks, fragments
and the language's wasm), and Chromium (Playwright, /usr/bin/chromium, fresh profile so nothing
is cached) opens the language's home page, waits until its network is idle (the reader reads),
clicks the search box (opening the search: search.js loads Pagefind then, not with the page) and
gets the query in one of three ways (MODES): pasted at once, typed key by key from the click, or
pasted once Pagefind has loaded and practised. "first query" is the time from the query's last
input event to the first frame in which every listed result is shown, by the page's own clock
(see NOTE_INPUT); "bytes" counts response bodies served by the local HTTP server from the click to
the results (Pagefind's interface, engine and metadata, the practice search's chunks, the query's
chunks and fragments), measured on the server side so requests made by workers (Pagefind's, the
site's service worker) are counted too. "page load" is what of Pagefind the page fetched before the
click (nothing since issue 23).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]
QUERIES = {"en": "scout", "ru": "разведчика"}
TYPING_MS = 120  # between keys when the query is typed: about 8 keys a second
OFF_SITE = re.compile(r"^(?!http://127\.0\.0\.1:)")  # every URL but the local server's
WORD = re.compile(r"[^\W\d_]+(?:[-’'][^\W\d_]+)*")


# ------------------------------------------------------------------------------ synthetic site
def _words_by_language(kb) -> dict[str, list[str]]:
    """Every word of the real rules, per language, as a stream (so sampling keeps their frequency)."""
    from generator.core.problems import Problems
    from generator.i18n.translate import Translations
    from generator.kb.texts import reference_texts

    words = {"en": [], "ru": []}
    for rule in kb.rules.values():
        for _path, text in reference_texts(rule):
            words.setdefault(rule.lang, []).extend(WORD.findall(re.sub(r"\[\[[^\]|]*\|?|\]\]", " ", text)))
    for lang in ("en", "ru"):
        tr = Translations.load(ROOT, lang, Problems())
        for message in tr.entries.values():
            if message.string and isinstance(message.string, str):
                words[lang].extend(WORD.findall(message.string))
    return words


_SYLLABLES = {"en": ["ka", "ro", "th", "el", "mar", "vin", "dor", "lu", "ash", "ben", "qu", "ix", "or", "sen"],
              "ru": ["ка", "ро", "ли", "мар", "вин", "дор", "лу", "ош", "бен", "зе", "ты", "гор", "ан", "ст"]}


class Writer:
    """Sentences in one language, from the real words plus some invented names."""

    def __init__(self, words: list[str], lang: str, rng: random.Random):
        self.words, self.lang, self.rng = words, lang, rng

    def name(self) -> str:
        syllables = _SYLLABLES[self.lang]
        return "".join(self.rng.choice(syllables) for _ in range(self.rng.randint(2, 4))).capitalize()

    def sentence(self, count: int, names: list[str]) -> str:
        chosen = [self.rng.choice(self.words).lower() for _ in range(count)]
        for index in range(0, count, 9):  # an invented name now and then
            chosen[self.rng.randrange(len(chosen))] = self.rng.choice(names)
        if self.rng.random() < 0.5:
            chosen.insert(self.rng.randrange(len(chosen)), f"{self.rng.choice([1, 2, 3, 6, 12, 18, 24])}″")
        text = " ".join(chosen)
        return text[0].upper() + text[1:] + "."

    def text(self, words: int, names: list[str]) -> str:
        parts, left = [], words
        while left > 0:
            size = min(left, self.rng.randint(8, 18))
            parts.append(self.sentence(size, names))
            left -= size
        return " ".join(parts)


def _yaml_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def synthetic_repository(into: Path, rules: int, seed: int = 7) -> Path:
    """A copy of the repository's inputs with `rules` synthetic rules and complete catalogs."""
    from generator.i18n.po.reader import read_catalog
    from generator.i18n.po.writer import render_catalog
    from generator.i18n.update import plan_update, write_outputs
    from generator.kb.load import load
    from generator.kb.validate import validate
    from generator.site.inputs import copy_inputs

    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    copy_inputs(ROOT, into)
    real, problems = load(ROOT)
    assert not problems, problems.report()
    rng = random.Random(seed)
    words = _words_by_language(real)
    writers = {lang: Writer(words[lang], lang, rng) for lang in ("en", "ru")}
    other = {"en": "ru", "ru": "en"}
    systems = [("synth-en", "en", (rules + 1) // 2), ("synth-ru", "ru", rules // 2)]
    for system, lang, count in systems:
        folder = into / "rules" / system
        folder.mkdir(parents=True)
        (folder / "_system.yaml").write_text(
            f"id: {system}\nlang: {lang}\nname: {_yaml_text('Synthetic ' + lang)}\nbook: {_yaml_text('Book ' + lang)}\n",
            encoding="utf-8")
        writer = writers[lang]
        for number in range(1, count + 1):
            names = [writer.name() for _ in range(10)]
            clauses = "".join(f"  - id: c{index}\n    text: {_yaml_text(writer.text(60, names))}\n"
                              for index in range(1, 15))
            clarifications = "".join(
                f"  - id: q{index}\n    status: interpretation\n    clauses: [c{index}]\n"
                f"    question: {_yaml_text(writer.text(12, names)[:-1] + '?')}\n"
                f"    answer: {_yaml_text(writer.text(60, names))}\n" for index in range(1, 5))
            others = [(number - 1 + step) % count + 1 for step in rng.sample(range(1, count), min(2, count - 1))]
            see_also = ", ".join(f"{system}/rule-{other_number:04d}" for other_number in others)
            alias = writers[other[lang]].name()
            (folder / f"rule-{number:04d}.yaml").write_text(
                f"id: rule-{number:04d}\n"
                f"title: {_yaml_text(names[0] + ' ' + writer.sentence(2, names)[:-1].lower())}\n"
                f"aliases:\n  - name: {_yaml_text(alias)}\n    lang: {other[lang]}\n"
                f"source:\n  page: {rng.randint(1, 300)}\n"
                f"summary: {_yaml_text(writer.text(20, names))}\n"
                f"clauses:\n{clauses}predicates: []\nexamples: []\n"
                f"clarifications:\n{clarifications}see_also: [{see_also}]\n", encoding="utf-8")
    kb, problems = load(into)
    if not problems:
        problems.extend(validate(kb))
    assert not problems, problems.report()
    for lang in ("en", "ru"):
        outputs, _summary, found = plan_update(into, kb, lang)
        assert not found, found.report()
        write_outputs(outputs)
        writer = writers[lang]
        for path in sorted((into / "translations" / lang / "rules").glob("synth-*/*.po")):
            catalog = read_catalog(path, lang)
            names = [writer.name() for _ in range(10)]
            for message in catalog:
                if message.id and not message.string:
                    length = len(str(message.id).split())
                    message.string = writer.text(max(2, length), names)
            path.write_bytes(render_catalog(catalog))
    return into


# ------------------------------------------------------------------------------ measuring
class Counter:
    """What the server sent: (path, bytes), and the same with the second it finished, for a timeline."""

    def __init__(self):
        self.lock = threading.Lock()
        self.served: list[tuple[str, int]] = []
        self.timeline: list[tuple[float, str, int]] = []

    def add(self, path: str, size: int):
        with self.lock:
            self.served.append((path, size))
            self.timeline.append((time.perf_counter(), path, size))

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            served, self.served = self.served, []
        return served

    def take_timeline(self) -> list[tuple[float, str, int]]:
        with self.lock:
            timeline, self.timeline = self.timeline, []
        return timeline


SERVER = """import functools, sys, threading
from http.server import ThreadingHTTPServer
sys.path.insert(0, sys.argv[2])
from generator.serve.server import QuietHandler

lock = threading.Lock()  # one whole line per file, whichever thread sent it

class Handler(QuietHandler):
    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        with lock:
            sys.stdout.write(f"{len(data)} {self.path}\\n")
            sys.stdout.flush()

server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
print(server.server_port, flush=True)
server.serve_forever()
"""  # a process of its own: in this one it would wait for the interpreter lock while Playwright polls


class Server:
    """The built site served by its own process; what it sends is reported line by line to a Counter."""

    def __init__(self, folder: Path, counter: Counter):
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, str(folder), str(ROOT)],
                                        stdout=subprocess.PIPE, text=True)
        self.server_port = int(self.process.stdout.readline())
        self.counter = counter
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            size, path = line.rstrip("\n").split(" ", 1)
            self.counter.add(path, int(size))

    def shutdown(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    def server_close(self):
        pass


def serve(folder: Path, counter: Counter) -> Server:
    return Server(folder, counter)


def index_time(site: Path, runs: int = 3) -> float:
    from generator.site.search import pagefind_command

    times = []
    for _ in range(runs):
        shutil.rmtree(site / "pagefind")  # a fresh index each time, exactly as the build makes it
        start = time.perf_counter()
        result = subprocess.run(pagefind_command(site), capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise RuntimeError(result.stdout + result.stderr)
    return statistics.median(times)


def index_size(site: Path, lang: str) -> tuple[int, int]:
    bundle = site / "pagefind"
    files = (list(bundle.glob(f"pagefind.{lang}_*.pf_meta")) + list((bundle / "index").glob(f"{lang}_*"))
             + list((bundle / "fragment").glob(f"{lang}_*")) + list(bundle.glob(f"wasm.{lang}.pagefind")))
    return sum(f.stat().st_size for f in files), len(files)


def _descendants(root: int) -> list[int]:
    """`root` and every process below it (Linux /proc; [root] elsewhere)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not name.isdigit():
            continue
        try:
            parent = int(Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(name))
    found = [root]
    for pid in found:
        found.extend(children.get(pid, []))
    return found


def cpu_seconds() -> float:
    """CPU seconds run so far by every thread of this process and its descendants (Playwright's driver,
    Chromium's processes, the site's server); from the scheduler's nanosecond counts, NaN without /proc.

    Summed over the processes that do the work, this is what a query costs whatever else the machine
    is busy with, unlike its wall time."""
    if not os.path.isdir("/proc"):
        return float("nan")
    total = 0
    for pid in _descendants(os.getpid()):
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                total += int(Path(f"/proc/{pid}/task/{thread}/schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    return total / 1e9


WARM_UP_TIMEOUT_S = 15  # Pagefind loads when the reader opens the search; practice follows on the next idle moment
PRACTICE_DONE_S = 0.3  # after the practice's fragment is served: it is read and the practice is over


def _warmed_up(page, lang: str, counter: Counter) -> list[tuple[str, int]]:
    """Wait as a reader who opened the search and paused before typing: until search.js has warmed Pagefind up
    (every part's metadata of the language served) and its practice search has opened its best result (a
    fragment served), then PRACTICE_DONE_S more; what it fetched meanwhile.

    The page's network idle is no sign: Playwright's "networkidle" is the page's first idle moment, long
    past by then, so the query would run beside the practice search."""
    parts = int(page.get_attribute("[data-kb-search]", "data-kb-parts") or 1)
    fetched, deadline = [], time.monotonic() + WARM_UP_TIMEOUT_S
    while time.monotonic() < deadline:
        fetched += [(path, size) for path, size in counter.take() if "/pagefind/" in path]
        metadata = sum(1 for path, _ in fetched if f"/pagefind.{lang}_" in path)
        if metadata >= parts and any("/fragment/" in path for path, _ in fetched):
            break
        page.wait_for_timeout(50)
    time.sleep(PRACTICE_DONE_S)
    return fetched + [(path, size) for path, size in counter.take() if "/pagefind/" in path]


# The page notes when the search box last had input and when the query's results were first all shown
# (checked every frame, before it is painted): its own clock, so Playwright's checks before it types
# and its polling after do not count (15-50 ms and 5-20 ms on a busy machine, which no reader waits for).
# Noted on the document: the box is the page's own field until Pagefind's takes its place, maybe mid-query.
NOTE_INPUT = """() => {
    window.kbInputAt = window.kbShownAt = null;
    if (window.kbNoting) return;
    window.kbNoting = true;
    document.addEventListener('input', event => {
        if (event.target.closest && event.target.closest('.kb-search')) window.kbInputAt = performance.now();
    }, true);
}"""
# The count line quotes the query (“scout”, «разведчика»): with the closing quote, the line of a longer
# query shown before ("scout" for "scou") does not pass for this one's.
RESULTS_SHOWN = """(query) => {
    const message = document.querySelector('.pagefind-ui__message');
    const items = document.querySelectorAll('.pagefind-ui__results > li');
    const quoted = [query + '\u201d', query + '\u00bb'];
    const shown = message && quoted.some(text => message.textContent.includes(text))
        && items.length > 0 && [...items].every(li => li.querySelector('.pagefind-ui__result-title a'));
    if (shown && window.kbShownAt === null) window.kbShownAt = performance.now();
    return shown;
}"""


def _results_shown(page, query: str) -> float:
    """Wait until every listed result of `query` is shown; seconds from the box's last input to then, by
    the page's clock."""
    page.wait_for_function(RESULTS_SHOWN, arg=query, timeout=60_000)
    return page.evaluate("() => (window.kbShownAt - window.kbInputAt) / 1000")


MODES = {
    "open-paste": "the query pasted as the reader opens the search (one input event): Pagefind loads meanwhile",
    "open-typed": f"the query typed key by key, {TYPING_MS} ms apart, from the moment the reader opens the search",
    "warm": "the query pasted once the search, opened, has loaded Pagefind and practised (the reader paused)",
}


def first_query(browser, address: str, lang: str, counter: Counter, mode: str = "open-typed") -> dict:
    """The language's first query on its home page, after the reader has read it (network idle) and opens the
    search with a click on the box, which is when search.js loads Pagefind; `mode` (MODES) says when the query
    comes. Time from the query's last input event to its results; bytes from the click (the practice search's
    chunks count in the warm query's bytes: the reader downloads them to get the first results sooner)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    external = []

    def refuse(route):
        external.append(route.request.url)
        route.abort()

    # Only requests off the local server are intercepted: an intercepted request waits for this
    # process to let it through (a round trip to Playwright's driver and back, 5–40 ms on a busy
    # machine), which no reader's browser does.
    context.route(OFF_SITE, refuse)
    counter.take()
    page.goto(address + f"{lang}/", wait_until="load")
    page.wait_for_load_state("networkidle")
    page_load = [(p, s) for p, s in counter.take() if "/pagefind/" in p]
    page.evaluate(NOTE_INPUT)
    counter.take_timeline()
    query = QUERIES[lang]
    start, cpu = time.perf_counter(), cpu_seconds()
    page.locator(".kb-search input").click()  # opening the search: Pagefind starts loading
    warm_up = []
    if mode == "warm":
        warm_up = _warmed_up(page, lang, counter)
        start, cpu = time.perf_counter(), cpu_seconds()
    if mode == "open-typed":
        page.keyboard.type(query, delay=TYPING_MS)  # to the focused field, whichever it is by then
    else:
        page.keyboard.insert_text(query)
    first = _results_shown(page, query)
    outside, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    time.sleep(0.2)  # the server reports what it sent a moment after sending it
    served = counter.take()
    timeline = [(round((at - start) * 1000), path, size) for at, path, size in counter.take_timeline()]
    results = page.locator(".pagefind-ui__results > li").count()
    # A second query on the same page, for comparison (index chunks partly loaded already).
    page.evaluate(NOTE_INPUT)
    page.locator(".kb-search input").fill(query[:4])
    second = _results_shown(page, query[:4])
    context.close()
    assert not external, external
    practice = _practice_bytes(warm_up)
    return {"first_s": first, "first_outside_s": outside, "first_cpu_s": cpu, "second_s": second,
            "bytes": sum(s for _, s in served) + sum(s for _, s in warm_up),
            "requests": len(served),
            "results": results, "page_load_bytes": sum(s for _, s in page_load),
            "warm_up_bytes": sum(s for _, s in warm_up), "practice_bytes": practice, "timeline": timeline}


def _practice_bytes(warm_up: list[tuple[str, int]]) -> int:
    """What search.js's practice search fetched before the reader typed (index chunks and fragments)."""
    return sum(size for path, size in warm_up if "/index/" in path or "/fragment/" in path)


def measure(label: str, repo: Path, out: Path, browser) -> list[dict]:
    from generator.site.build import build_site

    start = time.perf_counter()
    build_site(repo, out, quiet=True)
    build = time.perf_counter() - start
    pages = {lang: sum(1 for _ in (out / lang).rglob("index.html")) for lang in ("en", "ru")}
    indexing = index_time(out)
    counter = Counter()
    server = serve(out, counter)
    address = f"http://127.0.0.1:{server.server_port}/"
    rows = []
    try:
        for lang in ("en", "ru"):
            size, files = index_size(out, lang)
            queries = {mode: first_query(browser, address, lang, counter, mode) for mode in MODES}
            # The weight of one rule page, which must not grow with the number of rules (the nav lists sections only).
            page_bytes = (out / lang / "t9a" / "scout" / "index.html").stat().st_size
            rows.append({"site": label, "lang": lang, "pages": pages[lang], "build_s": build, "index_s": indexing,
                         "page_bytes": page_bytes, "index_bytes": size, "index_files": files,
                         "page_load_bytes": queries["open-paste"]["page_load_bytes"], "queries": queries})
    finally:
        server.shutdown()
        server.server_close()
    return rows


def _kb(size: int) -> str:
    return f"{size / 1024:,.0f} KiB"


def print_table(rows: list[dict]):
    header = ["site", "lang", "pages", "scout page", "site build", "pagefind run", "index (files)", "page load",
              "query"]
    for mode in MODES:
        header += [f"{mode}: 1st query", "bytes (requests)"]
    header += ["2nd query", "results"]
    lines = [header]
    for row in rows:
        line = [row["site"], row["lang"], str(row["pages"]), _kb(row["page_bytes"]), f"{row['build_s']:.1f} s",
                f"{row['index_s']:.2f} s", f"{_kb(row['index_bytes'])} ({row['index_files']})",
                _kb(row["page_load_bytes"]), QUERIES[row["lang"]]]
        for mode in MODES:
            query = row["queries"][mode]
            line += [f"{query['first_s'] * 1000:.0f} ms", f"{_kb(query['bytes'])} ({query['requests']})"]
        line += [f"{row['queries']['warm']['second_s'] * 1000:.0f} ms", str(row["queries"]["warm"]["results"])]
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)))
        if index == 0:
            print("  ".join("-" * width for width in widths))
    print("\nscout page: size of <lang>/t9a/scout/index.html (the same rule on both sites);"
          "\npagefind run: wall time of `python -m pagefind` over the whole built site (all languages), median of 3;"
          "\nindex: that language's pf_meta, index chunks, fragments and wasm; page load: what of Pagefind the home"
          "\npage fetched before the reader opened the search (nothing: it loads when the reader moves toward it);")
    for mode, meaning in MODES.items():
        print(f"{mode}: {meaning};")
    print("bytes: response bodies served from the click that opened the search to the results (Pagefind's"
          "\ninterface, engine and metadata, the practice search's chunks, the query's chunks and fragments);"
          "\nquery times from the box's last input event to the frame showing the results, by the page's clock.")


def compare(sites: list[Path], runs: int, browser, mode: str) -> list[dict]:
    """The first query in `mode` on built sites, `runs` times per site and language, the sites taking turns
    (so a busy spell of the machine falls on each alike); the median of each measure."""
    counter = Counter()
    servers = [serve(site, counter) for site in sites]
    found: dict[tuple[int, str], list[dict]] = {}
    try:
        for _ in range(runs):
            for lang in ("en", "ru"):
                for number, server in enumerate(servers):
                    query = first_query(browser, f"http://127.0.0.1:{server.server_port}/", lang, counter, mode)
                    found.setdefault((number, lang), []).append(query)
    finally:
        for server in servers:
            server.shutdown()
    rows = []
    for (number, lang), queries in found.items():
        middle = {key: statistics.median(query[key] for query in queries)
                  for key in ("first_s", "first_outside_s", "first_cpu_s", "bytes", "requests", "warm_up_bytes",
                              "practice_bytes")}
        rows.append({"site": str(sites[number]), "lang": lang, "mode": mode,
                     "runs": [query["first_s"] for query in queries], **middle})
    return rows


def print_comparison(rows: list[dict]):
    for row in sorted(rows, key=lambda row: (row["lang"], row["site"])):
        runs = " ".join(f"{seconds * 1000:.0f}" for seconds in row["runs"])
        print(f"{row['lang']}  {row['site']}: {row['mode']} first query {row['first_s'] * 1000:.0f} ms "
              f"({row['first_outside_s'] * 1000:.0f} ms as Playwright sees it), "
              f"CPU {row['first_cpu_s'] * 1000:.0f} ms, {_kb(row['bytes'])} of which {_kb(row['practice_bytes'])} "
              f"practice ({row['requests']:.0f} requests after the key), "
              f"warm-up {_kb(row['warm_up_bytes'])}; medians of {len(row['runs'])} runs [{runs}]")
    print("\nFirst query: from the box's last input event to the frame that shows every listed result, by the page's"
          "\nclock; as Playwright sees it: from the click that opened the search (warm: from the end of the warm-up)"
          "\nto its noticing the results. CPU: every thread of Playwright's driver, Chromium and the site's server.")
    for mode, meaning in MODES.items():
        print(f"{mode}: {meaning}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rules", type=int, default=1000, help="synthetic rules (split across two systems)")
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--keep", help="build into this folder and keep it")
    parser.add_argument("--site", action="append", type=Path, default=[],
                        help="only measure this built site's first query (repeat to compare sites, in turns)")
    parser.add_argument("--mode", choices=sorted(MODES), default="open-typed", help="with --site: when the query comes")
    parser.add_argument("--runs", type=int, default=7, help="with --site: runs per site and language (median)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    if args.site:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            rows = compare(args.site, args.runs, browser, args.mode)
            browser.close()
        print_comparison(rows)
        return

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-search-"))
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if not args.skip_real:
                rows += measure("real", ROOT, work / "real-site", browser)
            if args.rules:
                start = time.perf_counter()
                repo = synthetic_repository(work / "synthetic-repo", args.rules)
                print(f"synthetic inputs ({args.rules} rules, catalogs) written in {time.perf_counter() - start:.1f} s",
                      file=sys.stderr)
                rows += measure(f"synthetic +{args.rules}", repo, work / "synthetic-site", browser)
            browser.close()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print_table(rows)


if __name__ == "__main__":
    main()
