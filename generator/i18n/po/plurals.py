"""Plural forms: a catalog's Plural-Forms header checked before use (every count must get a form that exists)."""

from __future__ import annotations

import functools
import gettext as stdlib_gettext
import re
from typing import Optional

from ...core.plurals import language_plural

MAX_PLURAL_FORMS = 6  # CLDR's most (Arabic); a header asking for more is broken or hostile
MAX_PLURAL_RULE = 300  # characters in a `plural=` expression; real ones are under 150
PLURAL_PROBE = 1000  # counts 0…this are tried: every form the rule picks must exist
PLURAL_HINT = "copy the Plural-Forms line of your language from the GNU gettext manual or translations/ru/ui.po"
_PLURAL_FORMS = re.compile(r"^Plural-Forms:(.*)$", re.MULTILINE)
_PLURAL_RULE = re.compile(r"\s*nplurals\s*=\s*(\d{1,9})\s*;\s*plural\s*=\s*(.*?)\s*;?\s*")


def catalog_plurals(header: Optional[str], header_line: int, lang: str, problems: list) -> tuple[int, str]:
    """The number of plural forms and the rule: the header's (text of the header entry) if safe, else the language's.

    An unsafe Plural-Forms line is added to `problems` as (line, problem, hint).
    """
    forms = _PLURAL_FORMS.search(header) if header else None
    problem = plural_problem(forms.group(1)) if forms else None
    if problem:
        problems.append((header_line, f"Plural-Forms: {problem}", PLURAL_HINT))
    if forms and not problem:
        match = _PLURAL_RULE.fullmatch(forms.group(1))
        return int(match.group(1)), match.group(2)
    return language_plural(lang)


@functools.lru_cache(maxsize=32)
def plural_problem(header: str) -> Optional[str]:
    """None if a `Plural-Forms` value is safe to use, else what is wrong (every count gets an existing form)."""
    match = _PLURAL_RULE.fullmatch(header)
    if not match:
        return "must read `nplurals=N; plural=EXPRESSION;`"
    count, expression = int(match.group(1)), match.group(2)
    if not 1 <= count <= MAX_PLURAL_FORMS:
        return f"nplurals={count} is out of range (1 to {MAX_PLURAL_FORMS})"
    if len(expression) > MAX_PLURAL_RULE:
        return f"the plural expression is longer than {MAX_PLURAL_RULE} characters"
    try:
        rule = stdlib_gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError, OverflowError) as error:
        return f"plural={expression[:60]!r} is not a C plural expression ({error})"
    for number in range(PLURAL_PROBE + 1):
        try:
            form = rule(number)
        except ZeroDivisionError:
            return f"plural={expression[:60]!r} divides by zero for n={number}"
        except (ArithmeticError, ValueError, TypeError, RecursionError) as error:
            return f"plural={expression[:60]!r} fails for n={number} ({error})"
        if not 0 <= form < count:
            return f"plural={expression[:60]!r} picks form {form} for n={number}, but there are only {count} forms"
    return None


