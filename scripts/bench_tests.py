"""Time the test suite as `make test` runs it: wall time, CPU time, and where the CPU goes, per file or per test.

    .venv/bin/python scripts/bench_tests.py                    # the suite without the browser tests, 2 workers
    .venv/bin/python scripts/bench_tests.py --browser          # everything, as `make test` runs pytest
    .venv/bin/python scripts/bench_tests.py --by test --top 30 # the costliest tests
    .venv/bin/python scripts/bench_tests.py --repeat 3         # three runs, each figure's median

The suite runs in a fresh pytest process with the options of the Makefile (`-n 2 --dist loadfile`).
Each test's CPU is its process's user+sys time plus that of the child processes it waited for
(a `generator` subprocess, Pagefind), over its setup, call and teardown; Chromium's processes are
not counted there (they are not waited for test by test), so for the browser tests the table shows
the Python side and the wall time shows the rest. The whole run's CPU is that of every process the
run waited for. Compiled modules are kept in __pycache__/, as `make test` keeps them.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = "KB_BENCH_TESTS_RESULTS"  # the folder each pytest process writes its figures into


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# ---------------------------------------------------------------- the pytest plugin (loaded with -p bench_tests)

_SPENT: dict[str, list[float]] = {}  # node id -> [cpu, wall]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Setup, call and teardown of one test measured together."""
    cpu, wall = _cpu(), time.perf_counter()
    yield
    _SPENT[item.nodeid] = [_cpu() - cpu, time.perf_counter() - wall]


def pytest_sessionfinish(session):
    """Each process writes its tests' figures for the script to add up."""
    folder = os.environ.get(RESULTS)
    if folder and _SPENT:
        Path(folder, f"{os.getpid()}.json").write_text(json.dumps(_SPENT), encoding="utf-8")


# ---------------------------------------------------------------- the script


def run_once(browser: bool, workers: int, extra: list[str]) -> dict:
    """One run of the suite: wall, CPU, passed/failed line, and {node id: [cpu, wall]}."""
    with tempfile.TemporaryDirectory(prefix="bench-tests-") as folder:
        env = {**os.environ, RESULTS: folder, "PYTHONPATH": str(Path(__file__).parent)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as the Makefile runs the suite
        command = [sys.executable, "-m", "pytest", "-n", str(workers), "--dist", "loadfile", "-q",
                   "-p", "bench_tests", *([] if browser else ["--ignore=tests/browser"]), *extra]
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        finished = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = {}
        for path in Path(folder).glob("*.json"):
            spent.update(json.loads(path.read_text(encoding="utf-8")))
    summary = (finished.stdout.strip().splitlines() or ["(no output)"])[-1]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "summary": summary, "code": finished.returncode, "spent": spent}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--browser", action="store_true", help="include tests/browser/ (as make test does)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (make test: 2)")
    parser.add_argument("--by", choices=("file", "test"), default="file", help="group the table by file or by test")
    parser.add_argument("--top", type=int, default=15, help="rows of the table")
    parser.add_argument("--repeat", type=int, default=1, help="runs; each figure is the median over them")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args(argv)

    runs = []
    for number in range(args.repeat):
        runs.append(run_once(args.browser, args.workers, args.pytest_args))
        print(f"run {number + 1}: {runs[-1]['summary']}; wall {runs[-1]['wall']:.1f} s, CPU {runs[-1]['cpu']:.1f} s",
              flush=True)
    if any(run["code"] != 0 for run in runs):
        print("a run failed: the figures are of a failing suite", file=sys.stderr)
    groups: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    for run in runs:
        totals: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
        for node, (cpu, wall) in run["spent"].items():
            key = node.split("::")[0] if args.by == "file" else node
            totals[key][0] += cpu
            totals[key][1] += wall
        for key, (cpu, wall) in totals.items():
            groups[key].append((cpu, wall))
    rows = sorted(((statistics.median(c for c, _ in figures), statistics.median(w for _, w in figures), key)
                   for key, figures in groups.items()), reverse=True)
    tests = statistics.median(len(run["spent"]) for run in runs)
    print(f"\nmedian of {len(runs)} run(s): wall {statistics.median(r['wall'] for r in runs):.1f} s, "
          f"CPU {statistics.median(r['cpu'] for r in runs):.1f} s (every process), {tests:.0f} tests; "
          f"the tests' own CPU {sum(row[0] for row in rows):.1f} s")
    print(f"{'CPU s':>7} {'wall s':>7}  {args.by}")
    for cpu, wall, key in rows[:args.top]:
        print(f"{cpu:7.2f} {wall:7.2f}  {key}")
    return max(run["code"] for run in runs)


if __name__ == "__main__":
    sys.exit(main())
