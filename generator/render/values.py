"""Values and results in a player's words, in the page's language: numbers, distances, dice, points, choices
and the answers a rule declares («Можно», «2 дополнительные раны»).

Each declared value type (generator/kb/value_types.py) has a writer here (`WRITERS`); `in_words` checks
a value's shape first. `answer_words` fills a rule's answer pattern, and `answer_phrases`/`answer_patterns`
are what the Ask panel's script receives to do the same in the browser.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from markupsafe import Markup, escape

from ..core.plurals import plural_category, plural_count, plural_index
from ..i18n.translate import Translations
from ..kb.answers import COUNTED, GROUP, LISTS, OTHER, answer_key, news_of
from ..kb.texts import answer_context, context, label_context
from ..kb.value_types import TYPES, is_number

_UNNAMED = object()  # a result value no answer names: answer_text then gives the `other` pattern


# ---------------------------------------------------------------- one value
def none(tr: Translations) -> Markup:
    return Markup('<span class="kb-value kb-value--none">{}</span>').format(tr.gettext("none"))


def yes_no(value: bool, tr: Translations) -> Markup:
    return Markup('<span class="kb-value kb-value--{}">{}</span>').format(
        "yes" if value else "no", tr.gettext("yes") if value else tr.gettext("no"))


def number(value, tr: Translations) -> Markup:
    return Markup("{}").format(signed(value, tr))


def signed(value, tr: Translations) -> str:
    """A number in the locale, negative numbers with a true minus sign (−1, not -1)."""
    shown = tr.number(value)
    return "−" + shown[1:] if shown.startswith("-") else shown


def inches(value, tr: Translations) -> Markup:
    """A distance as rulebooks write it: «18″», «17,9″», a half as «1½″»."""
    return Markup("{}″").format(with_halves(value, tr))


# The fractions of an inch the clauses write as one glyph («1½″»); a withdrawal of half 7½″ is «3¾″», not «3,75″».
FRACTION_GLYPHS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


def with_halves(value, tr: Translations) -> str:
    """A number in the locale with a true minus, a whole and a half or quarter written «1½», «3¾» (the clauses'
    own way)."""
    size = abs(value)
    glyph = FRACTION_GLYPHS.get(size % 1)
    if glyph:
        shown = (tr.number(int(size)) if size >= 1 else "") + glyph
    else:
        shown = tr.number(size)
    return ("−" if value < 0 else "") + shown


def mm(value, tr: Translations) -> Markup:
    return Markup("{}").format(tr.gettext("%(num)s mm") % {"num": tr.number(value)})


def degrees(value, tr: Translations) -> Markup:
    return Markup("{}°").format(tr.number(value))


def dice(value, tr: Translations) -> Markup:
    return Markup("{}").format(tr.gettext("rolled %(dice)s") % {"dice": " + ".join(tr.number(d) for d in value)})


def point(value, tr: Translations) -> Markup:
    # A semicolon separates coordinates, since the decimal separator may be a comma.
    return Markup("({}; {})").format(signed(value[0], tr), signed(value[1], tr))


def points(value, tr: Translations) -> Markup:
    return Markup(", ").join(point(item, tr) for item in value) if value else Markup("—")


def model(value, tr: Translations) -> Markup:
    """A model's number as a reader counts, from 1 (the predicates count from 0)."""
    return Markup("{}").format(tr.number(value + 1))


def models(value, tr: Translations) -> Markup:
    return Markup(", ").join(model(item, tr) for item in value) if value else Markup("—")


def size(value, tr: Translations) -> Markup:
    return Markup("{}").format(tr.gettext("%(width)s × %(depth)s mm") % {"width": tr.number(value[0]),
                                                                         "depth": tr.number(value[1])})


def plain(value, tr: Translations) -> Markup:
    """Any other value: yes/no, numbers in the locale, lists and mappings spelled out."""
    if isinstance(value, bool):
        return Markup("{}").format(tr.gettext("yes") if value else tr.gettext("no"))
    if isinstance(value, (int, float)):
        return Markup("{}").format(signed(value, tr))
    if value is None:
        return Markup("{}").format(tr.gettext("none"))
    if isinstance(value, str):
        return Markup("<code>{}</code>").format(value)
    if isinstance(value, (list, tuple)):
        return Markup("[") + Markup("; ").join(plain(item, tr) for item in value) + Markup("]")
    if isinstance(value, dict):
        return Markup("{") + Markup("; ").join(
            Markup("{}: ").format(key) + plain(item, tr) for key, item in value.items()) + Markup("}")
    return escape(repr(value))


WRITERS: dict[str, Callable[[Any, Translations], Markup]] = {  # value type -> how one value of it reads
    "bool": yes_no, "int": number, "number": number, "inches": inches, "mm": mm, "degrees": degrees,
    "dice": dice, "point": point, "points": points, "size": size, "model": model, "models": models,
}


def in_words(kind: str, value, tr: Translations, label: Optional[Callable[[Any], str]] = None) -> Markup:
    """HTML for one value of a declared type, e.g. «12 дюймов», «0,5″», «да»; `label` names choice values."""
    if value is None:
        return none(tr)
    if kind == "choice" and label is not None:
        return Markup('<span class="kb-value kb-value--choice">{}</span>').format(label(value))
    if kind == "list" and label is not None and isinstance(value, list):  # a list of choices or of words
        return Markup('<span class="kb-value kb-value--choice">{}</span>').format(
            ", ".join(label(item) if isinstance(item, (str, int)) else str(item) for item in value) or "—")
    kind_of = TYPES.get(kind)
    if kind_of is None or not kind_of.check(value):
        return plain(value, tr)
    return WRITERS.get(kind, plain)(value, tr)


class ChoiceLabels(dict):
    """Choice value -> its label; an open choice (`other:`) names every value it does not list by `other`."""

    other: Optional[str] = None

    def get(self, key, default=None):
        return super().get(key, self.other if self.other is not None else default)


def choice_labels(declared, declared_at: str, tr: Translations, source_lang: str) -> ChoiceLabels:
    """Choice value -> the reader's words for it, in the page's language (empty when not a choice)."""
    labels = ChoiceLabels((name, tr.text(label_context(declared_at, name), source, source_lang).value)
                          for name, source in (declared.labels or {}).items())
    if getattr(declared, "other", None) is not None:
        labels.other = tr.text(context(declared_at, "other"), declared.other, source_lang).value
    return labels


def kind_label(declared, tr: Translations, shown_values: Optional[list[str]] = None) -> str:
    """What kind of value an argument or result is, in the page's language."""
    gettext = tr.gettext
    if declared.type == "choice":
        shown = shown_values if shown_values is not None else [str(v) for v in declared.values or []]
        label = gettext(TYPES["choice"].label) % {"values": ", ".join(shown)}
    else:
        label = gettext(TYPES[declared.type].label)
    return gettext("%(kind)s, or none") % {"kind": label} if declared.nullable else label


# ---------------------------------------------------------------- a result as its declared answer
def fill_pattern(pattern: str, value_shown: str, index: int) -> str:
    """A pattern with its plural group resolved to form `index` and {value} replaced."""
    def pick(match: re.Match) -> str:
        group = match.group(1)
        if group == "value":
            return value_shown
        forms = group.split("|")
        return forms[min(index, len(forms) - 1)]
    return GROUP.sub(pick, pattern)


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
    news = news_of(returns, value)
    kind = f" kb-value kb-value--{news}" if news else ""
    if not pattern:
        return Markup('<span class="kb-answer{}">{}</span>').format(kind, text)
    index = plural_index(lang, value) if is_number(value) else \
        plural_index(lang, len(value)) if returns.type in COUNTED and isinstance(value, list) else plural_count(lang) - 1
    if isinstance(value, list) and returns.type in LISTS:
        value_shown = models(value, tr) if returns.type == "models" else listed(value, tr)
    return Markup('<span class="kb-answer{}">{}</span>').format(
        kind, Markup(fill_pattern(str(escape(text)), str(value_shown), index)))


def listed(value: list, tr: Translations) -> Markup:
    """A list result inside an answer: its items in words, comma-separated; — when empty."""
    if not value:
        return Markup("—")
    return Markup(", ").join(escape(item) if isinstance(item, str) else plain(item, tr) for item in value)


def answer_patterns(returns, tr: Translations, declared_at: str, source_lang: str,
                    samples: tuple) -> dict[str, str]:
    """The `other` pattern per CLDR plural category of the page's language, {value} kept: for ask.js."""
    found = answer_text(returns, _UNNAMED, tr, declared_at, source_lang)
    if found is None or not found[2]:
        return {}
    text, lang, _pattern = found
    return {plural_category(tr.lang, number): fill_pattern(text, "{value}", plural_index(lang, number))
            for number in samples}


def answer_phrases(returns, tr: Translations, declared_at: str, source_lang: str) -> dict[str, str]:
    """Each named answer (not the `other` pattern) in the page's language, keyed by answer_key: for ask.js."""
    return {answer_key(key): tr.text(answer_context(declared_at, answer_key(key)), text, source_lang).value
            for key, text in (returns.answers or {}).items() if answer_key(key) != OTHER}
