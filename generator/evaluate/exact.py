"""Float results the host's math library must not decide: worked out exactly in integers, then rounded once.

Python's `math.hypot` and `**`, and JavaScript's `Math.hypot` and `Math.pow`, differ in the last bit
between engines and versions, so `distance`, `square_gap` and a float `**` are
defined here instead: the exact value of the floats involved, rounded to the nearest float, ties to
even. kb-runtime.js does the same with BigInt, step for step, so both engines give the same bits.
"""

from __future__ import annotations

import math

_PRECISION = 53  # significant bits of a float
_MIN_EXPONENT = -1022  # exponent of the smallest normal float; subnormals hold fewer bits below it
_MAX_EXPONENT = 1023
_GUARD_BITS = _PRECISION + 2  # a rounded quotient or root is worked out to at least this many bits, plus a sticky bit


def parts(number) -> tuple[int, int]:
    """(m, e) with number == m * 2**e exactly, for an int or a finite float."""
    if isinstance(number, int):
        return int(number), 0
    numerator, denominator = number.as_integer_ratio()
    return numerator, 1 - denominator.bit_length()


def nearest(n: int, sticky: bool, e: int) -> float:
    """The float nearest to (n + f) * 2**e, ties to even, where 0 <= f < 1 and f > 0 exactly when `sticky`
    (a value known to lie strictly between n and n + 1); inf past the largest float.

    `n` must be 0 or hold at least _GUARD_BITS bits when `sticky` is set."""
    if n == 0:
        return 0.0
    bits = n.bit_length()
    top = bits - 1 + e  # the exponent of the leading bit
    if top > _MAX_EXPONENT:
        return math.inf
    precision = _PRECISION if top >= _MIN_EXPONENT else _PRECISION - (_MIN_EXPONENT - top)
    drop = bits - precision
    if drop <= 0:  # fits as it is
        return math.ldexp(float(n), e)
    mantissa = n >> drop
    rest = n - (mantissa << drop)
    half = 1 << (drop - 1)
    if rest > half or (rest == half and (sticky or mantissa & 1)):
        mantissa += 1
    if mantissa.bit_length() - 1 + e + drop > _MAX_EXPONENT:
        return math.inf
    return math.ldexp(float(mantissa), e + drop)


def quotient(p: int, q: int, e: int = 0) -> float:
    """The float nearest to p / q * 2**e, for p >= 0 and q > 0."""
    shift = max(0, _GUARD_BITS + q.bit_length() - p.bit_length())
    whole, rest = divmod(p << shift, q)
    return nearest(whole, rest != 0, e - shift)


def root(n: int, e: int) -> float:
    """The float nearest to the square root of n * 2**e, for n >= 0 and e even."""
    if n == 0:
        return 0.0
    k = max(0, (2 * _GUARD_BITS - n.bit_length() + 1) // 2)  # n * 4**k has enough bits for a root of _GUARD_BITS
    scaled = n << (2 * k)
    whole = math.isqrt(scaled)
    return nearest(whole, whole * whole != scaled, e // 2 - k)


def norm(dx: tuple[int, int], dy: tuple[int, int]) -> float:
    """The float nearest to sqrt(dx**2 + dy**2), each side given exactly as (m, e)."""
    (mx, ex), (my, ey) = dx, dy
    low = min(ex, ey)
    return root((mx * mx << 2 * (ex - low)) + (my * my << 2 * (ey - low)), 2 * low)


def difference(a, b) -> tuple[int, int]:
    """a - b exactly, as (m, e)."""
    (ma, ea), (mb, eb) = parts(a), parts(b)
    low = min(ea, eb)
    return (ma << (ea - low)) - (mb << (eb - low)), low


def gap(a, b, side) -> tuple[int, int]:
    """max(0, |a - b| - side) exactly, as (m, e): how far two squares of that side stand apart along one axis."""
    (md, ed), (ms, es) = difference(a, b), parts(side)
    low = min(ed, es)
    return max(0, (abs(md) << (ed - low)) - (ms << (es - low))), low


def power(base, exponent: int) -> float:
    """base ** exponent for a whole exponent, as a float: the exact power rounded once.

    Raises ZeroDivisionError for 0 to a negative power and OverflowError past the largest float."""
    if exponent == 0:
        return 1.0
    odd = exponent % 2 == 1
    negative = math.copysign(1.0, base) < 0 and odd
    if isinstance(base, float) and math.isinf(base):
        result = math.inf if exponent > 0 else 0.0
    elif base == 0:
        if exponent < 0:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        result = 0.0
    else:
        m, e = parts(base)
        m = abs(m)
        if exponent > 0:
            result = nearest(m ** exponent, False, e * exponent)
        else:
            result = quotient(1, m ** -exponent, e * exponent)
        if math.isinf(result):
            raise OverflowError("the result is too large for a float")
    return -result if negative else result
