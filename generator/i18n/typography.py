"""Russian typography and forbidden words, checked in every Russian catalog and in the Russian-source rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import yaml

from ..core.cache import cached, key_bytes
from ..core.problems import Problem, relative
from ..kb.model import KnowledgeBase
from .extract import knowledge_base_messages
from .limits import oversized
from .po.catalogs import catalog_path, existing_catalogs, message_label
from .po.pofile import CatalogError
from .po.reader import read_entries

LANG = "ru"
NBSP = "\u00a0"
# Units written after a number; the space before them must not break («25 мм», «4 дюйма»).
UNITS = r"(?:мм|см|дюйм(?:а|ов)?|К6)"
AROUND = 12  # characters of context shown on either side of a slip
_CODE = re.compile(r"`[^`]*`")
_REFERENCE = re.compile(r"\[\[([^\]|]*)(?:\|([^\]]*))?\]\]")

# (pattern, what is wrong, how to fix it); patterns run on the text a reader sees (code spans removed).
_RULES = [
    (re.compile(rf"\d(?:[,.]\d+)? {UNITS}(?!\w)"), "a plain space between a number and its unit",
     "write a no-break space (U+00A0) so «25 мм» never splits across lines"),
    (re.compile(r" [—–]"), "a plain space before a dash",
     "write a no-break space (U+00A0) before «—» so no line starts with the dash"),
    (re.compile(r"\""), "a straight quote", "use « » (and „ “ inside them)"),
    (re.compile(r"(?:^|\s)-(?=\s|$)"), "a hyphen used as a dash", "write « — » (em dash, no-break space before it)"),
    (re.compile(r"(?<=\d)-(?=\d)"), "a hyphen between numbers", "write a range with an en dash: 55–56"),
    (re.compile(r"[!?][.,;:]"), "double punctuation after «!» or «?»",
     "end the sentence with the «!» (or put the name in « » and punctuate after the closing quote)"),
    (re.compile(r"(?<![\w`])\d*D\d+"), "dice written with a Latin D", "write dice as 2К6 (Cyrillic К)"),
    (re.compile(r"(?<![\w.,])\d+\.\d+(?![\w.])"), "a decimal point", "write a decimal comma: 0,5"),
]


# Words that slip into a fixed phrase without changing it: personal, possessive, demonstrative and negative
# pronouns and particles.
_SLIPS_IN = "(?:" + "|".join(sorted("""
    его её ее их ему ей им ими него неё нее них ней нему ним нём нем он она оно они
    это этот эта эту этого этой этому эти этих тот та ту то того той те тех
    свой своя свою своё свое своего своей своих свои сам сама само сами
    никакой никакую никакого никаких никакие какой какую какие
    же ли бы уже уж ещё еще даже тоже также и ни лишь только вообще больше
    """.split(), key=len, reverse=True)) + ")"


GAP = "…"  # in a forbidden phrase: any few words may stand here
GAP_WORDS = 6  # as many as a comparison takes («против −2 и», «по Лидерству 7 и больше Ран не»), not a paragraph


@dataclass(frozen=True)
class Forbidden:
    """A word or phrase no Russian text may use, and what to write instead."""

    words: tuple[str, ...]  # each word exact, or a prefix when it ends in *
    use: str

    @cached_property
    def pattern(self) -> re.Pattern:
        # One regex per entry: far quicker than comparing word lists for every message. Between two words of a
        # phrase up to two pronouns or particles may stand («не проходит её проверку» is «не проходит
        # проверку»); any other word breaks it («Сила отряда у каждой модели» is not «Сила отряда каждой модели»).
        # A `…` between two words lets up to GAP_WORDS words of any kind stand there: «проходит проверку …
        # получает» is a reading of an outcome, whatever the comparison said in between.
        between = rf"[\W\d_]+(?:{_SLIPS_IN}[\W\d_]+){{0,2}}"
        gap = rf"[\W\d_]+(?:[^\W\d_]+[\W\d_]+){{0,{GAP_WORDS}}}"
        pattern = r"(?<![^\W\d_])"
        for index, word in enumerate(word for word in self.words if word != GAP):
            if index:
                pattern += gap if self._gap_before(index) else between
            pattern += re.escape(word[:-1]) + r"[^\W\d_]*" if word.endswith("*") else re.escape(word)
        return re.compile(pattern + r"(?![^\W\d_])", re.IGNORECASE)

    def _gap_before(self, index: int) -> bool:
        """Whether a `…` stands just before the index-th word (counting words only)."""
        seen = -1
        for word in self.words:
            if word == GAP:
                if seen == index - 1:
                    return True
                continue
            seen += 1
        return False

    def found_in(self, text: str) -> bool:
        # The first word's literal part must occur at all before the regex is worth running.
        return self.words[0].rstrip("*") in text.casefold() and self.pattern.search(text) is not None


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(part.casefold() for part in str(text).split())


def read_forbidden(root: Path) -> list[Forbidden]:
    """The forbidden words of translations/ru/glossary.yaml: per term (use the target) and the top-level list.

    Malformed entries are skipped here: `read_glossary` reports them with file and line."""
    path = Path(root) / "translations" / LANG / "glossary.yaml"
    if not path.exists():
        return []
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return []
    data = data if isinstance(data, dict) else {}
    found = []
    for term in data.get("terms") or []:
        if isinstance(term, dict) and isinstance(term.get("forbidden"), list):
            found += [Forbidden(_phrase(phrase), f"the glossary term is «{term.get('target')}»")
                      for phrase in term["forbidden"] if isinstance(phrase, str) and phrase.strip()]
    for entry in data.get("forbidden") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("use"), str):
            continue
        phrases = entry.get("phrase") if isinstance(entry.get("phrase"), list) else [entry.get("phrase")]
        found += [Forbidden(_phrase(phrase), entry["use"])
                  for phrase in phrases if isinstance(phrase, str) and phrase.strip()]
    return found


def shown_text(text: str) -> str:
    """What a reader sees: code spans dropped, a reference replaced by its shown words (or nothing)."""
    text = _CODE.sub(" ", text or "")
    return _REFERENCE.sub(lambda match: match.group(2) or " ", text)


def text_issues(text: str, forbidden: list[Forbidden]) -> list[tuple[str, str]]:
    """Every typography slip and forbidden word in one Russian text, as (problem, hint) pairs."""
    shown = shown_text(text)
    issues = []
    for pattern, problem, hint in _RULES:
        match = pattern.search(shown)
        if match:
            issues.append((f"{problem} in «…{_around(shown, match)}…»", hint))
    for entry in forbidden:
        if entry.found_in(shown):
            issues.append((f"uses «{' '.join(entry.words)}»", entry.use))
    return issues


def _around(text: str, match: re.Match) -> str:
    return text[max(0, match.start() - AROUND):match.end() + AROUND].replace(NBSP, "⍽").replace("\n", " ")


def check_russian(root: Path, kb: KnowledgeBase, messages: list | None = None) -> list[Problem]:
    """Typography problems in every Russian catalog string and in every Russian-source text of the rules.

    `messages` are knowledge_base_messages(kb) if the caller has them already.
    """
    forbidden = read_forbidden(root)
    problems = []
    for message in knowledge_base_messages(kb) if messages is None else messages:
        if message.source_lang != LANG or not message.locations:
            continue
        path, line = message.locations[0]
        for problem, hint in text_issues(str(message.msgid), forbidden):
            problems.append(Problem(relative(Path(path), root), line, message.context, problem, hint))
    for name in existing_catalogs(root, LANG):
        path = catalog_path(root, LANG, name)
        if oversized(path):
            continue  # check_catalogs reports it; reading it would cost seconds
        try:
            catalog = read_entries(path, LANG, root)  # the checks' fast, cached reader (i18n-safety)
        except CatalogError:
            continue  # check_catalogs reports the syntax error
        messages = [message for message in catalog if message.id]  # fuzzy strings too, as the other checks do
        texts = tuple(text or "" for message in messages
                      for text in (message.string if isinstance(message.string, tuple) else (message.string,)))
        issues = iter(_catalog_issues(texts, forbidden))
        for message in messages:
            for _text in (message.string if isinstance(message.string, tuple) else (message.string,)):
                problems.extend(Problem(relative(path, root), message.lineno, message_label(message), problem, hint)
                                for problem, hint in next(issues))
    return problems


def _catalog_issues(texts: tuple, forbidden: list[Forbidden]) -> list:
    """text_issues of every text of a catalog, from the on-disk cache when the same texts met the same forbidden
    words and code before (a pure function of these)."""
    key = key_bytes((tuple((entry.words, entry.use) for entry in forbidden), texts))
    return cached("typography", key, lambda: [text_issues(text, forbidden) for text in texts])


# Every language's catalogs: slips no language's typography allows. A language's own rules (Russian's above:
# quotes « », no-break spaces, К6, decimal comma) are keyed by its code in SPECIFIC; a language without an entry
# gets these alone, and `i18n status` says so.
GENERAL_RULES = [
    (re.compile(r"\S {2,}\S"), "two spaces in a row", "write one space"),
    (re.compile(r"\w \.(?!\.)|\w ,"), "a space before a full stop or comma", "take the space out"),
    (re.compile(r"\s$|^\s"), "a space at the start or end", "take the space out (the page adds its own)"),
]
SPECIFIC = {LANG: "Russian: « » quotes, no-break spaces before units and dashes, dice as К6, decimal comma, "
                  "translations/ru/glossary.yaml's forbidden words"}


def general_issues(text: str) -> list[tuple[str, str]]:
    """The general typography slips in one translated text, as (problem, hint) pairs."""
    # A code span or reference stands as one word here: dropping it (as shown_text does) would leave two spaces.
    shown = _REFERENCE.sub(lambda match: match.group(2) or "ref", _CODE.sub("code", text))
    issues = []
    for pattern, problem, hint in GENERAL_RULES:
        match = pattern.search(shown)
        if match:
            issues.append((f"{problem} in “…{_around(shown, match)}…”", hint))
    return issues


def check_general(root: Path, lang: str) -> list[Problem]:
    """General typography problems in every translation of one language's catalogs."""
    problems = []
    for name in existing_catalogs(root, lang):
        path = catalog_path(root, lang, name)
        if oversized(path):
            continue
        try:
            catalog = read_entries(path, lang, root)
        except CatalogError:
            continue  # i18n check reports it
        for message in catalog:
            for string in (message.string if isinstance(message.string, tuple) else (message.string,)):
                for problem, hint in (general_issues(string) if isinstance(string, str) and string else ()):
                    problems.append(Problem(relative(path, root), message.lineno, message_label(message), problem,
                                            hint))
    return problems
