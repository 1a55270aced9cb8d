"""What a snippet's values weigh, and what crosses the boundary: arguments read as JSON, results as plain data.

Both engines read an argument the same way (kb-runtime.js's `fromJson` does what `argument` does): a
JSON value, so a tuple is a list, a whole float is an int, a dict's keys are strings in sorted order;
whole numbers beyond ±MAX_INT, infinities, NaN and lone surrogates are refused. `exact_json` is the
form in which the differential tests compare the engines' results, keeping what plain JSON loses.
"""

from __future__ import annotations

import math
import re

from .errors import DepthLimit, SizeLimit, SnippetRuntimeError
from .limits import MAX_INPUT_ELEMENTS, MAX_INT, MAX_SHOWN_CHARS, MAX_VALUE_DEPTH

SCALARS = (type(None), bool, int, float)
PLAIN_TYPES = (type(None), bool, int, float, str, list, tuple, dict)
KEY_TYPES = (type(None), bool, int, float, str, tuple)


def _children(value) -> list:
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    return value if isinstance(value, (list, tuple)) else ()


def weigh(value, limit: int) -> int:
    """Elements in `value`, nested ones included and a shared one counted each time it appears
    (what comparing or hashing it costs); stops early and returns more than `limit` once past it.

    A string weighs its length. Raises DepthLimit for values nested deeper than MAX_VALUE_DEPTH,
    which also ends the walk of a cyclic list.
    """
    count = 0
    stack = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        count += max(1, len(current)) if isinstance(current, str) else 1
        children = _children(current)
        if not children:
            if count > limit:
                return count
            continue
        if depth >= MAX_VALUE_DEPTH:
            raise DepthLimit(f"a value is nested more than {MAX_VALUE_DEPTH} levels deep")
        if count + len(children) > limit:
            return count + len(children)
        stack.extend((child, depth + 1) for child in children)
    return count


def shown(value) -> str:
    """A short text for an error message, made with bounded work whatever the value is."""
    if isinstance(value, (list, tuple, dict)):
        try:
            small = weigh(value, 20) <= 20
        except DepthLimit:
            small = False
        if not small:
            return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value) if isinstance(value, PLAIN_TYPES) else f"a {type(value).__name__}"
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS - 1] + "…"


def check_key(key, line) -> None:
    """Refuse a dict key that cannot be hashed (a list inside a tuple) before Python tries."""
    stack = [key]
    while stack:
        current = stack.pop()
        if not isinstance(current, KEY_TYPES):
            raise SnippetRuntimeError("dict keys must be strings, numbers or tuples of them", line)
        if isinstance(current, tuple):
            stack.extend(current)


def too_large(value) -> bool:
    """Whether `value` is a whole number (an int, or a whole float) beyond ±MAX_INT."""
    if isinstance(value, float):
        return math.isfinite(value) and value.is_integer() and abs(value) > MAX_INT
    return isinstance(value, int) and abs(value) > MAX_INT


def check_int(value, line) -> None:
    """Refuse an int result beyond ±MAX_INT, as the browser must (its numbers hold no larger whole number exactly)."""
    if isinstance(value, int) and abs(value) > MAX_INT:
        raise SizeLimit(f"the whole number {shown(value)} is beyond ±{MAX_INT} (2**53 − 1)", line)


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """The first surrogate code point in `text` as U+XXXX, or None: in Python a surrogate is never half of a
    character, and JavaScript would join two of them into one."""
    found = _SURROGATE.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def _walk(value, where: str, problem, keys) -> None:
    """Visit `value` depth-first, each item before the next and a dict's entries key then value, its keys in the
    order `keys(dict)` gives; `problem(item)` raises for a wrong item. kb-runtime.js walks the same way, so a value
    with several faults fails with the same error in both engines."""
    stack = [(value, 1)]
    count = 0
    while stack:
        current, depth = stack.pop()
        count += 1
        if count > MAX_INPUT_ELEMENTS:
            raise SizeLimit(f"{where} is too large (more than {MAX_INPUT_ELEMENTS} elements)")
        if not isinstance(current, PLAIN_TYPES):
            raise SnippetRuntimeError(f"{where} holds a {type(current).__name__}, which is not plain data")
        problem(current)
        if isinstance(current, dict):
            children = [item for key in keys(current) for item in (key, current[key])]
        else:
            children = current if isinstance(current, (list, tuple)) else ()
        if children and depth >= MAX_VALUE_DEPTH:
            raise DepthLimit(f"{where} is nested more than {MAX_VALUE_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in reversed(children))


def _string_keys(value: dict, where: str) -> None:
    if not all(isinstance(key, str) for key in value):
        raise SnippetRuntimeError(f"{where} holds a dict whose keys are not all strings, as JSON's are")


def _number_problem(value, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise SnippetRuntimeError(f"{where} holds {value!r}, which is not a finite number; give a number")
    if too_large(value):
        raise SizeLimit(f"{where} holds the whole number {shown(value)}, beyond ±{MAX_INT} (2**53 − 1)")


def _argument_problem(value, where: str) -> None:
    _number_problem(value, where)
    surrogate = lone_surrogate(value) if isinstance(value, str) else None
    if surrogate:
        raise SnippetRuntimeError(f"{where} holds a lone surrogate ({surrogate}), which is not text")
    if isinstance(value, dict):
        _string_keys(value, where)


def _as_json(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON cannot tell 3.0 from 3, and the browser reads both as the int
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_json(value[key]) for key in sorted(value)}
    return value


def argument(value, name: str):
    """An argument as both engines read it: a copy of the JSON value it stands for (a tuple becomes a list, a whole
    float an int, a dict's string keys come sorted: JSON objects have no order the browser keeps), after refusing
    what JSON or the browser cannot hold."""
    # Most arguments are text, whole numbers, true/false, nothing or a short list of them, which JSON holds as they
    # are: these let them through as checked_argument would; anything else, a fault too, takes checked_argument.
    if _as_it_is(value):
        return value
    if type(value) in (list, tuple) and len(value) < MAX_INPUT_ELEMENTS and all(map(_as_it_is, value)):
        return list(value)
    return checked_argument(value, f"argument {name!r}")


def _as_it_is(value) -> bool:
    """Whether JSON and the browser hold a scalar as it is: text with no lone surrogate, a whole number within
    ±MAX_INT, true/false or nothing."""
    kind = type(value)
    if kind is str:
        return not _SURROGATE.search(value)
    if kind is int:
        return -MAX_INT <= value <= MAX_INT
    return kind is bool or value is None


def checked_argument(value, where: str):
    """argument(), working through any value: every element checked, the JSON copy made."""
    if isinstance(value, (list, tuple, dict)):
        _walk(value, where, lambda item: _argument_problem(item, where), sorted)
    elif isinstance(value, PLAIN_TYPES):  # most arguments: what the walk would check of them, without the walk
        _argument_problem(value, where)
    else:
        raise SnippetRuntimeError(f"{where} holds a {type(value).__name__}, which is not plain data")
    return _as_json(value)


def _result_problem(value, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise SnippetRuntimeError(f"{where} holds {value!r}, which is not a finite number")
    if isinstance(value, dict):
        _string_keys(value, where)


def result(value):
    """A snippet's result, refused unless it is plain data that JSON carries: finite numbers, string keys."""
    if isinstance(value, (list, tuple, dict)):
        _walk(value, "the result", lambda item: _result_problem(item, "the result"), list)
    else:  # a scalar: a run makes nothing else
        _result_problem(value, "the result")
    return value


def exact_json(value):
    """`value` as JSON that keeps what plain JSON loses: a float as {"float": repr}, a tuple as {"tuple": [...]},
    a dict as {"dict": [[key, value], ...]} in its order. kb-runtime.js's `tagged` writes the same form."""
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, tuple):
        return {"tuple": [exact_json(item) for item in value]}
    if isinstance(value, list):
        return [exact_json(item) for item in value]
    if isinstance(value, dict):
        return {"dict": [[exact_json(key), exact_json(item)] for key, item in value.items()]}
    return value
