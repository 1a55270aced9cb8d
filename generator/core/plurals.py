"""Plural forms of a language: how many gettext forms it has and which one a number takes.

The one owner of plural selection: catalogs (their Plural-Forms rule), the answers a rule declares and
the numbers a page writes all ask here. gettext's rules are for whole numbers; a fraction takes the
form of 1 when CLDR calls it "one" and the form of 2 otherwise (Russian «1,5 дюйма»).
"""

from __future__ import annotations

import functools
import gettext
from typing import Callable, Optional

from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural


@functools.cache
def language_plural(lang: str) -> tuple[int, str]:
    """(number of forms, gettext plural expression) of a language; English's for a code Babel does not know."""
    try:
        rule = get_plural(lang)
    except (UnknownLocaleError, ValueError):
        rule = get_plural("en")
    return rule.num_plurals, rule.plural_expr


@functools.cache
def compiled(expression: str) -> Callable[[int], int]:
    """A gettext plural expression as a function of a count (the expression must be checked first)."""
    return gettext.c2py(expression)


def plural_count(lang: str) -> int:
    return language_plural(lang)[0]


def plural_category(lang: str, number) -> str:
    """The CLDR plural category of a number in a language ("one", "few", "many", "other"…)."""
    return Locale.parse(lang).plural_form(number)


def plural_index(lang: str, number, rule: Optional[Callable[[int], int]] = None) -> int:
    """Which gettext form of `lang` a number takes, by `rule` (a catalog's) or the language's own."""
    rule = rule or compiled(language_plural(lang)[1])
    if float(number).is_integer():
        return rule(abs(int(number)))
    return rule(1 if plural_category(lang, number) == "one" else 2)
