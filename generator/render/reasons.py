"""Why an answer is what it is, in a player's words: each traced step (generator/evaluate/trace.py) as one
reason linked to the clause it applies, in the page's language.

A step that compared numbers reads as the comparison that held, with the compared argument's unit:
«14″ ≥ 12″», or «17,9″ < 18″» when `enemy_distance >= 18` came out false. A step that only looked at
arguments reads as each argument's label and value: «отряд ставится в зону расстановки своей армии: нет».
A step that looked only at the predicate's own variables says nothing a reader could check and is left
out. docs/assets/ask.js writes the same reasons from the browser's trace; tests hold the two equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from typing import Callable, Optional

from ..i18n.translate import Translations
from ..kb.markup import strip_markup
from ..kb.model import Predicate, Rule
from ..kb.texts import Texts, declared_context, declared_parts
from ..kb.value_types import is_number
from .links import LinkResolver
from .values import answer_words, choice_labels, in_words, with_halves

SYMBOLS = {"<": "<", "<=": "≤", ">": ">", ">=": "≥", "==": "=", "!=": "≠"}  # how a comparison is written
NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}  # what holds when one fails


@dataclass(frozen=True)
class Reason:
    """One reason: the clause it applies (None if the step has no note) and its words (plain text)."""

    clause: Optional[str]
    text: str


def decided_by(predicate: Predicate, steps: list[dict]) -> str:
    """The clause of the step that returned (the predicate's own clause when no note covers it)."""
    returned = next((step for step in reversed(steps) if step["kind"] == "return"), None)
    return (returned or {}).get("clause") or predicate.clause


class Words:
    """Values written as the page writes them: numbers in the locale with their unit, labels for choices."""

    def __init__(self, rule: Rule, predicate: Predicate, tr: Translations, meaning: Callable[[str], str],
                 declared_at: Callable[[str], str]):
        self.tr = tr
        self.arguments = {argument.name: argument for argument in predicate.args}
        self.meaning = meaning  # argument name -> its label, in the page's language, as plain text
        self.labels = {argument.name: choice_labels(argument, declared_at(argument.name), tr, rule.lang)
                       for argument in predicate.args if argument.choices}

    def number(self, value, unit_of: Optional[str]) -> str:
        kind = self.arguments[unit_of].type if unit_of in self.arguments else None
        if kind == "inches":
            return f"{with_halves(value, self.tr)}″"
        if kind == "mm":
            return self.tr.gettext("%(num)s mm") % {"num": self.signed(value)}
        if kind == "degrees":
            return f"{self.signed(value)}°"
        return self.signed(value)

    def signed(self, value) -> str:
        shown = self.tr.number(value)
        return "−" + shown[1:] if shown.startswith("-") else shown

    def value(self, name: str, value) -> str:
        """One argument's value in words: yes/no, a choice's label, a number with its unit, dice, points."""
        argument = self.arguments[name]
        if value is None:
            return self.tr.gettext("none")
        if isinstance(value, bool):
            return self.tr.gettext("yes") if value else self.tr.gettext("no")
        if argument.type == "choice":
            return self.labels.get(name, {}).get(str(value), str(value))
        if is_number(value):
            shown = value + 1 if argument.type == "model" else value
            return self.number(shown, name)
        if argument.type == "dice" and isinstance(value, list):
            return self.tr.gettext("rolled %(dice)s") % {"dice": " + ".join(self.signed(die) for die in value)}
        if argument.type in ("point", "size") and isinstance(value, list) and len(value) == 2:
            return f"({self.signed(value[0])}; {self.signed(value[1])})"
        if argument.type == "points" and isinstance(value, list):
            return ", ".join(f"({self.signed(x)}; {self.signed(y)})" for x, y in value) or "—"
        if isinstance(value, list):
            labels = self.labels.get(name, {})
            return ", ".join(labels.get(str(item), str(item)) if labels else self.value_item(item)
                             for item in value) or "—"
        return str(value)

    def value_item(self, item) -> str:
        if isinstance(item, bool):
            return self.tr.gettext("yes") if item else self.tr.gettext("no")
        return self.signed(item) if is_number(item) else str(item)


FORMULA_SIGNS = {"+": "+", "-": "−", "*": "×", "/": "/"}  # how evaluate/clauses.py's operators are written
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3}  # a weaker operand is written in brackets
VALUE_CALLS = ("sum", "len")  # calls a reason writes by their value alone: the items are shown elsewhere


def labelled(label: str, shown: str) -> str:
    """«label: value»; a label that has a colon of its own takes a dash, so no reason reads «…: …: 3″»."""
    return f"{label} — {shown}" if ":" in label else f"{label}: {shown}"


class Formula:
    """How a compared or returned value was computed (evaluate/clauses.py), written with the reader's numbers."""

    def __init__(self, tree, given: dict, words: Words):
        self.given, self.words = given, words
        self.tree = self.resolve(tree)

    def resolve(self, tree):
        """The branch of each conditional the situation takes: ["if", flag, a, b] becomes a or b."""
        if isinstance(tree, list) and tree[0] == "if":
            return self.resolve(tree[2] if self.given.get(tree[1]) else tree[3])
        if isinstance(tree, list):
            return [tree[0]] + [self.resolve(part) for part in tree[1:]]
        return tree

    def arguments(self, tree=None) -> list[str]:
        """The arguments it reads, in the order it reads them, each once."""
        tree = self.tree if tree is None else tree
        if isinstance(tree, str):
            return [tree] if tree in self.words.arguments else []
        found: list[str] = []
        for part in tree[1:] if isinstance(tree, list) else []:
            found += [name for name in self.arguments(part) if name not in found]
        return found

    def unit_of(self) -> Optional[str]:
        """The argument whose unit the result carries (the first one read with a unit), if any."""
        return next((name for name in self.arguments() if self.words.arguments[name].type in UNITS), None)

    def value(self, tree):
        if isinstance(tree, str):
            return self.given.get(tree)
        if not isinstance(tree, list):
            return tree
        if tree[0] == "sum":
            return sum(self.value(tree[1]))
        if tree[0] == "len":
            return len(self.value(tree[1]))
        return None  # only the value calls are needed: every other value is the engine's own

    def text(self, tree=None, parent: int = 0, right: bool = False) -> str:
        """The computation in the page's numbers: «11 − (7 − 3)»."""
        tree = self.tree if tree is None else tree
        if isinstance(tree, str):
            return self.words.number(self.given.get(tree), tree)
        if not isinstance(tree, list):
            return self.words.signed(tree)
        if tree[0] in VALUE_CALLS:
            return self.words.signed(self.value(tree))
        if tree[0] == "abs":
            return f"|{self.text(tree[1])}|"
        if tree[0] == "item":  # a `sumeach` item, put in by sumeach below
            return self.words.signed(tree[1])
        if tree[0] == "sumeach":
            items = self.given.get(tree[1]) or []
            terms = [self.text(replaced(tree[2], item), 2) for item in items] or ["0"]
            shown = " + ".join(terms)
            return f"({shown})" if len(terms) > 1 and (parent > 1 or right) else shown
        strength = PRECEDENCE[tree[0]]
        if tree[0] == "neg":
            shown = "−" + self.text(tree[1], strength)
        else:
            shown = (f"{self.text(tree[1], strength)} {FORMULA_SIGNS[tree[0]]} "
                     f"{self.text(tree[2], strength, right=True)}")
        return f"({shown})" if strength < parent or (right and strength == parent) else shown

    def computes(self) -> bool:
        """Whether it shows a computation, not just a value («2» for a sum of dice already shown)."""
        return isinstance(self.tree, list) and self.tree[0] not in VALUE_CALLS

    def shown(self, result) -> str:
        """«6 − 6 = 0», or the value alone when there is nothing to compute."""
        value = self.words.number(result, self.unit_of())
        text = self.text()
        return f"{text} = {value}" if self.computes() and text != value else value


UNITS = ("inches", "mm", "degrees")  # argument types whose numbers carry a unit


def replaced(tree, item):
    """A `sumeach` term with its item's value in place of the item."""
    if tree == ["item"]:
        return ["item", item]
    if isinstance(tree, list):
        return [tree[0]] + [replaced(part, item) for part in tree[1:]]
    return tree


class StepWords:
    """One reason being written: its parts, and the arguments it has already named (each label once)."""

    def __init__(self, words: Words, given: dict, named_before: set):
        self.words, self.given, self.named_before = words, given, named_before
        self.parts: list[str] = []
        self.named: set = set()

    def name(self, name: str, shown: str) -> None:
        self.parts.append(labelled(self.words.meaning(name), shown))
        self.named.add(name)

    def leaves(self, formula: Formula) -> None:
        """Each argument a computation reads, with its label, unless a reason has named it already."""
        for name in formula.arguments():
            if name not in self.named and name not in self.named_before:
                self.name(name, self.words.value(name, self.given.get(name)))
            self.named.add(name)

    def operand(self, tree, value, unit_of: Optional[str]) -> str:
        words = self.words
        if isinstance(tree, str) and tree in words.arguments:
            shown = words.number(value, tree)
            if tree in self.named:
                return shown
            self.named.add(tree)
            return f"{shown} ({words.meaning(tree)})"
        if isinstance(tree, list):
            formula = Formula(tree, self.given, words)
            self.leaves(formula)
            return formula.shown(value)
        return words.number(value, unit_of)

    def comparison(self, compared: list) -> None:
        left, operator, right, holds, left_tree, right_tree = compared
        words = self.words
        if operator not in SYMBOLS or not (is_number(left) and is_number(right)):
            return
        trees = [Formula(tree, self.given, words).tree if tree is not None else None
                 for tree in (left_tree, right_tree)]
        formulas = [Formula(tree, self.given, words) for tree in trees if isinstance(tree, (str, list))]
        reads = [name for formula in formulas for name in formula.arguments()]
        if not reads:
            return
        symbol = SYMBOLS[operator if holds else NEGATED[operator]]
        bare = [isinstance(tree, str) and tree in words.arguments for tree in trees]
        if symbol == "=" and bare.count(True) == 1 and None in trees:
            # An argument equal to a fixed number («закрыто: 0»): the value says it; «0 = 0» would not.
            name = trees[bare.index(True)]
            if name not in self.named:
                self.name(name, words.value(name, self.given.get(name, (left, right)[bare.index(True)])))
            return
        unit_of = next((name for name in reads if words.arguments[name].type in UNITS), reads[0])
        shown_left = self.operand(trees[0], left, unit_of)
        shown_right = self.operand(trees[1], right, unit_of)
        self.parts.append(f"{shown_left} {symbol} {shown_right}")

    def returned(self, tree, outcome) -> None:
        if not is_number(outcome):
            return
        formula = Formula(tree, self.given, self.words)
        if not formula.computes() or not formula.arguments():  # «−1» alone: the answer says it already
            return
        self.leaves(formula)
        self.parts.append(formula.shown(outcome))

    def reads(self, step: dict) -> None:
        for name, value in step["reads"]:
            if name in self.words.arguments and name not in self.named:
                self.name(name, self.words.value(name, value))


def settled(compares: list, words: Words) -> list:
    """The comparisons worth writing: where an argument was found equal to a fixed number («30 or 35 mm»),
    that match, not the numbers it was not; a count against a fixed number (`len(figures) <= 1`) says
    nothing the listed items do not."""
    matched = {tree for left, operator, right, holds, left_tree, right_tree in compares
               for tree in (left_tree, right_tree)
               if isinstance(tree, str) and (operator == "==") == holds and operator in ("==", "!=")
               and [left_tree, right_tree].count(None) == 1}
    kept = []
    for compared in compares:
        trees = [tree for tree in compared[4:] if tree is not None]
        if len(trees) == 1 and isinstance(trees[0], str) and trees[0] in matched and compared[1] in ("==", "!=") and (compared[1] == "==") != compared[3]:
            continue
        if len(trees) == 1 and isinstance(trees[0], list) and trees[0][0] in VALUE_CALLS:
            continue
        kept.append(compared)
    return kept


def step_text(step: dict, words: Words, given: Optional[dict] = None, returned: Optional[dict] = None,
              named_before: Optional[set] = None) -> str:
    """A step in words, or "" when it holds nothing a reader could check.

    A comparison is written with each argument's label once, in brackets after its own number, on
    whichever side it stands: «14″ (расстояние до врага) ≥ 12″», «8 > 5 (Лидерство отряда)»; a value the
    predicate computed is written as its computation with the reader's numbers: «2 > 6 − 6 = 0», each
    argument it read named once before it. A return that computes its result writes the computation
    («11 − (7 − 3) = 7»). An argument found equal to a fixed number reads as its value («…: 0»), never
    «0 = 0». The other arguments the step read follow as «label: value».
    """
    given = dict(given or {})
    for name, value in step["reads"]:
        given.setdefault(name, value)
    writing = StepWords(words, given, named_before if named_before is not None else set())
    for compared in settled(step["compares"], words):
        writing.comparison(compared)
    tree = (returned or {}).get(f"{step['line']}:{step['column']}") if step["kind"] == "return" else None
    if tree is not None:
        writing.returned(tree, step["outcome"])
    writing.reads(step)
    if named_before is not None:
        named_before.update(writing.named)
    return "; ".join(writing.parts)


def reasons(steps: list[dict], words: Words, given: Optional[dict] = None,
            returned: Optional[dict] = None, clause: Optional[str] = None) -> list[Reason]:
    """Each step that says something, in the order the predicate took them, repeats left out.

    An answer whose steps say nothing a reader could check (a geometry worked out in a loop, a rule with
    one answer) still has a reason: the situation it was given, under the clause that decided.
    """
    found: list[Reason] = []
    named: set = set()
    for step in steps:
        text = step_text(step, words, given, returned, named)
        reason = Reason(step["clause"], text)
        if text and reason not in found:
            found.append(reason)
    if not found and given:
        situation = "; ".join(labelled(words.meaning(name), words.value(name, given[name]))
                              for name in words.arguments if name in given)
        if situation:
            found.append(Reason(clause, situation))
    return found


@dataclass(frozen=True)
class Explanation:
    """A predicate's answer to one situation, in words, with the clause that decided it and the reasons."""

    value: object
    answer: str
    decided_by: str
    reasons: list[Reason]


class Explainer:
    """Explanations in one language, for `generator check --explain` (the page's panel writes its own in ask.js)."""

    def __init__(self, kb, tr: Translations):
        self.kb, self.tr = kb, tr
        self.texts = Texts(kb)
        self.resolver = LinkResolver(kb, tr, self.texts)

    def plain(self, owner, *field) -> str:
        source = self.texts.get(owner, *field)
        return strip_markup(self.tr.text(source.context, source.source, source.lang).value, self.resolver.title_of)

    def words(self, rule: Rule, predicate: Predicate) -> Words:
        return Words(rule, predicate, self.tr,
                     lambda name: self.plain(rule, *declared_parts(predicate.name, name)),
                     lambda name: declared_context(rule.key, predicate.name, name))

    def answer(self, rule: Rule, predicate: Predicate, value) -> str:
        """The result as the rule's declared answer («Можно», «2 дополнительные раны»), as plain text."""
        declared_at = declared_context(rule.key, predicate.name)
        returns = predicate.returns
        labels = choice_labels(returns, declared_at, self.tr, rule.lang)
        shown = in_words(returns.type, value, self.tr, lambda v: labels.get(str(v), str(v)))
        html = answer_words(returns, value, self.tr, declared_at, rule.lang, shown) or shown
        return unescape(re.sub(r"<[^>]*>", "", str(html)))

    def explain(self, rule: Rule, predicate: Predicate, given: dict) -> Explanation:
        value, steps = predicate.snippet.explain(**given)
        decided = decided_by(predicate, steps)
        return Explanation(value, self.answer(rule, predicate, value), decided,
                           reasons(steps, self.words(rule, predicate), given, predicate.snippet.notation.returned,
                                   decided))
