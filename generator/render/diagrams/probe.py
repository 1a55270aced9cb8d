"""Reading a predicate for a drawing: value shapes, and where an answer changes along one argument.

Limits a drawing shows (the ½″–1″ gap of a skirmish chain, a scout's 18″ and 12″) are read off the
predicate itself by probing it, so a diagram cannot disagree with the code the examples test. The
results are kept in a `Probe` that lives as long as one build's renderer, not in the process.
"""

from __future__ import annotations

from typing import Callable

from ...evaluate import MAX_PROBE_STEPS, Budget
from ...kb.model import Example, Rule
from ...kb.value_types import is_point

BISECTIONS = 40  # halvings of a step where the answer changes: far below the 1/1000″ the result is rounded to


def is_points(value) -> bool:
    return isinstance(value, (list, tuple)) and len(value) >= 1 and all(is_point(p) for p in value)



class Probe:
    """Where predicates' answers change, remembered for one build."""

    def __init__(self):
        self.found: dict = {}

    def boundaries(self, key, answer: Callable[[float, Budget], object], low: float, high: float,
                   step: float) -> list[tuple]:
        """Where a predicate's answer changes along one argument: [(value, answer below, answer above)].

        Scans from `low` to `high`, then narrows each change down by bisection. Values are rounded to
        1/1000, so a limit written as "at least ½″" with a 1e-9 tolerance comes out as 0.5.
        """
        if key in self.found:
            return self.found[key]
        found = []
        budget = Budget(MAX_PROBE_STEPS)  # every probe of this boundary shares one step budget
        count = int(round((high - low) / step))
        previous_value, previous = low, answer(low, budget)
        for index in range(1, count + 1):
            value = low + index * step
            current = answer(value, budget)
            if current != previous:
                a, b = previous_value, value
                for _ in range(BISECTIONS):
                    middle = (a + b) / 2
                    if answer(middle, budget) == previous:
                        a = middle
                    else:
                        b = middle
                found.append((round(b, 3), previous, current))
            previous_value, previous = value, current
        self.found[key] = found
        return found


def predicate_taking(rule: Rule, example: Example, names: list[str]):
    """The example's predicate if it takes exactly these arguments (else the drawing does not apply)."""
    predicate = rule.predicate(example.predicate)
    if predicate is None or predicate.snippet is None or predicate.params != names:
        return None
    return predicate
