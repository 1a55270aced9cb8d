"""Run predicate snippets in an allow-list interpreter: whatever is not named here is refused."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from . import helpers

MAX_SOURCE_CHARS = 8_000  # a predicate is a few lines; anything longer is a mistake or an attack
MAX_AST_NODES = 2_000  # keeps parsing and validation cheap
MAX_DEPTH = 30  # deeper nesting than this is never needed and can exhaust the interpreter's stack
MAX_STEPS = 200_000  # evaluation steps per call (each node visit, each element a helper touches)
MAX_SEQUENCE = 10_000  # elements in any list, tuple, dict or string a snippet builds
MAX_INT_BITS = 512  # integers larger than this are refused (no bignum bombs)
MAX_EXPONENT = 128  # largest integer exponent allowed in **

PLAIN_TYPES = (type(None), bool, int, float, str, list, tuple, dict)

_ALLOWED_NODES = (
    ast.Module, ast.Expr, ast.Return, ast.Assign, ast.AugAssign, ast.If, ast.For,
    ast.Break, ast.Continue, ast.Pass,
    ast.Name, ast.Load, ast.Store, ast.Constant,
    ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call,
    ast.List, ast.Tuple, ast.Dict, ast.Subscript, ast.Slice,
    ast.ListComp, ast.GeneratorExp, ast.comprehension,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
)

# Why a node is refused, in words a contributor can act on.
_REFUSAL_HINTS = {
    ast.Attribute: "attribute access (x.y) is not allowed; use the listed functions instead",
    ast.Import: "imports are not allowed",
    ast.ImportFrom: "imports are not allowed",
    ast.While: "'while' is not allowed; use 'for ... in range(n)'",
    ast.Lambda: "'lambda' is not allowed",
    ast.FunctionDef: "'def' is not allowed; the snippet is already a function body",
    ast.AsyncFunctionDef: "'async def' is not allowed",
    ast.ClassDef: "'class' is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.Starred: "'*' unpacking is not allowed",
    ast.Global: "'global' is not allowed",
    ast.Nonlocal: "'nonlocal' is not allowed",
    ast.Try: "'try' is not allowed",
    ast.With: "'with' is not allowed",
    ast.Raise: "'raise' is not allowed",
    ast.Delete: "'del' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
    ast.Await: "'await' is not allowed",
    ast.NamedExpr: "':=' is not allowed",
    ast.SetComp: "set comprehensions are not allowed; use a list comprehension",
    ast.DictComp: "dict comprehensions are not allowed",
    ast.Set: "set literals are not allowed; use a list",
    ast.Assert: "'assert' is not allowed",
    ast.LShift: "bit shifts are not allowed",
    ast.RShift: "bit shifts are not allowed",
    ast.BitAnd: "bitwise operators are not allowed",
    ast.BitOr: "bitwise operators are not allowed",
    ast.BitXor: "bitwise operators are not allowed",
    ast.Invert: "bitwise operators are not allowed",
    ast.MatMult: "'@' is not allowed",
}

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": helpers.safe_abs,
    "all": helpers.safe_all,
    "any": helpers.safe_any,
    "bool": bool,
    "enumerate": helpers.safe_enumerate,
    "float": helpers.safe_float,
    "int": helpers.safe_int,
    "len": helpers.safe_len,
    "list": helpers.safe_list,
    "max": helpers.safe_max,
    "min": helpers.safe_min,
    "range": helpers.safe_range,
    "round": helpers.safe_round,
    "sorted": helpers.safe_sorted,
    "str": helpers.safe_str,
    "sum": helpers.safe_sum,
    "zip": helpers.safe_zip,
    "distance": helpers.distance,
    "square_gap": helpers.square_gap,
    "connected": helpers.connected,
}


class SnippetError(Exception):
    """A snippet refused when it is loaded: it uses something the evaluator does not allow."""

    def __init__(self, reason: str, line: int | None = None):
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


class SnippetRuntimeError(Exception):
    """A snippet stopped while running: a limit was reached or an operation failed."""

    def __init__(self, reason: str, line: int | None = None):
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def _bad_name(name: str) -> bool:
    return name.startswith("_") or name.endswith("_") or "__" in name


def _depth(node: ast.AST, limit: int) -> int:
    stack = [(node, 1)]
    deepest = 0
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((child, level + 1) for child in ast.iter_child_nodes(current))
    return deepest


def check_snippet(source: str, params: list[str]) -> ast.Module:
    """Parse and vet a snippet; return its tree or raise SnippetError naming the first offence."""
    if not isinstance(source, str) or not source.strip():
        raise SnippetError("the code is empty; write the body of the predicate, ending in 'return'")
    if len(source) > MAX_SOURCE_CHARS:
        raise SnippetError(f"the code is {len(source)} characters long; the limit is {MAX_SOURCE_CHARS}")
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError as error:
        raise SnippetError(f"syntax error: {error.msg}", error.lineno) from None
    except (RecursionError, MemoryError, ValueError):
        raise SnippetError("the code is nested too deeply to parse") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_AST_NODES:
        raise SnippetError(f"the code has {len(nodes)} syntax nodes; the limit is {MAX_AST_NODES}")
    if _depth(tree, MAX_DEPTH) > MAX_DEPTH:
        raise SnippetError(f"the code is nested more than {MAX_DEPTH} levels deep")
    for param in params:
        if _bad_name(param):
            raise SnippetError(f"argument name {param!r} may not begin or end with '_' or contain '__'")
    assigned = set(params)
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            assigned.add(node.id)
    for node in nodes:
        line = getattr(node, "lineno", None)
        if not isinstance(node, _ALLOWED_NODES):
            hint = _REFUSAL_HINTS.get(type(node), f"'{type(node).__name__}' is not an allowed construct")
            raise SnippetError(hint, line)
        if isinstance(node, ast.Name):
            if _bad_name(node.id):
                raise SnippetError(f"name {node.id!r}: names may not begin or end with '_' or contain '__'", line)
            if isinstance(node.ctx, ast.Load) and node.id not in assigned and node.id not in FUNCTIONS:
                raise SnippetError(
                    f"unknown name {node.id!r}; use an argument ({', '.join(params) or 'none'}), "
                    f"a variable assigned in the snippet, or an allowed function", line)
            if isinstance(node.ctx, ast.Store) and node.id in FUNCTIONS:
                raise SnippetError(f"{node.id!r} is a function name and cannot be assigned", line)
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, (type(None), bool, int, float, str)):
                raise SnippetError(f"constant of type {type(node.value).__name__} is not allowed", line)
            if isinstance(node.value, str) and "__" in node.value:
                raise SnippetError("strings containing '__' are not allowed", line)
            if isinstance(node.value, str) and len(node.value) > MAX_SEQUENCE:
                raise SnippetError("string constant is too long", line)
            if isinstance(node.value, int) and node.value.bit_length() > MAX_INT_BITS:
                raise SnippetError("integer constant is too large", line)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise SnippetError(
                    "only these functions may be called: " + ", ".join(sorted(FUNCTIONS)), line)
            if node.keywords:
                raise SnippetError("keyword arguments in calls are not allowed", line)
        elif isinstance(node, ast.comprehension):
            if node.is_async:
                raise SnippetError("async comprehensions are not allowed", line)
        elif isinstance(node, ast.For):
            if node.orelse:
                raise SnippetError("'for ... else' is not allowed", line)
    return tree


def _check_size(value, line):
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise SnippetRuntimeError(f"integer result exceeds {MAX_INT_BITS} bits", line)
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_SEQUENCE:
        raise SnippetRuntimeError(f"a value grew past {MAX_SEQUENCE} elements", line)
    if isinstance(value, float) and math.isnan(value):
        raise SnippetRuntimeError("the result is not a number (NaN)", line)
    return value


def _length(value) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict)) else 0


_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b,
}

_COMPARE = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
}


@dataclass
class _Run:
    """The state of one call: variables and the work done so far."""

    env: dict[str, Any]
    steps: int = 0
    budget: int = MAX_STEPS

    def tick(self, line, cost: int = 1):
        self.steps += cost
        if self.steps > self.budget:
            raise SnippetRuntimeError(f"stopped after {self.budget} evaluation steps", line)

    # statements -----------------------------------------------------------------
    def run_block(self, body):
        for statement in body:
            self.run_statement(statement)

    def run_statement(self, node):
        line = node.lineno
        self.tick(line)
        if isinstance(node, ast.Return):
            raise _Return(None if node.value is None else self.value(node.value))
        if isinstance(node, ast.Expr):
            self.value(node.value)
        elif isinstance(node, ast.Assign):
            value = self.value(node.value)
            for target in node.targets:
                self.assign(target, value, line)
        elif isinstance(node, ast.AugAssign):
            current = self.value(ast.Name(id=node.target.id, ctx=ast.Load(), lineno=line)
                                 if isinstance(node.target, ast.Name) else _as_load(node.target))
            value = self.binary(node.op, current, self.value(node.value), line)
            self.assign(node.target, value, line)
        elif isinstance(node, ast.If):
            self.run_block(node.body if self.truth(self.value(node.test), line) else node.orelse)
        elif isinstance(node, ast.For):
            for item in self.iterable(self.value(node.iter), line):
                self.tick(line)
                self.assign(node.target, item, line)
                try:
                    self.run_block(node.body)
                except _Break:
                    break
                except _Continue:
                    continue
        elif isinstance(node, ast.Break):
            raise _Break()
        elif isinstance(node, ast.Continue):
            raise _Continue()
        elif isinstance(node, ast.Pass):
            pass
        else:  # pragma: no cover - check_snippet refuses everything else
            raise SnippetRuntimeError(f"'{type(node).__name__}' cannot run", line)

    def assign(self, target, value, line):
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self.iterable(value, line)
            if len(items) != len(target.elts):
                raise SnippetRuntimeError(
                    f"cannot unpack {len(items)} values into {len(target.elts)} names", line)
            for element, item in zip(target.elts, items):
                self.assign(element, item, line)
        elif isinstance(target, ast.Subscript):
            container = self.value(target.value)
            key = self.value(target.slice)
            if not isinstance(container, (list, dict)) or isinstance(key, slice):
                raise SnippetRuntimeError("only list items and dict entries can be assigned", line)
            try:
                container[key] = value
            except (IndexError, KeyError, TypeError) as error:
                raise SnippetRuntimeError(f"cannot assign item: {error}", line) from None
            _check_size(container, line)
        else:
            raise SnippetRuntimeError("this assignment target is not allowed", line)

    # expressions ----------------------------------------------------------------
    def value(self, node):
        line = getattr(node, "lineno", None)
        self.tick(line)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in FUNCTIONS:
                raise SnippetRuntimeError(f"{node.id!r} is a function; call it", line)
            raise SnippetRuntimeError(f"name {node.id!r} is used before it is assigned", line)
        if isinstance(node, ast.BinOp):
            return self.binary(node.op, self.value(node.left), self.value(node.right), line)
        if isinstance(node, ast.UnaryOp):
            operand = self.value(node.operand)
            if isinstance(node.op, ast.Not):
                return not self.truth(operand, line)
            if not isinstance(operand, (int, float)):
                raise SnippetRuntimeError("unary + and - need a number", line)
            return -operand if isinstance(node.op, ast.USub) else +operand
        if isinstance(node, ast.BoolOp):
            result = None
            for operand in node.values:
                result = self.value(operand)
                truth = self.truth(result, line)
                if isinstance(node.op, ast.And) and not truth:
                    return result
                if isinstance(node.op, ast.Or) and truth:
                    return result
            return result
        if isinstance(node, ast.Compare):
            left = self.value(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self.value(right_node)
                if isinstance(op, (ast.In, ast.NotIn)):
                    if not isinstance(right, (list, tuple, str, dict)):
                        raise SnippetRuntimeError("'in' needs a list, string or dict on its right", line)
                    self.tick(line, _length(right))
                try:
                    outcome = _COMPARE[type(op)](left, right)
                except TypeError as error:
                    raise SnippetRuntimeError(f"cannot compare: {error}", line) from None
                if not outcome:
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self.value(node.body if self.truth(self.value(node.test), line) else node.orelse)
        if isinstance(node, ast.Call):
            function = FUNCTIONS[node.func.id]
            arguments = [self.value(argument) for argument in node.args]
            self.tick(line, sum(_length(argument) for argument in arguments))
            try:
                result = function(*arguments)
            except helpers.HelperError as error:
                raise SnippetRuntimeError(f"{node.func.id}(): {error}", line) from None
            except (TypeError, ValueError, OverflowError, ZeroDivisionError) as error:
                raise SnippetRuntimeError(f"{node.func.id}(): {error}", line) from None
            return _check_size(result, line)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.value(element) for element in node.elts]
            return _check_size(items if isinstance(node, ast.List) else tuple(items), line)
        if isinstance(node, ast.Dict):
            if any(key is None for key in node.keys):
                raise SnippetRuntimeError("'**' in dict literals is not allowed", line)
            result = {}
            for key_node, value_node in zip(node.keys, node.values):
                key = self.value(key_node)
                if not isinstance(key, (str, int, float, bool, type(None), tuple)):
                    raise SnippetRuntimeError("dict keys must be strings, numbers or tuples", line)
                result[key] = self.value(value_node)
            return _check_size(result, line)
        if isinstance(node, ast.Subscript):
            container = self.value(node.value)
            key = self.value(node.slice)
            if not isinstance(container, (list, tuple, str, dict)):
                raise SnippetRuntimeError("only lists, tuples, strings and dicts can be indexed", line)
            if isinstance(key, slice):
                self.tick(line, _length(container))
            try:
                return container[key]
            except (IndexError, KeyError, TypeError) as error:
                raise SnippetRuntimeError(f"index {key!r}: {type(error).__name__}: {error}", line) from None
        if isinstance(node, ast.Slice):
            bounds = [None if part is None else self.value(part) for part in (node.lower, node.upper, node.step)]
            if any(bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)) for bound in bounds):
                raise SnippetRuntimeError("slice bounds must be integers", line)
            if bounds[2] == 0:
                raise SnippetRuntimeError("slice step cannot be zero", line)
            return slice(*bounds)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            # A generator expression is evaluated eagerly into a list: no generator object ever exists.
            return _check_size(self.comprehension(node.elt, node.generators, dict(self.env), line), line)
        raise SnippetRuntimeError(f"'{type(node).__name__}' cannot be evaluated", line)  # pragma: no cover

    def comprehension(self, element, generators, scope, line):
        results = []
        outer = self.env

        def walk(index):
            if index == len(generators):
                results.append(self.value(element))
                _check_size(results, line)
                return
            generator = generators[index]
            for item in self.iterable(self.value(generator.iter), line):
                self.tick(line)
                self.assign(generator.target, item, line)
                if all(self.truth(self.value(condition), line) for condition in generator.ifs):
                    walk(index + 1)

        self.env = scope
        try:
            walk(0)
        finally:
            self.env = outer
        return results

    def binary(self, op, left, right, line):
        allowed = (int, float, str, list, tuple)
        if not isinstance(left, allowed) or not isinstance(right, allowed):
            raise SnippetRuntimeError(
                f"unsupported operand types {type(left).__name__} and {type(right).__name__}", line)
        if isinstance(op, ast.Pow):
            if not all(isinstance(side, (int, float)) for side in (left, right)):
                raise SnippetRuntimeError("'**' needs numbers", line)
            if abs(right) > MAX_EXPONENT:
                raise SnippetRuntimeError(f"exponent {right!r} exceeds the limit of {MAX_EXPONENT}", line)
        if isinstance(op, ast.Mod) and isinstance(left, str):
            raise SnippetRuntimeError("'%' string formatting is not allowed", line)
        if isinstance(op, ast.Mult):
            sequence, count = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
            if isinstance(sequence, (str, list, tuple)) and isinstance(count, int):
                if len(sequence) * max(count, 0) > MAX_SEQUENCE:
                    raise SnippetRuntimeError(f"repetition would exceed {MAX_SEQUENCE} elements", line)
            elif isinstance(left, int) and isinstance(right, int):
                if left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                    raise SnippetRuntimeError(f"integer result exceeds {MAX_INT_BITS} bits", line)
        if isinstance(op, ast.Add) and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
            if len(left) + len(right) > MAX_SEQUENCE:
                raise SnippetRuntimeError(f"a value grew past {MAX_SEQUENCE} elements", line)
            self.tick(line, len(left) + len(right))
        try:
            result = _BINARY[type(op)](left, right)
        except ZeroDivisionError:
            raise SnippetRuntimeError("division by zero", line) from None
        except (TypeError, OverflowError, ValueError) as error:
            raise SnippetRuntimeError(f"cannot compute: {error}", line) from None
        if isinstance(result, complex):
            raise SnippetRuntimeError("the result is a complex number", line)
        return _check_size(result, line)

    def iterable(self, value, line):
        if isinstance(value, dict):
            return list(value)
        if isinstance(value, (list, tuple, str)):
            return list(value)
        raise SnippetRuntimeError(f"cannot loop over a value of type {type(value).__name__}", line)

    def truth(self, value, line):
        if not isinstance(value, PLAIN_TYPES):
            raise SnippetRuntimeError("this value has no truth value here", line)
        return bool(value)


def _as_load(node):
    copy = ast.Subscript(value=node.value, slice=node.slice, ctx=ast.Load())
    return ast.copy_location(copy, node)


def _plain(value, where="argument"):
    """Refuse anything but plain data as input, so no live Python object reaches a snippet."""
    stack = [value]
    count = 0
    while stack:
        current = stack.pop()
        count += 1
        if count > MAX_SEQUENCE * 10:
            raise SnippetRuntimeError(f"{where} is too large")
        if isinstance(current, (list, tuple)):
            stack.extend(current)
        elif isinstance(current, dict):
            stack.extend(current.keys())
            stack.extend(current.values())
        elif not isinstance(current, PLAIN_TYPES):
            raise SnippetRuntimeError(f"{where} holds a {type(current).__name__}, which is not plain data")
    return value


@dataclass
class Snippet:
    """A vetted predicate body, callable with keyword arguments only."""

    source: str
    params: list[str]
    tree: ast.Module = field(repr=False)

    @classmethod
    def compile(cls, source: str, params: list[str]) -> "Snippet":
        tree = check_snippet(source, params)
        body = tree.body
        if len(body) == 1 and isinstance(body[0], ast.Expr):
            # A lone expression is its own result.
            body[0] = ast.copy_location(ast.Return(value=body[0].value), body[0])
        return cls(source=source, params=list(params), tree=tree)

    def __call__(self, **arguments):
        missing = [name for name in self.params if name not in arguments]
        extra = [name for name in arguments if name not in self.params]
        if missing or extra:
            parts = []
            if missing:
                parts.append("missing " + ", ".join(missing))
            if extra:
                parts.append("unexpected " + ", ".join(extra))
            raise SnippetRuntimeError("wrong arguments: " + "; ".join(parts))
        env = {}
        for name, value in arguments.items():
            env[name] = _plain(value, f"argument {name!r}")
        run = _Run(env=env)
        try:
            run.run_block(self.tree.body)
        except _Return as returned:
            return _plain(returned.value, "the result")
        except (_Break, _Continue):
            raise SnippetRuntimeError("'break' or 'continue' outside a loop") from None
        except RecursionError:
            raise SnippetRuntimeError("the snippet is nested too deeply to run") from None
        raise SnippetRuntimeError("the code ended without 'return'")
