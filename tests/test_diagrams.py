"""Diagrams: the geometry apart from the pictures, the probe's per-renderer memory, the registry."""

from __future__ import annotations

from generator.render.diagrams import Probe
from generator.render.diagrams.drawings.light_infantry import enemy_of
from generator.render.diagrams.drawings.skirmishers import marked_gaps
from generator.render.diagrams.registry import DRAWINGS


def test_marked_gaps_are_the_spanning_links_and_every_pair_too_close():
    # Three bases of 1″ in a row, 0.5″ apart, and a fourth touching the third (gap 0).
    figures = [[0, 0], [1.5, 0], [3, 0], [4, 0]]
    gaps, marked = marked_gaps(figures, 1.0, low=0.5)
    assert gaps[(0, 1)] == 0.5 and gaps[(2, 3)] == 0.0
    assert marked == [(0, 1), (1, 2), (2, 3)]  # the chain; (2, 3) is also the one too close


def test_the_probe_asks_the_predicate_once_per_key_and_finds_the_limit():
    calls = []

    def at_least_twelve(distance, budget):
        calls.append(distance)
        return distance >= 12

    probe = Probe()
    first = probe.boundaries("k", at_least_twelve, 0.0, 48.0, 0.5)
    asked = len(calls)
    assert first == [(12.0, False, True)]
    assert probe.boundaries("k", at_least_twelve, 0.0, 48.0, 0.5) == first and len(calls) == asked
    assert Probe().found == {}  # nothing kept between renderers


def test_the_enemy_of_a_closing_unit_comes_from_the_same_units_anchor_example(kb):
    rule = kb.rules["t9a/light-infantry"]
    figure = next(e for e in rule.examples if e.id == "figure-15-close-ranks")
    anchor = next(e for e in rule.examples if e.predicate == "anchor_candidates"
                  and e.given["models"] == figure.given["models"] and figure.given["anchor"] in e.expect)
    assert enemy_of(rule, figure.given["models"], figure.given["anchor"]) == anchor.given["enemy"]
    assert enemy_of(rule, figure.given["models"], len(figure.given["models"]) + 1) is None


def test_drawings_are_registered_by_rule_key_outside_the_engine():
    assert ("t9a/scout", "deploy_ok") in DRAWINGS and ("battlesystem/skirmishers", "formation_ok") in DRAWINGS
