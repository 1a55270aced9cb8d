"""Look translations up for one page language, and write numbers and units in that language."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from babel.numbers import format_decimal

from ..core.parallel import fill_cache
from ..core.plurals import compiled, language_plural, plural_index
from ..core.problems import Problems, relative
from ..kb.markup import references
from ..kb.references import reference_problem
from .limits import LENGTH_HINT, SIZE_HINT, fits, oversized, too_long
from .po.catalogs import catalog_path, existing_catalogs, message_label
from .po.pofile import CatalogError
from .po.reader import message_key, read_entries

SOURCE = "source"  # the page is in the text's own language
TRANSLATED = "translated"
FUZZY = "fuzzy"  # a translation exists but was made for an older source text
MISSING = "missing"  # no translation (or only a suggestion, or one over the length limit): the source is shown, marked


def read_ahead(root: Path, lang: str, names) -> None:
    """Read the catalogs `names` of `lang` that the disk cache lacks on every core (core/parallel.py), so that
    reading them one by one then hits the cache."""
    fill_cache(lambda read: read(), catalog_reads(root, lang, names))


def catalog_reads(root: Path, lang: str, names=None) -> list[Callable[[], object]]:
    """A call per catalog of `lang` (or of `names`), reading it through the disk cache; a catalog refused for
    its size is left for its reader to report."""
    return [functools.partial(_read_unless_oversized, root, lang, name)
            for name in (existing_catalogs(root, lang) if names is None else names)]


def _read_unless_oversized(root: Path, lang: str, name: str) -> None:
    # Asked only when the call is made: most are never made, the cache being warm or no other core free.
    path = catalog_path(root, lang, name)
    if not oversized(path):
        read_entries(path, lang, root)


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
    catalogs: dict = field(default_factory=dict)  # catalog name -> the keys of `entries` it gave
    plural: object = None
    # Where an untranslated rule text comes from before its source language (set by `chain`): other languages'
    # translations, in order.
    fallbacks: tuple = ()

    @classmethod
    def load(cls, root: Path, lang: str, problems: Problems, kb=None) -> "Translations":
        """Every catalog of `lang`; with `kb`, a [[reference]] in a translation must point at something real."""
        translations = cls(root=Path(root), lang=lang)
        checked: dict[str, object] = {}  # reference target -> its problem, asked of `kb` once per load
        names = existing_catalogs(root, lang, problems)
        read_ahead(root, lang, names)
        for name in names:
            translations.read(name, problems, kb, checked)
        if translations.plural is None:
            translations.plural = compiled(language_plural(lang)[1])
        return translations

    def read(self, name: str, problems: Problems, kb=None, checked: dict | None = None) -> None:
        """Add (or replace) the messages of one catalog; with `kb`, report its translations' broken references."""
        path = catalog_path(self.root, self.lang, name)
        self.forget(name)
        refused = oversized(path)
        if refused:  # before reading: a huge file would cost every command seconds
            problems.add(relative(path, self.root), 0, name, refused, SIZE_HINT)
            return
        try:
            catalog = read_entries(path, self.lang, self.root)
        except CatalogError as error:
            for line, message, hint in error.problems:
                problems.add(relative(path, self.root), line, name, message, hint)
            return
        keys = self.catalogs[name] = []
        for message in catalog:
            if not message.id:
                continue
            overlong = too_long(message.id, message.string) if message.string else None
            if overlong:  # measured against the msgid here; the lookups below measure against the real source
                problems.add(relative(path, self.root), message.lineno, message_label(message), overlong, LENGTH_HINT)
            if kb is not None and may_refer(message.string):  # the cheap pass: most translations have no [[
                for issue in reference_problems(kb, message, checked):
                    problems.add(relative(path, self.root), message.lineno, message_label(message), issue,
                                 REFERENCE_HINT)
            if name == "ui":
                self.ui[message.id if not isinstance(message.id, tuple) else message.id[0]] = message
            else:
                key = message_key(message)
                self.entries[key] = message
                keys.append(key)
        if name == "ui":
            self.plural = compiled(catalog.plural_expr)

    def forget(self, name: str) -> None:
        """Drop the messages one catalog gave (before it is read again, or after it was deleted)."""
        if name == "ui":
            self.ui.clear()
            self.plural = None
        for key in self.catalogs.pop(name, ()):
            self.entries.pop(key, None)

    def copy(self) -> "Translations":
        """A copy whose catalogs can be read again without changing this one (the served site keeps it)."""
        return Translations(self.root, self.lang, dict(self.entries), dict(self.ui),
                            {name: list(keys) for name, keys in self.catalogs.items()}, self.plural, self.fallbacks)

    def recheck(self, kb, targets, problems: Problems, skip=()) -> None:
        """Report broken references, in catalogs other than `skip`, of translations naming one of `targets`."""
        checked: dict[str, object] = {}
        by_catalog = {name: [self.entries[key] for key in keys] for name, keys in self.catalogs.items()}
        by_catalog["ui"] = list(self.ui.values())
        for name, messages in by_catalog.items():
            if name in skip:
                continue
            for message in messages:
                if may_refer(message.string) and any(
                        target in form for target in targets for form in _forms(message.string) if form):
                    for issue in reference_problems(kb, message, checked):
                        problems.add(relative(catalog_path(self.root, self.lang, name), self.root), message.lineno,
                                     message_label(message), issue, REFERENCE_HINT)

    def text(self, context: str, source: str, source_lang: str) -> Text:
        """The words for a rule text in this language, falling back visibly along the chain, then to the source.

        A suggestion of the translation memory is not a translation until a translator accepts it, and a
        translation far longer than the source it stands for is never shown (generator/i18n/limits.py): the
        catalog's msgid could claim any source, so the length is measured against the real one. A fallback
        language lends only its current translations (not a fuzzy one), and the text stays MISSING here: it is
        marked with the language it is shown in.
        """
        own = self._own(context, source, source_lang)
        if own.state != MISSING:
            return own
        for other in self.fallbacks:
            if other.lang == source_lang:
                break
            lent = other._own(context, source, source_lang)
            if lent.state == TRANSLATED:
                return Text(lent.value, lent.lang, MISSING)
        return own

    def _own(self, context: str, source: str, source_lang: str) -> Text:
        """The words this language's own catalogs give a rule text (the source, marked MISSING, if none)."""
        if source_lang == self.lang:
            return Text(source, source_lang, SOURCE)
        message = self.entries.get(context)
        if message is None or not message.string or message.suggestion or not fits(source, message.string):
            return Text(source, source_lang, MISSING)
        if message.fuzzy or message.id != source:
            return Text(message.string, self.lang, FUZZY)
        return Text(message.string, self.lang, TRANSLATED)

    def suggested(self, context: str) -> bool:
        """Whether a rule text's message holds a suggestion of the translation memory that nobody accepted yet."""
        message = self.entries.get(context)
        return message is not None and bool(message.string) and message.suggestion

    # UI strings: a fuzzy, missing, malformed or over-long translation shows the English text.
    def gettext(self, msgid: str) -> str:
        message = self.ui.get(msgid)
        if message is None or message.fuzzy or not message.string or isinstance(message.id, tuple) \
                or not fits(msgid, message.string):
            return msgid
        return message.string if placeholders_match(msgid, message.string) else msgid

    def ngettext(self, singular: str, plural: str, number) -> str:
        message = self.ui.get(singular)
        fallback = singular if number == 1 else plural
        if message is None or message.fuzzy or not isinstance(message.string, tuple) or not all(message.string) \
                or not fits((singular, plural), message.string):
            return fallback
        chosen = message.string[self.plural_index(number)]
        return chosen if placeholders_match(singular, chosen) else fallback

    def plural_index(self, number) -> int:
        """Which form of a counted UI message a number takes, by the ui catalog's Plural-Forms rule."""
        return plural_index(self.lang, number, self.plural)

    def number(self, value) -> str:
        return format_decimal(value, locale=self.lang, decimal_quantization=False)


DEFAULT_FALLBACK = ("en",)  # before a rule's source language: the language most readers of a third one also read


def fallback_chain(language: dict) -> tuple[str, ...]:
    """The languages an untranslated text of `language` (an mkdocs.yml kb_languages entry) is taken from, in
    order, before the rule's source language: its `fallback:` (a code or a list), else English."""
    declared = language.get("fallback", DEFAULT_FALLBACK)
    chain = (declared,) if isinstance(declared, str) else tuple(declared or ())
    return tuple(code for code in chain if code != language["code"])


def fallback_problems(languages: list[dict], problems: Problems, config: str = "mkdocs.yml") -> None:
    """Report each `fallback:` that is neither a code nor a list of codes of configured languages."""
    codes = {language["code"] for language in languages}
    for language in languages:
        declared = language.get("fallback", DEFAULT_FALLBACK)
        listed = [declared] if isinstance(declared, str) else declared if isinstance(declared, (list, tuple)) else None
        if listed is None or not all(isinstance(code, str) for code in listed):
            problems.add(config, 0, language["code"], f"fallback is {declared!r}, not a language code or a list of them",
                         "write fallback: [en] (codes of extra.kb_languages, tried in order before the source)")
            continue
        unknown = [code for code in listed if code not in codes and code not in DEFAULT_FALLBACK]
        if unknown:
            problems.add(config, 0, language["code"], f"fallback names {', '.join(unknown)}, not one of the site's "
                         f"languages ({', '.join(sorted(codes))})", "name configured languages, or run i18n init first")


def load_with_fallbacks(root: Path, language: dict, problems: Problems, kb=None) -> Translations:
    """One language's translations (its problems into `problems`) with its fallback chain loaded and linked, as a
    site build links them: what `check --explain` says is what the page says. A fallback's own problems are its
    own language's to report."""
    own = Translations.load(root, language["code"], problems, kb)
    loaded = {language["code"]: own}
    for code in fallback_chain(language):
        loaded[code] = Translations.load(root, code, Problems(), kb)
    chain(loaded, [language])
    return own


def chain(translations: dict[str, "Translations"], languages: list[dict]) -> None:
    """Give each language's Translations its fallbacks (the configured ones among `translations`)."""
    for language in languages:
        own = translations.get(language["code"])
        if own is not None:
            own.fallbacks = tuple(translations[code] for code in fallback_chain(language) if code in translations)


_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
REFERENCE_HINT = "keep the [[target]] of the source text; only the words after | may change"


def _forms(string) -> tuple:
    return string if isinstance(string, tuple) else (string,)


def may_refer(string) -> bool:
    """False if no form of a translation holds "[[", so it can hold no reference."""
    if isinstance(string, tuple):
        return any(form and "[[" in form for form in string)
    return bool(string) and "[[" in string


def reference_problems(kb, message, checked: dict | None = None) -> list[str]:
    """What is wrong with each [[reference]] a translation makes (a target that does not exist, a path, a URL).

    `checked` remembers each target's answer across the messages of one load.
    """
    checked = {} if checked is None else checked
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    found = []
    for string in strings:
        for reference in (references(string) if string and "[[" in string else ()):
            target = reference.target
            if target not in checked:
                checked[target] = reference_problem(kb, target)
            if checked[target]:
                found.append(f"[[{target}]] {checked[target]}")
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

