"""What the value-fault differential shares: values to check for every declared argument, and each engine's faults.

Python's value_types.value_fault and kb-values.js's `fault` must give the same fault (or none) for every value:
test_value_faults runs the JavaScript side in QuickJS, tests/browser/test_differential in Chromium.
"""

from __future__ import annotations

import json
import random

from generator.kb.value_types import MAX_ITEMS, value_fault

from .differential import knowledge_base, type_pools

KB_VALUES = "docs/assets/javascripts/kb-values.js"

# Values that are wrong for some declared type: the reviews' typed lists («Marsh», «болото», "6+"), other kinds,
# out-of-range numbers, nesting, nulls and lists just past the limit.
STRANGERS = ["Marsh", "болото", "marsh", "any", "6+", "", "other", "daemons-of-tzeentch", "Tzeentch", 0, 1, 2, 6, 7,
             -1, 1.5, 2.5, 1e15, True, False, None, [], [1], [[1]], [1, 2], [0.5, 1], {"a": 1}]


def declared_arguments() -> list:
    """Every (rule key, predicate, argument) of the knowledge base, in a stable order."""
    return [(key, predicate.name, argument) for key, rule in sorted(knowledge_base().rules.items())
            for predicate in rule.predicates for argument in predicate.args]


def plain(value):
    """`value` as it crosses JSON: a whole float is an int (evaluate/values.argument reads it so)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def values_for(argument, pools: dict, seed: str, count: int) -> list:
    """`count` values to check against `argument`: of its type, its set, strangers, and lists built of them."""
    pick = random.Random(seed)
    own = pools.get(argument.type, []) + list(argument.values or [])
    found = []
    for _ in range(count):
        roll = pick.random()
        if roll < 0.3 and own:
            value = pick.choice(own)
        elif roll < 0.5:
            value = pick.choice(STRANGERS)
        elif roll < 0.9:
            items = own + STRANGERS if own else STRANGERS
            value = [pick.choice(items) for _ in range(pick.randint(0, 5))]
        else:
            value = [pick.choice(list(argument.values or [1]))] * (MAX_ITEMS + pick.randint(0, 1))
        found.append(plain(value))
    return found


def declared_json(argument) -> dict:
    return {"type": argument.type, "values": argument.values, "nullable": argument.nullable, "items": argument.items,
            "other": argument.other, "min": argument.min, "max": argument.max}


def python_faults(argument, values: list) -> list:
    return [list(fault) if (fault := value_fault(argument.type, value, argument.values, argument.nullable,
                                                 argument.items, argument.other, argument.min, argument.max)) else None
            for value in values]


def script_call(argument, values: list) -> str:
    """The JavaScript expression giving kb-values.js's fault for each value, as JSON text."""
    return (f"JSON.stringify(({json.dumps(values)}).map(function (v) {{ "
            f"return KbValues.fault({json.dumps(declared_json(argument))}, v); }}))")


def cases(count: int = 300):
    """(where, argument, values) for every declared argument, the same on every run."""
    pools = type_pools()
    for key, predicate, argument in declared_arguments():
        yield f"{key}:{predicate}:{argument.name}", argument, values_for(argument, pools, key + predicate, count)
