"""The trusted helpers snippets may call: each against plain CPython (or an exact oracle) on boundary values."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from generator.evaluate import FUNCTIONS, SizeLimit, SnippetRuntimeError
from generator.evaluate.helpers import HelperError, connected, distance, safe_max, safe_range, square_gap

from .test_evaluate import cpython, evaluator, run, same_as_cpython

# Calls whose CPython answer the evaluator must give, value and type alike (see test_evaluate.same_as_cpython).
SAME_AS_CPYTHON = {
    "abs": ["abs(-0.0)", "abs(-7)", "abs(7)", "abs(-2.5)", "abs(0)", "abs('a')", "abs(None)", "abs([1])"],
    "all": ["all([])", "all([0, 1])", "all([1, 'a'])", "all('ab')", "all({0: 1})", "all([[]])", "all(5)"],
    "any": ["any([])", "any([0, ''])", "any([0, 0.0, -0.0, None, 1])", "any({})", "any('')", "any((0,))", "any(5)"],
    "bool": ["bool(0.0)", "bool(-0.0)", "bool([])", "bool('0')", "bool(None)", "bool({})", "bool((0,))", "bool(0.1)"],
    "enumerate": ["[list(p) for p in enumerate('ab')]", "[list(p) for p in enumerate([])]",
                  "[list(p) for p in enumerate({'a': 1})]", "[list(p) for p in enumerate([[1], None])]"],
    "float": ["float(7)", "float(-0.0)", "float(0)", "float(2.5)", "float(9007199254740991)", "float(None)",
              "float([1])"],
    "int": ["int(3.9)", "int(-3.9)", "int(-0.5)", "int(0.5)", "int(7)", "int(-0.0)", "int(4503599627370495.5)",
            "int(None)", "int([1])"],
    "len": ["len('')", "len('héllo😀')", "len([1, [2, 3]])", "len({1: 2, 'a': 3})", "len((1,))", "len(5)",
            "len(None)"],
    "list": ["list('ab😀')", "list((1, 2))", "list({'a': 1, 'b': 2})", "list([])", "list(5)"],
    "max": ["max([1, 2.0, 2])", "max(1, 2.0, 2)", "max(['b', 'a', 'B'])", "max([[1, 2], [1, 3], [1]])",
            "max([True, 1])", "max('héllo')", "max([])", "max([1, 'a'])", "max([-0.0, 0.0])", "max(5)"],
    "min": ["min([3, 1, 2])", "min(1, 1.0)", "min(['b', 'a', 'B'])", "min([(1, 2), (1,)])", "min([0.0, -0.0])",
            "min([])", "min(['a', 1])"],
    "range": ["list(range(5))", "list(range(5, 0, -2))", "list(range(0))", "list(range(-3))", "list(range(1, 10, 3))",
              "list(range(3, 3))", "list(range(-5, 5, 4))", "list(range(10, -10, -7))", "range(1.0)",
              "range(1, 2, 0)", "range('a')", "range(1, 2, 3, 4)"],
    "round": ["round(0.5)", "round(1.5)", "round(2.5)", "round(-0.5)", "round(-1.5)", "round(2.675, 2)",
              "round(0.125, 2)", "round(0.375, 2)", "round(25, -1)", "round(35, -1)", "round(-25, -1)", "round(5, 2)",
              "round(1.5, None)", "round(1234.5678, -2)", "round(-0.4)", "round(-0.4, 0)", "round(1e300, -20)",
              "round(5e-324, 20)", "round(7.0)", "round(0.5, 0)", "round(-2.5, 0)", "round('a')", "round(1.5, 0.5)"],
    "sorted": ["sorted([3, 1, 2])", "sorted(['b', 'a', 'B', 'é', ''])", "sorted([[1, 2], [1], [0, 9]])",
               "sorted([1, True, 0.5, False, 1.0])", "sorted([(1, 2), (1,), ()])", "sorted('cab')",
               "sorted({'b': 1, 'a': 2})", "sorted([])", "sorted([1, 'a'])", "sorted([[1], (1,)])", "sorted(5)"],
    "str": ["str(0.1)", "str(1e16)", "str(1e15)", "str(1e-5)", "str(1e-4)", "str(-0.0)", "str(123456789.0)",
            "str(1 / 3)", "str(True)", "str(None)", "str(5e-324)", "str(1.7976931348623157e308)",
            "str(9007199254740991)", "str(2.0 ** -24)", "str(1e22)", "str(1e23)", "str(-1.5)", "str('é')"],
    "sum": ["sum([])", "sum([1, 2])", "sum([1, 2.0])", "sum([0.5, 0.25, -0.75])", "sum([-0.0])", "sum([1.5, 2])",
            "sum({1: 'a', 2: 'b'})", "sum((1, 2))", "sum(['a'])", "sum([None])", "sum(5)"],
    "zip": ["[list(p) for p in zip([1, 2, 3], 'ab')]", "[list(p) for p in zip([])]",
            "[list(p) for p in zip([1], [2], [3])]", "[list(p) for p in zip('ab', {'x': 1})]", "zip(5)"],
}
# Helpers CPython does not have, checked against an exact oracle below.
OUR_OWN = {"distance", "square_gap", "connected"}


def test_every_helper_is_tested():
    assert set(SAME_AS_CPYTHON) | OUR_OWN == set(FUNCTIONS)


@pytest.mark.parametrize("name", sorted(SAME_AS_CPYTHON))
def test_a_helper_gives_what_cpython_gives_on_boundary_values(name):
    wrong = [source for source in SAME_AS_CPYTHON[name] if not same_as_cpython(source)]
    assert not wrong
    assert any(cpython(source)[0] == "ok" for source in SAME_AS_CPYTHON[name])


# Where a helper refuses what CPython accepts, on purpose: a rule means a number, a list or a scalar there.
REFUSED_THOUGH_CPYTHON_ANSWERS = [
    "abs(True)", "float(True)", "sum([True])", "range(True)", "int('5')", "float('1.5')", "str([1])", "str((1,))",
]


def test_a_helper_refuses_truth_values_for_numbers_text_for_numbers_and_containers_for_text():
    for source in REFUSED_THOUGH_CPYTHON_ANSWERS:
        assert cpython(source)[0] == "ok", source
        assert evaluator(source)[0] == "error", source
    assert evaluator("distance([True, 0], [0, 0])")[0] == "error"


def test_sum_adds_left_to_right_without_compensation():
    """N7: CPython 3.12 compensates a float sum (sum([0.1] * 10) == 1.0 there); left to right, it is 0.9999999999999999,
    as Python 3.11 and both browsers add."""
    total = 0
    for _ in range(10):
        total += 0.1
    assert run("sum([0.1] * 10)") == total == 0.9999999999999999
    assert run("sum([1e100, 1.0, -1e100])") == 0.0  # compensated: 1.0
    assert run("sum([0.1, 0.2, 0.3])") == (0.1 + 0.2) + 0.3


def test_sum_stops_at_a_partial_sum_beyond_2_to_the_53_even_if_the_total_is_back_within():
    with pytest.raises(SizeLimit):
        run("sum([9007199254740991, 2, -2])")
    assert run("sum([9007199254740991, -2, 2])") == 9007199254740991


def test_sorting_fails_exactly_when_two_of_the_values_cannot_be_compared():
    assert run("sorted([[2, 0], [1, 'a'], [0, 5]])") == [[0, 5], [1, "a"], [2, 0]]
    with pytest.raises(SnippetRuntimeError):
        run("sorted([[1, 'a'], [2, 0], [1, 0]])")
    with pytest.raises(SnippetRuntimeError):
        run("sorted([[0, None], [1], [0, None, 1], [0, 2]])")


# --- geometry: the exact value rounded once --------------------------------------------------------

def correctly_rounded(got: float, exact_square: Fraction) -> bool:
    """Whether `got` is the float nearest the square root of `exact_square`."""
    if exact_square == 0:
        return got == 0.0
    if math.isinf(got):  # past the largest float by at least half a unit in the last place
        return exact_square >= (Fraction(2) ** 1024 - Fraction(2) ** 970) ** 2
    here = Fraction(got)
    below = Fraction(math.nextafter(got, 0.0))
    above = Fraction(math.nextafter(got, math.inf)) if got < 1.7976931348623157e308 else here + Fraction(2) ** 971
    return ((below + here) / 2) ** 2 <= exact_square <= ((here + above) / 2) ** 2


def test_distance_is_euclidean():
    assert distance([0, 0], [3, 4]) == 5.0 and type(distance([0, 0], [3, 4])) is float
    assert distance([1, 1], [1, 1]) == 0.0 and distance([-0.0, 0], [0, 0]) == 0.0
    assert distance([0, 0], [4.2, 14.4]) == 15.0  # N3: Chromium's Math.hypot gives 15.000000000000002


def test_distance_is_the_exact_distance_rounded_once_on_a_board_and_at_the_extremes():
    pick = random.Random("distance")
    points = [[pick.randint(-300, 300) / 10, pick.randint(-300, 300) / 10] for _ in range(400)]
    points += [[5e-324, 0], [1e-300, 3e-300], [1.7976931348623157e308, 0], [1e200, 1e200], [0.1, 0.2]]
    for a, b in zip(points, points[1:] + points[:1]):
        exact_square = (Fraction(a[0]) - Fraction(b[0])) ** 2 + (Fraction(a[1]) - Fraction(b[1])) ** 2
        assert correctly_rounded(distance(a, b), exact_square), (a, b)


def test_square_gap_is_measured_edge_to_edge():
    assert square_gap([0, 0], [1.5, 0], 1) == 0.5  # side by side, half an inch apart
    assert square_gap([0, 0], [1, 0], 1) == 0  # touching
    assert square_gap([0, 0], [0.5, 0.5], 1) == 0  # overlapping
    assert square_gap([0, 0], [2, 2], 1) == math.sqrt(2)  # corner to corner


def test_square_gap_is_exact_then_rounded_once():
    pick = random.Random("square_gap")
    for _ in range(300):
        a = [pick.randint(-100, 100) / 10, pick.randint(-100, 100) / 10]
        b = [pick.randint(-100, 100) / 10, pick.randint(-100, 100) / 10]
        side = pick.choice([1, 0.8, 1.2, 25 / 25.4])
        gaps = [max(Fraction(0), abs(Fraction(p) - Fraction(q)) - Fraction(side)) for p, q in zip(a, b)]
        assert correctly_rounded(square_gap(a, b, side), gaps[0] ** 2 + gaps[1] ** 2), (a, b, side)


def test_geometry_refuses_infinite_coordinates():
    for source in ("distance([1e400, 0], [0, 0])", "square_gap([0, 0], [1, 1], 1e400)"):
        with pytest.raises(SnippetRuntimeError) as stopped:
            run(source)
        assert "finite" in stopped.value.reason


def test_connected_sees_one_chain_or_separate_groups():
    assert connected(4, [[0, 1], [1, 2], [2, 3]])
    assert connected(4, [[3, 2], [0, 3], [1, 0]])
    assert not connected(4, [[0, 1], [2, 3]])
    assert connected(1, []) and connected(0, []) and not connected(2, [])
    assert connected(2, [(0, 1)]) and connected(2, [[1, 1], [0, 1]])


def test_helpers_refuse_values_they_were_not_made_for():
    with pytest.raises(HelperError):
        distance([0, 0], "far")
    with pytest.raises(HelperError):
        distance([0, 0, 0], [1, 1])
    with pytest.raises(HelperError):
        connected(3, [[0, 7]])
    with pytest.raises(HelperError):
        connected(3, [[0, True]])
    with pytest.raises(HelperError):
        connected(-1, [])
    with pytest.raises(HelperError):
        safe_range(10 ** 9)
    with pytest.raises(HelperError):
        safe_max([])
