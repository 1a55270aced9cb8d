"""Run the differential comparison at full size and print its figures: cases, disagreements and time, per engine.

    .venv/bin/python scripts/bench_differential.py [--per-predicate N] [--engines quickjs chromium]
                                                   [--python /path/to/python3.12 ...]

The Python evaluator against the compiled JavaScript in QuickJS and in Debian's Chromium (through Playwright),
compared exactly as the tests compare them (tests/differential.py): every worked example, N3's 0.1-inch board
grid, the security review's hand cases, and N random situations per predicate (default 10,000) drawn from
test_to_js's pools. --python runs the same Python side under other interpreters (generator.evaluate is the
standard library only, so a bare 3.12 or 3.13 will do) and counts where they differ from this one.
A benchmark, not a test: the times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.evaluate import Snippet  # noqa: E402
from generator.evaluate.to_js import RUNTIME, compile_predicate, compile_source  # noqa: E402
from generator.kb.examples import rule_cases  # noqa: E402
from generator.kb.load import load  # noqa: E402
from tests.differential import (  # noqa: E402
    BATCH_JS,
    BOARD,
    HAND_CASES,
    batch_call,
    board_grid,
    disagreements,
    run_python,
    situations,
    type_pools,
)

CHUNK = 5_000  # situations per engine call

# What a child interpreter runs: each group's snippet on each argument set, outcomes as run_python gives them.
CHILD = """
import json, sys
from generator.evaluate import Snippet
from tests.differential import run_python
out = []
for code, params, arguments in json.load(sys.stdin):
    out += [{key: value for key, value in outcome.items() if key != "message"}
            for outcome in run_python(Snippet.compile(code, params), arguments)]
json.dump(out, sys.stdout)
"""


def groups(per_predicate: int) -> dict[str, list]:
    """Each set of cases: [(code, params, compiled source, snippet, [arguments, ...]), ...]."""
    kb, _ = load(ROOT)
    by_predicate = defaultdict(list)
    for case in rule_cases(kb):
        by_predicate[case.rule, case.predicate].append(case.given)
    examples = []
    for (key, name), arguments in sorted(by_predicate.items()):
        rule = kb.rules[key]
        predicate = rule.predicate(name)
        examples.append((predicate.code, predicate.params, compile_predicate(rule, predicate), predicate.snippet,
                         arguments))
    hand = [(code, list(arguments), compile_source(code, list(arguments)), Snippet.compile(code, list(arguments)),
             [arguments]) for code, arguments in HAND_CASES]
    grid = [(BOARD[0], BOARD[1], compile_source(*BOARD), Snippet.compile(*BOARD), board_grid())]
    pools = type_pools()
    random_ = [(predicate.code, predicate.params, compile_predicate(rule, predicate), predicate.snippet,
                situations(predicate, pools, f"{rule.key}::{predicate.name}", per_predicate))
               for key, rule in sorted(kb.rules.items()) for predicate in rule.predicates
               if predicate.snippet is not None]
    return {"worked examples": examples, "hand cases (N3-N7, N14)": hand, "N3 board grid": grid,
            f"random, {per_predicate} per predicate": random_}


class QuickJS:
    name = "QuickJS"

    def __init__(self):
        import quickjs

        self.context = quickjs.Context()
        self.context.set_time_limit(600)
        self.context.eval(RUNTIME.read_text(encoding="utf-8"))
        self.context.eval(f"var kbBatch = {BATCH_JS};")

    def run(self, source: str, arguments: list[dict]) -> list[dict]:
        return json.loads(self.context.eval(batch_call(source, arguments)))

    def close(self):
        pass


class Chromium:
    name = "Chromium"

    def __init__(self):
        from playwright.sync_api import sync_playwright

        from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self.page = self.browser.new_page()
        self.page.route("**/*", lambda route: route.abort())
        self.page.add_script_tag(content=RUNTIME.read_text(encoding="utf-8"))
        self.page.add_script_tag(content=f"window.kbBatch = {BATCH_JS};")
        self.version = self.browser.version

    def run(self, source: str, arguments: list[dict]) -> list[dict]:
        return json.loads(self.page.evaluate(batch_call(source, arguments)))

    def close(self):
        self.browser.close()
        self.playwright.stop()


def chunks(arguments: list[dict]):
    for start in range(0, len(arguments), CHUNK):
        yield arguments[start:start + CHUNK]


def compare_engine(engine, sets: dict, python: dict) -> list[tuple]:
    rows = []
    for label, items in sets.items():
        started, count, found = time.perf_counter(), 0, []
        for (_, _, source, _, arguments), outcomes in zip(items, python[label]):
            script = [outcome for part in chunks(arguments) for outcome in engine.run(source, part)]
            found += disagreements(arguments, outcomes, script)
            count += len(arguments)
        rows.append((engine.name, label, count, len(found), time.perf_counter() - started, found[:3]))
    return rows


def other_python(interpreter: str, sets: dict, python: dict) -> list[tuple]:
    rows = []
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    version = subprocess.run([interpreter, "--version"], capture_output=True, text=True).stdout.strip()
    for label, items in sets.items():
        payload = json.dumps([(code, params, arguments) for code, params, _, _, arguments in items], allow_nan=True)
        started = time.perf_counter()
        done = subprocess.run([interpreter, "-c", CHILD], input=payload, capture_output=True, text=True,
                              env=environment, cwd=ROOT)
        if done.returncode:
            raise SystemExit(f"{interpreter} failed:\n{done.stderr}")
        theirs = json.loads(done.stdout)
        ours = [{key: value for key, value in outcome.items() if key != "message"}
                for outcomes in python[label] for outcome in outcomes]
        arguments = [situation for item in items for situation in item[4]]
        found = [(situation, mine, other) for situation, mine, other in zip(arguments, ours, theirs) if mine != other]
        rows.append((version, label, len(theirs), len(found), time.perf_counter() - started, found[:3]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-predicate", type=int, default=10_000, help="random situations per predicate")
    parser.add_argument("--engines", nargs="*", default=["quickjs", "chromium"], choices=["quickjs", "chromium"])
    parser.add_argument("--python", nargs="*", default=[], help="other Python interpreters to compare with this one")
    options = parser.parse_args()

    sets = groups(options.per_predicate)
    python, rows = {}, []
    for label, items in sets.items():
        started = time.perf_counter()
        python[label] = [run_python(snippet, arguments) for _, _, _, snippet, arguments in items]
        count = sum(len(item[4]) for item in items)
        rows.append((f"Python {sys.version.split()[0]}", label, count, None, time.perf_counter() - started, []))
    for name in options.engines:
        engine = QuickJS() if name == "quickjs" else Chromium()
        try:
            rows += compare_engine(engine, sets, python)
            if name == "chromium":
                print(f"Chromium {engine.version}")
        finally:
            engine.close()
    for interpreter in options.python:
        rows += other_python(interpreter, sets, python)

    print(f"{'engine':<16} {'cases':<34} {'count':>8} {'disagree':>9} {'seconds':>8}")
    for engine, label, count, found, seconds, examples in rows:
        shown = "-" if found is None else str(found)
        print(f"{engine:<16} {label:<34} {count:>8} {shown:>9} {seconds:>8.1f}")
        for example in examples:
            print("    ", example)


if __name__ == "__main__":
    main()
