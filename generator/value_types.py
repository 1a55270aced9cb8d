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

from markupsafe import Markup, escape

from . import words
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the translations package reads the model, which reads this registry
    from .i18n.translate import Translations


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


def declared_context(rule_key: str, predicate_name: str, argument_name: Optional[str] = None) -> str:
    """The message context of an argument's meaning (or the result's, without a name)."""
    where = f"arg:{argument_name}" if argument_name is not None else "returns"
    return f"{rule_key}:predicate:{predicate_name}:{where}"


def label_context(declared_at: str, value) -> str:
    """The message context of one choice value's label, under its argument's or result's context."""
    return f"{declared_at}:value:{value}"


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


# ---------------------------------------------------------------------- answers in words
# A predicate's result is told to a reader as a declared phrase (`returns.answers`): «Можно», «Нельзя»,
# «−1 к попаданию». Keys are result values (true, false, null, a choice value, a number) plus `other`, a
# pattern for every value not named, where {value} stands for the value in words and one group
# {form|form|...} picks a plural form by the number, in the order of the language's gettext plural forms
# (English: one|other; Russian: one|few|many): "{value} extra {Wound|Wounds}".

OTHER = "other"  # the answers key of the pattern for values without their own phrase
NUMERIC = ("int", "number", "inches", "mm", "degrees", "any")  # results whose pattern may count with plurals
_GROUP = re.compile(r"\{([^{}]*)\}")


def answer_key(value) -> str:
    """The answers key of a result value: true, false, null, a number as written, or the choice value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plural_rule(lang: str) -> Callable[[int], int]:
    if lang not in _PLURAL_RULES:
        import gettext

        from babel.messages.plurals import get_plural

        _PLURAL_RULES[lang] = (gettext.c2py(get_plural(lang).plural_expr), get_plural(lang).num_plurals)
    return _PLURAL_RULES[lang][0]


_PLURAL_RULES: dict = {}


def plural_count(lang: str) -> int:
    _plural_rule(lang)
    return _PLURAL_RULES[lang][1]


def plural_index(lang: str, number) -> int:
    """Which gettext plural form of `lang` a number takes (fractions by their CLDR category)."""
    rule = _plural_rule(lang)
    if float(number).is_integer():
        return rule(abs(int(number)))
    from babel import Locale

    return rule(1 if Locale.parse(lang).plural_form(number) == "one" else 2)


def pattern_problem(pattern: str, lang: str, numeric: bool) -> Optional[str]:
    """None if an `other` pattern has one {value} and at most one plural group with `lang`'s forms."""
    groups = _GROUP.findall(pattern)
    if groups.count("value") != 1:
        return "the pattern needs {value} exactly once (where the value goes)"
    plurals = [group for group in groups if group != "value"]
    if any("|" not in group for group in plurals):
        return "only {value} and one plural group {form|form...} may be written in braces"
    if len(plurals) > 1:
        return "write at most one plural group {form|form...}"
    if plurals and not numeric:
        return "a plural group is only for a number result"
    if plurals and len(plurals[0].split("|")) != plural_count(lang):
        return (f"the plural group has {len(plurals[0].split('|'))} forms; {lang} has {plural_count(lang)} "
                f"(in gettext order, e.g. {'one|few|many' if plural_count(lang) == 3 else 'one|other'})")
    return None


def answer_problems(returns, lang: str) -> list[tuple[Any, str, str]]:
    """(key, problem, hint) for each declared answer that is wrong or missing: `generator check` reports them."""
    answers = returns.answers
    if answers is None:
        return []
    found = []
    keys = {answer_key(key): key for key in answers}
    wanted = []
    if returns.type == "bool":
        wanted = ["true", "false"]
    elif returns.type == "choice" and OTHER not in keys:
        wanted = [answer_key(value) for value in returns.values]
    if returns.nullable:
        wanted.append("null")
    if returns.type not in ("bool", "choice"):
        wanted.append(OTHER)
    missing = [key for key in wanted if key not in keys]
    if missing:
        found.append(((), f"answers lack {', '.join(missing)}",
                      "give a phrase for each result value" + (" and `other:` with {value} for the rest"
                                                               if OTHER in missing else "")))
    for shown, key in keys.items():
        if shown in (OTHER, "null"):
            continue
        if returns.type == "bool" and shown not in ("true", "false"):
            found.append(((key,), f"answers name {shown!r}, which a yes/no result never is", "use true: and false:"))
        elif returns.type == "choice" and shown not in {answer_key(v) for v in returns.values}:
            found.append(((key,), f"answers name {shown!r}, which is not one of the values",
                          "use one of: " + ", ".join(map(str, returns.values))))
        elif returns.type in NUMERIC[:-1] and not is_number(key):
            found.append(((key,), f"answers name {shown!r}, which is not a number", "name a number, or use other:"))
    if OTHER in keys:
        issue = pattern_problem(answers[keys[OTHER]], lang, returns.type in NUMERIC)
        if issue:
            found.append(((keys[OTHER],), f"answers: other: {issue}", "e.g. other: \"{value} extra {Wound|Wounds}\""))
    return found


def answer_context(declared_at: str, key: str) -> str:
    """The message context of one declared answer, under the result's context."""
    return f"{declared_at}:answer:{key}"


def fill_pattern(pattern: str, value_shown: str, index: int) -> str:
    """A pattern with its plural group resolved to form `index` and {value} replaced."""
    def pick(match):
        group = match.group(1)
        if group == "value":
            return value_shown
        forms = group.split("|")
        return forms[min(index, len(forms) - 1)]
    return _GROUP.sub(pick, pattern)


def answer_text(returns, value, tr: Translations, declared_at: str, source_lang: str):
    """(phrase or pattern, its language, whether it is the `other` pattern) for a result value, else None."""
    answers = returns.answers
    if not answers:
        return None
    keys = {answer_key(key): key for key in answers}
    key = answer_key(value)
    pattern = key not in keys
    if pattern:
        if OTHER not in keys:
            return None
        key = OTHER
    result = tr.text(answer_context(declared_at, key), answers[keys[key]], source_lang)
    return result.value, result.lang, pattern


def answer_words(returns, value, tr: Translations, declared_at: str, source_lang: str,
                 value_shown: Markup) -> Optional[Markup]:
    """HTML for a result as its declared answer («Можно», «2 дополнительные раны»), or None if none is declared."""
    found = answer_text(returns, value, tr, declared_at, source_lang)
    if found is None:
        return None
    text, lang, pattern = found
    kind = f" kb-value kb-value--{'yes' if value else 'no'}" if isinstance(value, bool) else ""
    if not pattern:
        return Markup('<span class="kb-answer{}">{}</span>').format(kind, text)
    index = plural_index(lang, value) if is_number(value) else plural_count(lang) - 1
    if isinstance(value, list) and returns.type in LISTS:
        value_shown = listed(value, tr)
    return Markup('<span class="kb-answer">{}</span>').format(
        Markup(fill_pattern(str(escape(text)), str(value_shown), index)))


LISTS = ("list", "ints", "bools")  # results whose items an answer lists plainly: «A, B, A» (ask.js: listed)


def listed(value: list, tr: Translations) -> Markup:
    """A list result inside an answer: its items in words, comma-separated; — when empty."""
    if not value:
        return Markup("—")
    return Markup(", ").join(escape(item) if isinstance(item, str) else words.plain(item, tr) for item in value)


def answer_patterns(returns, tr: Translations, declared_at: str, source_lang: str,
                    samples: tuple) -> dict[str, str]:
    """The `other` pattern per CLDR plural category of the page's language, {value} kept: for ask.js."""
    found = answer_text(returns, object(), tr, declared_at, source_lang)
    if found is None or not found[2]:
        return {}
    from babel import Locale

    text, lang, _pattern = found
    locale = Locale.parse(tr.lang)
    return {locale.plural_form(number): fill_pattern(text, "{value}", plural_index(lang, number)) for number in samples}


def answer_phrases(returns, tr: Translations, declared_at: str, source_lang: str) -> dict[str, str]:
    """Each named answer (not the `other` pattern) in the page's language, keyed by answer_key: for ask.js."""
    return {answer_key(key): tr.text(answer_context(declared_at, answer_key(key)), text, source_lang).value
            for key, text in (returns.answers or {}).items() if answer_key(key) != OTHER}
