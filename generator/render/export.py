"""The JSON export of one language (`/<lang>/api/rules.json`) and the JSON Schema that describes it.

The export's shape is declared once, as the pydantic models below: the build fills them, and the
schema published beside the data (`/<lang>/api/rules.schema.json`) is generated from the same
models, so the documentation of the format cannot drift from what is written.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from ..i18n.translate import Translations
from ..kb import urls
from ..kb.answers import answer_key
from ..kb.model import STATUSES, KnowledgeBase
from ..kb.texts import Texts, declared_parts
from ..kb.value_types import ARG_TYPES, LIST_ITEMS, MAX_ITEMS
from .values import choice_labels

# Raised when a field is removed or changes meaning; adding a field keeps the version.
SCHEMA_VERSION = 1
DATA_FILE = "api/rules.json"
SCHEMA_FILE = "api/rules.schema.json"


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportAlias(Shape):
    name: str = Field(description="Another name of the rule, as used in some edition or translation.")
    lang: str = Field(description="Language of that name (en, ru).")


class ExportSystem(Shape):
    id: str = Field(description="Stable id of the game system, the first part of a rule id.")
    name: str = Field(description="Name of the system in the export's language.")


class ExportSource(Shape):
    book: str = Field(description="The book the rule comes from, in the export's language.")
    page: Optional[int] = Field(None, description="Page of the rule in that book.")
    pages: Optional[list[int]] = Field(None, description="Pages, when the rule spans several.")
    section: Optional[str] = Field(None, description="Section name or number in the book.")
    figure: Optional[int] = Field(None, description="Number of the book's figure the rule refers to.")


class ExportClause(Shape):
    id: str = Field(description="Stable clause id; also the anchor on the rule page (`url` + '#' + id).")
    text: str = Field(description="The clause in our words, with cross-references as [[system/rule#clause|text]].")


class ExportArgument(Shape):
    name: str = Field(description="Keyword argument name, fixed by the predicate contract.")
    type: Literal[ARG_TYPES] = Field(description="Kind of value; inches, mm and degrees are numbers in those units.")  # type: ignore[valid-type]
    values: Optional[list[Union[str, int]]] = Field(
        None, description="The allowed values of a choice; for text, the known ids (any other id is accepted, "
                          "a misspelt known one is not).")
    labels: Optional[dict[str, str]] = Field(None, description="A choice value's words for readers, in the export's language.")
    nullable: bool = Field(description="Whether null (unknown / not applicable) is accepted.")
    items: Optional[str] = Field(
        None, description="A list's item type: choice (one of `values`), text, int, number, inches, bool, point, model "
                          "(a model's number from 0) or die (1 to 6); absent for a value that is not a list.")
    max_items: Optional[int] = Field(None, description="The most items a list may hold; a longer one is refused.")
    other: Optional[str] = Field(
        None, description="An open choice: the words for any value not in `values` (which is accepted as another "
                          "value); absent for a closed choice, which refuses any other value.")
    min: Optional[float] = Field(None, description="The smallest number allowed (for a list of numbers: per item).")
    max: Optional[float] = Field(None, description="The largest number allowed (for a list of numbers: per item).")
    text: str = Field(description="What the argument means, in the export's language.")


class ExportReturns(Shape):
    type: Literal[ARG_TYPES] = Field(description="Kind of the returned value, as for arguments.")  # type: ignore[valid-type]
    values: Optional[list[Union[str, int]]] = Field(None, description="The possible values of a choice.")
    labels: Optional[dict[str, str]] = Field(None, description="A choice value's words for readers, in the export's language.")
    nullable: bool = Field(description="Whether the predicate may return null.")
    text: str = Field(description="What the result means, in the export's language.")


class ExportNote(Shape):
    line: int = Field(description="Line of `code` (from 1) where a statement starts.")
    clause: str = Field(description="Id of the clause that statement applies (and what it holds, unless a statement "
                                    "inside names its own).")


class ExportPredicate(Shape):
    name: str = Field(description="Predicate name, fixed by the predicate contract.")
    clause: str = Field(description="Id of the clause the predicate encodes.")
    summary: str = Field(description="The question the predicate answers, in the export's language.")
    args: list[ExportArgument] = Field(description="Keyword arguments, in the order of the contract.")
    returns: ExportReturns
    answers: dict[str, str] = Field(
        description="What a reader is told for each result, in the export's language: keys true, false, null, empty "
                    "(an empty list), a choice value or a number as written, and 'other', a pattern where {value} "
                    "is the value in words and one group {form|form|...} holds the plural forms of the language, "
                    "in its gettext order (a list of models counts its items). Empty when the rule declares none.")
    clauses: list[ExportNote] = Field(
        description="The clause notation of `code`: the clause each noted statement applies. A traced run names, "
                    "for each test and for the return that answered, the clause of its statement; the clause of the "
                    "return decides the answer.")
    code: str = Field(description="The snippet: a restricted Python subset, run by generator/evaluate/; its "
                                  "'# clause: <id>' comments are the notation `clauses` lists.")


class ExportExample(Shape):
    id: str = Field(description="Stable example id; the anchor of its table row is 'example-' + id.")
    predicate: str = Field(description="Name of the predicate the example is run against.")
    clause: str = Field(description="Id of the clause the example illustrates.")
    name: str = Field(description="The example as one sentence, in the export's language.")
    given: dict[str, Any] = Field(description="Keyword arguments passed to the predicate.")
    expect: Any = Field(description="The answer the rule gives; numbers compare with a small tolerance.")


class ExportClarification(Shape):
    id: str = Field(description="Stable id; the anchor on the rule page is 'clarification-' + id.")
    status: Literal[tuple(STATUSES)] = Field(description="How sure the answer is: what the text says, our reading, or a note on translation.")  # type: ignore[valid-type]
    clauses: list[str] = Field(description="Ids of the clauses it clarifies.")
    question: str = Field(description="The question, in the export's language.")
    answer: str = Field(description="Our answer, in the export's language.")


class ExportRule(Shape):
    id: str = Field(description="Stable rule id, <system>/<rule>; never changes once published.")
    url: str = Field(description="Site-relative address of the rule page in the export's language.")
    title: str = Field(description="Title in the export's language (the source title when untranslated).")
    source_title: str = Field(description="Title in the rule's source language.")
    source_lang: str = Field(description="Language the rule is written in at its source (en, ru).")
    aliases: list[ExportAlias]
    system: ExportSystem
    source: ExportSource
    summary: str = Field(description="One-line summary in the export's language.")
    clauses: list[ExportClause]
    predicates: list[ExportPredicate]
    examples: list[ExportExample]
    clarifications: list[ExportClarification]
    see_also: list[str] = Field(description="Ids of related rules (see `id`).")


class ExportTerm(Shape):
    id: str = Field(description="Stable term id; the anchor on the glossary page.")
    term: str = Field(description="The term in the export's language.")
    source_term: str = Field(description="The term as the rules' source language writes it.")
    source_lang: str = Field(description="That source language.")
    systems: list[str] = Field(description="Ids of the systems that use the term.")
    meaning: str = Field(description="One-line meaning in our words; the full text is not in the knowledge base.")


class Export(Shape):
    """Every rule and glossary term of the knowledge base in one language."""

    schema_version: int = Field(description="Format version; raised only by incompatible changes.")
    lang: str = Field(description="Language of the translated texts (en, ru).")
    rules: list[ExportRule] = Field(description="Every rule, sorted by id.")
    glossary: list[ExportTerm] = Field(description="Every glossary term, sorted by id.")


def _translator(texts: Texts, tr: Translations):
    """text(owner, *field): a field's text in the language of `tr`, translated where a translation exists."""

    def text(owner, *field):
        source = texts.get(owner, *field)
        return tr.text(source.context, source.source, source.lang).value

    return text


def _rule_entry(kb: KnowledgeBase, tr: Translations, texts: Texts, rule) -> ExportRule:
    """The export entry of one rule: it reads nothing but the rule, its system and the language's texts."""
    text = _translator(texts, tr)

    def labels(declared, *field):
        return choice_labels(declared, texts.get(rule, *field).context, tr, rule.lang) or None

    system = kb.systems[rule.system]
    return ExportRule(
        id=rule.key, url=urls.site_url(tr.lang, urls.rule_url(rule.key)),
        title=text(rule, "title"), source_title=rule.title, source_lang=rule.lang,
        aliases=[ExportAlias(name=alias.name, lang=alias.lang) for alias in rule.aliases],
        system=ExportSystem(id=system.id, name=text(system, "name")),
        source=ExportSource(book=text(system, "book"),
                            **rule.source.model_dump(exclude_none=True)),
        summary=text(rule, "summary"),
        clauses=[ExportClause(id=c.id, text=text(rule, "clause", c.id))
                 for c in rule.clauses],
        predicates=[ExportPredicate(
            name=p.name, clause=p.clause, code=p.code,
            summary=text(rule, "predicate", p.name),
            args=[ExportArgument(name=a.name, type=a.type, values=a.values, nullable=a.nullable,
                                 items=a.items if a.type == "list" else LIST_ITEMS.get(a.type),
                                 max_items=MAX_ITEMS if a.type == "list" or a.type in LIST_ITEMS else None,
                                 other=text(rule, *declared_parts(p.name, a.name), "other") if a.other else None,
                                 min=a.min, max=a.max,
                                 labels=labels(a, *declared_parts(p.name, a.name)),
                                 text=text(rule, *declared_parts(p.name, a.name)))
                  for a in p.args],
            returns=ExportReturns(type=p.returns.type, values=p.returns.values, nullable=p.returns.nullable,
                                  labels=labels(p.returns, *declared_parts(p.name)),
                                  text=text(rule, *declared_parts(p.name))),
            answers={answer_key(key): text(rule, *declared_parts(p.name), "answer", answer_key(key))
                     for key in (p.returns.answers or {})},
            clauses=[ExportNote(line=line, clause=clause) for line, clause in p.snippet.notation.statement_lines()]
            if p.snippet is not None else [],
        ) for p in rule.predicates],
        examples=[ExportExample(id=e.id, predicate=e.predicate, clause=e.clause, given=e.given, expect=e.expect,
                                name=text(rule, "example", e.id))
                  for e in rule.examples],
        clarifications=[ExportClarification(
            id=c.id, status=c.status, clauses=c.clauses,
            question=text(rule, "clarification", c.id, "question"),
            answer=text(rule, "clarification", c.id, "answer"),
        ) for c in rule.clarifications],
        see_also=rule.see_also,
    )


def _glossary(kb: KnowledgeBase, tr: Translations, texts: Texts) -> list[ExportTerm]:
    text = _translator(texts, tr)
    return [ExportTerm(id=t.id, term=text(t, "term"), source_term=t.term, source_lang=kb.term_lang(t),
                       systems=t.systems, meaning=text(t, "meaning"))
            for t in sorted(kb.terms.values(), key=lambda t: t.id)]


def export_data(kb: KnowledgeBase, tr: Translations) -> Export:
    """The export for one language; texts are translated where a translation exists."""
    texts = Texts(kb)
    return Export(schema_version=SCHEMA_VERSION, lang=tr.lang,
                  rules=[_rule_entry(kb, tr, texts, kb.rules[key]) for key in sorted(kb.rules)],
                  glossary=_glossary(kb, tr, texts))


# Sorted keys and a trailing newline: the same input gives byte-identical files.
JSON_STYLE = {"ensure_ascii": False, "indent": 1, "sort_keys": True}


def _dump(data) -> str:
    return json.dumps(data, **JSON_STYLE) + "\n"


RULES_MARK = '\n "rules": []'  # the rules list in the dump of an export without rules, where each rule's text goes


class LanguageExport:
    """The export of one language kept as one JSON text per rule, so `make serve` redoes only edited rules."""

    def __init__(self, kb: KnowledgeBase, tr: Translations, rules: dict[str, str] | None = None,
                 frame: str | None = None):
        texts = Texts(kb)
        self.rules = rules if rules is not None else {
            key: self._rule_json(kb, tr, texts, key) for key in kb.rules}  # rule key -> its text in the list
        # Everything but the rules: schema version, language, the glossary (rules read no term and no other rule).
        self.frame = frame if frame is not None else _dump(
            Export(schema_version=SCHEMA_VERSION, lang=tr.lang, rules=[], glossary=_glossary(kb, tr, texts))
            .model_dump(mode="json"))

    @staticmethod
    def _rule_json(kb, tr, texts, key) -> str:
        # json.dumps indents nested values by depth; a rule sits two levels deep (object -> "rules" list).
        return "  " + json.dumps(_rule_entry(kb, tr, texts, kb.rules[key]).model_dump(mode="json"),
                                 **JSON_STYLE).replace("\n", "\n  ")

    def updated(self, kb: KnowledgeBase, tr: Translations, keys: set[str]) -> "LanguageExport":
        """This export with the rules `keys` made again from `kb` (the same rules, edited); self is unchanged."""
        texts = Texts(kb)
        return LanguageExport(kb, tr, {key: self._rule_json(kb, tr, texts, key) if key in keys else text
                                       for key, text in self.rules.items()}, self.frame)

    def json(self) -> str:
        if not self.rules:
            return self.frame
        listed = ",\n".join(self.rules[key] for key in sorted(self.rules))
        return self.frame.replace(RULES_MARK, '\n "rules": [\n' + listed + "\n ]", 1)

    def files(self) -> dict[str, str]:
        """The files of the export for one language, by path under the language's folder."""
        return {DATA_FILE: self.json(), SCHEMA_FILE: export_schema()}


def export_json(kb: KnowledgeBase, tr: Translations) -> str:
    return LanguageExport(kb, tr).json()


@functools.cache  # the models never change in a running process
def export_schema() -> str:
    """JSON Schema (draft 2020-12) of rules.json, generated from the models above."""
    schema = Export.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Rules knowledge base export",
              **schema}
    return _dump(schema)


def export_files(kb: KnowledgeBase, tr: Translations) -> dict[str, str]:
    """The files of the export for one language, by path under the language's folder."""
    return LanguageExport(kb, tr).files()
