"""Predicates compiled to JavaScript give the Python evaluator's answers, exactly, in a real engine (QuickJS).

The same comparisons run in Chromium in tests/browser/test_differential.py; tests/differential.py holds
what both share (the situations, the exact form of an outcome).
"""

from __future__ import annotations

import copy
import json
import math
import random
import re

import pytest
import quickjs
from hypothesis import strategies as st

from generator.evaluate import MAX_INT, MAX_STEPS, Snippet, SnippetRefused, limits
from generator.evaluate.functions import FUNCTIONS
from generator.evaluate.to_js import RUNTIME, compile_predicate, compile_source

from .differential import (
    BATCH_JS,
    BOARD,
    agree,
    batch_call,
    board_grid,
    checked_examples,
    disagreements,
    drawn,
    knowledge_base,
    run_python,
    runnable_predicates,
    situation_allowances,
    situations,
    type_pools,
)
from .test_evaluate import HOSTILE_AT_LOAD

_KB = knowledge_base()
PREDICATES = runnable_predicates()


@pytest.fixture(scope="module")
def js():
    context = quickjs.Context()
    context.set_time_limit(60)  # seconds per eval: a runaway loop fails the test instead of hanging it
    context.eval(RUNTIME.read_text(encoding="utf-8"))
    context.eval(f"var kbBatch = {BATCH_JS};")
    return context


def run_js(context, function_source: str, arguments: list[dict]) -> list[dict]:
    return json.loads(context.eval(batch_call(function_source, arguments)))


def compare(context, snippet, source: str, arguments: list[dict]) -> list:
    """Where QuickJS and the Python evaluator disagree on these arguments: [(situation, python, script)]."""
    return disagreements(arguments, run_python(snippet, arguments), run_js(context, source, arguments))


# --- the runtime and the Python evaluator share their limits --------------------------------------

def test_the_runtime_has_the_evaluator_limits_and_function_costs(js):
    runtime_limits = json.loads(js.eval("JSON.stringify(KbRuntime.LIMITS)"))
    assert runtime_limits == {name: getattr(limits, name) for name in runtime_limits}
    assert set(runtime_limits) >= {"MAX_STEPS", "MAX_SEQUENCE", "MAX_BUILT", "MAX_VALUE_DEPTH", "MAX_INT"}
    costs = json.loads(js.eval("JSON.stringify(KbRuntime.CALL_COSTS)"))
    assert costs == {name: function.cost.__name__.lstrip("_") for name, function in FUNCTIONS.items()}


# --- every worked example -------------------------------------------------------------------------

def test_every_worked_example_gives_the_python_answer_in_javascript_exactly(js):
    cases = checked_examples(_KB)
    assert len(cases) >= 100
    wrong = []
    for case in cases:
        rule = _KB.rules[case.rule]
        predicate = rule.predicate(case.predicate)
        [python] = run_python(predicate.snippet, [case.given])
        [script] = run_js(js, compile_predicate(rule, predicate), [case.given])
        if not agree(python, script):
            wrong.append((case.test_id, python, script))
    assert not wrong


# --- random situations drawn from each argument's declared type ----------------------------------

SITUATIONS = 300  # per predicate, each argument's value picked from its type's pool
BATCH = 100  # situations per JavaScript call


@pytest.fixture(scope="module")
def pools() -> dict[str, list]:
    return type_pools()


@pytest.mark.parametrize("rule,predicate", PREDICATES, ids=[f"{r.key}::{p.name}" for r, p in PREDICATES])
def test_javascript_agrees_with_python_on_random_situations(js, pools, rule, predicate):
    source = compile_predicate(rule, predicate)
    arguments = situations(predicate, pools, f"{rule.key}::{predicate.name}", SITUATIONS)
    for argument in predicate.args:  # every choice and both truth values come up, and plenty of other values
        shown = {json.dumps(situation[argument.name]) for situation in arguments} - {"null"}
        wanted = len(argument.values) if argument.type == "choice" else 2 if argument.type == "bool" else 20
        assert len(shown) >= wanted, (argument.name, sorted(shown))
    # The Python side first, within SITUATION_STEPS: the engines compare as many situations as it ran.
    python = run_python(predicate.snippet, arguments, *situation_allowances())
    found = []
    for start in range(0, len(python), BATCH):
        batch = arguments[start:min(start + BATCH, len(python))]
        found += disagreements(batch, python[start:start + len(batch)], run_js(js, source, batch))
    assert not found, found[:5]


def test_distances_on_a_board_grid_agree_to_the_last_bit(js):
    """N3 in QuickJS: every point of a 0.2″ grid (the full 0.1″ grid runs in Chromium)."""
    snippet, source = Snippet.compile(*BOARD), compile_source(*BOARD)
    cases = board_grid(step_tenths=2)
    assert len(cases) > 11_000
    found = []
    for start in range(0, len(cases), 2000):
        found += compare(js, snippet, source, cases[start:start + 2000])
    assert not found, found[:5]


# --- corner cases where JavaScript differs from Python -------------------------------------------

CORNERS = {
    "truthiness": "[bool([]), bool(''), bool(0), bool(0.0), bool([0]), bool(' '), bool({}), bool(None), "
                  "'y' if [] else 'n', [] or 'x', 0 and 1, not ()]",
    "floor division and modulo on negatives": "[-7 // 2, -7 % 2, 7 // -2, 7 % -2, -7.5 // 2, -7.5 % 2, 7.5 % -2, "
                                              "1 // 0.1, 0.7 // 0.1, -1 % 3.0, 5 % -3.0]",
    "round halves to even": "[round(0.5), round(1.5), round(2.5), round(-0.5), round(-2.5), round(2.675, 2), "
                            "round(0.125, 2), round(0.375, 2), round(25, -1), round(35, -1), round(-25, -1), "
                            "round(2.5, None), round(1234.5, -2), round(7, 2), str(round(2.5, 0)), str(round(-0.4, 0))]",
    "list equality and membership": "[[1, 2] == [1, 2], [1, 2] == (1, 2), [1, [2, 3]] in [[1, [2, 3]]], 1 in [1.0], "
                                    "True == 1, 'a' in 'cat', [1] != [1.0], (1, 2) in [(1, 2)], [1, 2] < [1, 3], "
                                    "[1, 2] < [1, 2, 0], 'B' < 'a', 'é' > 'z']",
    "chained comparisons": "[1 < 2 < 3, 1 < 3 < 2, 1 == 1.0 < 2, 'a' < 'b' <= 'b', 3 > 2 > 2, 1 < 2 > 0]",
    "int and float": "[str(7 / 2), str(6 / 2), str(int(3.9)), str(int(-3.9)), str(2 ** -1), str(3.0), str(1e16), "
                     "str(1e-05), str(0.1 + 0.2), str(10 ** 15 * 1.0), str(-0.0), str(2 ** 10), str(1.5e300), "
                     "str(float(7)), str(7 // 2.0), str(abs(-2)), str(sum([1, 2])), str(sum([1, 2.0]))]",
    "repetition and concatenation": "['ab' * 3, 'ab' * 0, 'ab' * -1, [1, 2] * 2, 3 * 'x', [1] + [2], 'a' + 'b', "
                                    "(1,) * 2 == (1, 1), [0] * True]",
    "functions": "[min([3, 1, 2]), max(3, 1, 2), sorted([3, 1, 2]), sum([1, 2.5]), abs(-3), abs(-2.5), len('héllo'), "
                 "any([0, '', 1]), all([]), list(range(5, 0, -2)), sorted(['b', 'a', 'B']), list('ab'), "
                 "[list(p) for p in enumerate('xy')], zip([1, 2, 3], 'ab'), max([[1, 2], [1, 3]]), str(True), "
                 "str(None), len({1: 2}), bool(0.0), int(True * 2)]",
    "dicts": "d = {'a': 1, 1: 'one'}\nd[1.0] = 'uno'\nd[True] = 'si'\nd[(1, 2)] = 'pair'\n"
             "return [d[1], len(d), 'a' in d, list(d), d[(1, 2)], [k for k in d], {'x': 1} == {'x': 1.0}]",
    "slicing": "[[1, 2, 3, 4][::-1], [1, 2, 3, 4][1:3], 'hello'[-3:], [1, 2, 3][5:], [1, 2, 3, 4, 5][::2], "
               "(1, 2, 3)[1:], 'héllo'[1], [1, 2, 3][-1], [1, 2, 3, 4][-2::-2], [1, 2, 3][:-5]]",
    "unpacking, loops and scopes": "x = 10\nys = [x * 2 for x in range(3)]\na, b = [1, 2]\nt = 0\n"
                                   "for i, v in enumerate([5, 6, 7]):\n    if i == 1:\n        continue\n"
                                   "    if v > 6:\n        break\n    t += v\nitems = [0, 0]\nitems[1] += 3\n"
                                   "return [x, ys, a, b, t, items, [[i, j] for i in range(3) if i for j in range(i)]]",
    "helpers": "[distance([0, 0], [3, 4]), square_gap([0, 0], [2.5, 0], 1), square_gap([0, 0], [0.5, 0.5], 1), "
               "connected(3, [[0, 1], [1, 2]]), connected(3, [[0, 1]]), connected(0, [])]",
    "infinities and underflow made inside a snippet": "i = 1e400\nreturn [str(v) for v in [i, -i, 1 // i, "
                                                      "-1 // i, 1 % i, -1 % i, 1e308 * 10, -1e308 * 10, "
                                                      "1e-300 * 1e-300, 5e-324 / 2, 5e-324 * 1.5]] + "
                                                      "[i > 10 ** 15, -i < -1e308, i == i]",
    "negative zero": "[str(-0.0), str(0.0 * -1), str(-0.0 + 0), str(round(-0.4, 0)), str(-0.0 // 1), str(-0.0 % 1), "
                     "str(abs(-0.0)), str(float(-0)), str(-(0.0)), str(-0.0 ** 3), str((-0.0) ** 3), "
                     "str((-0.0) ** 0.5)]",
    "exact geometry and powers": "[distance([0, 0], [4.2, 14.4]), distance([12.1, 0], [16.3, 5.6]), "
                                 "square_gap([0.1, 0.2], [1.35, 0.2], 0.3), 1.1 ** 3, 0.7 ** 25, 3.3 ** -7, 2 ** -1, "
                                 "10 ** -2, 2.0 ** 0.5, 1e-300 ** 2, (-1.5) ** 7, 7 ** 18, 1e-5 ** -30]",
    "tuple keys and dict order": "d = {(1, 'a'): 'x', ('a', 'b'): 'y', (1, ('a',)): 'z'}\nd[(1.0, 'a')] = 'w'\n"
                                 "return [len(d), d[(True, 'a')], list(d), ('a,sb',) in d, (1, 'a') in d, "
                                 "len({('a', 'b'): 1, ('a,sb',): 2})]",
}


@pytest.mark.parametrize("code", CORNERS.values(), ids=CORNERS.keys())
def test_javascript_keeps_python_semantics(js, code):
    snippet = Snippet.compile(code, [])
    [python] = run_python(snippet, [{}])
    [script] = run_js(js, compile_source(code, []), [{}])
    assert "ok" in python, python
    assert python["ok"] == script.get("ok"), (python, script)


STOPS = {
    "division by zero": ("1 / 0", "SnippetRuntimeError"),
    "modulo by zero": ("1 % 0", "SnippetRuntimeError"),
    "range of a float": ("range(2.0)", "SnippetRuntimeError"),
    "index of a float": ("[1, 2][1.0]", "SnippetRuntimeError"),
    "repetition by a float": ("'a' * 2.0", "SnippetRuntimeError"),
    "comparing unlike types": ("[1] < 'a'", "SnippetRuntimeError"),
    "sum of booleans": ("sum([True])", "SnippetRuntimeError"),
    "unhashable key": ("{(1, [2]): 3}", "SnippetRuntimeError"),
    "name before assignment": ("if False:\n    y = 1\nreturn y", "SnippetRuntimeError"),
    "no return": ("x = 1", "SnippetRuntimeError"),
    "complex power": ("(-8) ** 0.5", "SnippetRuntimeError"),
    "endless loops": ("t = 0\nfor a in range(10000):\n    for b in range(10000):\n        t += 1\nreturn t",
                      "StepLimit"),
    "too long a list": ("[0] * 10001", "SizeLimit"),
    "too much built (F5)": ("a = [[range(10000) for j in range(10000)] for i in range(6)]\nreturn len(a)",
                            "MemoryLimit"),
    "shared references compared (F4)": ("b = [range(10000)] * 10000\nc = [range(10000)] * 10000\nreturn b == c",
                                        "StepLimit"),
    "helper work (F6)": ("a = [[connected(10000, []) for j in range(10000)] for i in range(5)]\nreturn 1", "StepLimit"),
    "cyclic list": ("a = [0]\na[0] = a\nreturn a", "DepthLimit"),
}


@pytest.mark.parametrize("code,kind", STOPS.values(), ids=STOPS.keys())
def test_javascript_stops_where_python_stops_with_the_same_kind_of_error(js, code, kind):
    [python] = run_python(Snippet.compile(code, []), [{}])
    [script] = run_js(js, compile_source(code, []), [{}])
    assert python.get("error") == kind and script.get("error") == kind, (python, script)


def test_the_step_budget_counts_the_same_steps_in_both_engines(js):
    from generator.evaluate import Budget

    code = ("t = 0\nfor i in range(n):\n    if i % 3 == 0:\n        t += len([j for j in range(i)])\n"
            "return [t, sorted([[i, 'a'], [0, 'b']])]")
    budget = Budget()
    Snippet.compile(code, ["n"]).run({"n": 40}, budget)
    spent = js.eval(f"(function () {{ var b = new KbRuntime.Budget(); ({compile_source(code, ['n'])})({{n: 40}}, b); "
                    f"return b.spent; }})()")
    assert spent == budget.spent and 0 < spent < MAX_STEPS


def test_arguments_arrive_by_name_and_a_wrong_set_is_refused(js):
    source = compile_source("a - b", ["a", "b"])
    assert [{key: outcome[key] for key in outcome if key != "steps"}
            for outcome in run_js(js, source, [{"a": 5, "b": 2}, {"a": 5}, {"a": 1, "b": 2, "c": 3}])] == [
        {"ok": 3},
        {"error": "SnippetRuntimeError", "message": "wrong arguments: missing b"},
        {"error": "SnippetRuntimeError", "message": "wrong arguments: unexpected c"},
    ]


# --- refused snippets compile to nothing ----------------------------------------------------------

@pytest.mark.parametrize("code", HOSTILE_AT_LOAD.values(), ids=HOSTILE_AT_LOAD.keys())
def test_a_hostile_snippet_is_refused_before_it_is_compiled(code):
    with pytest.raises(SnippetRefused):
        compile_source(code, ["values"])


def test_a_predicate_whose_code_was_refused_compiles_to_nothing():
    rule, predicate = PREDICATES[0]
    refused = predicate.model_copy(update={"snippet": None})
    assert compile_predicate(rule, refused) is None


def test_compiled_code_names_only_the_runtime_and_its_own_variables():
    for rule, predicate in PREDICATES:
        source = compile_predicate(rule, predicate)
        names = set(re.findall(r"(?<![\w.$\"])([A-Za-z_]\w*)(?![\w\"])", re.sub(r'"(?:[^"\\]|\\.)*"', '""', source)))
        allowed = {"function", "args", "budget", "trace", "return", "KbRuntime", "R", "A", "let", "const", "for", "of", "if",
                   "else", "null", "true", "false", "undefined", "break", "continue"}
        assert {name for name in names if not name.startswith("v_")} <= allowed, (rule.key, predicate.name)


def test_names_in_any_script_become_valid_javascript(js):
    code = "расстояние = 12\nreturn расстояние + x"
    assert run_js(js, compile_source(code, ["x"]), [{"x": 1}])[0]["ok"] == 13


# --- random operands through every operator and function -----------------------------------------

_NUMBERS = st.one_of(
    st.integers(-20, 20), st.floats(-1e4, 1e4, allow_nan=False), st.floats(-1e15, 1e15, allow_nan=False),
    st.sampled_from([0.5, -0.5, 1.5, -2.5, 0.1, 2.675, 0.125, 1e-05, 123456.789, -0.0, 5e-324, 1e-300]))
# What either engine must refuse or stop at: the largest ints and past them, infinities, lone surrogates.
_EDGES = st.sampled_from([MAX_INT, -MAX_INT, MAX_INT - 1, 2 ** 52 + 1, MAX_INT + 1, 2 ** 60, 10 ** 20, 1e16, 1e308,
                          math.inf, -math.inf, math.nan, "\ud83d", "a\ude00", "\U0001F600", "é"])
# Hypothesis draws a one_of's first branches most: numbers first, the edges last.
_SCALAR = st.one_of(_NUMBERS, st.text(max_size=3), st.booleans(), st.none(), _EDGES)
_OPERAND = st.one_of(
    _SCALAR, st.lists(st.one_of(_NUMBERS, st.integers(0, 3)), min_size=2, max_size=2),
    st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=2), inner, max_size=2)),
                 max_leaves=5))
OPERATIONS = [
    "x + y", "x - y", "x * y", "x / y", "x // y", "x % y", "x ** y", "x ** 2", "x ** -3", "x ** 0.5", "x == y",
    "x != y", "x < y", "x <= y", "x > y", "x >= y", "x in y", "x not in y", "x and y", "x or y", "not x", "-x",
    "x if y else 'no'", "round(x)", "round(x, y)", "int(x)", "float(x)", "str(x)", "abs(x)", "bool(x)", "len(x)",
    "list(x)", "min(x, y)", "max(x)", "sorted(x)", "sorted([x, y, x])", "sum(x)", "sum([x, y, x])", "any(x)", "all(x)",
    "zip(x, y)", "enumerate(x)", "range(x, y)", "x[y]", "x[y:]", "x[:y:-1]", "distance(x, y)", "square_gap(x, y, 1)",
    "connected(x, y)", "{x: 1, y: 2}", "[x, y]", "x", "(x, y)",
    # the same with arguments of the shapes the helpers take, and huge floats made inside the snippet
    "distance([x, 0], [y, x])", "square_gap([x, y], [y, 0.5], y)", "connected(4, [[0, x], [y, 3]])", "[1, 2, 3][x]",
    "'héllo😀'[x:y]", "range(x)", "zip(x, [1, 2])", "x * 1e300", "x / 1e-300", "x + 1e16", "x * 2 ** 52",
    "round(x * 1e300)", "int(x * 1e20)", "x ** 40", "x ** -40", "(x, y) in {(1, 'a'): 2, (x, y): 3}",
]
OPERAND_POOL = 600  # operands Hypothesis draws once for the module; each operation gets OPERAND_PAIRS pairs of them
OPERAND_PAIRS = 150


@pytest.fixture(scope="module")
def operands() -> list:
    """OPERAND_POOL operands: scalars of every kind (edge floats, the largest ints, infinities, lone surrogates, text,
    None) and lists and dicts nesting them."""
    return drawn(_OPERAND, OPERAND_POOL)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_operation_agrees_on_random_operands(js, operands, operation):
    snippet = Snippet.compile(operation, ["x", "y"])
    source = compile_source(operation, ["x", "y"])
    pick = random.Random(operation)
    arguments = [{"x": copy.deepcopy(pick.choice(operands)), "y": copy.deepcopy(pick.choice(operands))}
                 for _ in range(OPERAND_PAIRS)]
    found = compare(js, snippet, source, arguments)
    assert not found, found[:5]


def test_sorting_fails_in_both_engines_exactly_when_two_values_cannot_be_compared(js):
    """Python's sort and the runtime's merge sort compare different pairs; they must still fail alike (see helpers)."""
    pick = random.Random("sorting")
    second = [0, 1, 2.5, "a", "b", None, [0], [0, "a"], (1,)]
    lists = [[[pick.randint(0, 3), *pick.sample(second, pick.randint(0, 2))] for _ in range(pick.randint(2, 12))]
             for _ in range(2_000)]
    code = "return [sorted(x), max(x), min(x)]"
    outcomes = run_python(Snippet.compile(code, ["x"]), [{"x": items} for items in lists])
    assert 300 < sum("ok" in outcome for outcome in outcomes) < 1_700  # both outcomes come up often
    assert not compare(js, Snippet.compile(code, ["x"]), compile_source(code, ["x"]), [{"x": x} for x in lists])
