"""A traced run: for each test of an `if` or a conditional expression and for the `return` that answered,
its clause, the values it read and the comparisons it made, in the order a reader follows them.

A test evaluated many times (in a loop) is one step, as it was last evaluated, with how many times it
was; steps are ordered by their last evaluation, so the return that answered comes last. The compiled
JavaScript records the same steps (docs/assets/javascripts/kb-runtime.js); the tests hold the two equal.
"""

from __future__ import annotations

from typing import Optional

COMPARISONS = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "In": "in",
               "NotIn": "not in", "Is": "is", "IsNot": "is not"}  # ast operator -> its name in a trace


class Trace:
    """The steps of one run, filled in by the interpreter as it goes."""

    def __init__(self):
        self._steps: dict[tuple, dict] = {}  # (kind, line, column) -> step; re-inserted when met again
        self._open: list[tuple[list, list]] = []  # (reads, comparisons) of the steps being evaluated, innermost last

    def begin(self) -> None:
        self._open.append(([], []))

    def read(self, name: str, value) -> None:
        if self._open:
            reads = self._open[-1][0]
            if all(read[0] != name for read in reads):
                reads.append([name, value])

    def compared(self, left, operator: str, right, holds: bool, left_name: Optional[str],
                 right_name: Optional[str]) -> None:
        if self._open:
            self._open[-1][1].append([left, operator, right, holds, left_name, right_name])

    def end(self, kind: str, line: int, column: int, clause: Optional[str], outcome) -> None:
        reads, comparisons = self._open.pop()
        key = (kind, line, column)
        before = self._steps.pop(key, None)
        self._steps[key] = {"kind": kind, "line": line, "column": column, "clause": clause, "reads": reads,
                            "compares": comparisons, "outcome": outcome,
                            "times": (before["times"] + 1) if before else 1}

    @property
    def steps(self) -> list[dict]:
        return list(self._steps.values())
