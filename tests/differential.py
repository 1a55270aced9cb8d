"""What the differential tests share: situations to run, and each engine's outcome in one exact form.

An outcome is {"ok": exact_json(result), "steps": the traced steps} or {"error": the error class}; two engines
agree when their outcomes are equal, every step of the trace too, with no tolerance (a float travels as its repr, so 15.0 and 15.000000000000002
differ, and 3 and 3.0 do too). Arguments travel to JavaScript as a literal, not as JSON text, so an
infinity or a lone surrogate reaches the runtime as a page could hand it over. test_to_js runs the
JavaScript side in QuickJS, tests/browser/test_differential in Chromium, scripts/bench_differential both.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generator.evaluate import (
    MAX_FILE_STEPS,
    MAX_RUN_STEPS,
    Allowance,
    SnippetError,
    StepLimit,
    call_budget,
    spent_allowance,
)
from generator.kb.examples import rule_cases
from generator.evaluate.values import exact_json
from generator.kb.load import load

from .conftest import ROOT

# kbBatch(fn, argsList): the outcome of each call, with the steps of its traced run (generator/evaluate/trace.py),
# as JSON text (one engine call per batch).
BATCH_JS = """function (fn, argsList) {
  return JSON.stringify(argsList.map(function (args) {
    var trace = {};
    try { var value = KbRuntime.exactly(fn, args, null, trace); return {ok: value, steps: trace.steps}; }
    catch (e) { return {error: e.kind || ("JS " + e.name + ": " + e.message), message: String(e.message)}; }
  }));
}"""


@functools.cache
def knowledge_base():
    """The repository's rules, loaded once for the differential tests of every engine."""
    kb, _problems = load(ROOT)
    return kb


def runnable_predicates() -> list:
    """(rule, predicate) of every predicate with a snippet, in a stable order."""
    return [(rule, predicate) for _key, rule in sorted(knowledge_base().rules.items()) for predicate in rule.predicates
            if predicate.snippet is not None]


def literal(value) -> str:
    """`value` as a JavaScript literal: JSON, where inf and NaN are the globals Infinity and NaN."""
    return json.dumps(value, allow_nan=True)


def batch_call(function_source: str, arguments: list[dict]) -> str:
    """The JavaScript expression that runs one compiled predicate on each argument set (kbBatch defined)."""
    return f"kbBatch({function_source}, {literal(arguments)})"


def exact_steps(steps: list[dict]) -> list[dict]:
    """Traced steps with their values in the exact form (what kbTraced gives)."""
    return [dict(step, reads=[[name, exact_json(value)] for name, value in step["reads"]],
                 compares=[[exact_json(left), operator, exact_json(right), holds, left_name, right_name]
                           for left, operator, right, holds, left_name, right_name in step["compares"]],
                 outcome=exact_json(step["outcome"])) for step in steps]


# What the differential runs is bounded as `check` is: the worked examples that check runs within its budgets
# (MAX_FILE_STEPS, MAX_RUN_STEPS), and each predicate's random situations within SITUATION_STEPS.
SITUATION_STEPS = 2_000_000  # one predicate's random situations: 400 of the dearest today (deploy_order) spend ~550,000
ALL_SITUATIONS_STEPS = 20_000_000  # every predicate's random situations in a run: 400 of each of today's ~1,020,000


def situation_allowances() -> tuple[Allowance, Allowance]:
    """A fresh allowance for one predicate's random situations, and the one all predicates of a run share."""
    return Allowance(SITUATION_STEPS, "SITUATION_STEPS"), _ALL_SITUATIONS


_ALL_SITUATIONS = Allowance(ALL_SITUATIONS_STEPS, "ALL_SITUATIONS_STEPS")


def run_python(snippet, arguments: list[dict], *shared: Allowance) -> list[dict]:
    """Each run's result (or error class) and its traced steps: the JavaScript trace must equal them exactly.

    The runs also spend the `shared` allowances: they stop at the first run one of them cannot pay for in full, so
    the list may be shorter than `arguments` (compare the engines on as many)."""
    outcomes = []
    for situation in arguments:
        budget = call_budget(snippet.steps, *shared)
        try:
            value, steps = snippet.traced(situation, budget)
            outcomes.append({"ok": exact_json(value), "steps": exact_steps(steps)})
        except SnippetError as error:
            if isinstance(error, StepLimit) and spent_allowance(budget, snippet.steps, *shared):
                break
            outcomes.append({"error": type(error).__name__, "message": str(error)})
        finally:
            for each in shared:
                each.spend(min(budget.spent, budget.limit))
    return outcomes


def checked_examples(kb) -> list:
    """The worked examples `check` runs in full within its budgets (generator/kb/examples.py): a file's stop at the
    first that would spend more than MAX_FILE_STEPS, and all of them at the first past MAX_RUN_STEPS."""
    run, kept, file, rule = Allowance(MAX_RUN_STEPS, "run"), [], Allowance(0, "file"), None
    for case in rule_cases(kb):
        if case.rule != rule:
            rule, file = case.rule, Allowance(MAX_FILE_STEPS, "file")
        if not file.remaining:
            continue
        snippet = kb.rules[case.rule].predicate(case.predicate).snippet
        budget = call_budget(snippet.steps, file, run)
        try:
            snippet.run(case.given, budget)
        except SnippetError as error:
            over = spent_allowance(budget, snippet.steps, file, run) if isinstance(error, StepLimit) else None
            if over is run:
                break
            if over is file:
                file.spent = file.limit
                continue
        finally:
            for allowance in (file, run):
                allowance.spend(min(budget.spent, budget.limit))
        kept.append(case)
    return kept


def agree(python: dict, script: dict) -> bool:
    """The same value exactly, or the same error class (messages may differ)."""
    if "ok" in python or "ok" in script:
        return "ok" in python and "ok" in script and python["ok"] == script["ok"] and \
            python.get("steps") == script.get("steps")
    return python["error"] == script["error"]


def disagreements(arguments: list[dict], python: list[dict], script: list[dict]) -> list:
    return [(situation, p, s) for situation, p, s in zip(arguments, python, script) if not agree(p, s)]


# --- random situations drawn from each argument's declared type ----------------------------------

_NUMBER = st.one_of(st.integers(-5, 60), st.floats(-5, 60, allow_nan=False).map(lambda x: round(x, 3)),
                    st.integers(-10, 120).map(lambda n: n / 2))
_COORDINATE = st.one_of(st.integers(-4, 30).map(lambda n: n / 2), st.floats(-2, 15, allow_nan=False))
_POINT = st.lists(_COORDINATE, min_size=2, max_size=2)
_WORDS = st.one_of(st.sampled_from(["open", "forest", "any", "daemons-of-tzeentch", "daemons-of-khorne", "skirmish",
                                    "infantry", "cavalry", "a", ""]), st.text(max_size=6))

BY_TYPE = {
    "bool": st.booleans(),
    "int": st.integers(-3, 30),
    "number": _NUMBER, "inches": _NUMBER, "mm": st.one_of(st.sampled_from([20, 25, 30, 35, 40, 50]), _NUMBER),
    "degrees": st.one_of(st.integers(-200, 200), st.floats(-200, 200, allow_nan=False)),
    "dice": st.lists(st.integers(1, 6), min_size=2, max_size=2),
    "point": _POINT,
    "points": st.lists(_POINT, min_size=0, max_size=6),
    "size": st.lists(st.sampled_from([20, 25, 30, 40, 50, 60, 25.5]), min_size=2, max_size=2),
    "text": _WORDS,
    "list": st.lists(_WORDS, max_size=5),
    "bools": st.lists(st.booleans(), max_size=8),
    "ints": st.lists(st.integers(1, 6), max_size=5),
    "model": st.integers(0, 30),
    "models": st.lists(st.integers(0, 7), max_size=5),
    "any": st.one_of(st.none(), st.booleans(), st.integers(-5, 5), _WORDS),
}

# Reproducible draws, generation only: Hypothesis fills the pools and asserts nothing, so there is nothing to
# shrink; a failing test lists the situations where the engines disagree.
_SETTINGS = {"deadline": None, "derandomize": True, "database": None, "suppress_health_check": list(HealthCheck)}
POOL = 400  # values Hypothesis draws of each declared type, in draws of POOL_DRAW
POOL_DRAW = 50  # values per Hypothesis example: a whole pool at once is larger than an example may be


def drawn(strategy, count: int) -> list:
    """`count` values Hypothesis draws of `strategy`, POOL_DRAW per example, the same on every run."""
    values = []

    @settings(max_examples=count // POOL_DRAW, phases=[Phase.generate], **_SETTINGS)
    @given(st.lists(strategy, min_size=POOL_DRAW, max_size=POOL_DRAW))
    def draw(some):
        values.extend(some)

    draw()
    assert len(values) == count, strategy
    return values


def type_pools() -> dict[str, list]:
    """POOL values of every declared type, drawn by Hypothesis.

    Drawing each situation's arguments with Hypothesis (fixed_dictionaries of every argument) spent three quarters
    of the time in its bookkeeping; the situations only need varied values of the right types, edge values
    included, which the pools hold."""
    return {name: drawn(strategy, POOL) for name, strategy in BY_TYPE.items()}


def situations(predicate, pools: dict[str, list], seed: str, count: int) -> list[dict]:
    """`count` argument sets for `predicate`, the same on every run: None for a quarter of nullable arguments."""
    pick = random.Random(seed)

    def value(argument):
        if argument.nullable and pick.random() < 0.25:
            return None
        if argument.type == "choice":  # an open choice also takes any other id (RULES.md: another faction)
            return pick.choice(argument.values + (["other", "empire", "Daemons of Tzeentch"] if argument.other else []))
        if argument.items == "choice":  # a list of a closed set: its own values, as the form sends them
            return pick.sample(argument.values, pick.randint(0, len(argument.values)))
        return copy.deepcopy(pick.choice(pools[argument.type]))

    return [{argument.name: value(argument) for argument in predicate.args} for _ in range(count)]


# --- the security review's hand cases (../shared/reviews/security-review.md N3-N7, N14) -----------

def board_grid(step_tenths: int = 1, reach: int = 30) -> list[dict]:
    """N3: b on a 0.1″ grid over a 30″ quarter board (x <= y: the distance is symmetric), a at the origin, and d the
    whole inch nearest the distance, where a host's hypot most often lands its last bit on the wrong side of d."""
    cases = []
    for i in range(0, reach * 10 + 1, step_tenths):
        for j in range(i, reach * 10 + 1, step_tenths):
            if i or j:
                cases.append({"a": [0, 0], "b": [i / 10, j / 10], "d": round(math.hypot(i, j) / 10)})
    return cases


# The distance itself (every bit of it) and the comparison a rule makes with it.
BOARD = ("return [distance(a, b), distance(a, b) <= d]", ["a", "b", "d"])


# The review's hand cases and their neighbours, as (code, arguments): N3-N7, N14 (tests/browser/test_differential.py
# asserts each one's answer; the script runs them all in every engine).
HAND_CASES = [
    ("return distance(a, b) <= d", {"a": [0, 0], "b": [4.2, 14.4], "d": 15}),
    ("return distance(a, b) <= d", {"a": [12.1, 0], "b": [16.3, 5.6], "d": 7}),
    ("return distance(a, b) <= d", {"a": [12.1, 0], "b": [21.1, 12], "d": 15}),
    ('return len({("a", "b"): 1, ("a,sb",): 2})', {}),
    ('return ("a,sb",) in {("a", "b"): 1}', {}),
    ('return {("a", "b"): 1} == {("a,sb",): 1}', {}),
    ("return sum(x)", {"x": [9007199254740991, 2, -2]}),
    ("return x + 1", {"x": 1152921504606846976}),
    ("return str(x)", {"x": 10 ** 20}),
    ("return x // 1", {"x": 9007199254740993}),
    ("return len(x + y)", {"x": "\ud83d", "y": "\ude00"}),
    ("return x in y", {"x": "\ud83d", "y": "\U0001F600"}),
    ("return sum(x) == 1.0", {"x": [0.1] * 10}),
    ("return x", {"x": [math.inf]}),
    ("return x", {"x": math.nan}),
    ("return 1e400", {}),
    ("return [2.0 ** -24, str(2.0 ** -24)]", {}),
]
