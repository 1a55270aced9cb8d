"""Collect every translatable message: knowledge-base texts (generator/kb/texts.py) by context, UI strings from code."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path, PurePath

from babel.messages.extract import extract
from pydantic import ValidationError

from ..core.cache import cached
from ..core.yamlfile import YamlError, parse_yaml
from ..kb.layout import CONCEPTS_DIR, GLOSSARY_FILE, RULES_DIR, SYSTEM_FILE
from ..kb.model import Concept, Glossary, KnowledgeBase, Rule, System
from ..kb.texts import Translatable, concept_texts, knowledge_base_texts, rule_texts, system_texts, term_texts
from ..kb.urls import site_url
from .po.merge import SourceMessage

TEMPLATES = Path(__file__).resolve().parent.parent / "render" / "templates"
CODE = Path(__file__).resolve().parent.parent
UI_CATALOG = "ui"
# Must match the renderer's Environment: Markdown's {#id} is not a Jinja comment here.
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "true",
                 "comment_start_string": "{#-#", "comment_end_string": "#-#}"}
UI_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
COMMENT_TAGS = ("Translators:",)  # comments in the code that reach the translator
# A file without any of these holds no UI string: a call of a keyword (spaces allowed before its parenthesis,
# as Python allows) or a Jinja {% trans %} block.
_MAY_MARK = re.compile(rb"(?<!\w)(?:" + b"|".join(re.escape(k.encode()) for k in UI_KEYWORDS) + rb")\s*\(|\{%-?\s*trans\b")


def translator_comments(text: Translatable) -> list[str]:
    """What a catalog (and `pybabel extract`) tells translators about a text; {lang} is filled per catalog."""
    return [text.description, f"page: {site_url('{lang}', text.url)}", f"source language: {text.lang}"]


class _KnowledgeBaseMessage(SourceMessage):
    """A rule, system, glossary or concept message whose location and comments are made when first asked for.

    `i18n check` and `i18n status` never ask (but for Russian-source texts), and naming each message's
    line means reading every file's map of lines.
    """

    def __init__(self, kb: KnowledgeBase, text: Translatable):
        # Not the dataclass's __init__: `comments` and `locations` are the cached properties below.
        self.catalog, self.context, self.msgid, self.source_lang = text.catalog, text.context, text.source, text.lang
        self._text, self._origin = text, kb.origins[text.origin]

    @functools.cached_property
    def comments(self) -> list[str]:
        return translator_comments(self._text)

    @functools.cached_property
    def locations(self) -> list[tuple[str, int]]:
        return [(self._origin.path, self._origin.line(*self._text.path))]


def _message(kb: KnowledgeBase, text: Translatable) -> SourceMessage:
    return _KnowledgeBaseMessage(kb, text)


def knowledge_base_messages(kb: KnowledgeBase, details: bool = True) -> list[SourceMessage]:
    """All rule, system, glossary and concept messages in a stable order.

    Made afresh on every call (nothing is kept between calls): a command that needs them more than
    once (each language of `i18n status`, `check` and `update`) makes them once and passes them on.
    Without `details`, a rule message's comments lack its page and description: only `i18n update`
    writes comments, and working out every rule text's page address is not free.
    """
    return [_message(kb, text) for text in knowledge_base_texts(kb, details)]


def ui_messages() -> list[SourceMessage]:
    """UI strings from the Jinja templates and the generator's own code, English source."""
    found: dict[object, SourceMessage] = {}
    for path, method in ui_files():
        for line, msgid, comments, _context in ui_file_strings(path, method):
            where = (str(path.relative_to(CODE.parent)), line)
            if msgid in found:
                found[msgid].locations.append(where)
                continue
            found[msgid] = SourceMessage(UI_CATALOG, None, msgid, "en",
                                         ["interface text"] + [c for c in comments], [where])
    return list(found.values())


def ui_files() -> list[tuple[Path, str]]:
    """The files UI strings come from, each with Babel's extraction method for it."""
    files = sorted(TEMPLATES.rglob("*.md")) + sorted(TEMPLATES.rglob("*.html")) + sorted(CODE.rglob("*.py"))  # subpackages too (diagrams/)
    return [(path, "python" if path.suffix == ".py" else "jinja2.ext:babel_extract") for path in files]


def ui_file_strings(path, method: str) -> list:
    """Babel's extraction of one file, from the on-disk cache when these bytes were extracted by the same
    Babel, Jinja and keywords before (every i18n command lists the UI strings, and tokenizing is slow)."""
    data = path.read_bytes()
    if not _MAY_MARK.search(data):
        return []  # no keyword call, no {% trans %}: nothing Babel could find (most modules), so not tokenized
    return cached("ui-extract", method.encode() + b"\0" + data,
                  lambda: [tuple(found) for found in extract(method, io.BytesIO(data), keywords=UI_KEYWORDS,
                                                             comment_tags=COMMENT_TAGS, options=JINJA_OPTIONS)])


def extract_rules(fileobj, keywords, comment_tags, options):
    """Babel extractor for rule YAML (entry point `kb_rules`), so `pybabel extract` reads rule files.

    Yields `(line, "pgettext", (context, text), comments)` for every text of the file, from the same
    list (generator/kb/texts.py) `i18n update` writes the catalogs from, so `pybabel extract -F babel.cfg`
    messages carry the catalogs' stable msgctxt. What a file holds (a system, a rule, the glossary, a
    concept) is read off its path under rules/. A file that does not parse or load yields nothing:
    `generator check` names its problem.
    """
    path = PurePath(getattr(fileobj, "name", "") or "")
    try:
        document = parse_yaml(fileobj.read().decode("utf-8"))
    except (YamlError, UnicodeDecodeError):
        return
    try:
        found = list(_file_texts(path, document.data))
    except (ValidationError, TypeError, ValueError):
        return
    with_context = "pgettext" in keywords  # Babel's default keywords; without it, the text alone
    for prefix, text in found:
        message = ("pgettext", (text.context, text.source)) if with_context else (None, text.source)
        yield (document.line(prefix + text.path), *message, translator_comments(text))


def _file_texts(path: PurePath, data):
    """(origin prefix, text) of every text in one file under rules/, told apart by its place."""
    if not isinstance(data, dict):
        return
    if path.name == SYSTEM_FILE:
        system = System.model_validate(data)
        yield from (((), text) for text in system_texts(system))
    elif path.name == GLOSSARY_FILE and path.parent.name == RULES_DIR:
        glossary = Glossary.model_validate(data)
        for index, term in enumerate(glossary.terms):
            yield from ((("terms", index), text) for text in term_texts(term, term.lang or glossary.lang))
    elif path.parent.name == CONCEPTS_DIR:
        yield from (((), text) for text in concept_texts(Concept.model_validate(data)))
    elif path.parent.name:
        rule = Rule.model_validate(data)
        rule.system, rule.lang = path.parent.name, _system_lang(path.parent / SYSTEM_FILE)
        yield from (((), text) for text in rule_texts(rule))


def _system_lang(system_file: Path) -> str:
    """A rule's source language: its system's (the loader sets it the same way); "" if unreadable."""
    try:
        data = parse_yaml(Path(system_file).read_text(encoding="utf-8")).data
    except (OSError, YamlError, UnicodeDecodeError):
        return ""
    return str(data.get("lang", "")) if isinstance(data, dict) else ""
