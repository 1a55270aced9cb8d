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


class Allowance:
    """Steps that many calls share (a file's worked examples, a whole run), each call within its own step limit."""

    def __init__(self, steps: int, name: str):
        self.limit = steps
        self.name = name  # the constant that sets it, for the message that says which limit stopped a call
        self.spent = 0

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.spent)

    def spend(self, steps: int) -> None:
        self.spent += steps


def call_budget(call_steps: int, *allowances: Allowance) -> Budget:
    """The Budget of one call: its own step limit, or less when a shared allowance has less left."""
    return Budget(min([call_steps] + [allowance.remaining for allowance in allowances]))


def spent_allowance(budget: Budget, call_steps: int, *allowances: Allowance) -> Allowance | None:
    """Which allowance a call that reached its Budget's limit ran out of (None: the call's own step limit)."""
    if budget.limit >= call_steps:
        return None
    return min(allowances, key=lambda allowance: allowance.remaining)
