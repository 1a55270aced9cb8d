"""A predicate's declared answers: the phrase a rule gives each result, checked before anything is written.

A rule says how each result reads (`returns.answers` in the YAML): «Можно», «Нельзя», «−1 к попаданию».
Keys are result values (true, false, null, a choice value, a number) plus `other`, a pattern for
every value not named, where {value} stands for the value in words and one group {form|form|...}
picks a plural form by the number, in the order of the language's gettext plural forms (English
one|other; Russian one|few|many): "{value} extra {Wound|Wounds}". `answer_problems` is what
`generator check` reports and `pattern_problem` what `i18n check` reports on a translated pattern;
generator/render/values.py writes the answers on a page.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ..core.plurals import plural_count
from .value_types import is_number

OTHER = "other"  # the answers key of the pattern for values without their own phrase
EMPTY = "empty"  # the answers key of an empty list result («no model touches the enemy»)
NUMERIC = ("int", "number", "inches", "mm", "degrees", "any")  # results whose pattern may count with plurals
COUNTED = ("models",)  # list results whose pattern's plural group counts their items: «модели 2, 3»
LISTS = ("list", "ints", "bools", "models")  # results whose items an answer lists plainly: «A, B, A» (ask.js: listed)
GROUP = re.compile(r"\{([^{}]*)\}")  # {value} or a plural group {form|form|...} in a pattern


def answer_key(value) -> str:
    """The answers key of a result value: true, false, null, a number as written, or the choice value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list) and not value:
        return EMPTY
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def pattern_problem(pattern: str, lang: str, numeric: bool) -> Optional[str]:
    """None if an `other` pattern has one {value} and at most one plural group with `lang`'s forms."""
    groups = GROUP.findall(pattern)
    if groups.count("value") != 1:
        return "the pattern needs {value} exactly once (where the value goes)"
    plurals = [group for group in groups if group != "value"]
    if any("|" not in group for group in plurals):
        return "only {value} and one plural group {form|form...} may be written in braces"
    if len(plurals) > 1:
        return "write at most one plural group {form|form...}"
    if plurals and not numeric:
        return "a plural group is only for a number result or a list of model numbers"
    if plurals and len(plurals[0].split("|")) != plural_count(lang):
        return (f"the plural group has {len(plurals[0].split('|'))} forms; {lang} has {plural_count(lang)} "
                f"(in gettext order, e.g. {'one|few|many' if plural_count(lang) == 3 else 'one|other'})")
    return None


def answer_problems(returns, lang: str) -> list[tuple[Any, str, str]]:
    """(key, problem, hint) for each declared answer that is wrong or missing: `generator check` reports them."""
    answers = returns.answers
    if answers is None:
        return []
    keys = {answer_key(key): key for key in answers}
    found = _missing_answers(returns, keys)
    found += [problem for shown, key in keys.items() if shown not in (OTHER, "null")
              for problem in [_unknown_answer(returns, shown, key)] if problem]
    if OTHER in keys:
        issue = pattern_problem(answers[keys[OTHER]], lang, returns.type in NUMERIC + COUNTED)
        if issue:
            found.append(((keys[OTHER],), f"answers: other: {issue}", "e.g. other: \"{value} extra {Wound|Wounds}\""))
    return found


def _wanted_answers(returns, keys) -> list[str]:
    """The answer keys a result must declare: every value it can take, or `other:` for open ones."""
    wanted = []
    if returns.type == "bool":
        wanted = ["true", "false"]
    elif returns.type == "choice" and OTHER not in keys:
        wanted = [answer_key(value) for value in returns.values]
    if returns.nullable:
        wanted.append("null")
    if returns.type not in ("bool", "choice"):
        wanted.append(OTHER)
    return wanted


def _missing_answers(returns, keys) -> list[tuple[Any, str, str]]:
    missing = [key for key in _wanted_answers(returns, keys) if key not in keys]
    if not missing:
        return []
    hint = "give a phrase for each result value" + (" and `other:` with {value} for the rest"
                                                    if OTHER in missing else "")
    return [((), f"answers lack {', '.join(missing)}", hint)]


def _unknown_answer(returns, shown: str, key) -> Optional[tuple[Any, str, str]]:
    """A problem if an answer names a value the result can never take."""
    if returns.type == "bool" and shown not in ("true", "false"):
        return (key,), f"answers name {shown!r}, which a yes/no result never is", "use true: and false:"
    if returns.type == "choice" and shown not in {answer_key(v) for v in returns.values}:
        return ((key,), f"answers name {shown!r}, which is not one of the values",
                "use one of: " + ", ".join(map(str, returns.values)))
    if returns.type in NUMERIC[:-1] and not is_number(key):
        return (key,), f"answers name {shown!r}, which is not a number", "name a number, or use other:"
    if shown == EMPTY and returns.type not in LISTS + ("dice", "points"):
        return (key,), "answers name empty:, which only a list result can be", "remove empty:"
    return None


def news_problems(returns) -> list[tuple[Any, str, str]]:
    """(key, problem, hint) when an answer lacks its news (good, bad or neutral) or news names no answer."""
    answered = {answer_key(key) for key in returns.answers or {}}
    news = {answer_key(key): key for key in returns.news or {}}
    hint = "give each answer its news for the unit asked about, e.g. news: {true: good, false: bad}"
    found = []
    missing = sorted(answered - set(news))
    if missing:
        found.append(((), f"news lacks {', '.join(missing)}: say whether each answer is good, bad or neutral news",
                      hint))
    found += [((news[key],), f"news names {key!r}, which no answer names", "remove it, or add the answer")
              for key in sorted(set(news) - answered)]
    return found


def news_of(returns, value) -> Optional[str]:
    """good, bad or neutral: what the result means for the unit asked about (its answer's, else `other`'s)."""
    news = {answer_key(key): meaning for key, meaning in (returns.news or {}).items()}
    return news.get(answer_key(value), news.get(OTHER))
