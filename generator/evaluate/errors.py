"""The snippet error family: refused at load, or stopped while running, with the limit that stopped it."""

from __future__ import annotations


class SnippetError(Exception):
    """Anything wrong with a snippet, with the line of the snippet (1-based) when known and a hint."""

    hint = "rewrite the snippet with the constructs listed in rules/README.md"

    def __init__(self, reason: str, line: int | None = None):
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


class SnippetRefused(SnippetError):
    """A snippet refused when it is loaded: it uses something the evaluator does not allow."""


class SnippetRuntimeError(SnippetError):
    """A snippet stopped while running: an operation failed on the values it was given."""

    hint = "check the values the example gives and what the snippet does with them"


class LimitReached(SnippetRuntimeError):
    """A snippet stopped by one of the limits in `limits.py`; `limit` names which."""

    limit = "a limit"


class StepLimit(LimitReached):
    """The step budget ran out: too much work (loops, comparisons, helpers)."""

    limit = "step limit"
    hint = "do less work: loop over fewer items, or compare and sort smaller values"


class MemoryLimit(LimitReached):
    """The snippet built more elements in total than one call may."""

    limit = "memory limit"
    hint = "build fewer or smaller lists and strings"


class SizeLimit(LimitReached):
    """One value grew too large: a list, string, dict or whole number."""

    limit = "size limit"
    hint = "keep lists and strings under 10000 elements and whole numbers within ±9007199254740991 (2**53 − 1)"


class DepthLimit(LimitReached):
    """A value or the evaluation nested too deeply."""

    limit = "depth limit"
    hint = "nest lists less deeply"
