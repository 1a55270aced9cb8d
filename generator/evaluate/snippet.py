"""A vetted snippet as a callable: arguments read as JSON, the result checked out, every failure a SnippetError."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Mapping, Optional

from .budget import Budget, Meter
from .clauses import Notation, notation, read_notes
from .errors import DepthLimit, MemoryLimit, SnippetRuntimeError
from .interpreter import Break, Continue, Return, Run, checked
from .limits import MAX_BUILT, MAX_STEPS
from .trace import Trace
from .values import argument, result
from .vetting import check_snippet


def _argument_problem(params: list[str], arguments: Mapping) -> Optional[str]:
    missing = [name for name in params if name not in arguments]
    extra = [name for name in arguments if name not in params]
    parts = (["missing " + ", ".join(missing)] if missing else []) + \
        (["unexpected " + ", ".join(map(str, extra))] if extra else [])
    return "wrong arguments: " + "; ".join(parts) if parts else None


@dataclass
class Snippet:
    """A vetted predicate body, callable with keyword arguments only."""

    source: str
    params: list[str]
    tree: ast.Module = field(repr=False)
    steps: int = MAX_STEPS  # the step budget of one call made without a shared Budget
    notation: Notation = field(default_factory=Notation, repr=False)  # the clause each statement applies

    @classmethod
    def compile(cls, source: str, params: list[str], steps: int = MAX_STEPS) -> "Snippet":
        tree = check_snippet(source, params)
        body = tree.body
        if len(body) == 1 and isinstance(body[0], ast.Expr):
            # A lone expression is its own result.
            body[0] = ast.copy_location(ast.Return(value=body[0].value), body[0])
        return cls(source=source, params=list(params), tree=tree, steps=steps,
                   notation=notation(tree, read_notes(source)))

    def __call__(self, /, **arguments):
        return self.run(arguments)

    def explain(self, /, **arguments) -> tuple[object, list[dict]]:
        """The result and the steps that led to it (clauses, values read, comparisons; see trace.py)."""
        return self.traced(arguments)

    def traced(self, arguments: Mapping, budget: Optional[Budget] = None) -> tuple[object, list[dict]]:
        """As explain, spending `budget` (a fresh one of `steps` when none is given)."""
        trace = Trace()
        result = self.run(arguments, budget, trace)
        return result, trace.steps

    def run(self, arguments: Mapping, budget: Optional[Budget] = None, trace: Optional[Trace] = None):
        """The result for these arguments, spending `budget` (a fresh one of `steps` when none is shared)."""
        problem = _argument_problem(self.params, arguments)
        if problem:
            raise SnippetRuntimeError(problem)
        env = {name: argument(arguments[name], name) for name in self.params}
        run = Run(env, Meter(budget if budget is not None else Budget(self.steps)), self.notation, trace)
        try:
            run.block(self.tree.body)
        except Return as returned:
            return result(checked(returned.value, None))
        except (Break, Continue):
            raise SnippetRuntimeError("'break' or 'continue' outside a loop") from None
        except RecursionError:
            raise DepthLimit("the snippet is nested too deeply to run") from None
        except MemoryError:
            raise MemoryLimit(f"out of memory before the limit of {MAX_BUILT} elements was reached") from None
        raise SnippetRuntimeError("the code ended without 'return'")
