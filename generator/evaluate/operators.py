"""Guarded operators: each checks the size of its result before Python computes it.

Integers stay within ±MAX_INT (every result is checked by the interpreter), so int arithmetic is exact in both
engines; `**` with a float result is defined in `exact`, not by the host's pow.
"""

from __future__ import annotations

import ast
import math
import operator

from . import exact
from .errors import SizeLimit, SnippetRuntimeError
from .limits import MAX_EXPONENT, MAX_SEQUENCE
from .values import check_key

NUMBERS = (int, float)
SEQUENCES = (str, list, tuple)
OPERANDS = NUMBERS + SEQUENCES


def _operands(left, right) -> None:
    if not isinstance(left, OPERANDS) or not isinstance(right, OPERANDS):
        raise SnippetRuntimeError(f"unsupported operand types {type(left).__name__} and {type(right).__name__}")


def safe_add(left, right):
    _operands(left, right)
    if isinstance(left, SEQUENCES) and isinstance(right, SEQUENCES) and len(left) + len(right) > MAX_SEQUENCE:
        raise SizeLimit(f"a value grew past {MAX_SEQUENCE} elements")
    return left + right


def safe_sub(left, right):
    _operands(left, right)
    return left - right


def safe_mult(left, right):
    _operands(left, right)
    sequence, count = (left, right) if isinstance(left, SEQUENCES) else (right, left)
    if isinstance(sequence, SEQUENCES) and isinstance(count, int):
        if len(sequence) * max(count, 0) > MAX_SEQUENCE:
            raise SizeLimit(f"repetition would exceed {MAX_SEQUENCE} elements")
    return left * right


def safe_div(left, right):
    _operands(left, right)
    return left / right


def safe_floordiv(left, right):
    _operands(left, right)
    return left // right


def safe_mod(left, right):
    _operands(left, right)
    if isinstance(left, str):
        raise SnippetRuntimeError("'%' string formatting is not allowed")
    return left % right


def safe_pow(left, right):
    """Python's ** on ints (exact, then held within ±MAX_INT); with a float result, the exact power rounded once
    for a whole exponent, the square root for 0.5, and nothing else: other powers depend on the host's pow."""
    if not isinstance(left, NUMBERS) or not isinstance(right, NUMBERS):
        raise SnippetRuntimeError("'**' needs numbers")
    if abs(right) > MAX_EXPONENT:
        raise SizeLimit(f"exponent {right!r} exceeds the limit of {MAX_EXPONENT}")
    if isinstance(left, int) and isinstance(right, int) and right >= 0:
        return left ** right
    if right == 0.5:
        if left < 0:
            raise SnippetRuntimeError("the result is a complex number")
        return math.sqrt(left) if left else 0.0  # as Python's pow: the root of -0.0 is 0.0
    if not float(right).is_integer():
        raise SnippetRuntimeError(f"'**' takes a whole exponent, or 0.5 for a square root, not {right!r}")
    try:
        return exact.power(left, int(right))
    except ZeroDivisionError:
        raise SnippetRuntimeError("0.0 cannot be raised to a negative power") from None
    except OverflowError:
        raise SnippetRuntimeError("the result is too large for a float") from None


BINARY = {
    ast.Add: safe_add, ast.Sub: safe_sub, ast.Mult: safe_mult, ast.Div: safe_div,
    ast.FloorDiv: safe_floordiv, ast.Mod: safe_mod, ast.Pow: safe_pow,
}


def contains(container, item) -> bool:
    if not isinstance(container, (list, tuple, str, dict)):
        raise SnippetRuntimeError("'in' needs a list, string or dict on its right")
    if isinstance(container, dict):
        check_key(item, None)
    return item in container


COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda left, right: contains(right, left),
    ast.NotIn: lambda left, right: not contains(right, left),
}
