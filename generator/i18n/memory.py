"""Translation memory: what a language already says for a source text, to pre-fill new messages and to spot
one text translated two ways."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Optional

from babel.messages.catalog import Catalog

from ..core.problems import Problem, relative
from .po.catalogs import catalog_path, existing_catalogs
from .po.pofile import CatalogError
from .po.reader import message_key, read_entries

CLOSE_MATCH_RATIO = 0.8  # difflib ratio from which an already translated source counts as a close match
CANDIDATES_PER_LOOKUP = 25  # sources sharing the most words with a new text whose full ratio is computed
RAREST_WORDS = 8  # a new text's words looked up: its rarest ones, which a close match shares and "the" does not
NOTE = "translation memory:"  # starts every translator comment the memory writes, so a translator can find them
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Place:
    """Where a translation of a source text already is."""

    file: str
    line: int
    translation: str


@dataclass(frozen=True)
class Suggestion:
    """What to pre-fill a new message with."""

    translation: str
    fuzzy: bool
    comment: Optional[str] = None


def one_line(text: str) -> str:
    """Whitespace collapsed, so a text fits in a `#` comment line of a catalog."""
    return " ".join(str(text).split())


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class TranslationMemory:
    """Every reviewed (non-empty, not fuzzy) translation of one language, by source text, indexed by word."""

    def __init__(self):
        self.places: dict[str, list[Place]] = {}
        self._by_word: dict[str, set[str]] = {}

    def add(self, source: str, translation: str, file: str, line: int):
        if source not in self.places:
            for word in _words(source):
                self._by_word.setdefault(word, set()).add(source)
        self.places.setdefault(source, []).append(Place(file, line, translation))

    def add_catalog(self, catalog, shown: str):
        """Remember every translated, not fuzzy message of a catalog (Babel's or read_entries')."""
        for message in catalog:
            if message.id and isinstance(message.id, str) and isinstance(message.string, str) \
                    and message.string and not message.fuzzy:
                self.add(message.id, message.string, shown, message.lineno)

    @classmethod
    def of_language(cls, root: Path, lang: str) -> "TranslationMemory":
        """The memory of every catalog of a language on disk; a catalog that cannot be read is left out."""
        memory = cls()
        for name in existing_catalogs(root, lang):
            path = catalog_path(root, lang, name)
            try:
                memory.add_catalog(read_entries(path, lang), relative(path, root))  # the strict, cached reader
            except CatalogError:
                continue  # `i18n check` and `i18n update` report it; the memory only loses its texts
        return memory

    def translations(self, source: str) -> list[tuple[str, list[Place]]]:
        """The distinct translations of a source text, most used first (ties: the first seen)."""
        grouped: dict[str, list[Place]] = {}
        for place in self.places.get(source, []):
            grouped.setdefault(place.translation, []).append(place)
        return sorted(grouped.items(), key=lambda item: -len(item[1]))

    def suggest(self, source: str) -> Optional[Suggestion]:
        """An identical source's translation (fuzzy unless all agree), else a close match's (always fuzzy)."""
        variants = self.translations(source)
        if len(variants) == 1:
            return Suggestion(variants[0][0], fuzzy=False)
        if variants:
            listed = "; ".join(f"«{one_line(text)}» ({places[0].file}:{places[0].line})" for text, places in variants)
            return Suggestion(variants[0][0], fuzzy=True,
                              comment=f"{NOTE} this text is translated {len(variants)} ways: {listed}")
        match = self.closest(source)
        if match is None:
            return None
        matched, ratio = match
        return Suggestion(self.translations(matched)[0][0], fuzzy=True,
                          comment=f"{NOTE} close match ({round(ratio * 100)}%) of «{one_line(matched)}»")

    def closest(self, source: str) -> Optional[tuple[str, float]]:
        """The most similar translated source at or above CLOSE_MATCH_RATIO, looking only at word-sharing ones."""
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
            if ratio > best_ratio or (ratio == best_ratio and (best is None or candidate < best)):
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

    def __init__(self, root: Path, lang: str):
        self.root, self.lang = root, lang
        self._memory: Optional[TranslationMemory] = None

    def suggest(self, source: str) -> Optional[Suggestion]:
        if self._memory is None:
            self._memory = TranslationMemory.of_language(self.root, self.lang)
        return self._memory.suggest(source)


def prefill(catalog: Catalog, old: Optional[Catalog], memory) -> int:
    """Fill the messages an update has just added from the memory; returns how many were filled.

    Only messages that were in no form in the old catalog (not even obsolete or empty) are touched, and
    only while their translation is empty, so no translation and no translator's decision is overwritten.
    """
    known = set()
    if old is not None:
        known = {message_key(m) for m in old if m.id} | {message_key(m) for m in old.obsolete.values()}
    filled = 0
    for message in catalog:
        if not message.id or not isinstance(message.id, str) or message.string or message_key(message) in known:
            continue
        suggestion = memory.suggest(message.id)
        if suggestion is None:
            continue
        message.string = suggestion.translation
        if suggestion.fuzzy:
            message.flags.add("fuzzy")
        if suggestion.comment:
            message.user_comments.append(suggestion.comment)
        filled += 1
    return filled


def consistency_warnings(root: Path, languages: list[str]) -> list[Problem]:
    """Every place, in every language, where one source text has a translation other than its usual one."""
    found = []
    for lang in languages:
        found.extend(TranslationMemory.of_language(root, lang).inconsistencies())
    return found


def _label(text: str) -> str:
    shown = one_line(text)
    return repr(shown if len(shown) <= 50 else shown[:47] + "...")
