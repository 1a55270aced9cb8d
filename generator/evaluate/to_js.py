"""Compile a vetted snippet to JavaScript, so the browser answers with the same predicate as the tests.

API (for the page's "ask this rule" panel):

- `compile_predicate(rule, predicate) -> str | None` — a self-contained JavaScript function expression
  `(function (args, budget) {...})`, or None when the predicate has no vetted snippet (a refused
  snippet compiles to nothing). Call it with an object of keyword arguments named as in the rule's
  YAML; values are JSON: numbers, booleans, strings, null, lists (a point is `[x, y]`, points a list
  of them, a size `[width, depth]`, dice a list of numbers), objects. Both engines read them alike
  (`values.argument`): a whole number is an int, any other a float; an object's keys come sorted;
  infinities, NaN, lone surrogates and whole numbers beyond ±MAX_INT are refused. It returns the
  JSON result (a float as a number, a tuple as a list), or throws an Error with `name === "KbError"`
  and `kind` one of `SnippetRuntimeError`, `StepLimit`, `MemoryLimit`, `SizeLimit`, `DepthLimit` —
  the class the Python evaluator raises. `KbRuntime.exactly(fn, args, budget)` returns the result as
  `values.exact_json` writes it instead (float vs int, tuples and dict order kept): the differential
  tests compare the engines with it, exactly.
  `budget` is optional: a `new KbRuntime.Budget(steps)` shared by several calls (default: one
  MAX_STEPS budget per call, as in Python).
- `compile_snippet(snippet) -> str` — the same for a `Snippet`.
- `RUNTIME` — the path of `kb-runtime.js`, which defines `globalThis.KbRuntime` (Python's semantics
  for numbers, strings, lists, tuples and dicts, the helpers, the meter). Load it once per page,
  before any compiled predicate runs.

Python semantics kept where JavaScript differs: truthiness, `//` and `%` on negatives (CPython's
algorithms), `round` half to even on the exact binary value, deep `==` and `in`, chained comparisons,
int vs float (floats are boxed, so `7/2` is 3.5, `str(6/2)` is "3.0", `range(2.0)` is refused),
string repetition, code-point strings, dict keys (1, 1.0 and True are one key). Where Python itself
leaves a result to the host, both engines follow the evaluator's own definition instead: whole numbers
stay within ±MAX_INT (2**53 − 1) in both, `distance`, `square_gap` and float `**` are exact then rounded
once, `sum` adds left to right, and a float's text is the shortest that reads back, worked out exactly.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
from pathlib import Path

from .snippet import Snippet

RUNTIME = Path(__file__).resolve().parents[2] / "docs" / "assets" / "javascripts" / "kb-runtime.js"

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
            ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


def _constant(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)  # within ±MAX_INT: vetting refuses a larger one
    if isinstance(value, float):
        return f"R.float({repr(value) if math.isfinite(value) else 'Infinity'})"
    return json.dumps(value)


def _js_name(name: str) -> str:
    """A JavaScript variable for a snippet name: ASCII as it is, any other letter spelled as its code point."""
    return "v_" + "".join(c if c.isascii() else f"$u{ord(c):x}" for c in name)


class _Compiler:
    """One snippet's translation: Python names to JavaScript names, scope by scope."""

    def __init__(self, params: list[str], local_names: set[str], notation=None):
        self.params = set(params)
        self.names = {name: _js_name(name) for name in set(params) | local_names}
        self.fresh = itertools.count(1)
        self.notation = notation  # clauses.Notation: what a traced run records, as the interpreter reads it

    def step(self, owner, at) -> str:
        """The arguments of a traced step: its line, column and clause (trace.py's keys)."""
        clause = self.notation.clause_of.get(id(owner)) if self.notation else None
        return f"{at.lineno}, {at.col_offset}, {json.dumps(clause)}"

    def temp(self, stem: str = "t") -> str:
        return f"${stem}{next(self.fresh)}"

    # statements -----------------------------------------------------------------------------------
    def block(self, body) -> str:
        return "".join(f"R.t(); {self.statement(node)}\n" for node in body)

    def statement(self, node) -> str:
        return getattr(self, f"s_{type(node).__name__}")(node)

    def s_Return(self, node):
        value = "null" if node.value is None else self.expr(node.value)
        return f"return R.ret({self.step(node, node)}, () => {value});"

    def s_Expr(self, node):
        return f"{self.expr(node.value)};"

    def s_Assign(self, node):
        value = self.temp()
        binds = " ".join(self.bind(target, value) for target in node.targets)
        return f"{{ const {value} = {self.expr(node.value)}; {binds} }}"

    def s_AugAssign(self, node):
        target = node.target
        load = ast.Name(id=target.id, ctx=ast.Load()) if isinstance(target, ast.Name) else \
            ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())
        value = self.temp()
        operation = f"R.binop({json.dumps(_BINARY[type(node.op)])}, {self.expr(load)}, {self.expr(node.value)})"
        return f"{{ const {value} = {operation}; {self.bind(target, value)} }}"

    def s_If(self, node):
        test = f"R.test({self.step(node, node.test)}, () => R.truth({self.expr(node.test)}))"
        return f"if ({test}) {{\n{self.block(node.body)}}} else {{\n{self.block(node.orelse)}}}"

    def s_For(self, node):
        item = self.temp("i")
        return (f"for (const {item} of R.iter({self.expr(node.iter)})) {{ R.t(); {self.bind(node.target, item)}\n"
                f"{self.block(node.body)}}}")

    def s_Break(self, node):
        return "break;"

    def s_Continue(self, node):
        return "continue;"

    def s_Pass(self, node):
        return ";"

    def bind(self, target, value: str) -> str:
        if isinstance(target, ast.Name):
            return f"{self.names[target.id]} = {value};"
        if isinstance(target, (ast.Tuple, ast.List)):
            items = self.temp("u")
            parts = " ".join(self.bind(element, f"{items}[{index}]") for index, element in enumerate(target.elts))
            return f"{{ const {items} = R.unpack({value}, {len(target.elts)}); {parts} }}"
        return f"R.setitem({self.expr(target.value)}, {self.expr(target.slice)}, {value});"

    # expressions: each visit costs a step first, as in interpreter.Run.value ------------------------
    def expr(self, node) -> str:
        return f"(R.t(), {getattr(self, f'e_{type(node).__name__}')(node)})"

    def e_Constant(self, node):
        return _constant(node.value)

    def e_Name(self, node):
        name = self.names[node.id]
        value = name if node.id in self.params else f"({name} === undefined ? R.unbound({json.dumps(node.id)}) : {name})"
        if self.notation and id(node) in self.notation.recorded_names:
            return f"R.read({json.dumps(node.id)}, {value})"
        return value

    def e_BinOp(self, node):
        return f"R.binop({json.dumps(_BINARY[type(node.op)])}, {self.expr(node.left)}, {self.expr(node.right)})"

    def e_UnaryOp(self, node):
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            return f"R.not({operand})"
        return f"R.neg({operand}, {'true' if isinstance(node.op, ast.UAdd) else 'false'})"

    def e_BoolOp(self, node):
        thunks = ", ".join(f"() => {self.expr(value)}" for value in node.values)
        return f"R.{'and' if isinstance(node.op, ast.And) else 'or'}([{thunks}])"

    def e_Compare(self, node):
        pairs = ", ".join(f'["{_COMPARE[type(op)]}", () => {self.expr(right)}]'
                          for op, right in zip(node.ops, node.comparators))
        if self.notation and id(node) in self.notation.recorded_compares:
            names = [self.notation.operands.get(id(n)) for n in (node.left, *node.comparators)]
            return f"R.compare({self.expr(node.left)}, [{pairs}], {json.dumps(names)})"
        return f"R.compare({self.expr(node.left)}, [{pairs}])"

    def e_IfExp(self, node):
        test = f"R.test({self.step(node, node.test)}, () => R.truth({self.expr(node.test)}))"
        return f"({test} ? {self.expr(node.body)} : {self.expr(node.orelse)})"

    def exprs(self, nodes) -> str:
        return ", ".join(self.expr(node) for node in nodes)

    def e_Call(self, node):
        return f'R.call("{node.func.id}", [{self.exprs(node.args)}])'

    def e_List(self, node):
        return f"R.list([{self.exprs(node.elts)}])"

    def e_Tuple(self, node):
        return f"R.tuple([{self.exprs(node.elts)}])"

    def e_Dict(self, node):
        entries = ", ".join(f"[() => {self.expr(key)}, () => {self.expr(value)}]"
                            for key, value in zip(node.keys, node.values))
        return f"R.dict([{entries}])"

    def e_Subscript(self, node):
        container = self.expr(node.value)
        if isinstance(node.slice, ast.Slice):
            bounds = ", ".join("null" if part is None else self.expr(part)
                               for part in (node.slice.lower, node.slice.upper, node.slice.step))
            return f"R.slice({container}, {bounds})"
        return f"R.getitem({container}, {self.expr(node.slice)})"

    def e_ListComp(self, node):
        """Its own scope: the loop names are fresh variables that start as copies of the outer ones."""
        outer = dict(self.names)
        targets = {n.id for generator in node.generators for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
        copies = []
        for name in sorted(targets):
            fresh = self.temp(f"c_{name}_")
            copies.append(f"let {fresh} = {self.names[name]};")
            self.names[name] = fresh
        params, self.params = self.params, self.params - targets
        results = self.temp("r")
        try:
            body = self.generators(node, 0, results)
        finally:
            self.names, self.params = outer, params
        return f"((() => {{ {' '.join(copies)} const {results} = [];\n{body}return {results}; }})())"

    e_GeneratorExp = e_ListComp

    def generators(self, node, index: int, results: str) -> str:
        if index == len(node.generators):
            return f"R.grow({results}, {self.expr(node.elt)});\n"
        generator = node.generators[index]
        item = self.temp("i")
        inner = self.generators(node, index + 1, results)
        if generator.ifs:
            test = " && ".join(f"R.truth({self.expr(condition)})" for condition in generator.ifs)
            inner = f"if ({test}) {{\n{inner}}}\n"
        return (f"for (const {item} of R.iter({self.expr(generator.iter)})) {{ R.t(); "
                f"{self.bind(generator.target, item)}\n{inner}}}\n")


def compile_snippet(snippet: Snippet) -> str:
    """The snippet as `(function (args, budget) {...})`, calling KbRuntime.run."""
    stored = {node.id for node in ast.walk(snippet.tree)
              if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    local_names = stored - set(snippet.params)
    compiler = _Compiler(snippet.params, local_names, snippet.notation)
    declarations = "".join(f"let {compiler.names[name]};\n" for name in sorted(local_names))
    arguments = "".join(f"let {compiler.names[name]} = A[{index}];\n" for index, name in enumerate(snippet.params))
    body = compiler.block(snippet.tree.body)
    return (f"(function (args, budget, trace) {{\nreturn KbRuntime.run({json.dumps(snippet.params)}, function (R, A) {{\n"
            f"{arguments}{declarations}{body}return KbRuntime.NO_RETURN;\n}}, args, budget, trace);\n}})")


def compile_source(source: str, params: list[str]) -> str:
    """Vet and compile a snippet's source; raises SnippetRefused, so a refused snippet compiles to nothing."""
    return compile_snippet(Snippet.compile(source, params))


def compile_predicate(rule, predicate) -> str | None:
    """The predicate's JavaScript function expression, or None when its code was refused at load."""
    snippet = getattr(predicate, "snippet", None)
    return compile_snippet(snippet) if snippet is not None else None
