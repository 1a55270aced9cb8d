"""The cost of a call: a step Budget (shareable between calls) and a Meter that also counts what a call builds."""

from __future__ import annotations

from .errors import MemoryLimit, StepLimit
from .limits import MAX_BUILT, MAX_STEPS
from .values import SCALARS, weigh


class Budget:
    """Steps that one call, or many calls sharing it (diagram probing), may spend in total."""

    def __init__(self, steps: int = MAX_STEPS):
        self.limit = steps
        self.spent = 0

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.spent)

    def charge(self, cost: int, line: int | None = None) -> None:
        self.spent += cost
        if self.spent > self.limit:
            raise StepLimit(f"stopped after {self.limit} evaluation steps", line)


class Meter:
    """What one call spends: steps from its Budget, and elements built (its memory) against MAX_BUILT."""

    def __init__(self, budget: Budget):
        self.budget = budget
        self.built = 0

    def step(self, line: int | None, cost: int = 1) -> None:
        self.budget.charge(cost, line)

    def build(self, count: int, line: int | None) -> None:
        """Charge for `count` new elements: steps for the work, and the call's memory."""
        self.built += count
        if self.built > MAX_BUILT:
            raise MemoryLimit(f"built more than {MAX_BUILT} elements in one call", line)
        self.budget.charge(count, line)

    def touch(self, line: int | None, *values) -> None:
        """Charge for comparing, hashing or sorting values: every element, nested ones included."""
        for value in values:
            if isinstance(value, SCALARS):
                self.budget.charge(1, line)
            else:
                self.budget.charge(weigh(value, self.budget.remaining), line)
