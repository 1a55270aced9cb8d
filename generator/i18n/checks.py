"""`i18n check`: what a translation must carry over from its source, checked message by message."""

from __future__ import annotations

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
from .catalog import CatalogError, catalog_path, existing_catalogs, message_label, read_catalog
from .translate import REFERENCE_HINT, placeholder_problem, reference_problems
from .update import wanted_catalogs

_FRACTIONS = {"½": "0.5", "¼": "0.25", "¾": "0.75", "⅓": "0.333", "⅔": "0.667"}
_NUMBER = re.compile(r"(?<![\w.,])([-+−]?)(\d+(?:[.,]\d+)?)")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_STEMMERS = {"en": "english", "ru": "russian", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
             "pl": None}


def numbers_in(text: str) -> Counter:
    """Numbers a text states, normalised: 0,5 = 0.5 = ½; −1 = -1. Inside references they do not count."""
    text = re.sub(r"\[\[[^\]]*\]\]", " ", text or "")
    for fraction, value in _FRACTIONS.items():
        text = re.sub(rf"(\d)\s*{fraction}", lambda m: m.group(1) + "." + value.split(".")[1], text)
        text = text.replace(fraction, f" {value} ")
    found = Counter()
    for sign, digits in _NUMBER.findall(text):
        value = digits.replace(",", ".")
        value = value.rstrip("0").rstrip(".") if "." in value else value
        found[("-" if sign in "-−" and sign else "") + value] += 1
    return found


def _stemmer(lang: str):
    name = _STEMMERS.get(lang, None)
    return snowballstemmer.stemmer(name) if name else None


def _english_base(word: str) -> str:
    # Snowball would fold "daemonic" into "daemon"; for English terms only plurals need folding.
    for ending, replacement in (("ies", "y"), ("sses", "ss"), ("es", "e"), ("s", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2 and not word.endswith("ss"):
            return word[: -len(ending)] + replacement
    return word


def _stems(text: str, lang: str) -> list[str]:
    words = [word.casefold().replace("ё", "е") for word in _WORD.findall(text or "")]
    if lang == "en":
        return [_english_base(word) for word in words]
    stemmer = _stemmer(lang)
    return stemmer.stemWords(words) if stemmer else words


def _same_stem(a: str, b: str) -> bool:
    # Snowball stems some forms of one Russian word differently (разгром → разгр, разгрома → разгром).
    shorter, longer = sorted((a, b), key=len)
    return a == b or (len(shorter) >= 4 and longer.startswith(shorter))


def _contains(haystack: list[str], needle: list[str], lang: str) -> bool:
    if not needle:
        return False
    # English forms are folded exactly ("character" is not "characteristic"); stemmed languages get slack.
    same = (lambda a, b: a == b) if lang == "en" else _same_stem
    return any(all(same(word, term) for word, term in zip(haystack[i:i + len(needle)], needle))
               for i in range(len(haystack) - len(needle) + 1))


@dataclass
class Term:
    source: str
    target: str


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
    problems = [Problem(shown, document.line((key,)), "glossary", f"unknown key {key!r}", "use only lang and terms")
                for key in data if key not in ("lang", "terms")]
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
        wrong = [key for key in fields if key not in ("source", "target")]
        missing = [key for key in ("source", "target") if not isinstance(fields.get(key), str) or not fields[key].strip()]
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
        terms.append(Term(fields["source"], fields["target"]))
    return terms, problems


def check_message(source: str, translation: str, source_lang: str, lang: str, glossary: list[Term]) -> list[str]:
    """Everything wrong with one translation of one source text (empty list when it is fine)."""
    issues = []
    source_refs = Counter(reference.target for reference in references(source))
    translated_refs = Counter(reference.target for reference in references(translation))
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
    source_markup, translated_markup = markup_signature(source), markup_signature(translation)
    for kind in ("code", "strong", "emphasis"):
        if source_markup[kind] != translated_markup[kind]:
            issues.append(f"markup differs: {kind} appears {source_markup[kind]} time(s) in the source and "
                          f"{translated_markup[kind]} in the translation")
    source_stems = _stems(re.sub(r"\[\[[^\]|]*\|?", " ", source), source_lang)
    translated_stems = _stems(translation, lang)
    for term in glossary:
        if _contains(source_stems, _stems(term.source, source_lang), source_lang) and \
                not _contains(translated_stems, _stems(term.target, lang), lang):
            issues.append(f"glossary: the source uses {term.source!r}; the translation should use "
                          f"{term.target!r} (any case or number)")
    return issues


def check_catalogs(root: Path, kb: KnowledgeBase, languages: list[str]) -> list[Problem]:
    """Every problem in every catalog of the given languages, as `catalog:line: msgid: problem`."""
    problems: list[Problem] = []
    for lang in languages:
        glossary, glossary_problems = read_glossary(root, lang)
        problems.extend(glossary_problems)
        wanted = wanted_catalogs(kb, lang)
        sources = {message.key: message for messages in wanted.values() for message in messages}
        refused = Problems()
        names = existing_catalogs(root, lang, refused)
        problems.extend(refused)
        for name in names:
            path = catalog_path(root, lang, name)
            shown = relative(path, root)
            try:
                catalog = read_catalog(path, lang, root)
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
    return problems


def _ui_pairs(message):
    if isinstance(message.id, tuple):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        return [(message.id[0], text) for text in strings if text]
    return [(message.id, message.string)] if message.string else []
