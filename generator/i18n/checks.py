"""`i18n check`: what a translation must carry over from its source, checked message by message."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import snowballstemmer

from ..markup import markup_signature, references
from ..model import KnowledgeBase
from ..problems import Problem, Problems, relative
from ..yamlfile import read_document
from .catalog import CatalogError, catalog_path, existing_catalogs, message_label, read_entries
from ..answers import OTHER, pattern_problem
from .translate import REFERENCE_HINT, placeholder_problem, reference_problems
from .typography import LANG as TYPOGRAPHY_LANG, check_russian
from .update import wanted_catalogs

_FRACTIONS = {"½": "0.5", "¼": "0.25", "¾": "0.75", "⅓": "0.333", "⅔": "0.667"}
_NUMBER = re.compile(r"(?<![\w.,])([-+−]?)(\d+(?:[.,]\d+)?)")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_STEMMERS = {"en": "english", "ru": "russian", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
             "pl": None}


_FRACTION_AFTER_DIGIT = {fraction: re.compile(rf"(\d)\s*{fraction}") for fraction in _FRACTIONS}
_ANY_NUMBER = re.compile(r"[\d½¼¾⅓⅔]")
_REFERENCE_TOKEN = re.compile(r"\[\[[^\]]*\]\]")
_REFERENCE_TARGET = re.compile(r"\[\[[^\]|]*\|?")
STEM_CACHE_SIZE = 200_000  # words remembered per process; a language's whole vocabulary fits many times over


def numbers_in(text: str) -> Counter:
    """Numbers a text states, normalised: 0,5 = 0.5 = ½; −1 = -1. Inside references they do not count."""
    if not _ANY_NUMBER.search(text or ""):
        return Counter()
    text = _REFERENCE_TOKEN.sub(" ", text)
    for fraction, value in _FRACTIONS.items():
        if fraction in text:
            text = _FRACTION_AFTER_DIGIT[fraction].sub(lambda m: m.group(1) + "." + value.split(".")[1], text)
            text = text.replace(fraction, f" {value} ")
    found = Counter()
    for sign, digits in _NUMBER.findall(text):
        value = digits.replace(",", ".")
        value = value.rstrip("0").rstrip(".") if "." in value else value
        found[("-" if sign in "-−" and sign else "") + value] += 1
    return found


@functools.lru_cache(maxsize=None)
def _stemmer(lang: str):
    """One Snowball stemmer per language for the whole process (building one is not free)."""
    name = _STEMMERS.get(lang, None)
    return snowballstemmer.stemmer(name) if name else None


def _english_base(word: str) -> str:
    # Snowball would fold "daemonic" into "daemon"; for English terms only plurals need folding.
    for ending, replacement in (("ies", "y"), ("sses", "ss"), ("es", "e"), ("s", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2 and not word.endswith("ss"):
            return word[: -len(ending)] + replacement
    return word


def _stem(word: str, lang: str) -> str:
    """The stem of one casefolded word."""
    if lang == "en":
        return _english_base(word)
    stemmer = _stemmer(lang)
    return stemmer.stemWord(word) if stemmer else word


_STEM_CACHE: dict[str, dict[str, str]] = {}  # lang -> word -> stem: the same few thousand words recur everywhere


def _stems(text: str, lang: str) -> list[str]:
    words = _WORD.findall((text or "").casefold().replace("ё", "е"))
    known = _STEM_CACHE.setdefault(lang, {})
    try:
        return [known[word] for word in words]
    except KeyError:
        if len(known) > STEM_CACHE_SIZE:
            known.clear()
        for word in words:
            if word not in known:
                known[word] = _stem(word, lang)
        return [known[word] for word in words]


def _same_stem(a: str, b: str) -> bool:
    # Snowball stems some forms of one Russian word differently (разгром → разгр, разгрома → разгром).
    if a == b:
        return True
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return len(shorter) >= 4 and longer.startswith(shorter)


def _contains(haystack: list[str], needle: list[str], lang: str, words: frozenset | None = None) -> bool:
    """Whether the stems `needle` occur in a row in `haystack`; `words` (its set) lets exact matching skip early."""
    if not needle:
        return False
    first, rest, length = needle[0], needle[1:], len(needle)
    if lang == "en":  # English forms are folded exactly ("character" is not "characteristic")
        if words is not None and not all(term in words for term in needle):
            return False
        same = str.__eq__
    else:  # stemmed languages get slack; two stems that match share their first four letters
        same = _same_stem
        if words is not None and first not in words and first[:4] not in words:
            return False
    for start in range(len(haystack) - length + 1):
        if same(haystack[start], first) and all(same(word, term) for word, term in
                                                zip(haystack[start + 1:start + length], rest)):
            return True
    return False


def _word_keys(stems: list[str], lang: str) -> frozenset:
    """What _contains may skip on: every stem, and for stemmed languages its first four letters too."""
    return frozenset(stems) if lang == "en" else frozenset(stems) | {stem[:4] for stem in stems}


def _without(haystack: list[str], needle: list[str], lang: str) -> list[str]:
    """The words left once every occurrence of needle is blanked out."""
    same = str.__eq__ if lang == "en" else _same_stem
    words, size, first, rest = list(haystack), len(needle), needle[0], needle[1:]
    for i in range(len(words) - size + 1):
        if same(words[i], first) and all(same(word, term) for word, term in zip(words[i + 1:i + size], rest)):
            words[i:i + size] = [""] * size
    return words


@dataclass(frozen=True)
class Term:
    source: str
    target: str
    accept: tuple = ()  # other renderings that also satisfy the check (a book's own term for the concept)


class Glossary:
    """A language's terms with their stems, worked out once per language pair instead of once per message."""

    def __init__(self, terms):
        self.terms = list(terms)
        self._stemmed: dict[tuple[str, str], tuple] = {}

    def stemmed(self, source_lang: str, lang: str) -> tuple[list, dict]:
        """[(position, term, source stems, stems of each accepted rendering)], longest terms first (the words a
        longer term has matched, "rank and file", are not checked again as "rank"), and the same by first stem."""
        key = (source_lang, lang)
        if key not in self._stemmed:
            stemmed = [(term, _stems(term.source, source_lang)) for term in self.terms]
            stemmed.sort(key=lambda item: -len(item[1]))
            entries = [(position, term, needle, [_stems(target, lang) for target in (term.target, *term.accept)])
                       for position, (term, needle) in enumerate(stemmed)]
            by_first: dict[str, list] = {}
            for entry in entries:
                if entry[2]:
                    by_first.setdefault(entry[2][0], []).append(entry)
            self._stemmed[key] = (entries, by_first)
        return self._stemmed[key]

    def candidates(self, source_lang: str, lang: str, source_stems: list[str]) -> list:
        """The terms a source text may use, in checking order: for English only those whose first word it has."""
        entries, by_first = self.stemmed(source_lang, lang)
        if source_lang != "en":
            return entries
        return sorted((entry for stem in set(source_stems) for entry in by_first.get(stem, ())),
                      key=lambda entry: entry[0])


GLOSSARY_KEYS = ("lang", "terms", "forbidden")
TERM_KEYS = ("source", "target", "accept", "aliases", "forbidden")
TERM_LISTS = ("accept", "aliases", "forbidden")  # each a list of words; see translations/ru/glossary.yaml
GLOSSARY_HINT = ("each entry is {source: <term in the source text>, target: <the term translations use>}; "
                 "see the comments at the top of the file")


def read_glossary(root: Path, lang: str) -> tuple[list[Term], list[Problem]]:
    """The translators' terms for `lang`, and every problem in the file (file:line, never a traceback)."""
    path = Path(root) / "translations" / lang / "glossary.yaml"
    if not os.path.lexists(path):  # a symlink to nothing is read, so that it is reported
        return [], []
    shown = relative(path, root)
    refused = Problems()
    document = read_document(root, path, refused, "glossary")
    if document is None:
        return [], list(refused)
    data = document.data if document.data is not None else {}
    if not isinstance(data, dict):
        return [], [Problem(shown, document.line(()), "glossary", "must be a mapping with `lang:` and `terms:`",
                            GLOSSARY_HINT)]
    problems = [Problem(shown, document.line((key,)), "glossary", f"unknown key {key!r}",
                        "use only lang, terms and forbidden")
                for key in data if key not in GLOSSARY_KEYS]
    if data.get("lang", lang) != lang:
        problems.append(Problem(shown, document.line(("lang",)), "glossary",
                                f"says lang: {data.get('lang')!r} but sits in translations/{lang}/",
                                f"write lang: {lang}"))
    entries = data.get("terms") or []
    if not isinstance(entries, list):
        return [], problems + [Problem(shown, document.line(("terms",)), "glossary", "terms must be a list",
                                       GLOSSARY_HINT)]
    terms, seen = [], {}
    for index, entry in enumerate(entries):
        line = document.line(("terms", index))
        fields = entry if isinstance(entry, dict) else {}
        wrong = [key for key in fields if key not in TERM_KEYS]
        missing = [key for key in ("source", "target") if not isinstance(fields.get(key), str) or not fields[key].strip()]
        lists = [key for key in TERM_LISTS if key in fields and not _texts(fields[key])]
        if lists:
            missing += [f"{key} (a list of words)" for key in lists]
        if not isinstance(entry, dict) or wrong or missing:
            detail = ("is not a mapping" if not isinstance(entry, dict) else
                      "; ".join(part for part in (f"unknown key(s) {', '.join(map(repr, wrong))}" if wrong else "",
                                                  f"needs a non-empty text for {' and '.join(missing)}" if missing else "")
                                if part))
            problems.append(Problem(shown, line, "glossary", f"term {index + 1} {detail}", GLOSSARY_HINT))
            continue
        if fields["source"] in seen:
            problems.append(Problem(shown, line, "glossary", f"{fields['source']!r} is listed twice (also at line "
                                    f"{seen[fields['source']]})", "keep one entry per source term"))
            continue
        seen[fields["source"]] = line
        terms.append(Term(fields["source"], fields["target"], tuple(fields.get("accept") or ())))
    for index, entry in enumerate(data.get("forbidden") or []):
        phrase = entry.get("phrase") if isinstance(entry, dict) else None
        if not (isinstance(phrase, str) and phrase.strip() or _texts(phrase)) or \
                not isinstance(entry.get("use"), str) or set(entry) - {"phrase", "use"}:
            problems.append(Problem(shown, document.line(("forbidden", index)), "glossary",
                                    f"forbidden entry {index + 1} needs exactly phrase (a text or a list) and use "
                                    f"(what to write instead)", GLOSSARY_HINT))
    return terms, problems


_NO_MARKUP = {"references": 0, "code": 0, "strong": 0, "emphasis": 0}


def _targets(text: str) -> Counter:
    return Counter(reference.target for reference in references(text)) if "[[" in text else Counter()


def _markup(text: str) -> dict[str, int]:
    # Most texts have neither code nor emphasis: skip the four regular expressions for them.
    return markup_signature(text) if "`" in text or "*" in text else _NO_MARKUP


def _texts(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value)


def check_message(source: str, translation: str, source_lang: str, lang: str, glossary) -> list[str]:
    """Everything wrong with one translation of one source text (empty list when it is fine)."""
    issues = []
    source_refs, translated_refs = _targets(source), _targets(translation)
    if source_refs != translated_refs:
        lost = sorted((source_refs - translated_refs).elements())
        added = sorted((translated_refs - source_refs).elements())
        detail = "; ".join(part for part in (
            "missing " + ", ".join(f"[[{t}]]" for t in lost) if lost else "",
            "not in the source " + ", ".join(f"[[{t}]]" for t in added) if added else "") if part)
        issues.append(f"cross-references differ from the source: {detail} (keep each [[target]]; only the text "
                      f"after | may change)")
    source_numbers, translated_numbers = numbers_in(source), numbers_in(translation)
    lost_numbers = source_numbers - translated_numbers
    if lost_numbers:
        issues.append("the translation does not carry " + ", ".join(sorted(lost_numbers.elements())) +
                      " from the source (write the same numbers; 0,5 and ½ count as 0.5, − as -)")
    source_markup, translated_markup = _markup(source), _markup(translation)
    for kind in ("code", "strong", "emphasis"):
        if source_markup[kind] != translated_markup[kind]:
            issues.append(f"markup differs: {kind} appears {source_markup[kind]} time(s) in the source and "
                          f"{translated_markup[kind]} in the translation")
    glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
    source_stems = _stems(_REFERENCE_TARGET.sub(" ", source), source_lang)
    source_words = _word_keys(source_stems, source_lang)  # stays a superset as matched words are blanked
    translated_stems = translated_words = None  # stemmed only when the source uses a term
    for _position, term, needle, targets in glossary.candidates(source_lang, lang, source_stems):
        if not _contains(source_stems, needle, source_lang, source_words):
            continue
        source_stems = _without(source_stems, needle, source_lang)
        if translated_stems is None:
            translated_stems = _stems(translation, lang)
            translated_words = _word_keys(translated_stems, lang)
        if not any(_contains(translated_stems, target, lang, translated_words) for target in targets):
            issues.append(f"glossary: the source uses {term.source!r}; the translation should use "
                          f"{term.target!r} (any case or number)")
    return issues


def check_catalogs(root: Path, kb: KnowledgeBase, languages: list[str]) -> list[Problem]:
    """Every problem in every catalog of the given languages, as `catalog:line: msgid: problem`."""
    problems: list[Problem] = []
    for lang in languages:
        terms, glossary_problems = read_glossary(root, lang)
        problems.extend(glossary_problems)
        glossary = Glossary(terms)
        wanted = wanted_catalogs(kb, lang)
        sources = {message.key: message for messages in wanted.values() for message in messages}
        refused = Problems()
        names = existing_catalogs(root, lang, refused)
        problems.extend(refused)
        for name in names:
            path = catalog_path(root, lang, name)
            shown = relative(path, root)
            try:
                catalog = read_entries(path, lang, root)
            except CatalogError as error:
                problems.extend(Problem(shown, line, name, message, hint) for line, message, hint in error.problems)
                continue
            expected_plurals = catalog.num_plurals
            for message in catalog:
                if not message.id:
                    continue
                key = message.context if message.context is not None else message.id
                label = message_label(message)
                if name == "ui":
                    for source_text, translated in _ui_pairs(message):
                        issue = placeholder_problem(source_text, translated)
                        if issue:
                            problems.append(Problem(shown, message.lineno, label, issue,
                                                    "copy each %(name)s from the source unchanged"))
                if isinstance(message.id, tuple):
                    strings = message.string if isinstance(message.string, tuple) else (message.string,)
                    if any(strings) and len(strings) != expected_plurals:
                        problems.append(Problem(shown, message.lineno, label,
                                                f"has {len(strings)} plural forms; {lang} needs {expected_plurals}",
                                                "write msgstr[0] … msgstr[%d]" % (expected_plurals - 1)))
                    elif any(strings) and not all(strings):
                        problems.append(Problem(shown, message.lineno, label, "some plural forms are empty",
                                                "fill every msgstr[n]"))
                    continue
                if not message.string:
                    continue
                problems.extend(Problem(shown, message.lineno, label, issue, REFERENCE_HINT)
                                for issue in reference_problems(kb, message))
                source = sources.get(key)
                source_lang = source.source_lang if source else "en"
                for issue in check_message(message.id, message.string, source_lang, lang, glossary):
                    problems.append(Problem(shown, message.lineno, label, issue))
                if key.endswith(":returns:answer:" + OTHER):  # a declared answer's pattern: {value}, plural forms
                    issue = pattern_problem(message.string, lang, numeric=True)
                    if issue:
                        problems.append(Problem(shown, message.lineno, label, issue,
                                                "keep {value}; write the plural group with your language's forms"))
    if TYPOGRAPHY_LANG in languages:
        problems.extend(check_russian(root, kb))
    return problems


def _ui_pairs(message):
    if isinstance(message.id, tuple):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        return [(message.id[0], text) for text in strings if text]
    return [(message.id, message.string)] if message.string else []
