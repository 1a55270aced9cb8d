"""`i18n check`: what a translation must carry over from its source, checked message by message."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..core.cache import cached, key_bytes
from ..core.direction import reordering
from ..core.parallel import alongside
from ..core.problems import Problem, Problems, relative
from ..kb.answers import OTHER, pattern_problem
from ..kb.markup import markup_signature, references
from ..kb.model import KnowledgeBase
from .extract import knowledge_base_messages
from .glossary import Glossary, contains, read_glossary, stems, without, word_keys
from .limits import length_problems, size_problem, stray_problems
from .po.catalogs import catalog_path, existing_catalogs, message_label
from .po.pofile import CatalogError
from .po.reader import read_entries
from .readertext import reader_text_problems
from .translate import REFERENCE_HINT, may_refer, placeholder_problem, read_ahead, reference_problems
from .typography import LANG as TYPOGRAPHY_LANG
from .typography import check_general, check_russian
from .update import PIVOT, current_translations, wanted_catalogs

_FRACTIONS = {"½": "0.5", "¼": "0.25", "¾": "0.75", "⅓": "0.333", "⅔": "0.667"}
_NUMBER = re.compile(r"(?<![\w.,])([-+−]?)(\d+(?:[.,]\d+)?)")

_FRACTION_AFTER_DIGIT = {fraction: re.compile(rf"(\d)\s*{fraction}") for fraction in _FRACTIONS}
_ANY_NUMBER = re.compile(r"[\d½¼¾⅓⅔]")
_REFERENCE_TOKEN = re.compile(r"\[\[[^\]]*\]\]")
_REFERENCE_TARGET = re.compile(r"\[\[[^\]|]*\|?")
__all__ = ["catalog_problems", "check_catalogs", "check_message", "numbers_in"]


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


_NO_MARKUP = {"references": 0, "code": 0, "strong": 0, "emphasis": 0}


def _targets(text: str) -> Counter:
    return Counter(reference.target for reference in references(text)) if "[[" in text else Counter()


def _markup(text: str) -> dict[str, int]:
    # Most texts have neither code nor emphasis: skip the four regular expressions for them.
    return markup_signature(text) if "`" in text or "*" in text else _NO_MARKUP


def check_message(source: str, translation: str, source_lang: str, lang: str, glossary) -> list[str]:
    """Everything wrong with one translation of one source text (empty list when it is fine)."""
    issues = []
    reordered = reordering(translation, lang)
    if reordered:
        issues.append(f"the translation {reordered[0]} ({reordered[1]})")
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
    source_stems = stems(_REFERENCE_TARGET.sub(" ", source), source_lang)
    source_words = word_keys(source_stems, source_lang)  # stays a superset as matched words are blanked
    translated_stems = translated_words = None  # stemmed only when the source uses a term
    for _position, term, needle, targets in glossary.candidates(source_lang, lang, source_stems):
        if not contains(source_stems, needle, source_lang, source_words):
            continue
        source_stems = without(source_stems, needle, source_lang)
        if translated_stems is None:
            translated_stems = stems(translation, lang)
            translated_words = word_keys(translated_stems, lang)
        if not any(contains(translated_stems, target, lang, translated_words) for target in targets):
            issues.append(f"glossary: the source uses {term.source!r}; the translation should use "
                          f"{term.target!r} (any case or number)")
    return issues


def check_catalogs(root: Path, kb: KnowledgeBase, languages: list[str], messages: list | None = None) -> list[Problem]:
    """Every problem in every catalog of the given languages, as `catalog:line: msgid: problem`, and every code
    name or unmarked foreign word in what a reader reads (readertext), in those catalogs and in the rules.

    `messages` are knowledge_base_messages(kb) if the caller has them already.
    """
    messages = knowledge_base_messages(kb) if messages is None else messages
    read_catalogs_ahead(root, languages)
    # The reader-text check needs nothing of the others: a large base runs it on a second core.
    problems, reader = alongside(lambda: catalog_problems(root, kb, languages, messages),
                                 lambda: reader_text_problems(root, kb, languages), len(kb.rules))
    return problems + reader


def read_catalogs_ahead(root: Path, languages: list[str]) -> None:
    """Read every catalog of `languages` the disk cache lacks, on every core (translate.read_ahead)."""
    for lang in languages:
        read_ahead(root, lang, existing_catalogs(root, lang))


def catalog_problems(root: Path, kb: KnowledgeBase, languages: list[str], messages: list) -> list[Problem]:
    """check_catalogs without the reader-text check: glossaries, admission, every message, Russian typography."""
    problems: list[Problem] = []
    for lang in languages:
        terms, glossary_problems = read_glossary(root, lang)
        problems.extend(glossary_problems)
        glossary = Glossary(terms)
        wanted = wanted_catalogs(kb, lang, messages)
        sources = {message.key: message for listed in wanted.values() for message in listed}
        refused = Problems()
        names = existing_catalogs(root, lang, refused)
        problems.extend(refused)
        names = _admitted(root, lang, names, wanted, {key: message.msgid for key, message in sources.items()},
                          problems)
        for name in names:
            problems.extend(_check_catalog(root, kb, lang, name, glossary, sources))
            problems.extend(_pivot_problems(root, lang, name, sources))
        problems.extend(check_general(root, lang))  # every language; its own rules below, keyed by its code
    if TYPOGRAPHY_LANG in languages:
        problems.extend(check_russian(root, kb, messages))
    return problems


def _admitted(root: Path, lang: str, names: list[str], wanted: dict, sources: dict, problems: list) -> list[str]:
    """The catalogs worth checking message by message; into `problems`, those refused before that: a file over the
    size limit (not read), a catalog no source needs, a translation far longer than its source (`sources`: message
    key -> source text; generator/i18n/limits.py)."""
    admitted = []
    for name in names:
        path = catalog_path(root, lang, name)
        oversize = size_problem(root, path, name)
        if oversize:
            problems.append(oversize)
            continue
        admitted.append(name)
        try:
            problems.extend(length_problems(root, path, read_entries(path, lang, root), sources))
        except CatalogError:
            pass  # _check_catalog reports it
    problems.extend(stray_problems(root, lang, wanted))
    return admitted


def _check_catalog(root: Path, kb: KnowledgeBase, lang: str, name: str, glossary: Glossary,
                   sources: dict) -> list[Problem]:
    """Every problem in one catalog: its syntax, plural forms, placeholders, references and each translation."""
    path = catalog_path(root, lang, name)
    shown = relative(path, root)
    try:
        catalog = read_entries(path, lang, root)
    except CatalogError as error:
        return [Problem(shown, line, name, message, hint) for line, message, hint in error.problems]
    messages = [message for message in catalog if message.id]
    texts = tuple((m.id, m.string, _source_lang(sources, m)) for m in messages
                  if not isinstance(m.id, tuple) and m.string)
    issues = iter(message_issues(texts, lang, glossary))
    problems = []
    for message in messages:
        found = []  # (issue, hint) of this message; it is labelled only if it has any
        if name == "ui":
            found.extend((issue, "copy each %(name)s from the source unchanged")
                         for issue in _placeholder_issues(message))
        if isinstance(message.id, tuple):
            found.extend(_plural_issues(message, lang, catalog.num_plurals))
        elif message.string:
            if may_refer(message.string):  # most translations hold no [[reference]]
                found.extend((issue, REFERENCE_HINT) for issue in reference_problems(kb, message))
            found.extend((issue, "") for issue in next(issues))
            found.extend((issue, "keep {value}; write the plural group with your language's forms")
                         for issue in _answer_pattern_issues(message, lang))
        if found:
            label = message_label(message)
            problems.extend(Problem(shown, message.lineno, label, issue, hint) for issue, hint in found)
    return problems


def _pivot_problems(root: Path, lang: str, name: str, sources: dict) -> list[Problem]:
    """A third language's translation of a text whose source is in another language is also held to the English
    translation the catalog shows beside it (update.with_pivot): the same numbers, dice, references and markup."""
    if lang == PIVOT or name == "ui":
        return []
    english = current_translations(root, name)
    if not english:
        return []
    path = catalog_path(root, lang, name)
    try:
        catalog = read_entries(path, lang, root)
    except CatalogError:
        return []  # _check_catalog reports it
    problems = []
    for message in catalog:
        source = sources.get(message.context)
        pivot = english.get(message.context)
        if source is None or pivot is None or source.source_lang in (PIVOT, lang) or pivot.id != source.msgid \
                or not isinstance(message.string, str) or not message.string:
            continue
        for issue in check_message(pivot.string, message.string, PIVOT, lang, ()):
            problems.append(Problem(relative(path, root), message.lineno, message_label(message),
                                    "against the English text beside the source: " + issue.replace("source", "English"),
                                    "the source and its English translation say the same: carry it over from both"))
    return problems


def _answer_pattern_issues(message, lang: str) -> list[str]:
    """A translated `other:` answer pattern keeps {value} and has the language's plural forms."""
    if not str(message.context or "").endswith(":returns:answer:" + OTHER):
        return []
    issue = pattern_problem(message.string, lang, numeric=True)
    return [issue] if issue else []


def _source_lang(sources: dict, message) -> str:
    source = sources.get(message.context if message.context is not None else message.id)
    return source.source_lang if source else "en"


def _placeholder_issues(message) -> list[str]:
    issues = (placeholder_problem(source_text, translated) for source_text, translated in _ui_pairs(message))
    return [issue for issue in issues if issue]


def _plural_issues(message, lang: str, expected: int) -> list[tuple[str, str]]:
    """A plural message's translations: all forms of the language, or none, never some."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if any(strings) and len(strings) != expected:
        return [(f"has {len(strings)} plural forms; {lang} needs {expected}",
                 "write msgstr[0] … msgstr[%d]" % (expected - 1))]
    if any(strings) and not all(strings):
        return [("some plural forms are empty", "fill every msgstr[n]")]
    return []


def message_issues(texts: tuple, lang: str, glossary: Glossary) -> list:
    """check_message for every (source, translation, source language) of a catalog, from the on-disk cache when
    the same texts were checked against the same glossary by the same code (a pure function of these)."""
    terms = tuple((term.source, term.target, term.accept) for term in glossary.terms)
    key = key_bytes((lang, terms, texts))
    return cached("translation-checks", key,
                  lambda: [check_message(source, translation, source_lang, lang, glossary)
                           for source, translation, source_lang in texts])


def _ui_pairs(message):
    if isinstance(message.id, tuple):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        return [(message.id[0], text) for text in strings if text]
    return [(message.id, message.string)] if message.string else []
