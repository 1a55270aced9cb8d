"""Translation memory: what a language already says for a source text, to pre-fill new messages and to spot
one text translated two ways.

It reads only what the site publishes as reviewed: translated, not fuzzy messages of the catalogs the sources
need, whose msgid is the source text now (a catalog planted for no rule gives it nothing). Anything it fills
in but an exact, agreed match is a suggestion (`#, fuzzy, suggestion`), which the site does not show until a
translator clears fuzzy; a close match whose meaning may differ (a negation, a number, a term) is not offered.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Optional

from babel.messages.catalog import Catalog

from ..core.problems import Problem, relative
from .glossary import Glossary, contains, read_glossary, stems, word_keys
from .limits import oversized
from .po.catalogs import catalog_path
from .po.pofile import CatalogError
from .po.reader import SUGGESTION, message_key, read_entries

CLOSE_MATCH_RATIO = 0.8  # difflib ratio from which an already translated source counts as a close match
CANDIDATES_PER_LOOKUP = 25  # sources sharing the most words with a new text whose full ratio is computed
RAREST_WORDS = 8  # a new text's words looked up: its rarest ones, which a close match shares and "the" does not
NOTE = "translation memory:"  # starts every translator comment the memory writes, so a translator can find them
ACCEPT = "a suggestion: the site shows the source text until a translator clears fuzzy"
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Place:
    """Where a translation of a source text already is."""

    file: str
    line: int
    translation: str


@dataclass(frozen=True)
class Suggestion:
    """What to pre-fill a new message with: fuzzy ones are suggestions, flagged so; `previous` is the source text a
    close match's translation was made for (the message's `#| msgid`)."""

    translation: str
    fuzzy: bool
    comment: Optional[str] = None
    previous: Optional[str] = None


def one_line(text: str) -> str:
    """Whitespace collapsed, so a text fits in a `#` comment line of a catalog."""
    return " ".join(str(text).split())


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class TranslationMemory:
    """Every reviewed (non-empty, not fuzzy) translation of one language, by source text, indexed by word.

    `glossary` (the language's terms) lets a close match that uses another term be refused.
    """

    def __init__(self, lang: str = "", glossary: Optional[Glossary] = None):
        self.lang = lang
        self.glossary = glossary
        self.places: dict[str, list[Place]] = {}
        self._by_word: dict[str, set[str]] = {}

    def add(self, source: str, translation: str, file: str, line: int):
        if source not in self.places:
            for word in _words(source):
                self._by_word.setdefault(word, set()).add(source)
        self.places.setdefault(source, []).append(Place(file, line, translation))

    def add_catalog(self, catalog, shown: str, sources: Optional[dict] = None):
        """Remember every translated, not fuzzy message of a catalog (Babel's or read_entries'); with `sources`
        (key -> SourceMessage), only those whose msgid is their source text now."""
        for message in catalog:
            if message.id and isinstance(message.id, str) and isinstance(message.string, str) \
                    and message.string and not message.fuzzy and _live(message, sources):
                self.add(message.id, message.string, shown, message.lineno)

    @classmethod
    def of_language(cls, root: Path, lang: str, wanted: dict) -> "TranslationMemory":
        """The memory of a language's catalogs that the sources need (`wanted`: catalog name -> its
        SourceMessages, update.wanted_catalogs); a catalog that cannot be read or is too large is left out."""
        terms, _problems = read_glossary(root, lang)  # `i18n check` reports the glossary's problems
        memory = cls(lang, Glossary(terms))
        for name, sources in wanted.items():
            path = catalog_path(root, lang, name)
            if not path.is_file() or oversized(path):
                continue
            try:  # the strict, cached reader
                memory.add_catalog(read_entries(path, lang, root), relative(path, root),
                                   {source.key: source for source in sources})
            except CatalogError:
                continue  # `i18n check` and `i18n update` report it; the memory only loses its texts
        return memory

    def translations(self, source: str) -> list[tuple[str, list[Place]]]:
        """The distinct translations of a source text, most used first (ties: the first seen)."""
        grouped: dict[str, list[Place]] = {}
        for place in self.places.get(source, []):
            grouped.setdefault(place.translation, []).append(place)
        return sorted(grouped.items(), key=lambda item: -len(item[1]))

    def suggest(self, source: str, source_lang: str = "en") -> Optional[Suggestion]:
        """An identical source's translation (a suggestion unless all agree), else a close match's (a suggestion)."""
        variants = self.translations(source)
        if len(variants) == 1:
            return Suggestion(variants[0][0], fuzzy=False)
        if variants:
            listed = "; ".join(f"«{one_line(text)}» ({places[0].file}:{places[0].line})" for text, places in variants)
            return Suggestion(variants[0][0], fuzzy=True,
                              comment=f"{NOTE} this text is translated {len(variants)} ways: {listed}; {ACCEPT}")
        match = self.closest(source, source_lang)
        if match is None:
            return None
        matched, ratio = match
        return Suggestion(self.translations(matched)[0][0], fuzzy=True,
                          comment=f"{NOTE} close match ({round(ratio * 100)}%) of «{one_line(matched)}»; {ACCEPT}",
                          previous=matched)

    def closest(self, source: str, source_lang: str = "en") -> Optional[tuple[str, float]]:
        """The most similar translated source at or above CLOSE_MATCH_RATIO, looking only at word-sharing ones,
        that says the same negation, numbers and terms as `source` (meaning_differs)."""
        known = [word for word in _words(source) if word in self._by_word]
        shared: Counter = Counter()
        for word in sorted(known, key=lambda word: (len(self._by_word[word]), word))[:RAREST_WORDS]:
            shared.update(self._by_word[word])
        # Sorted by text too, so the same memory gives the same answer in every run (sets have no order).
        candidates = sorted(shared.items(), key=lambda item: (-item[1], item[0]))[:CANDIDATES_PER_LOOKUP]
        best, best_ratio = None, CLOSE_MATCH_RATIO
        for candidate, _count in candidates:
            if candidate == source:
                continue
            # ratio = 2·matches / total length, so lengths alone can rule a candidate out.
            if 2 * min(len(source), len(candidate)) / (len(source) + len(candidate)) < best_ratio:
                continue
            matcher = SequenceMatcher(None, source, candidate, autojunk=False)
            if matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if (ratio > best_ratio or (ratio == best_ratio and (best is None or candidate < best))) and \
                    not meaning_differs(source, candidate, source_lang, self.lang, self.glossary):
                best, best_ratio = candidate, ratio
        return (best, best_ratio) if best is not None else None

    def inconsistencies(self) -> list[Problem]:
        """One warning per place whose translation differs from the most used one of the same source text."""
        found = []
        for source in sorted(self.places):
            variants = self.translations(source)
            if len(variants) < 2:
                continue
            usual, usual_places = variants[0]
            there = usual_places[0]
            for text, places in variants[1:]:
                for place in places:
                    found.append(Problem(
                        place.file, place.line, _label(source),
                        f"the same source text is translated «{one_line(there.translation)}» in "
                        f"{there.file}:{there.line} and «{one_line(text)}» here",
                        "use one translation for one text, unless the context needs another"))
        return found


class LazyMemory:
    """A language's memory, read from disk only when a new message first asks for it."""

    def __init__(self, root: Path, lang: str, wanted: dict):
        self.root, self.lang, self.wanted = root, lang, wanted
        self._memory: Optional[TranslationMemory] = None

    def suggest(self, source: str, source_lang: str = "en") -> Optional[Suggestion]:
        if self._memory is None:
            self._memory = TranslationMemory.of_language(self.root, self.lang, self.wanted)
        return self._memory.suggest(source, source_lang)


def prefill(catalog: Catalog, old: Optional[Catalog], memory, source_langs: Optional[dict] = None) -> int:
    """Fill the messages an update has just added from the memory; returns how many were filled.

    Only messages that were in no form in the old catalog (not even obsolete or empty) are touched, and
    only while their translation is empty, so no translation and no translator's decision is overwritten.
    `source_langs` gives each message's source language by key (English if not given).
    """
    known = set()
    if old is not None:
        known = {message_key(m) for m in old if m.id} | {message_key(m) for m in old.obsolete.values()}
    filled = 0
    for message in catalog:
        if not message.id or not isinstance(message.id, str) or message.string or message_key(message) in known:
            continue
        suggestion = memory.suggest(message.id, (source_langs or {}).get(message_key(message), "en"))
        if suggestion is None:
            continue
        message.string = suggestion.translation
        if suggestion.fuzzy:
            message.flags.update(("fuzzy", SUGGESTION))
        if suggestion.previous:
            message.previous_id = [suggestion.previous]  # `#| msgid`: what Poedit shows as the old source text
        if suggestion.comment:
            message.user_comments.append(suggestion.comment)
        filled += 1
    return filled


def consistency_warnings(root: Path, wanted_by_language: dict[str, dict]) -> list[Problem]:
    """Every place, in every language, where one source text has a translation other than its usual one.

    `wanted_by_language`: language -> the catalogs its sources need (update.wanted_catalogs).
    """
    found = []
    for lang, wanted in wanted_by_language.items():
        found.extend(TranslationMemory.of_language(root, lang, wanted).inconsistencies())
    return found


def _live(message, sources: Optional[dict]) -> bool:
    """Whether a message is one the site shows as translated: its key is a source's and its msgid that source's
    text (always true without `sources`)."""
    if sources is None:
        return True
    source = sources.get(message_key(message))
    return source is not None and source.msgid == message.id


# What a close match may not change, or its translation would say something else: a negation, a number, a
# word of obligation or quantity, a cross-reference or a glossary term.
_TOKEN = re.compile(r"[\w'’]+", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?|[½¼¾⅓⅔]")
_REFERENCE = re.compile(r"\[\[([^\]|]*)")
_NEGATIONS = {
    "en": {"not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without", "cannot", "unless",
           "except"},
    "ru": {"не", "ни", "нет", "без", "нельзя", "никогда", "ничего", "ничто", "никто", "никого", "никакой",
           "никакие", "нигде", "никуда", "кроме"},
}
_OBLIGATIONS = {
    "en": {"may", "must", "can", "could", "might", "should", "shall", "will", "would", "need", "only", "all", "any",
           "each", "every", "both", "either", "some", "always", "more", "less", "fewer", "most", "least", "before",
           "after", "half", "twice", "double", "once", "one", "two", "three", "four", "five", "six"},
    "ru": {"может", "могут", "можно", "вправе", "нужно", "следует", "только", "всегда", "все", "всех", "всем",
           "каждый", "каждая", "каждое", "каждого", "каждой", "каждому", "каждым", "каждые", "любой", "любая",
           "любое", "любого", "любые", "до", "после", "перед", "половина", "дважды", "один", "одна", "одно", "два",
           "две", "три", "четыре", "пять", "шесть"},
}
_OBLIGATION_STEMS = {"ru": ("долж", "обязан")}


def _marked_words(text: str, lang: str) -> Counter:
    """The negations, numbers and words of obligation or quantity a text says, each as often as it says it."""
    words = [word.lower() for word in _TOKEN.findall(text)]
    negations, obligations = _NEGATIONS.get(lang, set()), _OBLIGATIONS.get(lang, set())
    beginnings = _OBLIGATION_STEMS.get(lang, ())
    found = Counter(f"n:{w}" for w in words if w in negations or w.endswith(("n't", "n’t")))
    found.update(f"o:{w}" for w in words if w in obligations or (beginnings and w.startswith(beginnings)))
    found.update(f"#:{number.replace(',', '.')}" for number in _NUMBER.findall(text))
    found.update(f"r:{target.strip()}" for target in _REFERENCE.findall(text))
    return found


def meaning_differs(text: str, other: str, source_lang: str, lang: str, glossary: Optional[Glossary]) -> bool:
    """Whether two similar source texts may mean different things: a negation, a number, a word of obligation or
    quantity, a cross-reference or (with a glossary) a term that one has and the other has not."""
    if _marked_words(text, source_lang) != _marked_words(other, source_lang):
        return True
    if glossary is None or not glossary.terms:
        return False
    text_stems, other_stems = stems(text, source_lang), stems(other, source_lang)
    text_keys, other_keys = word_keys(text_stems, source_lang), word_keys(other_stems, source_lang)
    for _position, _term, needle, _targets in glossary.stemmed(source_lang, lang)[0]:
        if contains(text_stems, needle, source_lang, text_keys) != contains(other_stems, needle, source_lang,
                                                                           other_keys):
            return True
    return False


def _label(text: str) -> str:
    shown = one_line(text)
    return repr(shown if len(shown) <= 50 else shown[:47] + "...")
