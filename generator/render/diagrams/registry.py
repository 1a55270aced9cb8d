"""What a drawing receives and returns, and the registry of drawings by rule key and predicate.

A drawing is a function `(ctx, rule, example) -> Drawing | None`, registered with
`@drawing("t9a/scout", "deploy_ok")` in a module of `generator/diagrams/drawings/`. It gets a narrow
`Context` (the page language's number words, choice labels and a probe), never the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ...i18n.translate import Translations
from ..values import with_halves
from .probe import Probe
from .svg import Svg

DRAWINGS: dict[tuple[str, str], Callable] = {}  # (rule key, predicate name) -> drawing function


def drawing(rule_key: str, predicate: str):
    """Register a drawing for the worked examples of one predicate."""
    def register(function):
        DRAWINGS[(rule_key, predicate)] = function
        return function
    return register


@dataclass
class Drawing:
    """One example drawn: the picture and its text alternative (a few sentences)."""

    svg: Svg
    desc: str


@dataclass
class Context:
    """What a drawing may use: the page language's words for numbers and choices, and the probe."""

    tr: Translations
    probe: Probe
    label: Callable[[str, str, object], str]  # (predicate, argument, value) -> the value's label

    def inches(self, value) -> str:
        return f"{with_halves(round(float(value), 2), self.tr)}″"

    def degrees(self, value) -> str:
        return f"{self.tr.number(round(float(value), 1))}°"

    def point(self, point) -> str:
        return f"({self.tr.number(point[0])}; {self.tr.number(point[1])})"

    def drawer(self, rule_key: str, predicate: str) -> Optional[Callable]:
        return DRAWINGS.get((rule_key, predicate))
