"""The interpreter: a dispatch table of small node handlers, each charging its Meter for the work it does."""

from __future__ import annotations

import ast
import math
from typing import Any, Callable

from . import helpers
from .budget import Meter
from .clauses import Notation
from .errors import SizeLimit, SnippetRuntimeError
from .functions import FUNCTIONS, built_by
from .limits import MAX_SEQUENCE
from .operators import BINARY, COMPARE
from .trace import COMPARISONS, Trace
from .values import PLAIN_TYPES, check_int, check_key, shown

# Python errors an operation on a snippet's values can raise; each becomes a SnippetRuntimeError at its line.
_OPERATION_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError)


class Return(Exception):
    """A 'return' unwinding to the call."""

    def __init__(self, value):
        self.value = value


class Break(Exception):
    """A 'break' unwinding to its loop."""


class Continue(Exception):
    """A 'continue' unwinding to its loop."""


def checked(value, line):
    """A value a snippet built, refused when too long, a whole number beyond ±MAX_INT, or NaN."""
    check_int(value, line)
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_SEQUENCE:
        raise SizeLimit(f"a value grew past {MAX_SEQUENCE} elements", line)
    if isinstance(value, float) and math.isnan(value):
        raise SnippetRuntimeError("the result is not a number (NaN)", line)
    return value


def _failure(error: Exception, line) -> SnippetRuntimeError:
    if isinstance(error, KeyError):
        return SnippetRuntimeError(f"no entry {shown(error.args[0]) if error.args else ''}", line)
    if isinstance(error, ZeroDivisionError):
        return SnippetRuntimeError("division by zero", line)
    return SnippetRuntimeError(f"cannot compute: {error}", line)


class Run:
    """One call: its variables, its meter, and (when it is traced) what each step read and decided."""

    def __init__(self, env: dict[str, Any], meter: Meter, notation: Notation | None = None,
                 trace: Trace | None = None):
        self.env = env
        self.meter = meter
        self.notation = notation
        self.trace = trace if notation is not None else None

    # dispatch -------------------------------------------------------------------------------------
    def block(self, body) -> None:
        for statement in body:
            self.meter.step(statement.lineno)
            STATEMENTS[type(statement)](self, statement)

    def value(self, node):
        line = getattr(node, "lineno", None)
        self.meter.step(line)
        try:
            return EXPRESSIONS[type(node)](self, node)
        except _OPERATION_ERRORS as error:
            raise _failure(error, line) from None
        except SnippetRuntimeError as error:
            if error.line is None:
                error.line = line
                error.args = (f"line {line}: {error.reason}",)
            raise

    def tested(self, owner, test) -> bool:
        """The truth of an `if`'s or a conditional expression's test, recorded as a step when traced."""
        if self.trace is None:
            return self.truth(self.value(test), test.lineno)
        self.trace.begin()
        outcome = self.truth(self.value(test), test.lineno)
        self.trace.end("test", test.lineno, test.col_offset, self.notation.clause_of.get(id(owner)), outcome)
        return outcome

    def truth(self, value, line) -> bool:
        if not isinstance(value, PLAIN_TYPES):  # pragma: no cover - only plain values exist in a run
            raise SnippetRuntimeError("this value has no truth value here", line)
        return bool(value)

    def iterate(self, value, line):
        """The items a loop visits; a dict's keys are copied, so assigning entries cannot break the loop."""
        if isinstance(value, dict):
            self.meter.build(len(value), line)
            return list(value)
        if isinstance(value, (list, tuple, str)):
            return value
        raise SnippetRuntimeError(f"cannot loop over a value of type {type(value).__name__}", line)

    # statements -----------------------------------------------------------------------------------
    def return_(self, node: ast.Return):
        if self.trace is not None:
            self.trace.begin()
        value = None if node.value is None else self.value(node.value)
        if self.trace is not None:
            self.trace.end("return", node.lineno, node.col_offset, self.notation.clause_of.get(id(node)), value)
        raise Return(value)

    def expression(self, node: ast.Expr):
        self.value(node.value)

    def assign(self, node: ast.Assign):
        value = self.value(node.value)
        for target in node.targets:
            self.bind(target, value, node.lineno)

    def augmented(self, node: ast.AugAssign):
        target = node.target
        load = ast.Name(id=target.id, ctx=ast.Load()) if isinstance(target, ast.Name) else \
            ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())
        current = self.value(ast.copy_location(load, node))
        result = self.operate(node.op, current, self.value(node.value), node.lineno)
        self.bind(target, result, node.lineno)

    def if_(self, node: ast.If):
        self.block(node.body if self.tested(node, node.test) else node.orelse)

    def for_(self, node: ast.For):
        for item in self.iterate(self.value(node.iter), node.lineno):
            self.meter.step(node.lineno)
            self.bind(node.target, item, node.lineno)
            try:
                self.block(node.body)
            except Break:
                break
            except Continue:
                continue

    def break_(self, node):
        raise Break()

    def continue_(self, node):
        raise Continue()

    def pass_(self, node):
        return None

    # binding --------------------------------------------------------------------------------------
    def bind(self, target, value, line) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target, value, line)
        else:
            self.store_item(target, value, line)

    def unpack(self, target, value, line) -> None:
        items = self.iterate(value, line)
        if len(items) != len(target.elts):
            raise SnippetRuntimeError(f"cannot unpack {len(items)} values into {len(target.elts)} names", line)
        for element, item in zip(target.elts, items):
            self.bind(element, item, line)

    def store_item(self, target: ast.Subscript, value, line) -> None:
        container = self.value(target.value)
        key = self.value(target.slice)
        if not isinstance(container, (list, dict)) or isinstance(key, slice):
            raise SnippetRuntimeError("only list items and dict entries can be assigned", line)
        if isinstance(container, dict):
            self.meter.touch(line, key)
            check_key(key, line)
            self.meter.build(1, line)
        try:
            container[key] = value
        except _OPERATION_ERRORS as error:
            raise SnippetRuntimeError(f"cannot assign item: {type(error).__name__}", line) from None
        checked(container, line)

    # expressions ----------------------------------------------------------------------------------
    def constant(self, node: ast.Constant):
        return node.value

    def name(self, node: ast.Name):
        if node.id in self.env:
            if self.trace is not None and id(node) in self.notation.recorded_names:
                self.trace.read(node.id, self.env[node.id])
            return self.env[node.id]
        raise SnippetRuntimeError(f"name {node.id!r} is used before it is assigned", node.lineno)

    def binary(self, node: ast.BinOp):
        return self.operate(node.op, self.value(node.left), self.value(node.right), node.lineno)

    def operate(self, op, left, right, line):
        result = BINARY[type(op)](left, right)
        if isinstance(result, (str, list, tuple)):
            self.meter.build(len(result), line)
        return checked(result, line)

    def unary(self, node: ast.UnaryOp):
        operand = self.value(node.operand)
        if isinstance(node.op, ast.Not):
            return not self.truth(operand, node.lineno)
        if not isinstance(operand, (int, float)):
            raise SnippetRuntimeError("unary + and - need a number", node.lineno)
        return -operand if isinstance(node.op, ast.USub) else +operand

    def boolean(self, node: ast.BoolOp):
        stop_when = isinstance(node.op, ast.Or)
        result = None
        for operand in node.values:
            result = self.value(operand)
            if self.truth(result, node.lineno) == stop_when:
                return result
        return result

    def compare(self, node: ast.Compare):
        left = self.value(node.left)
        traced = self.trace is not None and id(node) in self.notation.recorded_compares
        left_node = node.left
        for op, right_node in zip(node.ops, node.comparators):
            right = self.value(right_node)
            if not isinstance(op, (ast.Is, ast.IsNot)):
                self.meter.touch(node.lineno, left, right)
            holds = COMPARE[type(op)](left, right)
            if traced:
                operands = self.notation.operands
                self.trace.compared(left, COMPARISONS[type(op).__name__], right, holds,
                                    operands.get(id(left_node)), operands.get(id(right_node)))
            if not holds:
                return False
            left, left_node = right, right_node
        return True

    def choose(self, node: ast.IfExp):
        return self.value(node.body if self.tested(node, node.test) else node.orelse)

    def call(self, node: ast.Call):
        function = FUNCTIONS[node.func.id]
        arguments = [self.value(argument) for argument in node.args]
        try:
            function.cost(self.meter, arguments, node.lineno)
            result = function.call(*arguments)
        except helpers.HelperError as error:
            raise SnippetRuntimeError(f"{node.func.id}(): {error}", node.lineno) from None
        except _OPERATION_ERRORS as error:
            raise SnippetRuntimeError(f"{node.func.id}(): {error}", node.lineno) from None
        self.meter.build(built_by(result), node.lineno)
        return checked(result, node.lineno)

    def sequence(self, node):
        items = [self.value(element) for element in node.elts]
        self.meter.build(len(items), node.lineno)
        return checked(items if isinstance(node, ast.List) else tuple(items), node.lineno)

    def mapping(self, node: ast.Dict):
        result = {}
        for key_node, value_node in zip(node.keys, node.values):
            key = self.value(key_node)
            self.meter.touch(node.lineno, key)
            check_key(key, node.lineno)
            result[key] = self.value(value_node)
        self.meter.build(len(result), node.lineno)
        return checked(result, node.lineno)

    def subscript(self, node: ast.Subscript):
        container = self.value(node.value)
        if not isinstance(container, (list, tuple, str, dict)):
            raise SnippetRuntimeError("only lists, tuples, strings and dicts can be indexed", node.lineno)
        if isinstance(node.slice, ast.Slice):
            result = container[self.slice_of(node.slice)]
            self.meter.build(len(result), node.lineno)
            return result
        key = self.value(node.slice)
        if isinstance(container, dict):
            self.meter.touch(node.lineno, key)
            check_key(key, node.lineno)
        elif not isinstance(key, int):
            raise SnippetRuntimeError(f"index {shown(key)}: indexes must be whole numbers", node.lineno)
        return container[key]

    def slice_of(self, node: ast.Slice) -> slice:
        bounds = [None if part is None else self.value(part) for part in (node.lower, node.upper, node.step)]
        if any(bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)) for bound in bounds):
            raise SnippetRuntimeError("slice bounds must be integers", node.lineno)
        if bounds[2] == 0:
            raise SnippetRuntimeError("slice step cannot be zero", node.lineno)
        return slice(*bounds)

    def comprehension(self, node):
        """A list comprehension, or a generator expression made eagerly into a list, in its own scope."""
        outer, self.env = self.env, dict(self.env)
        results: list = []
        try:
            self.generate(node, 0, results)
        finally:
            self.env = outer
        return results

    def generate(self, node, index: int, results: list) -> None:
        if index == len(node.generators):
            results.append(self.value(node.elt))
            self.meter.build(1, node.lineno)
            checked(results, node.lineno)
            return
        generator = node.generators[index]
        for item in self.iterate(self.value(generator.iter), node.lineno):
            self.meter.step(node.lineno)
            self.bind(generator.target, item, node.lineno)
            if all(self.truth(self.value(condition), node.lineno) for condition in generator.ifs):
                self.generate(node, index + 1, results)


STATEMENTS: dict[type, Callable[[Run, Any], None]] = {
    ast.Return: Run.return_, ast.Expr: Run.expression, ast.Assign: Run.assign, ast.AugAssign: Run.augmented,
    ast.If: Run.if_, ast.For: Run.for_, ast.Break: Run.break_, ast.Continue: Run.continue_, ast.Pass: Run.pass_,
}

EXPRESSIONS: dict[type, Callable[[Run, Any], Any]] = {
    ast.Constant: Run.constant, ast.Name: Run.name, ast.BinOp: Run.binary, ast.UnaryOp: Run.unary,
    ast.BoolOp: Run.boolean, ast.Compare: Run.compare, ast.IfExp: Run.choose, ast.Call: Run.call,
    ast.List: Run.sequence, ast.Tuple: Run.sequence, ast.Dict: Run.mapping, ast.Subscript: Run.subscript,
    ast.ListComp: Run.comprehension, ast.GeneratorExp: Run.comprehension,
}
