"""A predicate's result in a player's words: the answers a rule declares, checked, translated and filled in.

A rule says how each result reads (`returns.answers` in the YAML): «Можно», «Нельзя», «−1 к попаданию».
Keys are result values (true, false, null, a choice value, a number) plus `other`, a pattern for
every value not named, where {value} stands for the value in words and one group {form|form|...}
picks a plural form by the number, in the order of the language's gettext plural forms (English
one|other; Russian one|few|many): "{value} extra {Wound|Wounds}". `answer_problems` is what
`generator check` reports, `pattern_problem` what `i18n check` reports on a translated pattern,
`answer_words` what a page shows, and `answer_phrases`/`answer_patterns` what ask.js receives.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Optional

from markupsafe import Markup, escape

from . import words
from .value_types import is_number

if TYPE_CHECKING:
    from ..i18n.translate import Translations

_UNNAMED = object()  # a result value no answer names: answer_text then gives the `other` pattern
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
    keys = {answer_key(key): key for key in answers}
    found = _missing_answers(returns, keys)
    found += [problem for shown, key in keys.items() if shown not in (OTHER, "null")
              for problem in [_unknown_answer(returns, shown, key)] if problem]
    if OTHER in keys:
        issue = pattern_problem(answers[keys[OTHER]], lang, returns.type in NUMERIC)
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
    return None


def answer_context(declared_at: str, key: str) -> str:
    """The message context of one declared answer, under the result's context (texts.rule_texts lists it)."""
    from .texts import context

    return context(declared_at, "answer", key)


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
    found = answer_text(returns, _UNNAMED, tr, declared_at, source_lang)
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
