"""Collect every translatable message: rule text by stable context, UI strings from templates and code."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..model import KnowledgeBase, Rule
from ..urls import rule_url, site_url
from ..yamlfile import YamlError, parse_yaml

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
CODE = Path(__file__).resolve().parent.parent
UI_CATALOG = "ui"
# Must match the renderer's Environment: Markdown's {#id} is not a Jinja comment here.
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "true",
                 "comment_start_string": "{#-#", "comment_end_string": "#-#}"}
UI_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
COMMENT_TAGS = ("Translators:",)  # comments in the code that reach the translator


@dataclass
class SourceMessage:
    """One source-language string, with the context a translator needs."""

    catalog: str  # "rules/t9a/scout", "rules/glossary", "ui"
    context: Optional[str]  # stable id: "t9a/scout:clause:placement"; None for UI strings
    msgid: object  # str, or (singular, plural) for plural UI strings
    source_lang: str
    comments: list[str] = field(default_factory=list)
    locations: list[tuple[str, int]] = field(default_factory=list)

    @property
    def key(self):
        return self.context if self.context is not None else self.msgid


def rule_messages(kb: KnowledgeBase, rule: Rule) -> list[SourceMessage]:
    origin = kb.origins[rule.key]
    catalog = f"rules/{rule.key}"
    page = site_url("{lang}", rule_url(rule.key))
    messages = []

    def add(suffix, text, path, what, anchor=""):
        comments = [f"{rule.key} · {what}", f"page: {page}{anchor}", f"source language: {rule.lang}"]
        messages.append(SourceMessage(catalog, f"{rule.key}:{suffix}", text, rule.lang, comments,
                                      [(origin.path, origin.line(*path))]))

    add("title", rule.title, ("title",), "title")
    add("summary", rule.summary, ("summary",), "one-line summary")
    for index, clause in enumerate(rule.clauses):
        add(f"clause:{clause.id}", clause.text, ("clauses", index, "text"), f"clause {clause.id}", f"#{clause.id}")
    for index, predicate in enumerate(rule.predicates):
        anchor = f"#predicate-{predicate.name}"
        add(f"predicate:{predicate.name}", predicate.summary, ("predicates", index, "summary"),
            f"predicate {predicate.name}: what it answers", anchor)
        for number, argument in enumerate(predicate.args):
            add(f"predicate:{predicate.name}:arg:{argument.name}", argument.text,
                ("predicates", index, "args", number, "text"),
                f"predicate {predicate.name}: meaning of argument {argument.name} ({argument.type})", anchor)
            for value, label in (argument.labels or {}).items():
                add(f"predicate:{predicate.name}:arg:{argument.name}:value:{value}", label,
                    ("predicates", index, "args", number, "labels", value),
                    f"predicate {predicate.name}: label of the value {value} of argument {argument.name}", anchor)
        add(f"predicate:{predicate.name}:returns", predicate.returns.text, ("predicates", index, "returns", "text"),
            f"predicate {predicate.name}: meaning of its result ({predicate.returns.type})", anchor)
        for value, label in (predicate.returns.labels or {}).items():
            add(f"predicate:{predicate.name}:returns:value:{value}", label,
                ("predicates", index, "returns", "labels", value),
                f"predicate {predicate.name}: label of the result value {value}", anchor)
    for index, example in enumerate(rule.examples):
        add(f"example:{example.id}", example.name, ("examples", index, "name"),
            f"worked example {example.id} ({example.predicate}, given {example.given} → {example.expect!r})",
            f"#example-{example.id}")
    for index, clarification in enumerate(rule.clarifications):
        anchor = f"#clarification-{clarification.id}"
        add(f"clarification:{clarification.id}:question", clarification.question,
            ("clarifications", index, "question"), f"clarification {clarification.id}: question", anchor)
        add(f"clarification:{clarification.id}:answer", clarification.answer,
            ("clarifications", index, "answer"), f"clarification {clarification.id}: answer ({clarification.status})",
            anchor)
    return messages


_LAST_MESSAGES: list = [None, None]  # (knowledge base, its messages): check and status ask once per language


def knowledge_base_messages(kb: KnowledgeBase) -> list[SourceMessage]:
    """All rule, system, glossary and concept messages in a stable order (computed once per loaded base)."""
    if _LAST_MESSAGES[0] is not kb:
        _LAST_MESSAGES[:] = [kb, _knowledge_base_messages(kb)]
    return _LAST_MESSAGES[1]


def _knowledge_base_messages(kb: KnowledgeBase) -> list[SourceMessage]:
    messages = []
    for system_id in sorted(kb.systems):
        system = kb.systems[system_id]
        origin = kb.origins[system_id]
        for field_name in ("name", "book"):
            messages.append(SourceMessage(
                f"rules/{system_id}/_system", f"{system_id}:{field_name}", getattr(system, field_name), system.lang,
                [f"system {system_id} · {field_name}", f"page: /{{lang}}/{system_id}/", f"source language: {system.lang}"],
                [(origin.path, origin.line(field_name))]))
        for rule in kb.rules_of(system_id):
            messages.extend(rule_messages(kb, rule))
    for term_id in sorted(kb.terms):
        term = kb.terms[term_id]
        origin = kb.origins[f"term:{term_id}"]
        lang = kb.term_lang(term)
        for field_name in ("term", "meaning"):
            messages.append(SourceMessage(
                "rules/glossary", f"term:{term_id}:{field_name}", getattr(term, field_name), lang,
                [f"glossary term {term_id} · {field_name}", f"page: /{{lang}}/glossary/#{term_id}",
                 f"source language: {lang}"], [(origin.path, origin.line(field_name))]))
    for concept_id in sorted(kb.concepts):
        concept = kb.concepts[concept_id]
        origin = kb.origins[f"concept:{concept_id}"]
        catalog = f"rules/concepts/{concept_id}"
        base = [f"page: /{{lang}}/concepts/{concept_id}/", f"source language: {concept.lang}"]

        def add(suffix, text, path, what):
            messages.append(SourceMessage(catalog, f"concept:{concept_id}:{suffix}", text, concept.lang,
                                          [f"concept {concept_id} · {what}"] + base, [(origin.path, origin.line(*path))]))

        add("title", concept.title, ("title",), "title")
        add("summary", concept.summary, ("summary",), "summary")
        if concept.intro:
            add("intro", concept.intro, ("intro",), "introduction")
        for row_index, row in enumerate(concept.rows):
            add(f"row:{row.id}", row.label, ("rows", row_index, "label"), f"row label {row.id}")
            # A cell is identified by its row and column, so pointing it at another clause keeps its translation.
            for cell_index, (column, cell) in enumerate(zip(concept.columns, row.cells)):
                add(f"cell:{row.id}:{column}", cell.text, ("rows", row_index, "cells", cell_index, "text"),
                    f"cell of row {row.id} for {column} (summarises {cell.ref})")
    return messages


def ui_messages() -> list[SourceMessage]:
    """UI strings from the Jinja templates and the generator's own code, English source."""
    found: dict[object, SourceMessage] = {}
    files = sorted(TEMPLATES.rglob("*.md")) + sorted(TEMPLATES.rglob("*.html")) + sorted(CODE.rglob("*.py"))  # subpackages too (diagrams/)
    for path in files:
        method = "python" if path.suffix == ".py" else "jinja2.ext:babel_extract"
        for line, msgid, comments, _context in _extracted(path, method):
            where = (str(path.relative_to(CODE.parent)), line)
            if msgid in found:
                found[msgid].locations.append(where)
                continue
            found[msgid] = SourceMessage(UI_CATALOG, None, msgid, "en",
                                         ["interface text"] + [c for c in comments], [where])
    return list(found.values())


_EXTRACTOR: list[str] = []  # the versions and options that extraction depends on, worked out once per process


def _extracted(path, method: str) -> list:
    """Babel's extraction of one file, from the on-disk cache when these bytes were extracted by the same
    Babel, Jinja and keywords before (every i18n command lists the UI strings: ~1 s for ~250 files)."""
    import io
    from importlib.metadata import version

    from babel.messages.extract import extract

    from ..diskcache import cached

    if not _EXTRACTOR:
        _EXTRACTOR.append(f"{version('babel')} {version('jinja2')} {UI_KEYWORDS} {JINJA_OPTIONS} {COMMENT_TAGS}")
    data = path.read_bytes()
    return cached("ui-extract", _EXTRACTOR[0], method.encode() + b"\0" + data,
                  lambda: [tuple(found) for found in extract(method, io.BytesIO(data), keywords=UI_KEYWORDS,
                                                             comment_tags=COMMENT_TAGS, options=JINJA_OPTIONS)])


def extract_rules(fileobj, keywords, comment_tags, options):
    """Babel extractor for rule YAML (entry point `kb_rules`), so `pybabel extract` reads rule files.

    Yields (line, funcname, message, comments); the stable context goes into the comments
    because Babel's extractor protocol has no separate context slot for non-Python sources.
    """
    try:
        document = parse_yaml(fileobj.read().decode("utf-8"))
    except (YamlError, UnicodeDecodeError):
        return
    data = document.data
    if not isinstance(data, dict):
        return

    def walk(value, path):
        if isinstance(value, dict):
            for key, child in value.items():
                yield from walk(child, path + (key,))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                yield from walk(child, path + (index,))
        elif isinstance(value, str) and path and path[-1] in _TEXT_KEYS and not _skip(path):
            yield document.line(path), None, value, [".".join(str(p) for p in path)]

    yield from walk(data, ())


_TEXT_KEYS = {"title", "summary", "text", "name", "question", "answer", "term", "meaning", "book", "label", "intro"}


def _skip(path) -> bool:
    # Predicate and argument names and alias names are identifiers, not prose.
    return "aliases" in path or (path[-1] == "name" and path[0] == "predicates")
