"""kb-values.js refuses what value_types.value_fault refuses, with the same fault, in QuickJS (Chromium:
tests/browser/test_differential.py): every declared argument of every rule, its own values and strangers."""

from __future__ import annotations

import json

import quickjs

from .conftest import ROOT
from .value_faults import KB_VALUES, cases, python_faults, script_call


def test_every_declared_argument_gets_the_same_fault_in_python_and_quickjs():
    context = quickjs.Context()
    context.eval((ROOT / KB_VALUES).read_text(encoding="utf-8"))
    found, checked, refused = [], 0, 0
    for where, argument, values in cases():
        python = python_faults(argument, values)
        script = json.loads(context.eval(script_call(argument, values)))
        found += [(where, v, p, s) for v, p, s in zip(values, python, script) if p != s]
        checked += len(values)
        refused += sum(1 for p in python if p)
    assert checked >= 10_000 and refused > checked // 4, (checked, refused)
    assert not found, found[:5]


def test_a_strider_terrain_outside_the_list_is_the_same_item_fault_in_both():
    context = quickjs.Context()
    context.eval((ROOT / KB_VALUES).read_text(encoding="utf-8"))
    [(where, argument, _values)] = [c for c in cases(1) if c[0] == "wap/strider:movement_penalty_applies:strider"]
    values = [["marsh"], ["forest", "Marsh"], ["болото"], "marsh", [["marsh"]]]
    assert python_faults(argument, values) == [None, ["item", 1], ["item", 0], ["type"], ["item", 0]]
    assert json.loads(context.eval(script_call(argument, values))) == python_faults(argument, values)


def test_a_5000_deep_list_is_measured_without_recursion():
    context = quickjs.Context()
    context.eval((ROOT / KB_VALUES).read_text(encoding="utf-8"))
    deep = "(function () { var v = []; for (var i = 1; i < 5000; i++) v = [v]; return v; })()"
    assert context.eval(f"KbValues.depth(({deep}), 50)") == 51
    assert context.eval(f"JSON.stringify(KbValues.fault({{type: 'list', items: 'text'}}, ({deep})))") == '["item",0]'
