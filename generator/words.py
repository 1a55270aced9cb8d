"""Write predicate values in words for a page: numbers, distances and choices in the page's locale."""

from __future__ import annotations

from markupsafe import Markup, escape

from .i18n.translate import Translations


def in_words(kind: str, value, tr: Translations) -> Markup:
    """HTML for one value of a declared type, e.g. «12 дюймов», «0,5″», «да»."""
    _ = tr.gettext
    if value is None:
        return Markup('<span class="kb-value kb-value--none">{}</span>').format(_("none"))
    if kind == "bool" and isinstance(value, bool):
        return Markup('<span class="kb-value kb-value--{}">{}</span>').format(
            "yes" if value else "no", _("yes") if value else _("no"))
    if kind == "inches" and _is_number(value):
        return Markup("{}").format(tr.ngettext("%(num)s inch", "%(num)s inches", value) % {"num": tr.number(value)})
    if kind == "mm" and _is_number(value):
        return Markup("{}").format(_("%(num)s mm") % {"num": tr.number(value)})
    if kind == "degrees" and _is_number(value):
        return Markup("{}°").format(tr.number(value))
    if kind == "dice" and isinstance(value, list):
        return Markup("{}").format(_("rolled %(dice)s") % {"dice": " + ".join(tr.number(d) for d in value)})
    if kind == "point" and isinstance(value, list):
        return _point(value, tr)
    if kind == "points" and isinstance(value, list):
        return Markup(", ").join(_point(point, tr) for point in value) if value else Markup("[]")
    if kind == "size" and isinstance(value, list) and len(value) == 2:
        return Markup("{}").format(_("%(width)s × %(depth)s mm") % {"width": tr.number(value[0]),
                                                                     "depth": tr.number(value[1])})
    if kind in ("choice", "text") and isinstance(value, str):
        return Markup("<code>{}</code>").format(value)
    if kind in ("int", "number") and _is_number(value):
        return Markup("{}").format(tr.number(value))
    return _plain(value, tr)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _point(point, tr: Translations) -> Markup:
    if isinstance(point, list) and len(point) == 2 and all(_is_number(v) for v in point):
        # A semicolon separates coordinates, since the decimal separator may be a comma.
        return Markup("({}; {})").format(tr.number(point[0]), tr.number(point[1]))
    return _plain(point, tr)


def _plain(value, tr: Translations) -> Markup:
    if isinstance(value, bool):
        return Markup("{}").format(tr.gettext("yes") if value else tr.gettext("no"))
    if _is_number(value):
        return Markup("{}").format(tr.number(value))
    if value is None:
        return Markup("{}").format(tr.gettext("none"))
    if isinstance(value, str):
        return Markup("<code>{}</code>").format(value)
    if isinstance(value, (list, tuple)):
        return Markup("[") + Markup("; ").join(_plain(item, tr) for item in value) + Markup("]")
    if isinstance(value, dict):
        return Markup("{") + Markup("; ").join(
            Markup("{}: ").format(key) + _plain(item, tr) for key, item in value.items()) + Markup("}")
    return escape(repr(value))
