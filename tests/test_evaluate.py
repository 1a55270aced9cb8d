"""The snippet evaluator runs ordinary rule logic and refuses or stops everything hostile."""

from __future__ import annotations

import warnings

import pytest

from generator.evaluate import (
    MAX_BUILT,
    MAX_EXPONENT,
    MAX_SEQUENCE,
    MAX_STEPS,
    MAX_VALUE_DEPTH,
    Budget,
    DepthLimit,
    MemoryLimit,
    SizeLimit,
    Snippet,
    SnippetError,
    SnippetRefused,
    SnippetRuntimeError,
    StepLimit,
    helpers,
)
from generator.evaluate.limits import MAX_INPUT_ELEMENTS, MAX_INT
from generator.evaluate.values import argument, checked_argument


def run(code, **arguments):
    return Snippet.compile(code, list(arguments))(**arguments)


# --- what rule authors write works ---------------------------------------------------------------

def test_a_single_expression_is_its_own_result():
    assert run("distance >= 18", distance=18) is True


def test_statements_loops_and_comprehensions_work():
    code = """
total = 0
for index, value in enumerate(values):
    if value < 0:
        continue
    total += value * index
big = [v for v in values if v > 2]
return [total, big, max(values), sorted(values)[0]]
"""
    assert run(code, values=[3, -1, 4]) == [8, [3, 4], 4, -1]


def test_geometry_helpers_are_available():
    assert run("round(square_gap(a, b, 1), 6)", a=[0, 0], b=[2.5, 0]) == 1.5
    assert run("connected(3, [[0, 1], [1, 2]])") is True
    assert run("connected(3, [[0, 1]])") is False


def test_tuple_unpacking_and_item_assignment_work():
    code = "x, y = point\nitems = [0, 0]\nitems[1] = x + y\nreturn items"
    assert run(code, point=[1, 2]) == [0, 3]


# --- refused when the rule is loaded -------------------------------------------------------------

HOSTILE_AT_LOAD = {
    "dunder walk through a tuple": "().__class__.__bases__[0].__subclasses__()",
    "attribute on a name": "values.append(1)",
    "import statement": "import os\nreturn 1",
    "from import": "from os import system\nreturn 1",
    "dunder import call": "__import__('os').system('true')",
    "builtins name": "__builtins__",
    "eval call": "eval('1')",
    "exec call": "exec('x = 1')",
    "open call": "open('/etc/passwd')",
    "getattr call": "getattr(1, 'real')",
    "format string attribute trick": "'{0.__class__}'.format(1)",
    "format method": "'{}'.format(values)",
    "f-string": "f'{values}'",
    "lambda": "(lambda: 1)()",
    "def": "def f():\n    return 1\nreturn f()",
    "class": "class A:\n    pass\nreturn 1",
    "while loop": "while True:\n    pass",
    "generator frame access": "(x for x in values).gi_frame.f_back",
    "walrus": "(y := 1)",
    "try block": "try:\n    x = 1\nexcept Exception:\n    x = 2\nreturn x",
    "with block": "with values:\n    pass\nreturn 1",
    "global": "global values\nreturn 1",
    "del": "del values\nreturn 1",
    "leading underscore name": "_secret = 1\nreturn _secret",
    "trailing underscore name": "x_ = 1\nreturn x_",
    "string with dunder": "'__class__'",
    "unknown name": "os",
    "set literal": "{1, 2}",
    "starred call": "max(*values)",
    "keyword argument": "sorted(values, reverse=True)",
    "bit shift bomb": "1 << 100000000",
    "assigning over a function": "len = 3\nreturn len",
    "calling a value": "values(1)",
    "yield": "yield 1",
    "deep nesting": "[" * 60 + "1" + "]" * 60,
    "deep unary chain": "-" * 200 + "1",
    "very deep nesting": "[" * 5000 + "]" * 5000,
    "huge source": "1 + " * 5000 + "1",
    "empty code": "   ",
    "syntax error": "return (",
    "function used as a value": "f = len\nreturn f(values)",
    "function in a list": "[len][0](values)",
    "'is' with a number": "values is 1",
    "slice outside an index": "values[(1:2)]",
}


@pytest.mark.parametrize("code", HOSTILE_AT_LOAD.values(), ids=HOSTILE_AT_LOAD.keys())
def test_hostile_snippet_is_refused_when_loaded(code):
    with pytest.raises(SnippetRefused):
        Snippet.compile(code, ["values"])


def test_a_refusal_names_the_line_and_the_reason():
    with pytest.raises(SnippetRefused) as refused:
        Snippet.compile("x = 1\nreturn x.real", ["values"])
    assert refused.value.line == 2
    assert "attribute" in refused.value.reason


def _nested(depth):
    value = []
    for _ in range(depth - 1):
        value = [value]
    return value


# --- stopped while running -----------------------------------------------------------------------

HOSTILE_AT_RUN = {
    "huge power": ("10 ** 10 ** 10", {}, SizeLimit),
    "power just over the limit": (f"2 ** {MAX_EXPONENT + 1}", {}, SizeLimit),
    "power of a big integer": ("(2 ** 100) ** 100", {}, SizeLimit),
    "string repetition": ("'a' * 10 ** 9", {}, SizeLimit),
    "list repetition": ("[0] * (10 ** 6)", {}, SizeLimit),
    "growing list in a loop": ("x = [1]\nfor i in range(10000):\n    x = x + x\nreturn x", {}, SizeLimit),
    "big range": ("range(10 ** 9)", {}, SnippetRuntimeError),
    "nested loops exhaust steps": (
        "t = 0\nfor a in range(10000):\n    for b in range(10000):\n        t += 1\nreturn t", {}, StepLimit),
    "integer multiplication bomb": ("x = 2 ** 100\nfor i in range(20):\n    x = x * x\nreturn x", {}, SizeLimit),
    "string percent formatting": ("'%s' % 1", {}, SnippetRuntimeError),
    "division by zero": ("1 / 0", {}, SnippetRuntimeError),
    "modulo by zero": ("1 % 0", {}, SnippetRuntimeError),
    "float overflow": ("1e300 ** 2", {}, SnippetRuntimeError),
    "index out of range": ("[1][5]", {}, SnippetRuntimeError),
    "missing dict key": ("{'a': 1}['b']", {}, SnippetRuntimeError),
    "no return": ("x = 1", {}, SnippetRuntimeError),
    "wrong argument": ("values", {"other": 1}, SnippetRuntimeError),
    "live object as argument": ("values", {"values": object()}, SnippetRuntimeError),
    "comparing unlike types": ("1 < 'a'", {}, SnippetRuntimeError),
    "sorting unlike types": ("sorted([1, 'a'])", {}, SnippetRuntimeError),
    "list as a dict key by assignment": ("d = {}\nd[[1]] = 2\nreturn d", {}, SnippetRuntimeError),
    "list looked up in a dict": ("[1] in {1: 2}", {}, SnippetRuntimeError),
    "cyclic list returned": ("a = [0]\na[0] = a\nreturn a", {}, DepthLimit),
    "cyclic lists compared": ("a = [0]\na[0] = a\nb = [0]\nb[0] = b\nreturn a == b", {}, DepthLimit),
    "deeply nested lists compared": ("a = [0]\nb = [0]\nfor i in range(5000):\n    a = [a]\n    b = [b]\nreturn a == b",
                                     {}, DepthLimit),
    "argument nested too deeply": ("values", {"values": _nested(MAX_VALUE_DEPTH + 1)}, DepthLimit),
    "shared string repeated into a comparison": ("s = 'a' * 10000\nl = [s] * 10000\nreturn l == [s] * 10000", {},
                                                 StepLimit),
    "a dict grown under shared references": ("d = {}\nb = [d] * 10000\nfor i in range(10000):\n    d[i] = i\n"
                                             "return b == [d] * 10000", {}, StepLimit),
    "membership in a shared nested list": ("b = [range(10000)] * 10000\nreturn [1] in b", {}, StepLimit),
    "max of a shared nested list": ("b = [range(10000)] * 10000\nreturn max(b)", {}, StepLimit),
    "zip builds too much": ("a = range(10000)\nreturn len([zip(a, a, a, a, a, a, a, a, a, a) for i in range(100)])", {},
                            MemoryLimit),
}


@pytest.mark.parametrize("code,arguments,guard", HOSTILE_AT_RUN.values(), ids=HOSTILE_AT_RUN.keys())
def test_hostile_snippet_is_stopped_while_running_by_the_right_guard(code, arguments, guard):
    snippet = Snippet.compile(code, ["values"] if "values" in code else list(arguments))
    with pytest.raises(guard) as stopped:
        snippet(**arguments)
    assert isinstance(stopped.value, SnippetRuntimeError)


def test_the_step_limit_is_what_stops_an_endless_computation():
    snippet = Snippet.compile("t = 0\nfor a in range(10000):\n    for b in range(10000):\n        t += 1\nreturn t", [])
    with pytest.raises(StepLimit) as stopped:
        snippet()
    assert str(MAX_STEPS) in str(stopped.value) and stopped.value.line == 4


def test_sequences_are_capped_at_the_declared_limit():
    assert len(run(f"[0] * {MAX_SEQUENCE}")) == MAX_SEQUENCE
    with pytest.raises(SizeLimit):
        run(f"[0] * {MAX_SEQUENCE + 1}")


def test_results_are_plain_data_even_when_a_generator_expression_is_returned():
    result = run("(v * 2 for v in values)", values=[1, 2])
    assert result == [2, 4] and isinstance(result, list)


# --- arguments: the quick way in reads every value as the full check does --------------------------

_ARGUMENT_EDGES = [MAX_INT, -MAX_INT, MAX_INT + 1, -MAX_INT - 1, True, False, None, "", "text", "a\ud800b", 1.0, 1.5,
                   float("inf"), [], (), [1, "a", True, None], ("a", 2), [MAX_INT + 1], ["\udc00"], [1.0], [[1]],
                   {"b": 1, "a": 2}, {1: "x"}, [0] * (MAX_INPUT_ELEMENTS - 1), [0] * MAX_INPUT_ELEMENTS, object()]


@pytest.mark.parametrize("value", _ARGUMENT_EDGES, ids=range(len(_ARGUMENT_EDGES)))
def test_an_argument_let_through_as_it_is_reads_as_the_full_check_reads_it_and_every_fault_still_fails(value):
    def outcome(call):
        try:
            got = call()
        except SnippetRuntimeError as error:
            return "refused", type(error), str(error)
        return "read", type(got), got, got is value and isinstance(got, list)  # a list comes as a copy

    assert outcome(lambda: argument(value, "x")) == outcome(lambda: checked_argument(value, "argument 'x'"))


# --- the security review's findings F4-F7 (../shared/reviews/security-review.md) ----------------

def test_f4_comparing_lists_built_from_shared_references_is_charged_for_every_element():
    code = """
a1 = range(10000)
a2 = range(10000)
b1 = [a1] * 10000
b2 = [a2] * 10000
c1 = [b1] * 10000
c2 = [b2] * 10000
return c1 == c2
"""
    with pytest.raises(StepLimit) as stopped:
        run(code)
    assert stopped.value.line == 8  # the comparison, not the building, ran out of steps


def test_f4_hashing_a_tuple_of_shared_tuples_is_charged_for_every_element():
    with pytest.raises(StepLimit):
        run("t1 = (0,) * 10000\nt2 = (t1,) * 10000\nt3 = (t2,) * 10000\nreturn {t3: 1}")
    with pytest.raises(StepLimit):
        run("t1 = (0,) * 10000\nt2 = (t1,) * 10000\nreturn t2 in {1: 2}")


def test_f4_sorting_shared_lists_is_charged_for_every_element_it_compares():
    with pytest.raises(StepLimit):
        run("b1 = [range(10000)] * 100\nb2 = [range(10000)] * 100\nreturn sorted([b1, b2] * 50)")


def test_f5_building_more_than_the_memory_budget_is_stopped_by_the_memory_limit():
    with pytest.raises(MemoryLimit) as stopped:
        run("a = [[range(10000) for j in range(10000)] for i in range(6)]\nreturn len(a)")
    assert str(MAX_BUILT) in stopped.value.reason


def test_f6_work_inside_helpers_is_charged_in_proportion_to_the_elements_they_touch(monkeypatch):
    calls = []
    real = helpers.connected
    monkeypatch.setattr(helpers, "connected", lambda *a: calls.append(1) or real(*a))
    from generator.evaluate import functions
    monkeypatch.setitem(functions.FUNCTIONS, "connected", functions.Function(helpers.connected,
                                                                            functions.FUNCTIONS["connected"].cost))
    with pytest.raises(StepLimit):
        run("a = [[connected(10000, []) for j in range(10000)] for i in range(5)]\nreturn 1")
    assert len(calls) <= MAX_STEPS // 10000  # each call of 10000 nodes costs at least 10000 steps


def test_f7_an_unhashable_dict_key_is_a_snippet_error_not_a_type_error():
    with pytest.raises(SnippetRuntimeError) as stopped:
        run("return {(1, [x]): 3}", x=1)
    assert "dict keys" in stopped.value.reason and stopped.value.line == 1


def test_every_limit_is_a_snippet_error_that_names_itself_and_gives_a_hint():
    for guard in (StepLimit, MemoryLimit, SizeLimit, DepthLimit):
        assert issubclass(guard, SnippetRuntimeError) and issubclass(guard, SnippetError)
        assert guard.limit.endswith("limit") and guard.hint
    assert issubclass(SnippetRefused, SnippetError) and not issubclass(SnippetRefused, SnippetRuntimeError)


def test_an_error_message_quotes_a_huge_value_briefly():
    with pytest.raises(SnippetRuntimeError) as stopped:
        run("b = [range(10000)] * 10000\nreturn distance(b, [0, 0])")
    assert "a list of 10000 items" in stopped.value.reason and len(str(stopped.value)) < 200


def test_a_shared_budget_is_spent_across_calls():
    snippet = Snippet.compile("t = 0\nfor i in range(n):\n    t += i\nreturn t", ["n"])
    budget = Budget(1000)
    assert snippet.run({"n": 10}, budget) == 45
    spent = budget.spent
    assert spent > 10
    with pytest.raises(StepLimit):
        for _ in range(1000):
            snippet.run({"n": 10}, budget)
    assert budget.spent > budget.limit >= spent


def test_the_step_budget_is_a_parameter_of_the_snippet():
    code = "t = 0\nfor i in range(1000):\n    t += i\nreturn t"
    assert Snippet.compile(code, [])() == 499500
    with pytest.raises(StepLimit):
        Snippet.compile(code, [], steps=500)()


def test_values_within_the_limits_are_compared_and_returned_normally():
    nested = [[1, 2]] * 100
    assert run("return values == [[1, 2]] * 100 and [1, 2] in values", values=nested) is True
    deep = _nested(MAX_VALUE_DEPTH - 1)
    assert run("values", values=deep) == deep


def test_check_reports_a_stopped_predicate_at_its_snippet_line_with_the_limit_and_a_hint():
    from generator.kb.examples import rule_cases, run_case
    from generator.kb.load import load

    from .conftest import ROOT

    kb, _ = load(ROOT)
    case = next(case for case in rule_cases(kb) if case.rule == "t9a/scout" and case.predicate == "deploy_ok")
    predicate = kb.rules["t9a/scout"].predicate("deploy_ok")
    predicate.snippet = Snippet.compile("x = 1\nreturn [range(10000)] * 10000 == [range(10000)] * 10000",
                                        predicate.params)
    code_line = kb.origins["t9a/scout"].line("predicates", kb.rules["t9a/scout"].predicates.index(predicate), "code")
    report = run_case(kb, case).describe()
    assert report.startswith(f"FAIL rules/t9a/scout.yaml:{code_line + 2}: t9a/scout: deploy_ok: step limit reached: ")
    assert f" — {StepLimit.hint} (example {case.case_id})" in report


def test_a_refused_operator_names_the_line_it_is_on():
    with pytest.raises(SnippetRefused) as refused:
        Snippet.compile("x = 1\ny = x << 2\nreturn y", [])
    assert refused.value.line == 2 and "shift" in refused.value.reason


def test_break_outside_a_loop_and_slice_assignment_are_refused_when_loaded():
    for code in ("if values:\n    break\nreturn 1", "values[0:1] = [2]\nreturn values", "values[0:1] += [2]\nreturn 1"):
        with pytest.raises(SnippetRefused):
            Snippet.compile(code, ["values"])


# --- each operator against plain CPython, on boundary values (code review §4.4, mutation 1) --------
# Operands are written into the snippet as literals, so a tuple stays a tuple (an argument arrives as JSON: a list).

def cpython(source: str):
    """What plain CPython makes of a literal expression: ("ok", value) or ("error", None)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # "perhaps you missed a comma?" on a literal's bad index
        try:
            return "ok", eval(source, {"__builtins__": __builtins__})  # noqa: S307 - our own literal test expressions
        except (ArithmeticError, LookupError, TypeError, ValueError):
            return "error", None


def evaluator(source: str):
    try:
        return "ok", run(source)
    except SnippetRuntimeError:
        return "error", None


def same_as_cpython(source: str) -> bool:
    """The same outcome, and a value of the same type with the same repr (so 1 is not 1.0 and 0.0 is not -0.0)."""
    (kind, expected), (got_kind, got) = cpython(source), evaluator(source)
    return kind == got_kind and type(expected) is type(got) and repr(expected) == repr(got)


NUMBERS = [0, 1, -1, 2, -2, 7, -7, 3.0, 0.5, -0.5, 2.5, -0.0, 0.1, True, False]
OTHERS = ["ab", "", [1], [1, 0], [], (1,), (1, 0), None, {"a": 1}]
ORDERED = [1, 2, 1.0, 0.5, -0.0, 0.0, True, False, "a", "b", "B", "", "é", "ab", [1], [1, 0], [0, 5], [], [1, "a"],
           [2, 0], (1,), (1, 0), (), None]


def pairs(values):
    return [(left, right) for left in values for right in values]


def expressions(op: str, operands) -> list[str]:
    return [f"{left!r} {op} {right!r}" for left, right in operands]


def wrong(sources) -> list[str]:
    return [source for source in sources if not same_as_cpython(source)]


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%"])
def test_an_arithmetic_operator_gives_what_cpython_gives_on_boundary_values(op):
    operands = pairs(NUMBERS + OTHERS)
    if op == "%":  # '%' on a string formats it in CPython; the evaluator refuses that (test_string_formatting_...)
        operands = [(left, right) for left, right in operands if not isinstance(left, str)]
    assert not wrong(expressions(op, operands))


def test_power_gives_what_cpython_gives_for_whole_exponents_and_square_roots():
    exponents = [0, 1, 2, 3, -1, -2, -3, 2.0, -2.0, 0.5, True, False, 10, -10]
    bases = [0, 1, -1, 2, -2, 7, -7, 3.0, 0.5, -0.5, 2.5, -0.0, 0.1, 10, True, 1.5]
    sources = expressions("**", [(base, exponent) for base in bases for exponent in exponents])
    assert not wrong(sources + ["2 ** 52", "(-2) ** 52", "2 ** -128", "2.0 ** 128", "0.5 ** 128", "0 ** 0", "0.0 ** 0"])


def test_power_stops_where_cpython_fails():
    for source in ("0 ** -1", "0.0 ** -2", "10.0 ** 400", "'a' ** 2", "None ** 2", "2 ** [1]"):
        assert cpython(source)[0] == "error", source
        assert evaluator(source)[0] == "error", source


def test_a_power_with_a_complex_result_is_refused():
    assert isinstance(cpython("(-8) ** 0.5")[1], complex)
    with pytest.raises(SnippetRuntimeError) as stopped:
        run("(-8) ** 0.5")
    assert "complex" in stopped.value.reason


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_an_order_comparison_gives_what_cpython_gives_on_boundary_values(op):
    assert not wrong(expressions(op, pairs(ORDERED)))


def test_the_order_comparisons_on_the_boundary_the_review_named():
    assert run("1 < 1") is False and run("1 <= 1") is True and run("[1] < [1, 0]") is True
    assert run("1 > 1") is False and run("1 >= 1") is True and run("[1, 0] > [1]") is True
    assert run("0.5 < 1 < 1") is False and run("'a' < 'b' <= 'b'") is True


@pytest.mark.parametrize("op", ["==", "!="])
def test_an_equality_gives_what_cpython_gives_on_boundary_values(op):
    values = ORDERED + [{"a": 1}, {"a": 1.0}, {1: 2}, {True: 2}, {(1, 2): 3}, [[1]], [[1.0]]]
    assert not wrong(expressions(op, pairs(values)))


@pytest.mark.parametrize("op", ["in", "not in"])
def test_membership_gives_what_cpython_gives_on_boundary_values(op):
    items = [1, 1.0, True, 0, "a", "ab", "", [1], (1,), (1, 2), None, "é"]
    containers = [[1, 2], [[1]], [(1, 2)], "abc", "", "héllo", {"a": 1}, {1: 2}, {(1, 2): 3}, (1, 2), [], None, 5]
    assert not wrong(expressions(op, [(item, container) for item in items for container in containers]))


def test_identity_gives_what_cpython_gives_with_none_true_and_false():
    for op in ("is", "is not"):
        for left in [None, True, False, 0, 1, "", []]:
            for right in (None, True, False):
                assert same_as_cpython(f"{left!r} {op} {right!r}"), (left, op, right)


@pytest.mark.parametrize("op", ["-", "+", "not "])
def test_a_unary_operator_gives_what_cpython_gives(op):
    assert not wrong([f"{op}{value!r}" for value in NUMBERS + OTHERS])


@pytest.mark.parametrize("op", ["and", "or"])
def test_and_or_give_the_operand_cpython_gives(op):
    values = [0, 1, 0.0, -0.0, "", "x", [], [0], (), None, True, False, {}]
    assert not wrong(expressions(op, pairs(values)))


def test_an_if_expression_chooses_by_the_truth_cpython_gives():
    values = [0, 1, 0.0, -0.0, "", "0", [], [0], (), (0,), None, True, False, {}, {0: 0}, 0.1]
    assert not wrong([f"'yes' if {value!r} else 'no'" for value in values])


def test_a_subscript_gives_what_cpython_gives():
    sources = [f"{container!r}[{index!r}]" for container in ([1, 2, 3], (1, 2), "héllo", [], "")
               for index in (0, 1, 2, 3, -1, -3, -4, True, False, 1.0, "a", None)]
    sources += ["{'a': 1}['a']", "{'a': 1}['b']", "{1: 'x'}[1.0]", "{1: 'x'}[True]", "{(1, 2): 3}[(1, 2)]",
                "{(1, 2): 3}[(1, 2.0)]", "{0: 'z'}[-0.0]", "None[0]", "5[0]"]
    assert not wrong(sources)


def test_a_slice_gives_what_cpython_gives():
    bounds = [None, 0, 1, 3, -1, -2, 10, -10]
    sources = [f"{container!r}[{start!r}:{stop!r}:{step!r}]" for container in ([1, 2, 3, 4, 5], "héllo", (1, 2, 3))
               for start in bounds for stop in bounds for step in (None, 1, 2, -1, -2, 0)]
    sources += ["[1, 2][1.0:]", "[1, 2]['a':]", "{'a': 1}[0:1]", "None[1:]"]
    assert not wrong(sources)


def test_every_operator_the_evaluator_allows_has_a_test_against_cpython():
    import ast

    from generator.evaluate.operators import BINARY, COMPARE

    tested = {ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
              ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot}
    assert set(BINARY) | set(COMPARE) == tested


# --- where the evaluator is not CPython, on purpose: one answer in every engine ------------------

def test_a_slice_bound_must_be_a_whole_number_not_a_truth_value():
    assert cpython("[1, 2][True:]") == ("ok", [2])
    with pytest.raises(SnippetRuntimeError):
        run("[1, 2][True:]")


def test_string_formatting_with_percent_is_refused_where_cpython_would_format():
    assert cpython("'%s' % 1") == ("ok", "1")
    with pytest.raises(SnippetRuntimeError):
        run("'%s' % 1")


def test_a_power_with_an_exponent_neither_whole_nor_one_half_is_refused():
    for source in ("2 ** 0.25", "2.0 ** -0.5", "9 ** 1.5"):
        assert cpython(source)[0] == "ok"
        with pytest.raises(SnippetRuntimeError) as stopped:
            run(source)
        assert "whole exponent" in stopped.value.reason


def test_a_float_power_is_the_exact_power_rounded_once():
    from fractions import Fraction

    for base, exponent in [(1.1, 3), (0.7, 25), (1.0000001, 128), (3.3, -7), (1e-3, 100), (-1.7, 11)]:
        assert run(f"{base!r} ** {exponent}") == float(Fraction(base) ** exponent)


def test_whole_numbers_beyond_2_to_the_53_are_refused_in_every_form():
    limit = 2 ** 53 - 1
    assert run(f"{limit} + 0") == limit and run(f"-{limit} - 0") == -limit
    for source in (f"{limit} + 1", f"-{limit} - 1", "2 ** 53", "2 ** 26 * 2 ** 27", f"{limit} * -2", "int(1e16)",
                   "round(1e300)", "round(9007199254740991, -16)", "abs(-2 ** 52 * 2)", "sum([2 ** 52, 2 ** 52])",
                   f"sum([{limit}, 2, -2])"):
        with pytest.raises(SizeLimit):
            run(source)
    with pytest.raises(SnippetRefused):
        Snippet.compile(f"return {limit + 1}", [])
