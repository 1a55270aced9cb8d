"""Chromium (V8) gives the Python evaluator's answers exactly: every worked example, a board of distances, random
situations for every predicate, and the security review's hand cases (../shared/reviews/security-review.md N3-N7,
N14), each of which Chromium answered differently before.

The runtime runs on about:blank, as the rule pages load it; each engine call runs a batch of situations. An outcome
is a value in values.exact_json's form or an error class, compared with no tolerance (tests/differential.py).
scripts/bench_differential.py runs the same with more situations and prints the figures.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import pytest

from generator.evaluate import Snippet, SnippetRefused, helpers
from generator.evaluate.to_js import RUNTIME, compile_predicate, compile_source
from generator.kb.examples import rule_cases

from ..differential import (
    BATCH_JS,
    BOARD,
    batch_call,
    board_grid,
    checked_examples,
    disagreements,
    knowledge_base,
    literal,
    run_python,
    runnable_predicates,
    situation_allowances,
    situations,
    type_pools,
)

_KB = knowledge_base()
PREDICATES = runnable_predicates()
PER_PREDICATE = 400  # random situations per predicate here, 19,600 in all (scripts/bench_differential.py: 10,000)
CHUNK = 5_000  # situations per engine call


@pytest.fixture(scope="module")
def chromium(browser):
    """A Chromium page holding kb-runtime.js and the batch runner; fails the module's tests on any page error."""
    context = browser.new_context()
    context.route("**/*", lambda route: route.abort())  # nothing to fetch: the runtime is added inline
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_script_tag(content=RUNTIME.read_text(encoding="utf-8"))
    page.add_script_tag(content=f"window.kbBatch = {BATCH_JS};")
    yield page
    context.close()
    assert not errors


def run_chromium(page, source: str, arguments: list[dict]) -> list[dict]:
    outcomes = []
    for start in range(0, len(arguments), CHUNK):
        outcomes += json.loads(page.evaluate(batch_call(source, arguments[start:start + CHUNK])))
    return outcomes


def compare(page, snippet, source: str, arguments: list[dict]) -> list:
    return disagreements(arguments, run_python(snippet, arguments), run_chromium(page, source, arguments))


def test_every_worked_example_gives_the_python_answer_in_chromium_exactly(chromium):
    by_predicate = defaultdict(list)
    for case in checked_examples(_KB):
        by_predicate[case.rule, case.predicate].append(case.given)
    assert sum(map(len, by_predicate.values())) >= 250
    found = []
    for (key, name), arguments in by_predicate.items():
        rule = _KB.rules[key]
        predicate = rule.predicate(name)
        found += compare(chromium, predicate.snippet, compile_predicate(rule, predicate), arguments)
    assert not found, found[:5]


def test_distances_on_a_board_grid_agree_in_chromium_to_the_last_bit(chromium):
    """N3's grid: every 0.1″ point of a 30″ quarter board, its distance from the origin and that distance <= the
    nearest whole inch."""
    cases = board_grid()
    assert len(cases) == 45_450
    found = compare(chromium, Snippet.compile(*BOARD), compile_source(*BOARD), cases)
    assert not found, found[:5]


def test_random_situations_of_every_predicate_agree_in_chromium(chromium):
    pools = type_pools()
    found, total = [], 0
    for rule, predicate in PREDICATES:
        arguments = situations(predicate, pools, f"{rule.key}::{predicate.name}", PER_PREDICATE)
        # The Python side first, within SITUATION_STEPS: the engines compare as many situations as it ran.
        python = run_python(predicate.snippet, arguments, *situation_allowances())
        arguments = arguments[:len(python)]
        found += disagreements(arguments, python, run_chromium(chromium, compile_predicate(rule, predicate), arguments))
        total += len(arguments)
    assert total >= 10_000 and not found, found[:5]


# --- the security review's hand cases: each answered differently in Chromium before -----------------
# These call the compiled function as the page does (its plain JSON result, or the error's kind).

ASK_JS = """(fn, args) => { try { return {ok: fn(args)}; } catch (e) { return {error: e.kind || e.name}; } }"""


def ask_chromium(page, source: str, arguments: dict) -> dict:
    return page.evaluate(f"({ASK_JS})({source}, {literal(arguments)})")


def ask_python(snippet, arguments: dict) -> dict:
    [outcome] = run_python(snippet, [arguments])
    outcome.pop("message", None)
    outcome.pop("steps", None)  # the page's own call (ASK_JS) is not traced
    return outcome


def both(page, code: str, arguments: dict) -> tuple[dict, dict]:
    snippet = Snippet.compile(code, list(arguments))
    return ask_python(snippet, arguments), ask_chromium(page, compile_source(code, list(arguments)), arguments)


def test_n3_a_distance_of_exactly_15_inches_is_within_15_inches_in_chromium_too(chromium):
    code = "return distance(a, b) <= d"
    for a, b, d in ([[0, 0], [4.2, 14.4], 15], [[12.1, 0], [16.3, 5.6], 7], [[12.1, 0], [21.1, 12], 15]):
        python, script = both(chromium, code, {"a": a, "b": b, "d": d})
        assert python == script, (a, b, d, python, script)
    assert both(chromium, code, {"a": [0, 0], "b": [4.2, 14.4], "d": 15}) == ({"ok": True}, {"ok": True})


def test_n4_tuple_keys_that_join_to_the_same_text_stay_apart_in_chromium(chromium):
    for code, expected in (('return len({("a", "b"): 1, ("a,sb",): 2})', 2),
                           ('return ("a,sb",) in {("a", "b"): 1}', False),
                           ('return {("a", "b"): 1} == {("a,sb",): 1}', False),
                           ('return {("a", 1): "x", ("a", "1"): "y"}[("a", 1)]', "x")):
        assert both(chromium, code, {}) == ({"ok": expected}, {"ok": expected}), code


def test_n5_whole_numbers_past_2_to_the_53_stop_both_engines_alike(chromium):
    stopped = {"error": "SizeLimit"}
    assert both(chromium, "return sum(x)", {"x": [9007199254740991, 2, -2]}) == (stopped, stopped)
    assert both(chromium, "return x + 1", {"x": 1152921504606846976}) == (stopped, stopped)
    assert both(chromium, "return str(x)", {"x": 10 ** 20}) == (stopped, stopped)
    rule = _KB.rules["wap/dodge"]
    predicate = rule.predicate("dodge_save")
    given = {**next(case.given for case in rule_cases(_KB) if case.predicate == "dodge_save"),
             "sources": [9007199254740993]}
    assert ask_python(predicate.snippet, given) == stopped
    assert ask_chromium(chromium, compile_predicate(rule, predicate), given) == stopped


def test_n6_lone_surrogates_are_refused_in_code_and_in_arguments(chromium):
    for code in ('return len("\\ud83d" + "\\ude00")', 'return "\\ud83d" in "\\U0001F600"'):
        with pytest.raises(SnippetRefused) as refused:
            Snippet.compile(code, [])
        assert "surrogate" in refused.value.reason
    refused = {"error": "SnippetRuntimeError"}
    assert both(chromium, "return len(x + y)", {"x": "\ud83d", "y": "\ude00"}) == (refused, refused)
    assert both(chromium, "return len(x)", {"x": ["ok", {"k\udfff": 1}]}) == (refused, refused)
    assert both(chromium, "return len(x)", {"x": "\U0001F600"}) == ({"ok": 1}, {"ok": 1})


def test_n7_a_float_sum_is_added_left_to_right_whatever_the_host_sum_does(chromium, monkeypatch):
    """CPython 3.12+ compensates a float sum; a stand-in for it (math.fsum) must not change the evaluator's answer."""
    monkeypatch.setattr(helpers, "sum", lambda values, start=0: math.fsum([start, *values]), raising=False)
    python, script = both(chromium, "return sum(x) == 1.0", {"x": [0.1] * 10})
    assert python == script == {"ok": False}


def test_n14_an_infinite_argument_is_refused_by_both_engines_with_its_name(chromium):
    rule = _KB.rules["wap/dodge"]
    predicate = rule.predicate("dodge_save")
    given = {**next(case.given for case in rule_cases(_KB) if case.predicate == "dodge_save"), "sources": [math.inf]}
    with pytest.raises(Exception) as refused:
        predicate.snippet(**given)
    assert type(refused.value).__name__ == "SnippetRuntimeError" and "'sources'" in str(refused.value)
    source = compile_predicate(rule, predicate)
    message = chromium.evaluate(f"(() => {{ try {{ ({source})({literal(given)}); }} catch (e) {{ return e.kind + ': ' "
                                f"+ e.message; }} }})()")
    assert message.startswith("SnippetRuntimeError: ") and "'sources'" in message and "finite" in message
    for code, arguments in (("return x", {"x": math.nan}), ("return x", {"x": -math.inf}), ("return 1e400", {})):
        python, script = both(chromium, code, arguments)
        assert python == script == {"error": "SnippetRuntimeError"}, code


# --- declared types: kb-values.js refuses what value_types.value_fault refuses, with the same fault ----------------

def test_every_declared_argument_gets_the_same_value_fault_in_python_and_chromium(chromium):
    from ..value_faults import KB_VALUES, cases, python_faults, script_call
    from .conftest import ROOT

    chromium.add_script_tag(content=(ROOT / KB_VALUES).read_text(encoding="utf-8"))
    found, checked = [], 0
    for where, argument, values in cases():
        python = python_faults(argument, values)
        script = json.loads(chromium.evaluate(script_call(argument, values)))
        found += [(where, v, p, s) for v, p, s in zip(values, python, script) if p != s]
        checked += len(values)
    assert checked >= 10_000 and not found, found[:5]
