"""The load-time check: parse a snippet and refuse, with its line and a hint, every construct not allowed."""

from __future__ import annotations

import ast
import re
import unicodedata
from typing import Callable

from ..core.report_formats import HIDDEN

from .errors import SnippetRefused
from .functions import FUNCTIONS
from .limits import MAX_AST_NODES, MAX_DEPTH, MAX_INT, MAX_SEQUENCE, MAX_SOURCE_CHARS
from .values import lone_surrogate, shown

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

_PLAIN_NODES = (
    ast.Module, ast.Expr, ast.Return, ast.If, ast.Break, ast.Continue, ast.Pass,
    ast.Load, ast.Store, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.IfExp, ast.List, ast.Tuple,
    ast.ListComp, ast.GeneratorExp, ast.Subscript,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
)


def _bad_name(name: str) -> bool:
    return name.startswith("_") or name.endswith("_") or "__" in name


class _Vetting:
    """One snippet's check: the names it may read, the calls it makes, and one validator per node kind."""

    def __init__(self, tree: ast.Module, params: list[str]):
        self.params = params
        nodes = list(ast.walk(tree))
        self.assigned = set(params) | {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        self.callees = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
        self.slices = {id(n.slice) for n in nodes if isinstance(n, ast.Subscript)}
        self.in_loops = {id(jump) for loop in nodes if isinstance(loop, ast.For)
                         for statement in loop.body for jump in ast.walk(statement)}

    def name(self, node: ast.Name, line):
        if _bad_name(node.id):
            raise SnippetRefused(f"name {node.id!r}: names may not begin or end with '_' or contain '__'", line)
        if isinstance(node.ctx, ast.Store):
            if node.id in FUNCTIONS:
                raise SnippetRefused(f"{node.id!r} is a function name and cannot be assigned", line)
            return
        if node.id in FUNCTIONS and node.id not in self.assigned and id(node) not in self.callees:
            raise SnippetRefused(f"{node.id!r} is a function: call it, e.g. {node.id}(...)", line)
        if node.id not in self.assigned and node.id not in FUNCTIONS:
            raise SnippetRefused(
                f"unknown name {node.id!r}; use an argument ({', '.join(self.params) or 'none'}), "
                f"a variable assigned in the snippet, or an allowed function", line)

    def constant(self, node: ast.Constant, line):
        value = node.value
        if not isinstance(value, (type(None), bool, int, float, str)):
            raise SnippetRefused(f"constant of type {type(value).__name__} is not allowed", line)
        if isinstance(value, str) and "__" in value:
            raise SnippetRefused("strings containing '__' are not allowed", line)
        if isinstance(value, str) and len(value) > MAX_SEQUENCE:
            raise SnippetRefused("string constant is too long", line)
        if isinstance(value, str) and lone_surrogate(value):
            raise SnippetRefused(f"the string holds a lone surrogate ({lone_surrogate(value)}), which is not text; "
                                 "write the character itself", line)
        if isinstance(value, int) and abs(value) > MAX_INT:
            raise SnippetRefused(f"the whole number {shown(value)} is beyond ±{MAX_INT} (2**53 − 1), "
                                 "which the browser cannot hold exactly", line)

    def call(self, node: ast.Call, line):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise SnippetRefused("only these functions may be called: " + ", ".join(sorted(FUNCTIONS)), line)
        if node.keywords:
            raise SnippetRefused("keyword arguments in calls are not allowed", line)

    def comprehension(self, node: ast.comprehension, line):
        if node.is_async:
            raise SnippetRefused("async comprehensions are not allowed", line)
        _targets(node.target, line)

    def loop(self, node: ast.For, line):
        if node.orelse:
            raise SnippetRefused("'for ... else' is not allowed", line)
        _targets(node.target, line)

    def assign(self, node: ast.Assign, line):
        for target in node.targets:
            _targets(target, line, subscripts=True)

    def augmented(self, node: ast.AugAssign, line):
        if not isinstance(node.target, (ast.Name, ast.Subscript)):
            raise SnippetRefused("'+=' and the like need a name or an item on the left", line)
        _targets(node.target, line, subscripts=True)

    def loose_jump(self, node, line):
        if id(node) not in self.in_loops:
            raise SnippetRefused("'break' and 'continue' belong inside a 'for' loop", line)

    def compare(self, node: ast.Compare, line):
        # 'is' means identity, which numbers and strings do not have in JavaScript: only None, True, False.
        for op, right in zip(node.ops, node.comparators):
            singleton = isinstance(right, ast.Constant) and any(right.value is v for v in (None, True, False))
            if isinstance(op, (ast.Is, ast.IsNot)) and not singleton:
                raise SnippetRefused("'is' only compares with None, True or False; use '==' for values", line)

    def slice_(self, node: ast.Slice, line):
        if id(node) not in self.slices:
            raise SnippetRefused("a slice (a:b) may only be used to index, as in items[a:b]", line)

    def dict_(self, node: ast.Dict, line):
        if any(key is None for key in node.keys):
            raise SnippetRefused("'**' in dict literals is not allowed", line)


def _targets(target, line, subscripts=False):
    """What a name binding may be: names, unpacking into names, and (for '=') list items or dict entries."""
    if isinstance(target, ast.Subscript) and subscripts:
        if isinstance(target.slice, ast.Slice):
            raise SnippetRefused("assigning to a slice (a[i:j] = ...) is not allowed; build a new list", line)
        return
    if isinstance(target, ast.Name):
        return
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _targets(element, line)
        return
    raise SnippetRefused("only names, unpacking into names, and items can be assigned", line)


_VALIDATORS: dict[type, Callable] = {
    ast.Name: _Vetting.name, ast.Constant: _Vetting.constant, ast.Call: _Vetting.call,
    ast.comprehension: _Vetting.comprehension, ast.For: _Vetting.loop, ast.Assign: _Vetting.assign,
    ast.AugAssign: _Vetting.augmented, ast.Compare: _Vetting.compare, ast.Slice: _Vetting.slice_,
    ast.Dict: _Vetting.dict_,
    ast.Break: _Vetting.loose_jump, ast.Continue: _Vetting.loose_jump,
}


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


# Characters that make code read differently from what it runs, in a string or a comment as much as in code: control
# characters (a CR or a form feed ends or hides a line for Python but not for an editor or the clause notes), line
# and paragraph separators and NEL (an editor breaks the line there, Python does not), and the invisible and
# bidirectional format characters ("Trojan source"). Only LF ends a line and only tabs and spaces are blank.
_HIDDEN_IN_CODE = re.compile(f"[{HIDDEN}]".replace("\\x00-\\x1f", "\\x00-\\x08\\x0b-\\x1f"))
_CONTROL_NAMES = {"\r": "CARRIAGE RETURN", "\x0b": "LINE TABULATION", "\x0c": "FORM FEED", "\x85": "NEXT LINE"}


def _hidden_character(source: str) -> None:
    """Refuse the first character of _HIDDEN_IN_CODE, at its line, with the escape to write instead."""
    found = _HIDDEN_IN_CODE.search(source)
    if found:
        char = found.group()
        name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "a control character")
        escape = "\\r" if char == "\r" else f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
        raise SnippetRefused(f"the code holds U+{ord(char):04X} ({name}), which shows the code differently from how it "
                             f"runs; delete it, or write {escape} in a string if you mean it",
                             source.count("\n", 0, found.start()) + 1)


def _parse(source: str) -> ast.Module:
    if not isinstance(source, str) or not source.strip():
        raise SnippetRefused("the code is empty; write the body of the predicate, ending in 'return'")
    if len(source) > MAX_SOURCE_CHARS:
        raise SnippetRefused(f"the code is {len(source)} characters long; the limit is {MAX_SOURCE_CHARS}")
    _hidden_character(source)
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError as error:
        raise SnippetRefused(f"syntax error: {error.msg}", error.lineno) from None
    except (RecursionError, MemoryError, ValueError):
        raise SnippetRefused("the code is nested too deeply to parse") from None
    return tree


def _with_lines(tree: ast.AST):
    """Every node with the line of its nearest enclosing statement or expression (operators have none)."""
    stack = [(tree, None)]
    while stack:
        node, line = stack.pop()
        line = getattr(node, "lineno", line)
        yield node, line
        stack.extend((child, line) for child in reversed(list(ast.iter_child_nodes(node))))


def check_snippet(source: str, params: list[str]) -> ast.Module:
    """Parse and vet a snippet; return its tree or raise SnippetRefused naming the first offence."""
    tree = _parse(source)
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_AST_NODES:
        raise SnippetRefused(f"the code has {count} syntax nodes; the limit is {MAX_AST_NODES}")
    if _depth(tree, MAX_DEPTH) > MAX_DEPTH:
        raise SnippetRefused(f"the code is nested more than {MAX_DEPTH} levels deep")
    for param in params:
        if _bad_name(param):
            raise SnippetRefused(f"argument name {param!r} may not begin or end with '_' or contain '__'")
    vetting = _Vetting(tree, params)
    for node, line in _with_lines(tree):
        validator = _VALIDATORS.get(type(node))
        if validator is not None:
            validator(vetting, node, line)
        elif not isinstance(node, _PLAIN_NODES):
            hint = _REFUSAL_HINTS.get(type(node), f"'{type(node).__name__}' is not an allowed construct")
            raise SnippetRefused(hint, line)
    return tree
