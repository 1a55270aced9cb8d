"""The value types of predicate arguments and results: the one registry everything else derives from.

Each declared type (`bool`, `inches`, `choice`, ...) is one `ValueType`: how a value is checked
(validation of examples and scenario files), how it is named to a contributor in an error (English
`form`), what a reader is told it is (`label`, a UI msgid) and which field the "Ask this rule" panel
draws for it (`field`). `ARG_TYPES`, the renderer's writers (generator/render/values.py) and the table
in rules/README.md (`readme_table`, checked by tests/test_value_types.py) are all read from `TYPES`.

A `text` argument may list **known ids** in `values`, and a `choice` may be open (`other:`, the label of
every value it does not name): any other id is accepted, but a known id written slightly wrong is refused
by `value_problem`, see `near_miss`. A `list` argument says what its items are (`items:`, one of
ITEM_TYPES; a list of `choice` takes `values` and `labels`), and a number or a list of numbers may declare
`min` and `max`: `value_fault` refuses anything else, and kb-values.js refuses the same in the browser.

Decision: a `choice` value is a stable code name (used in URLs, scenario files and the JSON export);
a reader only ever sees its label, declared beside the values in the rule (`labels:`), translated
through the rule's catalog (render/values.choice_labels).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional


def _(text: str) -> str:
    """Marks a UI msgid for extraction; translated where it is shown (kind_label)."""
    return text


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_distance(value) -> bool:
    """A number of 0 or more: a distance, a move or a base's side is never negative."""
    return is_number(value) and value >= 0


def is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_point(value) -> bool:
    """[x, y] of numbers (a tuple too: a drawing's computed points are tuples)."""
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(is_number(v) for v in value)


@dataclass(frozen=True)
class ValueType:
    """One declared type of a predicate argument or result."""

    name: str
    check: Callable[[Any], bool]  # does a (non-null) value fit
    form: str  # the expected form, in English, for contributors' error messages
    label: str  # msgid: what kind of value this is, for readers
    field: str  # the ask panel's input (FIELD_NAMES); field_of refines it from the declaration
    unit: str = ""  # shown after a number field: ″ for inches


TYPES: dict[str, ValueType] = {t.name: t for t in (
    ValueType("bool", lambda v: isinstance(v, bool), "true or false", _("yes or no"), "yesno"),
    ValueType("int", is_whole, "a whole number", _("whole number"), "whole"),
    ValueType("number", is_number, "a number", _("number"), "decimal"),
    ValueType("inches", is_distance, "a number of inches, 0 or more", _("distance in inches"), "decimal", "″"),
    ValueType("mm", is_number, "a number of millimetres", _("millimetres"), "decimal", "mm"),
    ValueType("degrees", is_number, "a number of degrees", _("angle in degrees"), "decimal", "°"),
    ValueType("dice", lambda v: isinstance(v, list) and all(is_whole(d) and 1 <= d <= 6 for d in v),
              "a list of whole numbers from 1 to 6 (dice)", _("dice rolled (list of results)"), "dice"),
    ValueType("point", is_point, "a point [x, y]", _("point [x, y] in inches"), "point"),
    ValueType("points", lambda v: isinstance(v, list) and all(is_point(p) for p in v),
              "a list of points [[x, y], ...]", _("list of points [x, y] in inches"), "points"),
    ValueType("size", is_point, "a base size [width_mm, depth_mm]", _("base size [width, depth] in mm"), "size"),
    ValueType("choice", lambda v: isinstance(v, (str, int)) and not isinstance(v, bool), "one of the values",
              _("one of: %(values)s"), "choice"),
    ValueType("text", lambda v: isinstance(v, str), "a string", _("text"), "text"),
    ValueType("list", lambda v: isinstance(v, list), "a list", _("list"), "words"),
    ValueType("bools", lambda v: isinstance(v, list) and all(isinstance(b, bool) for b in v),
              "a list of true/false", _("list of yes/no"), "boxes"),
    ValueType("ints", lambda v: isinstance(v, list) and all(is_whole(i) for i in v),
              "a list of whole numbers", _("list of whole numbers"), "words"),
    ValueType("model", lambda v: is_whole(v) and v >= 0, "a model's number, counted from 0", _("model number"),
              "model"),
    ValueType("models", lambda v: isinstance(v, list) and all(is_whole(i) and i >= 0 for i in v),
              "a list of model numbers, counted from 0", _("model numbers"), "words"),
    ValueType("any", lambda v: True, "any value", _("any value"), "list"),
)}

ARG_TYPES = tuple(TYPES)


NEAR_MISS_RATIO = 0.85  # difflib similarity from which an unknown text value is taken for a misspelt known id


def _folded(text) -> str:
    return re.sub(r"[^0-9a-zа-я]", "", str(text).casefold().replace("ё", "е"))


def near_miss(value: str, known: list) -> Optional[str]:
    """The known id that `value` misspells (other case, spaces, its last words only, a typo), else None.

    A `text` argument may list known ids in `values` and still accept any other id; the snag is a known
    id written slightly wrong, which a predicate would silently treat as a stranger."""
    if value in known:
        return None
    folded = _folded(value)
    if not folded:
        return None
    for candidate in known:
        parts = str(candidate).split("-")
        tails = {_folded("-".join(parts[i:])) for i in range(len(parts))}
        if folded in tails or difflib.SequenceMatcher(None, folded, _folded(candidate)).ratio() >= NEAR_MISS_RATIO:
            return str(candidate)
    return None


MAX_ITEMS = 200  # items in one list argument: more models or dice than a table holds; a longer list (a crafted
# share link) is refused before any work is spent on it, in both engines (docs/assets/javascripts/kb-values.js)
ITEM_TYPES = ("choice", "text", "int", "number", "inches", "bool", "point")  # what a `list` argument's items may be
LIST_ITEMS = {"bools": "bool", "ints": "int", "models": "model", "points": "point", "dice": "die"}  # implied items


def _item_fits(kind: str, item, values, other) -> bool:
    if kind == "die":
        return is_whole(item) and 1 <= item <= 6
    if kind == "choice":
        return TYPES["choice"].check(item) and (item in (values or []) or other is not None)
    return TYPES[kind].check(item)


def value_fault(kind: str, value, values=None, nullable=False, items=None, other=None, low=None, high=None):
    """Why `value` does not fit the declared type, as data both engines give alike, else None.

    ("null",) a null where none is allowed; ("type",) not the declared kind; ("unknown",) a choice outside a
    closed set; ("range",) a number or an item outside [low, high]; ("long",) a list of more than MAX_ITEMS;
    ("item", i) the i-th item (from 0) is not of the declared item type. kb-values.js's `fault` is the same
    function in JavaScript (tests/test_value_faults.py and the browser differential hold them equal)."""
    if value is None:
        return None if nullable or kind == "any" else ("null",)
    item_kind = items if kind == "list" else LIST_ITEMS.get(kind)
    if item_kind is not None:
        if not isinstance(value, list):
            return ("type",)
        if len(value) > MAX_ITEMS:
            return ("long",)
        for index, item in enumerate(value):
            if not _item_fits(item_kind, item, values, other):
                return ("item", index)
            if is_number(item) and ((low is not None and item < low) or (high is not None and item > high)):
                return ("range", index)
        return None
    if not TYPES[kind].check(value):
        return ("type",)
    if kind == "choice" and value not in (values or []) and other is None:
        return ("unknown",)
    if is_number(value) and ((low is not None and value < low) or (high is not None and value > high)):
        return ("range",)
    return None


def value_problem(kind: str, value, values=None, nullable=False, items=None, other=None, low=None, high=None
                  ) -> Optional[str]:
    """None if `value` fits the declared type, else the form that was expected (English, for contributors)."""
    named = ", ".join(str(v) for v in values or [])
    if kind == "choice":
        expected = f"one of {named}" + (" (or any other id)" if other is not None else "")
    elif kind == "list" and items is not None:
        expected = "a list of " + (f"values from {named}" if items == "choice" else TYPES[items].form + "s")
    else:
        expected = TYPES[kind].form
    if low is not None or high is not None:
        expected += f" from {low if low is not None else '-∞'} to {high if high is not None else '∞'}"
    fault = value_fault(kind, value, values, nullable, items, other, low, high)
    if fault is None:
        open_set = kind == "text" or (kind == "choice" and other is not None)
        meant = near_miss(str(value), values) if open_set and values else None
        if meant is None:
            return None
        return (f"the id {meant} exactly ({value!r} looks like a misspelling of it; the known ids are "
                f"{', '.join(map(str, values))}, and any other id stands for another value)")
    code = fault[0]
    if code == "null":
        return f"{expected} (null is not allowed here; mark the argument nullable: true if it should be)"
    if code == "long":
        return f"{expected}, at most {MAX_ITEMS} items (this one has {len(value)})"
    if len(fault) > 1:
        return f"{expected}; item {fault[1] + 1} is {value[fault[1]]!r}"
    return expected


def declared_problem(declared, value) -> Optional[str]:
    """value_problem for a declared argument or result (its values, items, open set and range)."""
    return value_problem(declared.type, value, declared.values, declared.nullable, getattr(declared, "items", None),
                         getattr(declared, "other", None), getattr(declared, "min", None),
                         getattr(declared, "max", None))


def readme_table() -> str:
    """The Markdown table of types in rules/README.md, so the contributors' guide cannot drift."""
    rows = ["| type | a value is | the ask panel shows |", "|---|---|---|"]
    for name, kind in TYPES.items():
        rows.append(f"| `{name}` | {kind.form} | {FIELD_NAMES[kind.field]} |")
    return "\n".join(rows)


FIELD_NAMES = {  # the ask panel's fields, as described to contributors
    "yesno": "yes / no", "decimal": "a number (decimal comma accepted)",
    "whole": "a whole number with − and + (1 | 2 | … buttons for a range of up to 6)",
    "choice": "the labelled options", "dice": "two dice, 1–6 buttons each", "point": "a model on the board",
    "points": "models on the board", "size": "a base: width and depth", "text": "a line of text",
    "words": "items separated by commas (ticked labels for a list of choices)",
    "boxes": "a box per model to tick", "list": "a value written as JSON (no rule's argument uses it)",
    "model": "a model's number, counted from 1",
}
SEGMENTS = 6  # a whole number with at most this many allowed values is a row of buttons, not a stepper
COUNTS = 9  # a list of whole numbers from at most this many values is a count per value (Dodge: 2+ to 6+)


def field_of(declared) -> str:
    """The panel's field for a declared argument: its type's, refined by its items and range."""
    field = TYPES[declared.type].field
    bounded = declared.min is not None and declared.max is not None
    if declared.type == "list" and declared.items == "choice":
        return "checks"
    if declared.type == "ints" and bounded and declared.max - declared.min < COUNTS:
        return "counts"
    if declared.type == "int" and bounded and declared.max - declared.min < SEGMENTS:
        return "segments"
    return field
