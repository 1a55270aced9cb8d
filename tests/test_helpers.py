"""The trusted helpers snippets may call: geometry and plain-data builtins with bounded work."""

from __future__ import annotations

import math

import pytest

from generator.evaluate.helpers import HelperError, connected, distance, safe_max, safe_range, square_gap


def test_distance_is_euclidean():
    assert distance([0, 0], [3, 4]) == 5


def test_square_gap_is_measured_edge_to_edge():
    assert square_gap([0, 0], [1.5, 0], 1) == pytest.approx(0.5)  # side by side, half an inch apart
    assert square_gap([0, 0], [1, 0], 1) == 0  # touching
    assert square_gap([0, 0], [0.5, 0.5], 1) == 0  # overlapping
    assert square_gap([0, 0], [2, 2], 1) == pytest.approx(math.sqrt(2))  # corner to corner


def test_connected_sees_one_chain_or_separate_groups():
    assert connected(4, [[0, 1], [1, 2], [2, 3]])
    assert not connected(4, [[0, 1], [2, 3]])
    assert connected(1, []) and connected(0, [])


def test_helpers_refuse_values_they_were_not_made_for():
    with pytest.raises(HelperError):
        distance([0, 0], "far")
    with pytest.raises(HelperError):
        connected(3, [[0, 7]])
    with pytest.raises(HelperError):
        safe_range(10 ** 9)
    with pytest.raises(HelperError):
        safe_max([])
