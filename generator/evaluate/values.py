"""What a snippet's values weigh: elements counted with nested ones, bounded walks, plain-data checks."""

from __future__ import annotations

from .errors import DepthLimit, SizeLimit, SnippetRuntimeError
from .limits import MAX_INPUT_ELEMENTS, MAX_SHOWN_CHARS, MAX_VALUE_DEPTH

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


def plain(value, where: str):
    """Refuse anything but plain data, too large or too deep, so no live object crosses the boundary."""
    stack = [(value, 1)]
    count = 0
    while stack:
        current, depth = stack.pop()
        count += 1
        if count > MAX_INPUT_ELEMENTS:
            raise SizeLimit(f"{where} is too large (more than {MAX_INPUT_ELEMENTS} elements)")
        if not isinstance(current, PLAIN_TYPES):
            raise SnippetRuntimeError(f"{where} holds a {type(current).__name__}, which is not plain data")
        children = _children(current)
        if children and depth >= MAX_VALUE_DEPTH:
            raise DepthLimit(f"{where} is nested more than {MAX_VALUE_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in children)
    return value
