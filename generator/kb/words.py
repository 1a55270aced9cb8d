"""Write one value in words for a page: numbers, distances, dice and points in the page's locale.

The formatters here are registered per value type in generator/value_types.py (`ValueType.words`);
call `value_types.in_words`, which checks the value's shape first.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the translations package reads the model, which reads this registry
    from ..i18n.translate import Translations


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
    return Markup("{}").format(tr.ngettext("%(num)s inch", "%(num)s inches", value) % {"num": tr.number(value)})


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
