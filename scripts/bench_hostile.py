"""Run the security review's worst inputs and print the wall time and peak memory of each.

    .venv/bin/python scripts/bench_hostile.py [--timeout SECONDS]

Each case runs in its own child process (so its peak memory is its own, read with os.wait4), under a
time limit and a 3 GB address-space limit so that an unbounded case cannot take the machine down:
- F4: the 7-line comparison snippet and the tuple-hashing snippet, called directly and through
  `generator check` on a copy of the repository holding a rule with that snippet;
- F5: the memory snippet, the same two ways; F6: `connected` in a comprehension;
- F4 under diagram probing: the comparison snippet probed as `diagrams.probe.Probe.boundaries` does;
- F8: the 432-byte YAML alias bomb, read by the project's YAML loader (generator.core.yamlfile);
- N10 (issue 26): a 24 MB stray catalog of 200,000 entries, through `check`, `i18n check` and `i18n update`;
- B (issue 39): the review's file: one rule holding a predicate that burns steps and 1,000 worked examples each
  just under the per-example step limit, through `check`; B2: one of our own, 1,000 examples whose steps are the
  dearest in wall time we found (sorting and comparing long lists of tuples), through `check`;
- N11 (issue 26): a 0.9 MB answer template and 0.3 MB plural forms of `%(num)s inch` (each catalog under the
  1 MiB file limit, so the length limit is what refuses them), through `site` (the largest page written is
  named in the outcome).
`--code PATH` runs the generator commands with another checkout's code (a `git archive` of it), for figures
before and after a change. A benchmark, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDRESS_SPACE = 3 * 1024 ** 3  # bytes a child may map before its allocations fail

F4_COMPARE = """\
a1 = range(10000)
a2 = range(10000)
b1 = [a1] * 10000
b2 = [a2] * 10000
c1 = [b1] * 10000
c2 = [b2] * 10000
return c1 == c2"""
F4_HASH = "t1 = (0,) * 10000\nt2 = (t1,) * 10000\nt3 = (t2,) * 10000\nreturn {t3: 1}"
F5_MEMORY = "a = [[range(10000) for j in range(10000)] for i in range(6)]\nreturn len(a)"
F6_HELPER = "a = [[connected(10000, []) for j in range(10000)] for i in range(5)]\nreturn 1"

F8_BOMB = """\
x:
  - &l0 ["lol"]
  - &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0]
  - &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]
  - &l3 [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]
  - &l4 [*l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3]
  - &l5 [*l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4]
  - &l6 [*l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5]
  - &l7 [*l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6, *l6]
"""

RULE = """\
id: probe
title: Probe
source: {{page: 1}}
summary: A probe rule.
clauses:
  - {{id: main, text: The main clause.}}
predicates:
  - name: probe
    clause: main
    summary: Probe.
    args:
      - {{name: x, type: any, text: an argument}}
    returns: {{type: any, text: anything}}
    code: |
{code}
examples:
  - {{id: ex-1, predicate: probe, clause: main, name: Example one., given: {{x: 1}}, expect: true}}
"""

DIRECT = """\
import sys
from generator.evaluate import Snippet, SnippetError
try:
    Snippet.compile(sys.argv[1], ["x"])(x=1)
    print("finished")
except SnippetError as error:
    print(f"{type(error).__name__}: {error}")
"""

PROBE = """\
import sys
from generator.render.diagrams.probe import Probe
from generator.evaluate import Snippet, SnippetError
snippet = Snippet.compile(sys.argv[1], ["gap"])
try:
    Probe().boundaries(("bench",), lambda gap, budget: snippet.run({"gap": gap}, budget), 0.0, 4.0, 0.05)
    print("finished")
except SnippetError as error:
    print(f"{type(error).__name__}: {error}")
"""

LOADER = """\
import sys
from generator.core.yamlfile import YamlError, read_yaml
from pathlib import Path
try:
    read_yaml(Path(sys.argv[1]))
    print("loaded")
except YamlError as error:
    print(f"refused: {error}")
"""


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def measure(arguments: list[str], timeout: float, cwd: Path = ROOT) -> tuple[float, float, str]:
    """(wall seconds, peak resident MB, last output line) of one child, killed after `timeout`."""
    start = time.perf_counter()
    child = subprocess.Popen(arguments, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             preexec_fn=_limit_memory, start_new_session=True)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            os.killpg(child.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    output = child.stdout.read().strip().splitlines()
    child.stdout.close()
    if os.WIFSIGNALED(status):
        last = f"killed by signal {os.WTERMSIG(status)} (time limit {timeout:.0f} s)"
    else:
        last = next((line for line in reversed(output) if line.strip()), "")
        last = next((line for line in output if line.startswith("FAIL")), last)
        for limit in ("MAX_FILE_STEPS", "MAX_RUN_STEPS"):  # the budget's own words, the run's first
            last = next((line for line in output if limit in line), last)
    # CPU time of the child and the processes it waited for (check shares the examples out over the cores).
    cpu = usage.ru_utime + usage.ru_stime
    return wall, usage.ru_maxrss / 1024, f"[cpu {cpu:.1f} s] {last}"


def repository_with(code: str, folder: Path) -> Path:
    """A copy of the repository's inputs with one extra rule holding `code`."""
    from generator.site.inputs import copy_inputs

    copy = copy_inputs(ROOT, folder)
    rule = RULE.format(code=textwrap.indent(code, " " * 6))
    (copy / "rules" / "wap" / "probe.yaml").write_text(rule, encoding="utf-8")
    return copy


def stray_catalog(folder: Path) -> Path:
    """N10: a copy of the inputs with translations/ru/rules/wap/zzbig.po, 200,000 entries (24 MB) for no rule."""
    from generator.site.inputs import copy_inputs

    copy = copy_inputs(ROOT, folder)
    header = (copy / "translations/ru/rules/wap/strider.po").read_text(encoding="utf-8").split("\n\n")[0]
    entries = "".join(f'msgctxt "wap/zzbig:clause:c{n}"\nmsgid "A planted source text number {n}, long enough to '
                      f'weigh."\nmsgstr "Подброшенный перевод номер {n}, достаточно длинный, чтобы весить."\n\n'
                      for n in range(200_000))
    (copy / "translations/ru/rules/wap/zzbig.po").write_text(f"{header}\n\n{entries}", encoding="utf-8")
    return copy


def long_translations(folder: Path) -> Path:
    """N11: a copy of the inputs whose answer template of wap/dodge is 0.9 MB and plural forms of `%(num)s inch`
    0.3 MB each, both catalogs under the 1 MiB file limit."""
    from generator.site.inputs import copy_inputs

    copy = copy_inputs(ROOT, folder)
    dodge = copy / "translations/ru/rules/wap/dodge.po"
    text = dodge.read_text(encoding="utf-8")
    dodge.write_text(text.replace('msgstr "Уклонение {value}+"', f'msgstr "Уклонение {{value}}+ {"x" * 900_000}"', 1),
                     encoding="utf-8")
    ui = copy / "translations/ru/ui.po"
    text = ui.read_text(encoding="utf-8")
    for form in ("дюйм", "дюйма", "дюймов"):
        text = text.replace(f'"%(num)s {form}"', f'"%(num)s {form} {"y" * 300_000}"', 1)
    ui.write_text(text, encoding="utf-8")
    return copy


SLOW_PREDICATE = """\
  - name: slow
    clause: cumulative
    summary: Burns steps.
    args: [{name: n, type: int, text: a number}]
    returns: {type: int, text: a number}
    code: |
%s
"""
# B: the review's predicate (security-review.md, finding B): about 22,000 steps per unit of n.
B_CODE = """\
t = 0  # clause: cumulative
for j in range(n):
    for i in range(9000):
        t = t + 1
return t  # clause: cumulative"""
# B2: steps that cost the most wall time each: sorting and comparing lists of tuples (every element is weighed).
B2_CODE = """\
pairs = [(i % 7, -i) for i in range(2000)]  # clause: cumulative
t = 0
for j in range(n):
    t = t + len(sorted(pairs)) + (1 if pairs == sorted(pairs) else 0)
return t  # clause: cumulative"""


def slow_examples(folder: Path, code: str, count: int, expect) -> Path:
    """A copy of the inputs whose wap/dodge holds the predicate `code` and `count` worked examples of it, n = 1..7."""
    from generator.site.inputs import copy_inputs

    copy = copy_inputs(ROOT, folder)
    path = copy / "rules/wap/dodge.yaml"
    examples = "".join(f"  - {{id: slow-{k}, predicate: slow, clause: cumulative, name: Slow {k}., "
                       f"given: {{n: {k % 7 + 1}}}, expect: {expect(k % 7 + 1)}}}\n" for k in range(count))
    path.write_text(path.read_text(encoding="utf-8").replace(
        "\nexamples:\n", "\n" + SLOW_PREDICATE % textwrap.indent(code, " " * 6) + "examples:\n" + examples, 1),
        encoding="utf-8")
    return copy


def many_slow_files(folder: Path, files: int, count: int) -> Path:
    """B3: a copy of the inputs with `files` more rules, each holding B's predicate and `count` examples near the
    step limit: every file keeps within its own budget, the run's budget is what stops them."""
    copy = slow_examples(folder, B_CODE, count, lambda n: n * 9000)
    text = (copy / "rules/wap/dodge.yaml").read_text(encoding="utf-8")
    for number in range(files):
        name = f"slow-{number}"
        (copy / f"rules/wap/{name}.yaml").write_text(
            text.replace("id: dodge\ntitle: Dodge\n", f"id: {name}\ntitle: Slow {number}\n", 1)
            .replace("name: Dodge (6+)", f"name: Slow {number}"), encoding="utf-8")
    return copy


def largest_page(site: Path) -> str:
    pages = [path for path in site.rglob("*.html")] if site.is_dir() else []
    if not pages:
        return "no page written"
    page = max(pages, key=lambda path: path.stat().st_size)
    return f"largest page {page.relative_to(site)}: {page.stat().st_size / 1e6:.1f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a case is killed")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose generator/ the commands run")
    parser.add_argument("--only", choices=["issue-26", "issue-39"],
                        help="only the cases of issue 26 (N10, N11) or of issue 39 (B, B2)")
    parser.add_argument("--examples", type=int, default=1000, help="worked examples in the files of B and B2")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    python = sys.executable
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        if args.only == "issue-39":
            for name, code, expect in (("B", B_CODE, lambda n: n * 9000), ("B2", B2_CODE, lambda n: n * 2000)):
                repo = slow_examples(scratch / name, code, args.examples, expect)
                size = (repo / "rules/wap/dodge.yaml").stat().st_size
                rows.append((f"{name} {args.examples} slow examples ({size / 1000:.0f} KB file): check",
                             *measure([python, "-m", "generator", "--root", str(repo), "check"], args.timeout,
                                      args.code)))
                shutil.rmtree(repo)
            repo = many_slow_files(scratch / "B3", 40, 3)
            rows.append(("B3 40 more rule files x 3 slow examples: check",
                         *measure([python, "-m", "generator", "--root", str(repo), "check"], args.timeout, args.code)))
            return _print(rows)
        repo = stray_catalog(scratch / "n10")
        for command in (["check"], ["i18n", "check"], ["i18n", "update"]):
            rows.append((f"N10 24 MB stray catalog: {' '.join(command)}",
                         *measure([python, "-m", "generator", "--root", str(repo), *command], args.timeout, args.code)))
        shutil.rmtree(repo)
        repo = long_translations(scratch / "n11")
        wall, peak, outcome = measure([python, "-m", "generator", "--root", str(repo), "site", "--out",
                                       str(scratch / "n11-site")], args.timeout, args.code)
        rows.append(("N11 0.9 MB answer + 3 x 0.3 MB plural forms: site", wall, peak,
                     f"{outcome[:90]} ({largest_page(scratch / 'n11-site')})"))
        shutil.rmtree(repo)
        if args.only:
            return _print(rows)
        rows.append(("baseline: generator check, real rules", *measure([python, "-m", "generator", "check"],
                                                                        args.timeout)))
        for name, code in (("F4 compare", F4_COMPARE), ("F4 hash", F4_HASH), ("F5 memory", F5_MEMORY),
                           ("F6 helper", F6_HELPER)):
            rows.append((f"{name}: snippet call", *measure([python, "-c", DIRECT, code], args.timeout)))
            repo = repository_with(code, scratch / name.replace(" ", "-"))
            rows.append((f"{name}: generator check", *measure([python, "-m", "generator", "--root", str(repo), "check"],
                                                              args.timeout)))
            shutil.rmtree(repo)
        rows.append(("F4 compare: diagram probe", *measure([python, "-c", PROBE, F4_COMPARE], args.timeout)))
        bomb = scratch / "bomb.yaml"
        bomb.write_text(F8_BOMB, encoding="utf-8")
        rows.append((f"F8 alias bomb ({bomb.stat().st_size} bytes): YAML loader",
                     *measure([python, "-c", LOADER, str(bomb)], args.timeout)))
    return _print(rows)


def _print(rows: list) -> int:
    width = max(len(row[0]) for row in rows)
    print(f"{'case':<{width}}  {'wall s':>7}  {'peak MB':>8}  outcome")
    for name, wall, peak, outcome in rows:
        print(f"{name:<{width}}  {wall:7.2f}  {peak:8.1f}  {outcome[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
