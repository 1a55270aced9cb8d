"""What a reader reads holds no code and no unmarked foreign words: a check of every text a page shows.

Rules, clauses, worked examples, clarifications, the Ask form's labels and answers, and the interface
strings speak to players. They must not name code (argument, predicate or value ids, snake_case,
files, commands), and a word in another script must carry its language, `[except mounts]{lang=en}`
(generator/kb/markup.py), so a screen reader says it right. Labels, answers and interface strings are
shown as plain words and cannot carry the mark: there the word is written in the page's language.
A code span stays allowed for what a reader types into the Ask form: a known id of a text field, or
a value written as JSON, `["forest"]`. The result's own meaning (`returns: text`) is read only in the
developers' table and is not checked.

`i18n check` runs this over the source texts of the checked languages and every catalog of theirs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..core.problems import Problem, relative
from ..kb.markup import CODE, LANG_SPAN, REFERENCE
from ..kb.texts import SEPARATOR, knowledge_base_texts
from .po.catalogs import catalog_path, existing_catalogs, message_label
from .po.pofile import CatalogError
from .po.reader import read_entries

CYRILLIC_LANGS = frozenset({"ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "tg", "mn"})
LANGUAGE_NAMES = {"ru": "Russian", "en": "English"}

_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_ROMAN = re.compile(r"[IVXLCM]{2,}")  # «том II»: a numeral, not an English word
# A whole word (a run of letters and digits: «2К6», «T9A») with a letter of the script it looks for.
_LATIN_WORD = re.compile(r"[^\W_]*[A-Za-z][^\W_]*")
_CYRILLIC_WORD = re.compile(r"[^\W_]*[\u0400-\u04ff][^\W_]*")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{value\}")
_SNAKE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w-])")
_FILE = re.compile(r"(?<![\w/.-])[\w./-]*\w\.(?:ya?ml|pot?|md|py|js|json|toml|cfg|html)(?![\w])")
_COMMAND = re.compile(r"\b(?:generator\s+(?:check|site|serve|i18n)|i18n(?:\s+\w+)?|make\s+(?:test|site|serve|check|"
                      r"translations|lint|clean)|pytest|pybabel|msgfmt|mkdocs)\b", re.IGNORECASE)
_FILE_END = re.compile(r"\.(?:y|po|md|py|js|toml|cfg|html)")  # in every _FILE match, and far quicker to look for
_KEBAB = re.compile(r"(?<![\w/-])[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+(?![\w/-])")
_COMMAND_WORD = re.compile(r"generator|i18n|make|pytest|pybabel|msgfmt|mkdocs", re.IGNORECASE)  # _COMMAND's words
_NULL = re.compile(r"(?<![\w`])null(?![\w`])")  # the form says «none»; "None" is also an English word
# The quotation marks a language's reader text uses instead of a straight ": Russian has its own check
# (generator/i18n/typography.py); a language listed here gets the reader-text check's.
QUOTES = {"en": "“…” (and ‘…’ inside them)"}
QUOTE_CONTEXT = 12  # characters shown on either side of a straight quote, enough to find it in the text
FORM_HINT = "name the Ask form's field or say it in words; code belongs in YAML comments or rules/README.md"
# A character every code name, code span or foreign word needs, but a file ending, a command's word, "null",
# a kebab-case id or a language mark: without any of them a text has nothing to report (most texts).
_CLUE = {"latin": re.compile(r"[`_/\u0400-\u04ff\"]"), "cyrillic": re.compile(r"[`_/A-Za-z]")}
_COMMAND_WORDS = ("generator", "i18n", "make", "pytest", "pybabel", "msgfmt", "mkdocs")  # _COMMAND_WORD's words
_DOTTED_I = str.maketrans("İı", "ii")  # re's IGNORECASE reads both as i; casefold does not


@dataclass(frozen=True)
class Reading:
    """One text as a reader meets it: its words, language, and whether it may carry language marks."""

    text: str
    lang: str
    marks_allowed: bool  # False for labels, answers and interface strings: shown as plain words


def script_of(lang: str) -> str:
    return "cyrillic" if lang.split("-")[0] in CYRILLIC_LANGS else "latin"


def foreign_words(text: str, lang: str) -> list[str]:
    """Words of `text` written in the other script than `lang`'s (a single Latin letter is a symbol: A, x)."""
    if script_of(lang) == "cyrillic":
        if not _LATIN.search(text):  # most texts: nothing to look at word by word
            return []
        return [word for word in _LATIN_WORD.findall(text) if len(word) > 1 and not _ROMAN.fullmatch(word)]
    return _CYRILLIC_WORD.findall(text) if _CYRILLIC.search(text) else []


def _outside_code(text: str) -> str:
    """The words shown around code: references by their shown words (their targets are addresses)."""
    return _without_code(_shown_references(text))


def _shown_references(text: str) -> str:
    return REFERENCE.sub(lambda m: " " + (m.group(2) or "") + " ", text) if "[[" in text else text


def _without_code(text: str) -> str:
    return CODE.sub(" ", text) if "`" in text else text


def _without_placeholders(text: str) -> str:
    return _PLACEHOLDER.sub(" ", text) if "%(" in text or "{value}" in text else text


def _typed_input(code: str, typed_ids: frozenset) -> bool:
    """Whether a code span is something a reader types into the Ask form."""
    if code in typed_ids:
        return True
    try:
        value = json.loads(code)
    except ValueError:
        return False
    return not isinstance(value, (bool, type(None), dict))


class RuleWords:
    """What a rule's texts may not name and what its form accepts typed, with the form's words for hints."""

    def __init__(self, rule, kb_ids: frozenset):
        self.rule = rule
        self.kb_ids = kb_ids
        typed = set()
        self.arguments, self.predicates, self.values = {}, {}, {}
        for predicate in (rule.predicates if rule is not None else []):
            self.predicates[predicate.name] = SEPARATOR.join((rule.key, "predicate", predicate.name))
            for argument in predicate.args:
                at = SEPARATOR.join((rule.key, "predicate", predicate.name, "arg", argument.name))
                self.arguments.setdefault(argument.name, at)
                if argument.type in ("text", "list") and argument.values:
                    typed.update(str(value) for value in argument.values)
                for value in argument.values or []:
                    if argument.labels and str(value) in {str(k) for k in argument.labels}:
                        self.values.setdefault(str(value), SEPARATOR.join((at, "value", str(value))))
            for value in predicate.returns.values or []:
                at = SEPARATOR.join((rule.key, "predicate", predicate.name, "returns", "value", str(value)))
                if predicate.returns.labels and str(value) in {str(k) for k in predicate.returns.labels}:
                    self.values.setdefault(str(value), at)
        self.typed = frozenset(typed)


def kb_identifiers(kb) -> frozenset:
    """Every id with a hyphen or an underscore (rules, clauses, examples, arguments, values, terms)."""
    ids = set(kb.terms) | set(kb.concepts) | set(kb.rules)
    for rule in kb.rules.values():
        ids.update([rule.id] + [c.id for c in rule.clauses] + [e.id for e in rule.examples]
                   + [c.id for c in rule.clarifications])
        for predicate in rule.predicates:
            ids.add(predicate.name)
            for argument in predicate.args:
                ids.add(argument.name)
                ids.update(str(value) for value in argument.values or [])
            ids.update(str(value) for value in predicate.returns.values or [])
    return frozenset(i.casefold() for i in ids if "-" in i or "_" in i or "/" in i)


def _near(word: str, ids: Iterable[str]) -> bool:
    """A misspelt id: the same length give or take two, and at most two letters different or swapped."""
    for known in ids:
        if abs(len(known) - len(word)) <= 2 and _distance(word, known) <= 2:
            return True
    return False


def _distance(a: str, b: str) -> int:
    """Optimal string alignment distance (edits, a swap of neighbours counting as one)."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def identifiers(text: str, kb_ids: frozenset, typed: frozenset = frozenset()) -> list[str]:
    """Code names in the words a reader sees (code spans and reference targets left out)."""
    marked = LANG_SPAN.sub(r" \1 ", text) if "]{lang=" in text else text
    shown = _without_placeholders(_outside_code(marked))
    # Each pattern is tried only where the character it cannot do without is present: i18n check reads every
    # text of every language, and most hold none of them.
    found = [m.group(0) for m in _SNAKE.finditer(shown)] if "_" in shown else []
    found += [m.group(0) for m in _FILE.finditer(shown)] if _FILE_END.search(shown) else []
    found += [m.group(0) for m in _COMMAND.finditer(shown)] if _COMMAND_WORD.search(shown) else []
    found += [m.group(0) for m in _NULL.finditer(shown)] if "null" in shown else []
    if "/" in shown or shown.count("-") >= 2:
        for match in _KEBAB.finditer(shown):
            # One hyphen is an ordinary compound ("loose-formation troops"); ids of two or more, rule keys and
            # near-misses of what the form takes typed are not.
            word = match.group(0).casefold()
            if ("/" in word or word.count("-") >= 2) and (word in kb_ids or _near(word, typed)):
                found.append(match.group(0))
    return list(dict.fromkeys(found))


def reading_issues(reading: Reading, words: RuleWords, hint_words=None) -> list[tuple[str, str]]:
    """(problem, hint) for every code name, code span and unmarked foreign word in one text."""
    if not _may_have_issues(reading.text, script_of(reading.lang)):
        return []
    return _issues(reading, words, hint_words)


def _issues(reading: Reading, words: RuleWords, hint_words=None) -> list[tuple[str, str]]:
    text, lang = reading.text, reading.lang
    hint_words = hint_words or (lambda context: None)
    issues = []
    for code in dict.fromkeys(CODE.findall(_shown_references(text)) if "`" in text else ()):
        if not _typed_input(code, words.typed):
            issues.append((f"code `{code}` in a text a reader reads", _code_hint(code, words, hint_words)))
    for name in identifiers(text, words.kb_ids, words.typed):
        issues.append((f"the code name {name!r} in a text a reader reads", FORM_HINT))
    marks = [(m.group(1), m.group(2)) for m in LANG_SPAN.finditer(text)] if "]{lang=" in text else []
    if marks and not reading.marks_allowed:
        issues.append(("a language mark [...]{lang=...} in a label, answer or interface string, which shows it "
                       "as typed", f"write it in {LANGUAGE_NAMES.get(lang, lang)}"))
    for words_marked, mark_lang in marks:
        if mark_lang.split("-")[0] == lang.split("-")[0]:
            issues.append((f"[{words_marked}]{{lang={mark_lang}}} marks the text's own language",
                           "drop the mark"))
        elif script_of(mark_lang) != script_of(lang) and not foreign_words(_outside_code(words_marked), lang):
            issues.append((f"[{words_marked}]{{lang={mark_lang}}} holds no {mark_lang} words",
                           "mark only the foreign words, with their language"))
    plain = _without_placeholders(_outside_code(LANG_SPAN.sub(" ", text) if marks else text))
    if '"' in plain and lang.split("-")[0] in QUOTES:
        at = plain.index('"')
        shown = " ".join(plain[max(0, at - QUOTE_CONTEXT):at + QUOTE_CONTEXT + 1].split())
        issues.append((f"a straight quote in «…{shown}…»", f"write {QUOTES[lang.split('-')[0]]}"))
    foreign = list(dict.fromkeys(foreign_words(plain, lang)))
    if foreign:
        shown = ", ".join(f"«{word}»" for word in foreign[:6])
        language = LANGUAGE_NAMES.get(lang, lang)
        other = "en" if script_of(lang) == "cyrillic" else "ru"
        hint = (f"write it in {language}" + (f", or mark a quoted term with its language: "
                                             f"[{foreign[0]}]{{lang={other}}}" if reading.marks_allowed else
                                             " (a label, answer or interface string cannot carry a language mark)"))
        issues.append((f"words not in {language} without a language mark: {shown}", hint))
    return issues


def _may_have_issues(text: str, script: str) -> bool:
    """Whether reading_issues has anything to look at in `text` (False: it would find nothing)."""
    if _CLUE[script].search(text) or text.count("-") >= 2:
        return True
    if script == "cyrillic":  # a file ending, a command, "null" and a language mark are all Latin letters
        return False
    folded = text.translate(_DOTTED_I).casefold()
    return ("]{lang=" in text or "null" in text or ("." in text and _FILE_END.search(text) is not None)
            or any(word in folded for word in _COMMAND_WORDS))


def _code_hint(code: str, words: RuleWords, hint_words) -> str:
    if code in words.arguments:
        label = hint_words(words.arguments[code])
        return f"name the Ask form's field instead: «{label}»" if label else FORM_HINT
    if code in words.values:
        label = hint_words(words.values[code])
        return f"write the value's label instead: «{label}»" if label else FORM_HINT
    if code in words.predicates:
        label = hint_words(words.predicates[code])
        return f"name the question instead: «{label}»" if label else FORM_HINT
    return FORM_HINT


def _owner_key(context: str) -> str:
    parts = context.split(SEPARATOR)
    return SEPARATOR.join(parts[:2]) if parts[0] in ("term", "concept") else parts[0]


def _developer_only(context: str) -> bool:
    """The result's meaning: shown in the developers' table, where code names belong."""
    parts = context.split(SEPARATOR)
    return len(parts) == 4 and parts[1] == "predicate" and parts[3] == "returns"


def _plain_field(context: str) -> bool:
    """Labels and answers: shown as plain words (generator/kb/answers.py, value_types.choice_labels)."""
    parts = context.split(SEPARATOR)
    return len(parts) >= 3 and (parts[-2] == "value" or parts[-2] == "answer")


def reader_text_problems(root: Path, kb, languages: list[str]) -> list[Problem]:
    """Every code name and unmarked foreign word in the source texts of `languages` and in their catalogs."""
    root = Path(root)
    kb_ids = kb_identifiers(kb)
    texts = {text.context: text for text in knowledge_base_texts(kb, details=False)}
    rules: dict[str, RuleWords] = {}

    def rule_words(context: str) -> RuleWords:
        key = _owner_key(context)
        if key not in rules:
            rules[key] = RuleWords(kb.rules.get(key), kb_ids)
        return rules[key]

    problems = []
    for text in texts.values():
        if (text.lang not in languages or not _may_have_issues(text.source, script_of(text.lang))
                or _developer_only(text.context)):
            continue  # the quick look first: most texts go no further
        reading = Reading(text.source, text.lang, not _plain_field(text.context))
        issues = reading_issues(reading, rule_words(text.context),
                                lambda context: texts[context].source if context in texts else None)
        if issues:
            origin = kb.origins[text.origin]
            shown = relative(Path(origin.path), root)
            problems.extend(Problem(shown, origin.line(*text.path), text.context, problem, hint)
                            for problem, hint in issues)
    for lang in languages:
        problems.extend(_catalog_problems(root, lang, texts, rule_words))
    return problems


def _catalog_problems(root: Path, lang: str, texts: dict, rule_words) -> list[Problem]:
    problems, script = [], script_of(lang)
    for name in existing_catalogs(root, lang):
        path = catalog_path(root, lang, name)
        try:
            catalog = read_entries(path, lang, root)
        except CatalogError:
            continue  # check_catalogs reports the syntax error
        messages = [message for message in catalog if message.id]
        translated: dict = {}  # context -> translation, made when a hint first needs a translated label

        def translation(context: str, messages=messages, translated=translated):
            if not translated:
                translated.update((message.context, message.string) for message in messages
                                  if message.context and isinstance(message.string, str) and message.string)
            return translated.get(context)

        for message in messages:
            context = message.context
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            strings = [string for string in strings if string and _may_have_issues(string, script)]
            if not strings or context is not None and (context not in texts or _developer_only(context)):
                continue  # the quick look first: most translations go no further
            for string in strings:
                reading = Reading(string, lang, context is not None and not _plain_field(context))
                words = rule_words(context) if context is not None else RuleWords(None, frozenset())
                for problem, hint in reading_issues(reading, words, translation):
                    problems.append(Problem(relative(path, root), message.lineno, message_label(message), problem,
                                            hint))
    return problems

