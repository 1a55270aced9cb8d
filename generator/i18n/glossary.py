"""The translators' glossary: terms read from translations/<lang>/glossary.yaml and matched by word stems."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.problems import Problem, Problems, relative
from ..core.yamlfile import read_document

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_STEMMERS = {"en": "english", "ru": "russian", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
             "pl": None}
STEM_CACHE_SIZE = 200_000  # words remembered per process; a language's whole vocabulary fits many times over


@functools.lru_cache(maxsize=None)
def _stemmer(lang: str):
    """One Snowball stemmer per language for the whole process (building one is not free)."""
    import snowballstemmer  # it loads every language's stemmer: only the commands that stem wait for it

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


def stems(text: str, lang: str) -> list[str]:
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


def contains(haystack: list[str], needle: list[str], lang: str, words: frozenset | None = None) -> bool:
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


def word_keys(stems: list[str], lang: str) -> frozenset:
    """What _contains may skip on: every stem, and for stemmed languages its first four letters too."""
    return frozenset(stems) if lang == "en" else frozenset(stems) | {stem[:4] for stem in stems}


def without(haystack: list[str], needle: list[str], lang: str) -> list[str]:
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
            stemmed = [(term, stems(term.source, source_lang)) for term in self.terms]
            stemmed.sort(key=lambda item: -len(item[1]))
            entries = [(position, term, needle, [stems(target, lang) for target in (term.target, *term.accept)])
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
    terms = _terms(entries, shown, document, problems)
    problems.extend(_forbidden_problems(data.get("forbidden") or [], shown, document))
    return terms, problems


def _term_problem(index: int, entry) -> str | None:
    """What is wrong with the index-th term entry (None if it is a well-formed mapping)."""
    fields = entry if isinstance(entry, dict) else {}
    wrong = [key for key in fields if key not in TERM_KEYS]
    missing = [key for key in ("source", "target") if not isinstance(fields.get(key), str) or not fields[key].strip()]
    missing += [f"{key} (a list of words)" for key in TERM_LISTS if key in fields and not _texts(fields[key])]
    if isinstance(entry, dict) and not wrong and not missing:
        return None
    detail = ("is not a mapping" if not isinstance(entry, dict) else
              "; ".join(part for part in (f"unknown key(s) {', '.join(map(repr, wrong))}" if wrong else "",
                                          f"needs a non-empty text for {' and '.join(missing)}" if missing else "")
                        if part))
    return f"term {index + 1} {detail}"


def _terms(entries: list, shown: str, document, problems: list) -> list[Term]:
    """The well-formed, first-listed terms; a problem added for every other entry."""
    terms, seen = [], {}
    for index, entry in enumerate(entries):
        line = document.line(("terms", index))
        problem = _term_problem(index, entry)
        if problem:
            problems.append(Problem(shown, line, "glossary", problem, GLOSSARY_HINT))
            continue
        if entry["source"] in seen:
            problems.append(Problem(shown, line, "glossary", f"{entry['source']!r} is listed twice (also at line "
                                    f"{seen[entry['source']]})", "keep one entry per source term"))
            continue
        seen[entry["source"]] = line
        terms.append(Term(entry["source"], entry["target"], tuple(entry.get("accept") or ())))
    return terms


def _forbidden_problems(entries: list, shown: str, document) -> list[Problem]:
    """A problem for every top-level `forbidden` entry that is not exactly {phrase, use}."""
    problems = []
    for index, entry in enumerate(entries):
        phrase = entry.get("phrase") if isinstance(entry, dict) else None
        if not (isinstance(phrase, str) and phrase.strip() or _texts(phrase)) or \
                not isinstance(entry.get("use"), str) or set(entry) - {"phrase", "use"}:
            problems.append(Problem(shown, document.line(("forbidden", index)), "glossary",
                                    f"forbidden entry {index + 1} needs exactly phrase (a text or a list) and use "
                                    f"(what to write instead)", GLOSSARY_HINT))
    return problems


def _texts(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value)
