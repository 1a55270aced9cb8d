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
                       for argument in predicate.args if argument.type == "choice"}

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
            return ", ".join(self.value_item(item) for item in value) or "—"
        return str(value)

    def value_item(self, item) -> str:
        if isinstance(item, bool):
            return self.tr.gettext("yes") if item else self.tr.gettext("no")
        return self.signed(item) if is_number(item) else str(item)


def step_text(step: dict, words: Words) -> str:
    """A step in words, or "" when it holds nothing a reader could check.

    A comparison of numbers is written with the argument it compared: «label: 14″ ≥ 12″», or «label 15″ >
    other label 12″» when it compared two; a comparison of no argument (`dice[0] == 6`, or of the
    predicate's own counters) is left to the values the step read.
    """
    parts, compared = [], set()
    for left, operator, right, holds, left_name, right_name in step["compares"]:
        named = [name for name in (left_name, right_name) if name in words.arguments]
        if operator not in SYMBOLS or not (is_number(left) and is_number(right)) or not named:
            continue
        unit_of = left_name if left_name in words.arguments else right_name
        symbol = SYMBOLS[operator if holds else NEGATED[operator]]
        shown_left, shown_right = words.number(left, unit_of), words.number(right, unit_of)
        if len(named) == 2:
            parts.append(f"{words.meaning(left_name)} {shown_left} {symbol} {words.meaning(right_name)} {shown_right}")
        else:
            parts.append(f"{words.meaning(named[0])}: {shown_left} {symbol} {shown_right}")
        compared.update(named)
    for name, value in step["reads"]:
        if name in words.arguments and name not in compared:
            parts.append(f"{words.meaning(name)}: {words.value(name, value)}")
    return "; ".join(parts)


def reasons(steps: list[dict], words: Words) -> list[Reason]:
    """Each step that says something, in the order the predicate took them, repeats left out."""
    found: list[Reason] = []
    for step in steps:
        text = step_text(step, words)
        reason = Reason(step["clause"], text)
        if text and reason not in found:
            found.append(reason)
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
        return Explanation(value, self.answer(rule, predicate, value), decided_by(predicate, steps),
                           reasons(steps, self.words(rule, predicate)))
