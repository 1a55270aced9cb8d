"""Trusted functions that predicate snippets may call: plain-data builtins, geometry and dice.

Each helper's cost in evaluation steps is declared beside it in `evaluate/functions.py`, in proportion
to the elements it touches; kb-runtime.js reimplements every one of them for the browser. Where the
host decides a result (CPython 3.12 compensates a float `sum`, `math.hypot` differs from V8's), the
helper defines it instead, as the runtime does: `sum` adds left to right, and geometry is exact, then
rounded once (`exact`). `sorted` may use Python's sort while the runtime merge-sorts: a stable sort's
result is unique, and a sort fails exactly when two of the values cannot be compared, whichever pairs
it compares (lists compare at their first differing item, so no chain of comparable values ever links
two that cannot be compared, and a sort must compare every pair that ends up side by side).
"""

from __future__ import annotations

import math

from . import exact
from .limits import MAX_ROUND_DIGITS, MAX_SEQUENCE
from .values import check_int, shown


class HelperError(ValueError):
    """A helper was called with values it does not accept."""


def _sequence(value, name="argument"):
    if isinstance(value, dict):
        return list(value)
    if not isinstance(value, (list, tuple, str)):
        raise HelperError(f"{name} must be a list, got {type(value).__name__}")
    return list(value)


def _number(value, name="argument"):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HelperError(f"{name} must be a number, got {shown(value)}")
    return value


def _point(value, name="point"):
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise HelperError(f"{name} must be [x, y], got {shown(value)}")
    return _number(value[0], name), _number(value[1], name)


def safe_abs(value):
    return abs(_number(value))


def safe_all(values):
    return all(_sequence(values))


def safe_any(values):
    return any(_sequence(values))


def safe_bool(value):
    return bool(value)


def safe_enumerate(values):
    return [[index, item] for index, item in enumerate(_sequence(values))]


def safe_float(value):
    if isinstance(value, str):
        raise HelperError("float() takes a number")
    return float(_number(value))


def safe_int(value):
    if isinstance(value, float) and not math.isfinite(value):
        raise HelperError("int() of an infinite number")
    return int(_number(value))


def safe_len(value):
    if isinstance(value, (list, tuple, str, dict)):
        return len(value)
    raise HelperError(f"argument must be a list, got {type(value).__name__}")


def safe_list(value):
    return _sequence(value)


def _items(arguments):
    if len(arguments) == 1:
        items = _sequence(arguments[0])
    else:
        items = list(arguments)
    if not items:
        raise HelperError("needs at least one value")
    return items


def safe_max(*arguments):
    return max(_items(arguments))


def safe_min(*arguments):
    return min(_items(arguments))


def range_length(*arguments) -> int:
    """How many numbers range(*arguments) holds; HelperError unless one to three integers."""
    if not 1 <= len(arguments) <= 3 or not all(isinstance(a, int) and not isinstance(a, bool) for a in arguments):
        raise HelperError("range() takes one to three integers")
    if len(arguments) == 3 and arguments[2] == 0:
        raise HelperError("range() step must not be zero")
    return len(range(*arguments))


def safe_range(*arguments):
    length = range_length(*arguments)
    if length > MAX_SEQUENCE:
        raise HelperError(f"range of {length} numbers exceeds {MAX_SEQUENCE}")
    return list(range(*arguments))


def safe_round(value, digits=None):
    _number(value)
    if digits is None:
        if isinstance(value, float) and not math.isfinite(value):
            raise HelperError("round() of an infinite number")
        return round(value)
    if not isinstance(digits, int) or isinstance(digits, bool) or not -MAX_ROUND_DIGITS <= digits <= MAX_ROUND_DIGITS:
        raise HelperError(f"round() digits must be an integer between -{MAX_ROUND_DIGITS} and {MAX_ROUND_DIGITS}")
    return round(value, digits)


def safe_sorted(values):
    return sorted(_sequence(values))


def safe_str(value):
    if not isinstance(value, (type(None), bool, int, float, str)):
        raise HelperError("str() takes a number, a boolean, a string or null")
    return str(value)


def safe_sum(values):
    """Left to right from 0, each partial sum as '+' makes it: no compensation, ints within ±MAX_INT."""
    items = _sequence(values)
    for item in items:
        _number(item, "each item")
    total = 0
    for item in items:
        total = total + item
        check_int(total, None)
    return total


def safe_zip(*sequences):
    return [list(group) for group in zip(*(_sequence(s) for s in sequences))]


def _finite(value, name):
    if isinstance(value, float) and not math.isfinite(value):
        raise HelperError(f"{name} must be a finite number, got {shown(value)}")
    return value


def distance(a, b) -> float:
    """Straight-line distance between two points [x, y]: the exact distance, rounded once to the nearest float."""
    (ax, ay), (bx, by) = _point(a, "a"), _point(b, "b")
    for coordinate in (ax, ay, bx, by):
        _finite(coordinate, "a coordinate")
    return exact.norm(exact.difference(ax, bx), exact.difference(ay, by))


def square_gap(a, b, side) -> float:
    """Edge-to-edge gap between two axis-aligned squares of the given side centred at a and b; 0 if they touch.
    Exact, then rounded once, as `distance`."""
    (ax, ay), (bx, by) = _point(a, "a"), _point(b, "b")
    side = _number(side, "side")
    for coordinate in (ax, ay, bx, by, side):
        _finite(coordinate, "a coordinate or the side")
    return exact.norm(exact.gap(ax, bx, side), exact.gap(ay, by, side))


def connected(count, pairs) -> bool:
    """Whether nodes 0..count-1 form one group when each [i, j] pair links two of them."""
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_SEQUENCE:
        raise HelperError(f"count must be a whole number from 0 to {MAX_SEQUENCE}")
    parent = list(range(count))

    def root(node):
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for pair in _sequence(pairs, "pairs"):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise HelperError(f"each pair must be [i, j], got {shown(pair)}")
        i, j = pair
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < count for n in (i, j)):
            raise HelperError(f"pair {shown(pair)} names a node outside 0..{count - 1}")
        parent[root(i)] = root(j)
    return len({root(node) for node in range(count)}) <= 1
