"""Which clause of its rule each step of a predicate applies: the `# clause: <id>` notes in its code.

A note at the end of a statement's first line, or alone on the line just above a statement, names the
clause that statement applies; a statement inside an `if` or `for` applies its parent's clause unless it
carries a note of its own. Every `return` must be covered, so that an answer can always say which clause
decided it. This module only reads the notes; generator/kb/validate.py checks that each id is a clause
of the rule. The traced evaluation (interpreter and compiled JavaScript) records, for each test of an
`if` or a conditional expression and for the `return` that answered, the values read and the
comparisons made there, with the step's clause: the same `Notation` tells both engines what to record.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Any, Optional

from .errors import SnippetRefused

NOTE = re.compile(r"#\s*clause:\s*(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)\s*$")
NOTE_HINT = "write a clause note as `# clause: <clause id>`, e.g. `# clause: placement`"
_LOOKS_LIKE_A_NOTE = re.compile(r"#\s*clause\b", re.IGNORECASE)
_SCOPES = (ast.ListComp, ast.GeneratorExp)  # a name read in here belongs to the loop, not to the step


@dataclass
class Notation:
    """What the notes of one snippet say, found once when the snippet is compiled."""

    notes: dict[int, str] = field(default_factory=dict)  # line of a noted statement -> clause id
    clause_of: dict[int, Optional[str]] = field(default_factory=dict)  # id(statement or if-expression) -> clause
    recorded_names: set[int] = field(default_factory=set)  # id(Name) read directly by a test or a return
    recorded_compares: set[int] = field(default_factory=set)  # id(Compare) at the top of a test or a return
    uncovered: list[int] = field(default_factory=list)  # lines of returns no note covers
    operands: dict[int, Any] = field(default_factory=dict)  # id(compared operand) -> its name or formula
    returned: dict[str, Any] = field(default_factory=dict)  # "line:column" of a return -> its value's formula

    def statement_lines(self) -> list[tuple[int, str]]:
        """(line, clause id) of every note, in order: the notation as the JSON export carries it."""
        return sorted(self.notes.items())


def read_notes(source: str) -> dict[int, str]:
    """{line: clause id} of every note in a snippet; a note alone on its line is given the next code line.

    A comment that looks like a note but is not one (`# clause placement`) is refused, so no note is lost
    to a typo.
    """
    notes: dict[int, str] = {}
    lines_with_code = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):  # the parser reports the syntax error itself
        return {}
    for token in tokens:
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENDMARKER):
            lines_with_code.add(token.start[0])
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = NOTE.search(token.string)
        line = token.start[0]
        if match is None:
            if _LOOKS_LIKE_A_NOTE.match(token.string):
                raise SnippetRefused(f"'{token.string.strip()}' is not a clause note; {NOTE_HINT}", line)
            continue
        if line in lines_with_code:
            notes[line] = match["id"]
        else:
            following = next((number for number in sorted(lines_with_code) if number > line), None)
            if following is None:
                raise SnippetRefused("a clause note after the last statement notes nothing", line)
            if following in notes:
                raise SnippetRefused("two clause notes for one statement", line)
            notes[following] = match["id"]
    return notes


def notation(tree: ast.Module, notes: dict[int, str]) -> Notation:
    """The notes placed on the statements of a vetted tree, and what a traced run records."""
    found = Notation()
    placed = set()

    def visit(statements, inherited: Optional[str]):
        for statement in statements:
            clause = notes.get(statement.lineno, inherited)
            if statement.lineno in notes:
                placed.add(statement.lineno)
            found.clause_of[id(statement)] = clause
            if isinstance(statement, ast.Return):
                if clause is None:
                    found.uncovered.append(statement.lineno)
                _record(found, statement.value)
            elif isinstance(statement, ast.If):
                _record(found, statement.test)
            for expression in ast.walk(statement):
                if isinstance(expression, ast.IfExp):
                    found.clause_of[id(expression)] = clause
                    _record(found, expression.test)
            for block in ("body", "orelse"):
                visit(getattr(statement, block, None) or [], clause)

    visit(tree.body, None)
    _formulas(found, tree)
    misplaced = sorted(set(notes) - placed)
    if misplaced:
        raise SnippetRefused("a clause note must sit on the first line of a statement (or alone on the line "
                             "above it)", misplaced[0])
    found.notes = {line: notes[line] for line in sorted(placed)}
    return found


def _record(found: Notation, expression: Optional[ast.AST]) -> None:
    """Mark what a traced run records of a test or a returned value: its names, and its top comparisons."""
    if expression is None:
        return
    stack = [expression]
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.recorded_names.add(id(node))
        # A called function's name is not a value the step read.
        stack.extend(node.args if isinstance(node, ast.Call) else ast.iter_child_nodes(node))
    tops = [expression]
    while tops:  # comparisons joined by `and`, `or` and `not` are the step's own
        node = tops.pop()
        if isinstance(node, ast.Compare):
            found.recorded_compares.add(id(node))
        elif isinstance(node, ast.BoolOp):
            tops.extend(node.values)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tops.append(node.operand)


# A formula is how a compared or returned value was computed from the arguments, for the reasons to show
# the arithmetic with the reader's numbers («11 − (7 − 3) = 7»): an argument's name, a number, or a list
# [operator, operand...] with the operators below. A variable assigned once, at the top of the snippet, is
# replaced by its formula; anything else (a loop, a call of a helper) has none. Both engines carry the same
# static formula in a traced comparison (in place of the operand's name), so the trace stays equal.
FORMULA_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}  # written as + − × /
FORMULA_FUNCTIONS = {"sum", "len", "abs"}  # calls a formula may show: sum and len by their value, abs as |x|


def _formulas(found: Notation, tree: ast.Module) -> None:
    """Fill `operands` (each recorded comparison's operands) and `returned` (returns that compute)."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    once = {statement.targets[0].id: statement.value for statement in tree.body
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and stores.get(statement.targets[0].id) == 1}

    def formula(node, depth=0, item=None):
        if depth > 8:  # a formula longer than this would not help a reader anyway
            return None
        if isinstance(node, ast.Name):
            if node.id == item:
                return ["item"]
            if node.id not in stores:
                return node.id
            return formula(once[node.id], depth + 1) if node.id in once else None
        if isinstance(node, ast.Constant):
            is_number = isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
            return node.value if is_number else None
        if isinstance(node, ast.BinOp) and type(node.op) in FORMULA_OPERATORS:
            parts = [formula(node.left, depth + 1, item), formula(node.right, depth + 1, item)]
            return None if None in parts else [FORMULA_OPERATORS[type(node.op)], *parts]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = formula(node.operand, depth + 1, item)
            return None if inner is None else ["neg", inner]
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORMULA_FUNCTIONS
                and node.args and not node.keywords):
            if len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id not in stores:
                return [node.func.id, node.args[0].id]
            each = node.args[0]
            if (node.func.id == "sum" and len(node.args) == 1 and isinstance(each, ast.ListComp)
                    and len(each.generators) == 1 and not each.generators[0].ifs
                    and isinstance(each.generators[0].target, ast.Name) and isinstance(each.generators[0].iter, ast.Name)
                    and each.generators[0].iter.id not in stores):
                # sum([7 - x for x in sources]): written item by item, «(7 − 6) + (7 − 5)»
                term = formula(each.elt, depth + 1, each.generators[0].target.id)
                return None if term is None else ["sumeach", each.generators[0].iter.id, term]
            return None
        if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Name) and node.test.id not in stores:
            parts = [formula(node.body, depth + 1), formula(node.orelse, depth + 1)]
            return None if None in parts else ["if", node.test.id, *parts]
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and id(node) in found.recorded_compares:
            for operand in (node.left, *node.comparators):
                shown = formula(operand)
                if shown is not None and not isinstance(shown, (int, float)):
                    found.operands[id(operand)] = shown
        elif isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, ast.Name):
            # (a returned variable's computation was shown where it was compared, if anywhere)
            shown = formula(node.value)
            if isinstance(shown, list):
                found.returned[f"{node.lineno}:{node.col_offset}"] = shown
