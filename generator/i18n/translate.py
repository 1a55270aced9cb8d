"""Look translations up for one page language, and write numbers and units in that language."""

from __future__ import annotations

import gettext as stdlib_gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal

from ..problems import Problems, relative
from .catalog import CatalogError, catalog_path, existing_catalogs, message_key, message_label, read_catalog

SOURCE = "source"  # the page is in the text's own language
TRANSLATED = "translated"
FUZZY = "fuzzy"  # a translation exists but was made for an older source text
MISSING = "missing"  # no translation: the source text is shown, marked


@dataclass(frozen=True)
class Text:
    """A text ready for a page: the words, their language and how they were obtained."""

    value: str
    lang: str
    state: str


@dataclass
class Translations:
    """Every catalog of one language, read once."""

    root: Path
    lang: str
    entries: dict = field(default_factory=dict)  # (catalog, key) -> babel Message
    ui: dict = field(default_factory=dict)  # msgid -> Message
    plural: object = None

    @classmethod
    def load(cls, root: Path, lang: str, problems: Problems, kb=None) -> "Translations":
        """Every catalog of `lang`; with `kb`, a [[reference]] in a translation must point at something real."""
        translations = cls(root=Path(root), lang=lang)
        for name in existing_catalogs(root, lang, problems):
            path = catalog_path(root, lang, name)
            try:
                catalog = read_catalog(path, lang, root)
            except CatalogError as error:
                for line, message, hint in error.problems:
                    problems.add(relative(path, root), line, name, message, hint)
                continue
            for message in catalog:
                if not message.id:
                    continue
                for issue in (reference_problems(kb, message) if kb is not None else ()):
                    problems.add(relative(path, root), message.lineno, message_label(message), issue, REFERENCE_HINT)
                if name == "ui":
                    translations.ui[message.id if not isinstance(message.id, tuple) else message.id[0]] = message
                else:
                    translations.entries[message_key(message)] = message
            if name == "ui":
                translations.plural = stdlib_gettext.c2py(catalog.plural_expr)
        if translations.plural is None:
            translations.plural = stdlib_gettext.c2py(_plural_expr(lang))
        return translations

    def text(self, context: str, source: str, source_lang: str) -> Text:
        """The words for a rule text in this language, falling back visibly to the source."""
        if source_lang == self.lang:
            return Text(source, source_lang, SOURCE)
        message = self.entries.get(context)
        if message is None or not message.string:
            return Text(source, source_lang, MISSING)
        if message.fuzzy or message.id != source:
            return Text(message.string, self.lang, FUZZY)
        return Text(message.string, self.lang, TRANSLATED)

    # UI strings: a fuzzy, missing or malformed translation shows the English text.
    def gettext(self, msgid: str) -> str:
        message = self.ui.get(msgid)
        if message is None or message.fuzzy or not message.string or isinstance(message.id, tuple):
            return msgid
        return message.string if placeholders_match(msgid, message.string) else msgid

    def ngettext(self, singular: str, plural: str, number) -> str:
        message = self.ui.get(singular)
        fallback = singular if number == 1 else plural
        if message is None or message.fuzzy or not isinstance(message.string, tuple) or not all(message.string):
            return fallback
        chosen = message.string[self.plural_index(number)]
        return chosen if placeholders_match(singular, chosen) else fallback

    def plural_index(self, number) -> int:
        if float(number).is_integer():
            return self.plural(int(number))
        # gettext plural rules are for whole numbers; CLDR says which form a fraction takes.
        category = Locale.parse(self.lang).plural_form(number)
        return self.plural(1 if category == "one" else 2)

    def number(self, value) -> str:
        return format_decimal(value, locale=self.lang, decimal_quantization=False)


_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
REFERENCE_HINT = "keep the [[target]] of the source text; only the words after | may change"


def reference_problems(kb, message) -> list[str]:
    """What is wrong with each [[reference]] a translation makes (a target that does not exist, a path, a URL)."""
    from ..markup import references
    from ..validate import reference_problem

    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    found = []
    for string in strings:
        for reference in references(string or ""):
            issue = reference_problem(kb, reference.target)
            if issue:
                found.append(f"[[{reference.target}]] {issue}")
    return found


def placeholder_problem(msgid: str, translation: str):
    """None if a translation keeps the %(name)s placeholders of its source and escapes any other %."""
    wanted = sorted(name for name in _PLACEHOLDER.findall(msgid) if name)
    found = sorted(name for name in _PLACEHOLDER.findall(translation) if name)
    if wanted != found:
        return f"placeholders differ: the source has {wanted or 'none'}, the translation {found or 'none'}"
    if "%" in _PLACEHOLDER.sub("", translation):
        return "a lone % in the translation: write %% for a percent sign"
    return None


def placeholders_match(msgid: str, translation: str) -> bool:
    return placeholder_problem(msgid, translation) is None


def _plural_expr(lang: str) -> str:
    from babel.messages.plurals import get_plural

    return get_plural(lang).plural_expr
