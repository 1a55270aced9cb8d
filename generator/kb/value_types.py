"""The value types of predicate arguments and results: the one registry everything else derives from.

Each declared type (`bool`, `inches`, `choice`, ...) is one `ValueType`: how a value is checked
(validation of examples and scenario files), how it is named to a contributor in an error (English
`form`), what a reader is told it is (`label`, a UI msgid), how one value is written in words on a
page (`words`), and which field the "Ask this rule" panel draws for it (`field`). `ARG_TYPES`, the
validator's `FORMS`, the renderer's `kind_label`, `in_words` and the table in rules/README.md
(`readme_table`, checked by tests/test_value_types.py) are all read from `TYPES`.

A `text` argument may list **known ids** in `values` (an open set: any other id is accepted, but a
known id written slightly wrong is refused by `value_problem`, see `near_miss`).

Decision: a `choice` value is a stable code name (used in URLs, scenario files and the JSON export);
a reader only ever sees its label, declared beside the values in the rule (`labels:`), translated
through the rule's catalog (`choice_label`).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from markupsafe import Markup

from . import words
from .texts import label_context  # the message ids are owned by generator/texts.py
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the translations package reads the model, which reads this registry
    from ..i18n.translate import Translations


def _(text: str) -> str:
    """Marks a UI msgid for extraction; translated where it is shown (kind_label)."""
    return text


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_point(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)


@dataclass(frozen=True)
class ValueType:
    """One declared type of a predicate argument or result."""

    name: str
    check: Callable[[Any], bool]  # does a (non-null) value fit
    form: str  # the expected form, in English, for contributors' error messages
    label: str  # msgid: what kind of value this is, for readers
    field: str  # the ask panel's input: yesno, decimal, whole, choice, dice, point, points, size, text, list
    words: Callable[[Any, Translations], Markup] = words.plain  # one value in words, in a page's language
    unit: str = ""  # shown after a number field: ″ for inches


TYPES: dict[str, ValueType] = {t.name: t for t in (
    ValueType("bool", lambda v: isinstance(v, bool), "true or false", _("yes or no"), "yesno", words.yes_no),
    ValueType("int", is_whole, "a whole number", _("whole number"), "whole", words.number),
    ValueType("number", is_number, "a number", _("number"), "decimal", words.number),
    ValueType("inches", is_number, "a number of inches", _("distance in inches"), "decimal", words.inches, "″"),
    ValueType("mm", is_number, "a number of millimetres", _("millimetres"), "decimal", words.mm, "mm"),
    ValueType("degrees", is_number, "a number of degrees", _("angle in degrees"), "decimal", words.degrees, "°"),
    ValueType("dice", lambda v: isinstance(v, list) and all(is_whole(d) and 1 <= d <= 6 for d in v),
              "a list of whole numbers from 1 to 6 (dice)", _("dice rolled (list of results)"), "dice", words.dice),
    ValueType("point", is_point, "a point [x, y]", _("point [x, y] in inches"), "point", words.point),
    ValueType("points", lambda v: isinstance(v, list) and all(is_point(p) for p in v),
              "a list of points [[x, y], ...]", _("list of points [x, y] in inches"), "points", words.points),
    ValueType("size", is_point, "a base size [width_mm, depth_mm]", _("base size [width, depth] in mm"), "size",
              words.size),
    ValueType("choice", lambda v: isinstance(v, (str, int)) and not isinstance(v, bool), "one of the values",
              _("one of: %(values)s"), "choice", words.plain),
    ValueType("text", lambda v: isinstance(v, str), "a string", _("text"), "text", words.plain),
    ValueType("list", lambda v: isinstance(v, list), "a list", _("list"), "list", words.plain),
    ValueType("bools", lambda v: isinstance(v, list) and all(isinstance(b, bool) for b in v),
              "a list of true/false", _("list of yes/no"), "list", words.plain),
    ValueType("ints", lambda v: isinstance(v, list) and all(is_whole(i) for i in v),
              "a list of whole numbers", _("list of whole numbers"), "list", words.plain),
    ValueType("any", lambda v: True, "any value", _("any value"), "list", words.plain),
)}

ARG_TYPES = tuple(TYPES)
FORMS = {name: kind.form for name, kind in TYPES.items() if name != "choice"}  # validate's wording


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


def value_problem(kind: str, value, values=None, nullable=False) -> Optional[str]:
    """None if `value` fits the declared type, else the form that was expected (English, for contributors)."""
    expected = ("one of " + ", ".join(str(v) for v in values or [])) if kind == "choice" else TYPES[kind].form
    if value is None:
        if nullable or kind == "any":
            return None
        return f"{expected} (null is not allowed here; mark the argument nullable: true if it should be)"
    if TYPES[kind].check(value) and (kind != "choice" or value in (values or [])):
        meant = near_miss(value, values) if kind == "text" and values else None
        if meant is None:
            return None
        return (f"the id {meant} exactly ({value!r} looks like a misspelling of it; the known ids are "
                f"{', '.join(map(str, values))}, and any other id stands for another value)")
    return expected


def choice_labels(declared, declared_at: str, tr: Translations, source_lang: str) -> dict[str, str]:
    """Choice value -> the reader's words for it, in the page's language (empty when not a choice)."""
    return {name: tr.text(label_context(declared_at, name), source, source_lang).value
            for name, source in (declared.labels or {}).items()}


def kind_label(declared, tr: Translations, shown_values: Optional[list[str]] = None) -> str:
    """What kind of value an argument or result is, in the page's language."""
    gettext = tr.gettext
    if declared.type == "choice":
        shown = shown_values if shown_values is not None else [str(v) for v in declared.values or []]
        label = gettext(TYPES["choice"].label) % {"values": ", ".join(shown)}
    else:
        label = gettext(TYPES[declared.type].label)
    return gettext("%(kind)s, or none") % {"kind": label} if declared.nullable else label


def in_words(kind: str, value, tr: Translations, label: Optional[Callable[[Any], str]] = None) -> Markup:
    """HTML for one value of a declared type, e.g. «12 дюймов», «0,5″», «да»; `label` names choice values."""
    if value is None:
        return words.none(tr)
    if kind == "choice" and label is not None:
        return Markup('<span class="kb-value kb-value--choice">{}</span>').format(label(value))
    kind_of = TYPES.get(kind)
    if kind_of is None or not kind_of.check(value):
        return words.plain(value, tr)
    return kind_of.words(value, tr)


def readme_table() -> str:
    """The Markdown table of types in rules/README.md, so the contributors' guide cannot drift."""
    rows = ["| type | a value is | the ask panel shows |", "|---|---|---|"]
    for name, kind in TYPES.items():
        rows.append(f"| `{name}` | {kind.form} | {FIELD_NAMES[kind.field]} |")
    return "\n".join(rows)


FIELD_NAMES = {  # the ask panel's fields, as described to contributors
    "yesno": "yes / no", "decimal": "a number (decimal comma accepted)", "whole": "a whole number",
    "choice": "the labelled options", "dice": "two dice", "point": "a model on the board",
    "points": "models on the board", "size": "a base: width and depth", "text": "a line of text",
    "list": "a value written as JSON",
}
