"""The snippet evaluator runs ordinary rule logic and refuses or stops everything hostile."""

from __future__ import annotations

import pytest

from generator.evaluate import (MAX_EXPONENT, MAX_SEQUENCE, MAX_STEPS, Snippet, SnippetError,
                                SnippetRuntimeError)


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
}


@pytest.mark.parametrize("code", HOSTILE_AT_LOAD.values(), ids=HOSTILE_AT_LOAD.keys())
def test_hostile_snippet_is_refused_when_loaded(code):
    with pytest.raises(SnippetError):
        Snippet.compile(code, ["values"])


def test_a_refusal_names_the_line_and_the_reason():
    with pytest.raises(SnippetError) as refused:
        Snippet.compile("x = 1\nreturn x.real", ["values"])
    assert refused.value.line == 2
    assert "attribute" in refused.value.reason


# --- stopped while running -----------------------------------------------------------------------

HOSTILE_AT_RUN = {
    "huge power": ("10 ** 10 ** 10", {}),
    "power just over the limit": (f"2 ** {MAX_EXPONENT + 1}", {}),
    "string repetition": ("'a' * 10 ** 9", {}),
    "list repetition": ("[0] * (10 ** 6)", {}),
    "growing list in a loop": ("x = [1]\nfor i in range(10000):\n    x = x + x\nreturn x", {}),
    "big range": ("range(10 ** 9)", {}),
    "nested loops exhaust steps": ("t = 0\nfor a in range(10000):\n    for b in range(10000):\n        t += 1\nreturn t", {}),
    "integer multiplication bomb": ("x = 2 ** 100\nfor i in range(20):\n    x = x * x\nreturn x", {}),
    "string percent formatting": ("'%s' % 1", {}),
    "division by zero": ("1 / 0", {}),
    "index out of range": ("[1][5]", {}),
    "no return": ("x = 1", {}),
    "wrong argument": ("values", {"other": 1}),
    "live object as argument": ("values", {"values": object()}),
    "comparing unlike types": ("1 < 'a'", {}),
}


@pytest.mark.parametrize("code,arguments", HOSTILE_AT_RUN.values(), ids=HOSTILE_AT_RUN.keys())
def test_hostile_snippet_is_stopped_while_running(code, arguments):
    snippet = Snippet.compile(code, ["values"] if "values" in code else list(arguments))
    with pytest.raises(SnippetRuntimeError):
        snippet(**arguments)


def test_the_step_limit_is_what_stops_an_endless_computation():
    snippet = Snippet.compile("t = 0\nfor a in range(10000):\n    for b in range(10000):\n        t += 1\nreturn t", [])
    with pytest.raises(SnippetRuntimeError) as stopped:
        snippet()
    assert str(MAX_STEPS) in str(stopped.value)


def test_sequences_are_capped_at_the_declared_limit():
    assert len(run(f"[0] * {MAX_SEQUENCE}")) == MAX_SEQUENCE
    with pytest.raises(SnippetRuntimeError):
        run(f"[0] * {MAX_SEQUENCE + 1}")


def test_results_are_plain_data_even_when_a_generator_expression_is_returned():
    result = run("(v * 2 for v in values)", values=[1, 2])
    assert result == [2, 4] and isinstance(result, list)
