"""Run predicate snippets in an allow-list interpreter: whatever is not named here is refused.

A snippet is vetted when its rule is loaded (`vetting`: parse, then one validator per node kind),
then run by `interpreter` (a dispatch table of node handlers over guarded `operators` and the
`functions` table). Every call spends a `Budget` of steps — one per node visited and one per
element an operation touches, nested elements included (`values.weigh`) — and may build at most
MAX_BUILT elements; calls that share a whole (a file's worked examples, a run's) also spend an
`Allowance` of MAX_FILE_STEPS or MAX_RUN_STEPS; `limits` holds every limit. Everything a snippet can get wrong is a
`SnippetError`: `SnippetRefused` at load, `SnippetRuntimeError` while running, and its
`LimitReached` subclasses (`StepLimit`, `MemoryLimit`, `SizeLimit`, `DepthLimit`) name the guard
that stopped it. `to_js` compiles the same vetted tree to JavaScript for the browser, and both
engines give one answer: arguments are read as JSON (`values.argument`), whole numbers stay within
±MAX_INT, and what a host would decide (hypot, pow, float sums, a float's digits) is
defined here (`exact`, `helpers`) and mirrored step for step by kb-runtime.js. `clauses` reads the
`# clause` notes that say which clause each statement applies; `trace` records, in both engines alike,
each condition tested and the step that returned, with its clause.
"""

from __future__ import annotations

from .budget import Allowance, Budget, call_budget, spent_allowance
from .errors import (
    DepthLimit,
    LimitReached,
    MemoryLimit,
    SizeLimit,
    SnippetError,
    SnippetRefused,
    SnippetRuntimeError,
    StepLimit,
)
from .functions import FUNCTIONS
from .limits import (
    MAX_BUILT, MAX_EXPONENT, MAX_FILE_STEPS, MAX_INT, MAX_PROBE_STEPS, MAX_RUN_STEPS, MAX_SEQUENCE, MAX_STEPS,
    MAX_VALUE_DEPTH,
)
from .snippet import Snippet
from .values import PLAIN_TYPES
from .vetting import check_snippet

__all__ = [
    "Allowance", "Budget", "DepthLimit", "FUNCTIONS", "LimitReached", "MAX_BUILT", "MAX_EXPONENT", "MAX_FILE_STEPS",
    "MAX_INT", "MAX_PROBE_STEPS", "MAX_RUN_STEPS", "MAX_SEQUENCE", "MAX_STEPS", "MAX_VALUE_DEPTH", "MemoryLimit",
    "PLAIN_TYPES", "SizeLimit", "Snippet", "SnippetError", "SnippetRefused", "SnippetRuntimeError", "StepLimit",
    "call_budget", "check_snippet", "spent_allowance",
]
